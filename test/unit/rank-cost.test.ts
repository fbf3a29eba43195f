// Balancing by time (src-main/cluster/orchestrator/rank-cost.ts): the cost model of a rank's GPU time (a price per
// particle and per cell, fitted from the ranks' seconds), when a run balances by time or by counts, and a re-split by
// counts plus the cells' price.
import { describe, expect, it } from 'vitest';
import { balanceByOf, rankCostOf } from '../../src-main/cluster/orchestrator/rank-cost.js';
import { Rebalancer, type CellState } from '../../src-main/cluster/orchestrator/rebalancer.js';
import { decompose } from '../../src-main/cluster/decomposition/index.js';
import { loadNonUniformity } from '../../src-main/cluster/decomposition/load.js';
import { subdomainOf } from '../../src-main/solver/subdomain.js';
import type { Decomposition } from '../../src-main/cluster/decomposition/types.js';

describe('the cost model of a rank\'s GPU time', () => {
  it('fits a price per particle and per cell from the ranks\' seconds, and weighs a cell as that many particles', () => {
    // t = 2e-10 s a particle-step + 3e-9 s a cell-step: a cell costs 15 particles
    const P = [5.49e10, 6.18e10, 4.0e10], C = [3.84e9, 2.56e9, 3.0e9];
    const t = P.map((p, r) => 2e-10 * p + 3e-9 * C[r]);
    const cost = rankCostOf(t, P, C)!;
    expect(cost.cellWeight).toBeCloseTo(15, 6);
    expect(cost.un).toBeCloseTo(100 * (Math.max(...t) - Math.min(...t)) / (t.reduce((a, b) => a + b, 0) / 3), 9);
  });

  it('prices cells at zero where the fit would make them negative, and particles at the mean where ranks are alike', () => {
    // more cells, less time: a negative price per cell is no cost model; 0 (balance counts)
    expect(rankCostOf([12, 10], [5e10, 5e10], [2e9, 4e9])!.cellWeight).toBe(0);
    // the same particles per cell on both ranks: no telling a cell's price from a particle's
    expect(rankCostOf([1, 2], [1e9, 2e9], [1e8, 2e8])!.cellWeight).toBe(0);
  });

  it('has no model where a rank ran untimed, held no particles, or there is one rank', () => {
    expect(rankCostOf([1, 0], [1e6, 1e6], [10, 10])).toBeNull();
    expect(rankCostOf([1, 1], [1e6, 0], [10, 10])).toBeNull();
    expect(rankCostOf([1, Number.NaN], [1e6, 1e6], [10, 10])).toBeNull();
    expect(rankCostOf([1], [1e6], [10])).toBeNull();
    expect(rankCostOf([1, 1], [1, 2], [10])).toBeNull();
  });
});

describe('what a run balances by', () => {
  it('balances counts unless DSMC_BALANCE_BY=time asks for measured time on GPUs', () => {
    expect(balanceByOf(false, undefined)).toBe('particles');
    expect(balanceByOf(true, undefined)).toBe('particles');
    expect(balanceByOf(false, 'particles')).toBe('particles');
    expect(balanceByOf(false, 'time')).toBe('time');
    expect(balanceByOf(true, 'time')).toBe('particles');
    expect(balanceByOf(true, '')).toBe('particles');
    expect(() => balanceByOf(false, 'cells')).toThrow(/DSMC_BALANCE_BY is 'cells': use particles or time/);
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
    const decision = new Rebalancer(d, 10, [], 1e6).decide(100, 30, states(), cost, 10)!;
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
    expect(new Rebalancer(even, 10, [], 1e6).decide(100, 40, byX(even), cost, 10)).toBeNull();
    const byCounts = new Rebalancer(even, 10, [], 1e6).decide(100, 40, byX(even), cost)!;
    expect(byCounts.decomposition.boxes[0].hi[0]).toBe(27);
  });
});
