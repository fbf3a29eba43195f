// Balancing by time (src-main/cluster/orchestrator/rank-cost.ts): each rank's price of a particle-step from its GPU
// seconds, relative to the run's mean, and when a run balances by time or by counts.
import { describe, expect, it } from 'vitest';
import { balanceByOf, rankCostOf } from '../../src-main/cluster/orchestrator/rank-cost.js';

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
  it('balances measured time on GPUs and counts on software adapters, unless DSMC_BALANCE_BY says otherwise', () => {
    expect(balanceByOf(false, undefined)).toBe('time');
    expect(balanceByOf(true, undefined)).toBe('particles');
    expect(balanceByOf(false, 'particles')).toBe('particles');
    expect(balanceByOf(true, 'time')).toBe('time');
    expect(balanceByOf(true, '')).toBe('particles');
    expect(() => balanceByOf(false, 'cells')).toThrow(/DSMC_BALANCE_BY is 'cells': use particles or time/);
  });
});
