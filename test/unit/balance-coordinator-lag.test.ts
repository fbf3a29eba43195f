// The orchestrator's side of balancing as the ranks see it (BalanceCoordinator by counts, as on CI's software ranks):
// the ranks send their block sums after every submit and take the go after submit k at the end of submit k + 1, so a
// check's round of every cell and its re-split go a submit apart and no rank waits for a decision; a checkpoint keeps the go after its submit, and a coordinator resumed from it
// sends the gos and makes the re-splits of the run left alone. The ranks are played by the test through the
// coordinator's channel (their answers as the transport hands them over): the decisions are the real ones.
import { describe, expect, it } from 'vitest';
import { BalanceCoordinator, type KeptGo } from '../../src-main/cluster/orchestrator/balance-coordinator.js';
import type { RunAssembler } from '../../src-main/cluster/orchestrator/run-assembler.js';
import type { RebalanceEvent, RebalancePolicyState } from '../../src-main/cluster/orchestrator/rebalancer.js';
import type { OrchestratorChannel } from '../../src-main/cluster/transport/orchestrator-channel.js';
import { coarseGridWithBlock, coarseSumsOf, packCoarseSums } from '../../src-main/cluster/decomposition/coarse-grid.js';
import { decompose } from '../../src-main/cluster/decomposition/index.js';
import { loadNonUniformity } from '../../src-main/cluster/decomposition/load.js';
import { buildTables } from '../../src-main/solver/tables.js';
import type { Decomposition, Grid } from '../../src-main/cluster/decomposition/types.js';
import { presetCase } from '../physics/harness.js';
import { fakeAssembler } from './fake-assembler.js';

const grid: Grid = [40, 4, 4];
const STEPS = 20;
const SUBMITS = 12;

/** Particles in a cell of plane x at submit k: piled up towards x = 0, the pile moving on as the run goes. */
const countAt = (x: number, k: number) => 1 + Math.max(0, 30 - Math.abs(x - 2 * k));

/** Every rank's cell counts (local order) over a decomposition at submit k. */
function countsOf(d: Decomposition, k: number): Uint32Array[] {
  return d.boxes.map((box) => {
    const out: number[] = [];
    for (let z = box.lo[2]; z < box.hi[2]; z++) for (let y = box.lo[1]; y < box.hi[1]; y++) for (let x = box.lo[0]; x < box.hi[0]; x++) out.push(countAt(x, k));
    return Uint32Array.from(out);
  });
}

/** A go as the ranks get it (index, what it asks, the split it carries). */
interface SentGo {
  index: number;
  cellState?: string;
  decomposition: Decomposition | null;
  sendsTo?: number[][];
}

/** What a run's process did: the gos it sent (rank 0's copy), the layouts and kept gos of its settled submits. */
interface Played {
  gos: SentGo[];
  settled: { index: number; boxes: string; kept: KeptGo | null; events: RebalanceEvent[]; policy: RebalancePolicyState }[];
  events: RebalanceEvent[];
}

/**
 * Plays one process of a run on 4 slab ranks: submits `first` .. SUBMITS - 1 (numbered from 0 in the process), the
 * ranks taking each go a submit after it (a resumed process takes `resume.kept` at the end of its first submit);
 * `checkpointAt`: the run's submits that end with a checkpoint.
 */
function play(first: number, checkpointAt: readonly number[], resume?: { d: Decomposition; events: RebalanceEvent[]; policy: RebalancePolicyState; kept: KeptGo | null }): Played {
  const kase = presetCase('collide-box', [`grid.cells=[${grid.join(',')}]`]);
  let layout = resume?.d ?? decompose('slab', grid, 4);
  const handlers = new Map<string, (m: unknown) => void>();
  const gos: SentGo[] = [];
  const channel = {
    on: (type: string, handler: (m: unknown) => void) => { handlers.set(type, handler); return () => undefined; },
    send: async (rank: number, message: Record<string, unknown>) => {
      if (rank === 0 && message.type === 'go') {
        gos.push({ index: message.index as number, cellState: message.cellState as string | undefined, decomposition: message.decomposition as Decomposition | null, sendsTo: message.sendsTo as number[][] | undefined });
      }
    },
  } as unknown as OrchestratorChannel;
  const assembler = fakeAssembler(layout, STEPS);
  const settled: Played['settled'] = [];
  const coordinator: BalanceCoordinator = new BalanceCoordinator(kase, buildTables(kase), layout, 10, assembler as unknown as RunAssembler, channel,
    (index, d, kept) => settled.push({ index, boxes: JSON.stringify(d.boxes), kept, events: structuredClone(coordinator.events), policy: coordinator.policy }),
    resume?.events ?? [], STEPS * SUBMITS, resume?.policy, resume?.kept);
  coordinator.setAdapters(true);
  /** Every rank's cell state of now, at submit k of the run, under `index`: its block sums, or every cell's count. */
  const cellState = (index: number, kind: 'coarse' | 'full', k: number) => countsOf(layout, k).forEach((c, rank) => {
    const frame = kind === 'coarse' ? packCoarseSums(coarseSumsOf(c, layout.boxes[rank], coarseGridWithBlock(grid, coordinator.block))) : c;
    handlers.get('cell-state')!({ rank, message: { type: 'cell-state', rank, index, kind, frameBytes: [] }, frames: [new Uint8Array(frame.buffer, frame.byteOffset, frame.byteLength)] });
  });
  /** The ranks take a go at the end of submit k of the run: answer its round with the counts of now, or move to its split. */
  const take = (go: { index: number; cellState?: string; decomposition: Decomposition | null }, k: number) => {
    if (go.cellState) cellState(go.index, 'full', k);
    else if (go.decomposition) layout = go.decomposition;
  };
  for (let k = first; k < SUBMITS; k++) {
    const index = k - first;
    // the submit's statistics merged (the ranks send them first), then each rank takes the go after the submit before
    const P = countsOf(layout, k).map((c) => c.reduce((a, b) => a + b, 0));
    assembler.particlesPerRank = P;
    assembler.lastSubmit.particleSteps = P.map((p) => STEPS * p);
    assembler.loadNonUniformity.push({ step: STEPS * (k + 1), percent: loadNonUniformity(P) });
    coordinator.merged(index, STEPS * (k + 1), checkpointAt.includes(k));
    cellState(index, 'coarse', k);
    if (index === 0) {
      if (resume?.kept) take({ index: -1, ...resume.kept.go }, k);
      continue;
    }
    const go = gos.find((g) => g.index === index - 1);
    expect(go, `the go after submit ${index - 1} went out before the ranks' end of submit ${index}`).toBeDefined();
    take(go!, k);
  }
  return { gos, settled, events: coordinator.events };
}

describe('the ranks take each go a submit later; checkpoints keep the go in flight', () => {
  it('a check\'s round of every cell and its re-split go a submit apart, each go out before the ranks want it', () => {
    const run = play(0, []);
    // the first submit's UN and block sums ask for every cell in the go after it, answered at the end of submit 1; the
    // split in the next go, taken at the end of submit 2
    expect(run.gos.slice(0, 2).map((g) => g.cellState ?? (g.decomposition ? 'split' : 'go'))).toEqual(['full', 'split']);
    expect(run.events.length).toBeGreaterThan(0);
    expect(run.events[0].step).toBe(STEPS * 3);
    // the layout settled after submit 2 is the new split, the one after submit 1 still the first
    const boxesAfter = (k: number) => run.settled.find((s) => s.index === k)!.boxes;
    expect(boxesAfter(1)).toBe(JSON.stringify(decompose('slab', grid, 4).boxes));
    expect(boxesAfter(2)).toBe(JSON.stringify(run.gos[1].decomposition!.boxes));
    // the split balances the counts it was made from
    expect(run.events[0].unAfter!).toBeLessThan(run.events[0].unBefore);
    // the split's go says what each rank sends each other (the ranks ready their links as it arrives): whole
    // particles, none to itself, as many in all as the split moves; a go without a split says nothing of it
    const sends = run.gos[1].sendsTo!;
    expect(sends.length).toBe(4);
    for (const [r, row] of sends.entries()) {
      expect(row.length).toBe(4);
      expect(row[r]).toBe(0);
      for (const n of row) expect(Number.isInteger(n) && n >= 0).toBe(true);
    }
    expect(sends.flat().reduce((a, b) => a + b, 0)).toBe(run.events[0].moved);
    expect(sends.flat().some((n) => n > 0)).toBe(true);
    expect(run.gos[0].sendsTo).toBeUndefined();
  });

  it.each([0, 1, 2, 3, 4, 6])('a run resumed from the checkpoint after submit %i sends the gos and makes the re-splits of the run left alone', (c) => {
    const alone = play(0, []);
    const checkpointed = play(0, [c]);
    // a checkpoint changes no decision
    expect(checkpointed.gos).toEqual(alone.gos);
    expect(checkpointed.events).toEqual(alone.events);
    const at = checkpointed.settled.find((s) => s.index === c)!;
    expect(at.kept).not.toBeNull();
    const resumed = play(c + 1, [], { d: { method: 'slab', grid, boxes: JSON.parse(at.boxes) }, events: at.events, policy: at.policy, kept: at.kept });
    // the kept go is the go after submit c; the resumed process's go j is the run's go c + 1 + j
    const asSent = (g: SentGo) => ({ cellState: g.cellState, decomposition: g.decomposition });
    expect({ cellState: at.kept!.go.cellState, decomposition: at.kept!.go.decomposition }).toEqual(asSent(alone.gos[c]));
    expect(resumed.gos.map(asSent)).toEqual(alone.gos.slice(c + 1).map(asSent));
    expect(resumed.events).toEqual(alone.events);
  });
});
