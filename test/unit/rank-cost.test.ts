// Balancing by time (src-main/cluster/orchestrator/rank-cost.ts): each rank's price of a particle-step from its GPU
// seconds, relative to the run's mean, when a run balances by time or by counts, and a re-split by priced counts.
import { describe, expect, it } from 'vitest';
import { balanceByOf, rankCostOf } from '../../src-main/cluster/orchestrator/rank-cost.js';
import { Rebalancer, type CellState } from '../../src-main/cluster/orchestrator/rebalancer.js';
import { decompose } from '../../src-main/cluster/decomposition/index.js';
import { loadNonUniformity } from '../../src-main/cluster/decomposition/load.js';
import { subdomainOf } from '../../src-main/solver/subdomain.js';

describe('rank cost factors', () => {
  it('prices each rank by its GPU seconds per particle-step, the run\'s mean price being 1', () => {
    // rank 0: 2 s for 1e9 particle-steps (2 ns each); rank 1: 1 s for 1e9 (1 ns); rank 2: 3 s for 2e9 (1.5 ns)
    const cost = rankCostOf([2, 1, 3], [1e9, 1e9, 2e9])!;
    const mean = 6 / 4e9;
    expect(cost.factors[0]).toBeCloseTo(2e-9 / mean, 12);
    expect(cost.factors[1]).toBeCloseTo(1e-9 / mean, 12);
    expect(cost.factors[2]).toBeCloseTo(1.5e-9 / mean, 12);
    // weighted by the particle-steps, the factors average to 1: the weighted loads are the counts' total
    const weighted = cost.factors.reduce((sum, f, r) => sum + f * [1e9, 1e9, 2e9][r], 0);
    expect(weighted).toBeCloseTo(4e9, 0);
    // the time non-uniformity: (3 - 1) / 2 s
    expect(cost.un).toBeCloseTo(100, 10);
  });

  it('gives equal factors where the ranks\' prices are equal, whatever their counts', () => {
    const cost = rankCostOf([1, 3], [1e8, 3e8])!;
    expect(cost.factors).toEqual([1, 1]);
    expect(cost.un).toBeCloseTo(100, 10);
  });

  it('has no prices where a rank ran untimed, held no particles or reported nothing', () => {
    expect(rankCostOf([1, 0], [1e6, 1e6])).toBeNull();
    expect(rankCostOf([1, 1], [1e6, 0])).toBeNull();
    expect(rankCostOf([1, Number.NaN], [1e6, 1e6])).toBeNull();
    expect(rankCostOf([], [])).toBeNull();
    expect(rankCostOf([1], [1, 2])).toBeNull();
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
  // 40 x 4 x 4 cells of 10 particles each, two slabs of 20 planes: equal counts, but a particle costs rank 0 three
  // times what it costs rank 1 (factors 1.5 and 0.5 over the mean)
  const grid: [number, number, number] = [40, 4, 4];
  const d = decompose('slab', grid, 2);
  const states = (): CellState[] => d.boxes.map((_, r) => {
    const n = subdomainOf(d, r).nLocal;
    return { counts: new Uint32Array(n).fill(10), sigmaCrMax: new Float32Array(n).fill(1), remainder: new Float32Array(n) };
  });

  it('moves the cuts so that the priced loads, not the counts, are even', () => {
    const cost = rankCostOf([3, 1], [3200, 3200])!;
    expect(cost.factors).toEqual([1.5, 0.5]);
    const rebalancer = new Rebalancer(d, 10, [], 1e6);
    const decision = rebalancer.decide(100, cost.un, states(), { movedParticleSteps: 500, fixedParticles: 0 }, cost.factors)!;
    expect(decision).not.toBeNull();
    // priced loads 1.5 x 160 x planes for rank 0: half of 6400 at 13.3 planes, so the cut moves to x = 13
    expect(decision.decomposition.boxes[0]).toEqual({ lo: [0, 0, 0], hi: [13, 4, 4] });
    expect(decision.decomposition.boxes[1]).toEqual({ lo: [13, 0, 0], hi: [40, 4, 4] });
    // the relayout is sized in particles: 7 planes of 160 particles change hands, the most loaded rank holds 3200
    expect(decision.moved).toBe(7 * 160);
    expect(decision.maxSend).toBe(7 * 160);
    expect(decision.largest).toBe(3200);
    // the priced loads after: 1.5 x 13 x 160 = 3120 against 1.5 x 7 x 160 + 0.5 x 3200 = 3280
    expect(decision.unAfter).toBeCloseTo(100 * (3280 - 3120) / 3200, 10);
  });

  it('keeps the split where the counts are even and no prices are given', () => {
    const rebalancer = new Rebalancer(d, 10, [], 1e6);
    expect(rebalancer.decide(100, loadNonUniformity([3200, 3200]), states())).toBeNull();
  });
});
