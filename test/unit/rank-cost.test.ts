// Balancing by time (src-main/cluster/orchestrator/rank-cost.ts): the cost model of a rank's GPU time (prices per
// particle, per cell and per squared cell count, fitted from the ranks' seconds over the last checks), the ranks' loads
// from their seconds, when a run balances by time or by counts, and a re-split by counts plus the cells' prices.
import { describe, expect, it } from 'vitest';
import { balanceByOf, COST_WINDOW, CostModel, fitPrices, settledSubmit, timeLoadsOf, type CostPoint } from '../../src-main/cluster/orchestrator/rank-cost.js';
import { Rebalancer, type CellState } from '../../src-main/cluster/orchestrator/rebalancer.js';
import { ranksPinnedTogether, ranksShareGpus } from '../../src-main/cluster/gpus.js';
import { decompose } from '../../src-main/cluster/decomposition/index.js';
import { loadNonUniformity } from '../../src-main/cluster/decomposition/load.js';
import { subdomainOf } from '../../src-main/solver/subdomain.js';
import type { Decomposition } from '../../src-main/cluster/decomposition/types.js';

/** Points of ranks whose particles, cells and squared counts differ, timed by t = a P + b C + c Q. */
function pointsOf(a: number, b: number, c: number, shift = 0): CostPoint[] {
  const P = [3.1e7, 2.0e7, 2.5e7, 3.6e7], C = [1.9e6, 1.2e6, 1.7e6, 1.6e6], Q = [7.0e8, 9.5e8, 4.1e8, 6.6e8];
  return P.map((p, r) => {
    const particles = p * (1 + 0.1 * shift * r), cells = C[r], squares = Q[r] * (1 + 0.05 * shift);
    return { seconds: a * particles + b * cells + c * squares, particles, cells, squares };
  });
}

describe('the cost model of a rank\'s GPU time', () => {
  it('fits prices per particle, per cell and per squared count from the ranks\' seconds', () => {
    const fit = fitPrices([...pointsOf(1e-10, 4e-10, 2e-12), ...pointsOf(1e-10, 4e-10, 2e-12, 1)])!;
    expect(fit.a).toBeCloseTo(1e-10, 16);
    expect(fit.b / 4e-10).toBeCloseTo(1, 6);
    expect(fit.c / 2e-12).toBeCloseTo(1, 6);
  });

  it('leaves out a term whose price would come out negative, or that the points cannot tell from a particle\'s', () => {
    // dense ranks work less here: a negative price per squared count is no cost model; the others fit without it
    const fit = fitPrices([...pointsOf(1e-10, 4e-10, -1e-13), ...pointsOf(1e-10, 4e-10, -1e-13, 1)])!;
    expect(fit.c).toBe(0);
    expect(fit.a).toBeGreaterThan(0);
    expect(fit.b).toBeGreaterThanOrEqual(0);
    // cells and squared counts in proportion to the particles: no telling their prices apart, a particle costs the mean
    const alike = [1, 2, 3].map((k) => ({ seconds: 3 * k, particles: 1e9 * k, cells: 1e6 * k, squares: 1e10 * k }));
    expect(fitPrices(alike)).toEqual({ a: 3e-9, b: 0, c: 0 });
  });

  it('has no fit where a rank ran untimed or empty, or with fewer points than prices', () => {
    const good = pointsOf(1e-10, 4e-10, 2e-12);
    expect(fitPrices(good.map((p, r) => (r === 1 ? { ...p, seconds: 0 } : p)))).toBeNull();
    expect(fitPrices(good.map((p, r) => (r === 2 ? { ...p, particles: 0 } : p)))).toBeNull();
    expect(fitPrices(good.map((p, r) => (r === 0 ? { ...p, seconds: Number.NaN } : p)))).toBeNull();
    expect(fitPrices(good.slice(0, 1))).toBeNull();
  });

  it('weighs a cell as its prices over a particle\'s, from the last COST_WINDOW checks only', () => {
    const model = new CostModel();
    // a first check with other prices, then COST_WINDOW checks with the run's: the first has left the window
    model.add(pointsOf(5e-10, 0, 1e-11));
    for (let k = 0; k < COST_WINDOW; k++) model.add(pointsOf(1e-10, 4e-10, 2e-12, k + 1));
    expect(model.prices!.cellWeight).toBeCloseTo(4, 5);
    expect(model.prices!.squareWeight).toBeCloseTo(0.02, 7);
  });
});

describe('the ranks\' loads by time', () => {
  it('are their GPU seconds at the mean price of a particle-step, with the UN of the seconds', () => {
    const got = timeLoadsOf([2, 1, 1], [2e9, 2e9, 2e9], 100)!;
    // 6e9 particle-steps in 4 s: 1.5e9 a second; loads a step 3e7, 1.5e7, 1.5e7
    expect(got.loads).toEqual([3e7, 1.5e7, 1.5e7]);
    expect(got.un).toBeCloseTo(loadNonUniformity([2, 1, 1]), 12);
    expect(got.perSecond).toBe(1.5e9);
    expect(timeLoadsOf([2, 0], [1e9, 1e9], 10)).toBeNull();
    expect(timeLoadsOf([2, 1], [1e9, 0], 10)).toBeNull();
    expect(timeLoadsOf([2], [1e9], 10)).toBeNull();
  });
});

describe('which submits are judged by time', () => {
  it('neither the first nor the one right after a re-split (their seconds hold whole sorts)', () => {
    expect([0, 1, 2, 3].map((k) => settledSubmit(k, -2))).toEqual([false, true, true, true]);
    expect([5, 6, 7].map((k) => settledSubmit(k, 5))).toEqual([true, false, true]);
  });
});

describe('what a run balances by', () => {
  it('balances measured time on GPUs unless DSMC_BALANCE_BY=particles asks for counts; counts on software adapters', () => {
    expect(balanceByOf(false, undefined)).toBe('time');
    expect(balanceByOf(false, '')).toBe('time');
    expect(balanceByOf(true, undefined)).toBe('particles');
    expect(balanceByOf(false, 'particles')).toBe('particles');
    expect(balanceByOf(false, 'time')).toBe('time');
    expect(balanceByOf(true, 'time')).toBe('particles');
    expect(() => balanceByOf(false, 'cells')).toThrow(/DSMC_BALANCE_BY is 'cells': use particles or time/);
  });

  it('balances counts where ranks share a GPU (their timestamps hold each other\'s work), whatever DSMC_BALANCE_BY says', () => {
    expect(balanceByOf(false, undefined, true)).toBe('particles');
    expect(balanceByOf(false, 'time', true)).toBe('particles');
    expect(balanceByOf(false, undefined, false)).toBe('time');
    // the local launcher's GPU labels: a PCI address per pinned rank, 'default' for ranks on the default adapter
    const on = (labels: string[]) => labels.map((label, rank) => ({ rank, label, env: {}, pinned: label !== 'default' }));
    expect(ranksShareGpus(on(['0000:07:00.0', '0000:08:00.0']))).toBe(false);
    expect(ranksShareGpus(on(['0000:07:00.0', '0000:07:00.0', '0000:08:00.0', '0000:08:00.0']))).toBe(true);
    expect(ranksShareGpus(on(['default', 'default']))).toBe(true);
    expect(ranksShareGpus(on(['default']))).toBe(false);
    // pinned together: only ranks pinned to one PCI address (unpinned ranks may be anywhere: lavapipe, a cluster's nodes)
    expect(ranksPinnedTogether(on(['0000:07:00.0', '0000:07:00.0', '0000:08:00.0', '0000:08:00.0']))).toBe(true);
    expect(ranksPinnedTogether(on(['default', 'default']))).toBe(false);
  });
});

describe('a re-split by time', () => {
  // 40 x 4 x 4 cells; the left 20 planes hold 5 particles a cell, the right 20 hold 15: two slabs of 20 planes have
  // 1600 and 4800 particles. By counts the cut moves left; with every cell weighing 10 particles more it moves less far.
  const grid: [number, number, number] = [40, 4, 4];
  const d = decompose('slab', grid, 2);
  const states = (): CellState[] => d.boxes.map((_, r) => {
    const n = subdomainOf(d, r).nLocal;
    return { counts: new Uint32Array(n).fill(r === 0 ? 5 : 15), sigmaCrMax: new Float32Array(n).fill(1), remainder: new Float32Array(n) };
  });
  const cost = { movedParticleSteps: 500, fixedParticles: 0 };

  it('by counts: the cut where the counts are even', () => {
    const decision = new Rebalancer(d, 10, [], 1e6).decide(100, loadNonUniformity([1600, 4800]), states(), cost)!;
    // 3200 particles a side: 20 planes of 80 and 1600 / 240 = 6.67 planes of 240 on the left: x = 27 (3280 | 3120)
    expect(decision.decomposition.boxes[0]).toEqual({ lo: [0, 0, 0], hi: [27, 4, 4] });
    expect(decision.moved).toBe(7 * 240);
  });

  it('by time: the cut where the counts plus the cells\' price are even; moves and the relayout stay in particles', () => {
    // loads 240 a plane on the left (80 + 160), 400 on the right (240 + 160): 4800 + 8000 = 12800, half at 20 + 1600 / 400
    const decision = new Rebalancer(d, 10, [], 1e6).decide(100, 30, states(), cost, { cellWeight: 10, squareWeight: 0 })!;
    expect(decision.decomposition.boxes[0]).toEqual({ lo: [0, 0, 0], hi: [24, 4, 4] });
    expect(decision.decomposition.boxes[1]).toEqual({ lo: [24, 0, 0], hi: [40, 4, 4] });
    expect(decision.moved).toBe(4 * 240);
    expect(decision.maxSend).toBe(4 * 240);
    expect(decision.largest).toBe(4800);
    // the loads after: 4800 + 4 x 400 = 6400 against 16 x 400 = 6400
    expect(decision.unAfter).toBeCloseTo(0, 10);
  });

  it('by time: keeps a split whose loads are even though its counts are not (by counts it would move)', () => {
    // the split 24 | 16 of the case above: counts 2560 | 3840 (UN 40 %), loads with 10 a cell 6400 | 6400
    const even: Decomposition = { method: 'slab', grid, boxes: [{ lo: [0, 0, 0], hi: [24, 4, 4] }, { lo: [24, 0, 0], hi: [40, 4, 4] }] };
    const byX = (dec: Decomposition): CellState[] => dec.boxes.map((box) => {
      const counts: number[] = [];
      for (let z = box.lo[2]; z < box.hi[2]; z++) for (let y = box.lo[1]; y < box.hi[1]; y++) for (let x = box.lo[0]; x < box.hi[0]; x++) counts.push(x < 20 ? 5 : 15);
      const n = counts.length;
      return { counts: Uint32Array.from(counts), sigmaCrMax: new Float32Array(n).fill(1), remainder: new Float32Array(n) };
    });
    expect(new Rebalancer(even, 10, [], 1e6).decide(100, 40, byX(even), cost, { cellWeight: 10, squareWeight: 0 })).toBeNull();
    const byCounts = new Rebalancer(even, 10, [], 1e6).decide(100, 40, byX(even), cost)!;
    expect(byCounts.decomposition.boxes[0].hi[0]).toBe(27);
  });
  it('by time with a price per squared count: dense cells weigh more than their particles, and the cut follows', () => {
    // a cell of n weighs n + 1.25 + 0.15 n^2: 10 on the left, 50 on the right; a plane of 16 cells 160 and 800, 19200 in
    // all, half at 20 + 6400 / 800 = 28 (by counts 27)
    const decision = new Rebalancer(d, 10, [], 1e6).decide(100, 60, states(), cost, { cellWeight: 1.25, squareWeight: 0.15 })!;
    expect(decision.decomposition.boxes[0]).toEqual({ lo: [0, 0, 0], hi: [28, 4, 4] });
    expect(decision.moved).toBe(8 * 240);
    expect(decision.unAfter).toBeCloseTo(0, 10);
  });
  it('by time: a re-split pays its fixed cost besides its moves, or the split is kept', () => {
    // the case above: the slowest load drops from 16000 to 9600 a step over 999,900 steps left (6.4e9), 1920 moved (9.6e5)
    const prices = { cellWeight: 1.25, squareWeight: 0.15 };
    expect(new Rebalancer(d, 10, [], 1e6).decide(100, 60, states(), { ...cost, fixedSteps: 6.3e9 }, prices)).not.toBeNull();
    expect(new Rebalancer(d, 10, [], 1e6).decide(100, 60, states(), { ...cost, fixedSteps: 6.4e9 }, prices)).toBeNull();
  });

  it('by time: whether a split may pay counts no moves for the gain (a dense cell weighs more than its particles)', () => {
    const r = new Rebalancer(d, 10, [], 1100);
    // gain 1000 a step over 1000 steps left: 1e6; by counts at least 1000 particles move (5e5 at 500 each)
    expect(r.mayPay(100, [3000, 1000], { ...cost, fixedSteps: 6e5 })).toBe(false);
    expect(r.mayPay(100, [3000, 1000], { ...cost, fixedSteps: 6e5 }, false)).toBe(true);
    expect(r.mayPay(100, [3000, 1000], { ...cost, fixedSteps: 1e6 }, false)).toBe(false);
  });
});
