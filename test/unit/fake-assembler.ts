// The parts of a RunAssembler the orchestrator's balancing reads (balance-coordinator tests): the last submit's
// numbers, which the test sets, and the ranks' subdomains, which the coordinator sets as the ranks take re-splits.
import { subdomainOf } from '../../src-main/solver/subdomain.js';
import type { Decomposition } from '../../src-main/cluster/decomposition/types.js';

/** A stand-in assembler for 4 ranks on `d`, with submits of `steps` steps. */
export function fakeAssembler(d: Decomposition, steps: number) {
  return {
    lastSubmit: { gpuSeconds: [0, 0, 0, 0], particleSteps: [0, 0, 0, 0], steps },
    loadNonUniformity: [] as { step: number; percent: number }[],
    particlesPerRank: [0, 0, 0, 0],
    fields: { samples: 0 },
    rankSubdomains: d.boxes.map((_, r) => subdomainOf(d, r)),
    setSubdomains(s: unknown) { this.rankSubdomains = s as never; },
  };
}
