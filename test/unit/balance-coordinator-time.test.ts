// The orchestrator's side of balancing by time (BalanceCoordinator on GPU ranks, which CI's software ranks never take):
// which submits it judges, the cost model it fits from the ranks' GPU seconds and block sums of squared counts, and the
// re-split it answers with. The ranks are played by the test through the coordinator's channel (their messages as the
// transport hands them over), so the decisions are the real ones; only the transport is not.
import { describe, expect, it } from 'vitest';
import { BalanceCoordinator } from '../../src-main/cluster/orchestrator/balance-coordinator.js';
import type { RunAssembler } from '../../src-main/cluster/orchestrator/run-assembler.js';
import type { OrchestratorChannel } from '../../src-main/cluster/transport/orchestrator-channel.js';
import { coarseGridWithBlock, coarseSumsOf, packCoarseSums } from '../../src-main/cluster/decomposition/coarse-grid.js';
import { decompose } from '../../src-main/cluster/decomposition/index.js';
import { loadNonUniformity } from '../../src-main/cluster/decomposition/load.js';
import { boxWeight } from '../../src-main/cluster/decomposition/box.js';
import { buildTables } from '../../src-main/solver/tables.js';
import type { Decomposition, Grid } from '../../src-main/cluster/decomposition/types.js';
import { presetCase } from '../physics/harness.js';
import { fakeAssembler } from './fake-assembler.js';

const grid: Grid = [40, 4, 4];
/** Particles in a cell of plane x: 2 to 41, so that the ranks' particles and squared counts differ in proportion. */
const countAt = (x: number) => 2 + x;
/** The true cost: 1e-10 s a particle-step and 4e-12 s per squared count a step (a cell of n weighs n + 0.04 n^2). */
const A = 1e-10, C = 4e-12;
const STEPS = 50;

/** Every rank's cell counts (local order) over a decomposition. */
function countsOf(d: Decomposition): Uint32Array[] {
  return d.boxes.map((box) => {
    const out: number[] = [];
    for (let z = box.lo[2]; z < box.hi[2]; z++) for (let y = box.lo[1]; y < box.hi[1]; y++) for (let x = box.lo[0]; x < box.hi[0]; x++) out.push(countAt(x));
    return Uint32Array.from(out);
  });
}

/** The coordinator with four ranks on slabs, a fake channel that records what it sends, and the last submit's numbers it reads. */
function setUp() {
  const kase = presetCase('collide-box', [`grid.cells=[${grid.join(',')}]`]);
  const d = decompose('slab', grid, 4);
  const sent: { rank: number; message: Record<string, unknown>; frames: unknown[] }[] = [];
  let cellState: ((m: unknown) => void) | undefined;
  const channel = {
    on: (type: string, handler: (m: unknown) => void) => { if (type === 'cell-state') cellState = handler; return () => undefined; },
    send: async (rank: number, message: Record<string, unknown>, frames: unknown[] = []) => { sent.push({ rank, message, frames }); },
  } as unknown as OrchestratorChannel;
  const assembler = fakeAssembler(d, STEPS);
  const coordinator = new BalanceCoordinator(kase, buildTables(kase), d, 10, assembler as unknown as RunAssembler, channel);
  coordinator.setAdapters(false);
  /** A submit of the ranks on `dec` merged after `step`: its GPU seconds by the true cost. */
  const submit = (index: number, step: number, dec: Decomposition) => {
    const counts = countsOf(dec);
    const P = counts.map((c) => c.reduce((a, b) => a + b, 0));
    const Q = counts.map((c) => c.reduce((a, b) => a + b * b, 0));
    assembler.lastSubmit.gpuSeconds = P.map((p, r) => STEPS * (A * p + C * Q[r]));
    assembler.lastSubmit.particleSteps = P.map((p) => STEPS * p);
    assembler.particlesPerRank = P;
    assembler.loadNonUniformity.push({ step, percent: loadNonUniformity(P) });
    sent.length = 0;
    coordinator.merged(index, step);
  };
  /** The ranks' block sums after submit `index` ('coarse'), or their answers to the go after it asking for every cell ('full'), on `dec`. */
  const answer = async (index: number, dec: Decomposition, what: 'coarse' | 'full') => {
    const counts = countsOf(dec);
    sent.length = 0;
    counts.forEach((c, rank) => {
      const frames = what === 'coarse'
        ? [packCoarseSums(coarseSumsOf(c, dec.boxes[rank], coarseGridWithBlock(grid, coordinator.block)))]
        : [c];
      cellState!({ rank, message: { type: 'cell-state', rank, index, kind: what, frameBytes: [] }, frames: frames.map((f) => new Uint8Array(f.buffer, f.byteOffset, f.byteLength)) });
    });
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { d, sent, coordinator, submit, answer };
}

/**
 * Where the submits of the test below end: late in a long run, so that the first split has lasted long enough for a
 * new one to pay twice over within that horizon (the horizon by age, rebalancer.ts left()): these few thousand
 * particles gain some 3000 particle-steps a step from a split, against a re-split's fixed 0.15 s at 1e10
 * particle-steps a GPU second.
 */
const LATE = 10_000_000;

describe('balancing by time, the orchestrator\'s side', () => {
  it('judges no first submit, fits n + 0.04 n^2 from the ranks\' seconds, evens the priced loads, and skips the submit after a re-split', async () => {
    const { d, sent, coordinator, submit, answer } = setUp();
    expect(coordinator.by).toBe('time');
    // the first submit: its seconds hold the start-up's sort, so plain goes (its block sums are not wanted)
    submit(0, LATE + 50, d);
    expect(sent.map((s) => s.message.cellState)).toEqual([undefined, undefined, undefined, undefined]);
    // the next: UN of time far over 10 %, a check on the submit's blocks: its go waits for the ranks' sums
    submit(1, LATE + 100, d);
    expect(sent).toHaveLength(0);
    await answer(1, d, 'coarse');
    // four points fit the true prices exactly: no price per cell, 0.04 particle-equivalents per squared count
    expect(coordinator.costModel.prices!.cellWeight).toBe(0);
    expect(coordinator.costModel.prices!.squareWeight).toBeCloseTo(C / A, 9);
    expect(sent.map((s) => [s.message.index, s.message.cellState])).toEqual([[1, 'full'], [1, 'full'], [1, 'full'], [1, 'full']]);
    expect(coordinator.block).toBe(1);
    // the ranks answer at the end of submit 2; the split goes in the go after submit 2, once it merged
    await answer(1, d, 'full');
    expect(sent).toHaveLength(0);
    submit(2, LATE + 150, d);
    expect(sent.map((s) => s.message.index)).toEqual([2, 2, 2, 2]);
    const next = sent[0].message.decomposition as Decomposition;
    expect(next).not.toBeNull();
    // taken by the ranks at the end of submit 3: not yet among the run's re-splits
    expect(coordinator.events).toHaveLength(0);
    // the new slabs even out n + 0.04 n^2 (to a plane), which the counts would not
    const priced = new Float64Array(grid[0] * grid[1] * grid[2]).map((_, g) => { const n = countAt(g % grid[0]); return n + 0.04 * n * n; });
    const counts = new Float64Array(priced.length).map((_, g) => countAt(g % grid[0]));
    const loads = next.boxes.map((b) => boxWeight(grid, priced, b));
    expect(loadNonUniformity(loads)).toBeLessThan(loadNonUniformity(next.boxes.map((b) => boxWeight(grid, counts, b))));
    expect(Math.max(...loads) - Math.min(...loads)).toBeLessThanOrEqual(2 * 16 * (41 + 0.04 * 41 * 41));
    // submit 3 ends with the re-split (not judged: its counts are about to change); the one after holds the relayout's
    // sort (not judged even with seconds as uneven as before); the one after that is
    submit(3, LATE + 200, d);
    expect(sent.every((s) => s.message.cellState === undefined && s.message.decomposition === null)).toBe(true);
    expect(coordinator.events.map((e) => e.step)).toEqual([LATE + 200]);
    expect(coordinator.decomposition).toEqual(next);
    submit(4, LATE + 250, next);
    expect(sent.every((s) => s.message.cellState === undefined)).toBe(true);
    // judged (its go waits for the ranks' block sums) once the new split has lasted as long again
    submit(5, 2 * LATE + 300, d);
    expect(sent).toHaveLength(0);
    await answer(5, next, 'coarse');
    expect(sent.map((s) => s.message.index)).toEqual([5, 5, 5, 5]);
  });

  it('checks nothing early in a run: a new split is judged within as many steps as the first has lasted', () => {
    const { d, sent, submit } = setUp();
    submit(0, 50, d);
    // the same uneven seconds as above, but 200 steps into the run: no split can save twice its cost within 200 steps
    // (with the run's end, not the first split's age, as the horizon the first test's check came at this submit)
    submit(1, 100, d);
    expect(sent.map((s) => [s.message.index, s.message.cellState, s.message.decomposition])).toEqual([[1, undefined, null], [1, undefined, null], [1, undefined, null], [1, undefined, null]]);
  });
});
