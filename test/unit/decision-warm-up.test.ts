// The orchestrator's rehearsal of a re-split decision while the ranks set up (decision-warm-up.ts): it runs propose and
// commit through on the run's own grid and split, by counts and by time, and leaves the run's balancing as it was.
import { describe, expect, it } from 'vitest';
import { rehearseDecision } from '../../src-main/cluster/orchestrator/decision-warm-up.js';
import { BalanceCoordinator } from '../../src-main/cluster/orchestrator/balance-coordinator.js';
import type { RunAssembler } from '../../src-main/cluster/orchestrator/run-assembler.js';
import type { OrchestratorChannel } from '../../src-main/cluster/transport/orchestrator-channel.js';
import { decompose } from '../../src-main/cluster/decomposition/index.js';
import { buildTables } from '../../src-main/solver/tables.js';
import type { Grid } from '../../src-main/cluster/decomposition/types.js';
import { presetCase } from '../physics/harness.js';

describe('rehearsing a re-split decision', () => {
  it.each(['slab', 'rcb', 'block'] as const)('%s on 4 ranks: the blocks propose and the cells commit a split, by counts and by time', (method) => {
    const grid: Grid = [48, 24, 6];
    const d = decompose(method, grid, 4);
    for (const byTime of [false, true]) {
      const r = rehearseDecision(d, byTime, 300);
      expect(r).toMatchObject({ proposed: true, committed: true });
      expect(r.seconds).toBeGreaterThan(0);
    }
  });

  it('leaves the coordinator\'s split, events and back-off as they were, and counts its seconds apart', () => {
    const grid: Grid = [48, 24, 6];
    const kase = presetCase('collide-box', [`grid.cells=[${grid.join(',')}]`]);
    const d = decompose('rcb', grid, 4);
    const channel = { on: () => () => undefined, send: async () => undefined } as unknown as OrchestratorChannel;
    const assembler = { rankSubdomains: [], fields: { samples: 0 } } as unknown as RunAssembler;
    const coordinator = new BalanceCoordinator(kase, buildTables(kase), d, 10, assembler, channel);
    coordinator.setAdapters(false);
    const before = { boxes: structuredClone(coordinator.decomposition.boxes), policy: { ...coordinator.policy } };
    expect(coordinator.rehearse()).toMatchObject({ proposed: true, committed: true });
    expect(coordinator.decomposition.boxes).toEqual(before.boxes);
    expect(coordinator.policy).toEqual(before.policy);
    expect(coordinator.events).toEqual([]);
    expect(coordinator.checks).toBe(0);
    expect(coordinator.parts.rehearsalSeconds).toBeGreaterThan(0);
    expect(coordinator.parts.commitSeconds).toBe(0);
    expect(coordinator.seconds).toBe(0);
  });
});
