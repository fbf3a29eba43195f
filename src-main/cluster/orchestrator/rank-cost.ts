// Balancing by time: what a particle costs on each rank, measured. A rank's GPU seconds in the last submit over the
// particle-steps it held give its price of a particle-step; relative to the run's mean price it becomes the factor its
// cells' counts are weighted by when the grid is re-split, so that the new split evens out the ranks' GPU time rather
// than their particle counts (a particle in a shock layer or beside a body costs more than one in the free stream:
// more collisions, more surface hits, more cells crossed). An option (DSMC_BALANCE_BY=time) for now: the default
// balances particle counts (balanceByOf says why), as do runs untimed or on software adapters (whose wall-clock phase
// times are not the GPU's); counts are what every rank and a resumed run agree on exactly.
import { loadNonUniformity } from '../decomposition/load.js';

/** How a run's re-splits weigh the cells: by particle counts, or by counts times each rank's measured price of a particle. */
export type BalanceBy = 'particles' | 'time';

/** The measured side of one check: the factor per rank (mean 1 over the particle-steps) and the ranks' time non-uniformity. */
export interface RankCost {
  /** Each rank's price of a particle-step over the run's mean (1 for every rank: balancing by counts). */
  factors: number[];
  /** UN (percent) of the ranks' GPU seconds in the last submit. */
  un: number;
}

/**
 * The ranks' cost factors from the last submit's GPU seconds and particle-steps per rank; null when any rank has no
 * measurement (timing off) or held no particles (its price is unknown), so the caller balances by counts.
 */
export function rankCostOf(gpuSeconds: readonly number[], particleSteps: readonly number[]): RankCost | null {
  if (gpuSeconds.length === 0 || gpuSeconds.length !== particleSteps.length) return null;
  for (let r = 0; r < gpuSeconds.length; r++) {
    if (!(gpuSeconds[r] > 0) || !Number.isFinite(gpuSeconds[r]) || !(particleSteps[r] > 0)) return null;
  }
  const mean = gpuSeconds.reduce((a, b) => a + b, 0) / particleSteps.reduce((a, b) => a + b, 0);
  return { factors: gpuSeconds.map((g, r) => g / particleSteps[r] / mean), un: loadNonUniformity(gpuSeconds) };
}

/**
 * The run's choice: particle counts, unless DSMC_BALANCE_BY=time asks for measured time on GPUs (software adapters
 * always balance counts). Counts are the default: on the hypersonic wedge (2 x H100, docs/PERFORMANCE.md) pricing each
 * rank's particles by its GPU seconds over-corrected (the inflow rank's injection is a cost per face, not per particle,
 * so moving its particles away raised its price further), re-split four times and ran at 61 % of the unbalanced speed.
 */
export function balanceByOf(software: boolean, env: string | undefined = process.env.DSMC_BALANCE_BY): BalanceBy {
  if (env !== undefined && env !== '' && env !== 'particles' && env !== 'time') throw new Error(`DSMC_BALANCE_BY is '${env}': use particles or time (or leave it unset)`);
  return env === 'time' && !software ? 'time' : 'particles';
}
