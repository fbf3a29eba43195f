// Balancing by time: a cost model of a rank's GPU time, measured. A rank's step costs a price per particle and a
// price per cell (the scans, masks, collide and sampling invocations run over cells, full or not), t_r = a P_r + b C_r;
// the last submit's GPU seconds, particle-steps and cell-steps of the ranks fit a and b (least squares), and a re-split
// then weighs every cell as its count plus b / a particle-equivalents, so that it evens out GPU time rather than counts.
// (Pricing each rank's particles by its own seconds per particle over-corrected: on the hypersonic wedge the rank with
// 60 % of the cells and 47 % of the particles looked expensive per particle, lost particles, and looked more expensive
// still; docs/PERFORMANCE.md.) An option for now (DSMC_BALANCE_BY=time): the default balances particle counts, as do
// runs untimed or on software adapters (whose wall-clock phase times are not the GPU's); counts are what every rank and
// a resumed run agree on exactly.

import { loadNonUniformity } from '../decomposition/load.js';

/** How a run's re-splits weigh the cells: by particle counts, or by the measured cost model (counts plus a price per cell). */
export type BalanceBy = 'particles' | 'time';

/** The measured side of one check: particle-equivalents per cell, and the ranks' time non-uniformity. */
export interface RankCost {
  /** What a cell costs in particles' time (b / a), added to every cell's count when the grid is re-split. */
  cellWeight: number;
  /** UN (percent) of the ranks' GPU seconds in the last submit. */
  un: number;
}

/** The most particle-equivalents a cell may weigh (a fit beyond it is noise, not a cost model). */
const MAX_CELL_WEIGHT = 1000;

/**
 * The cost model from the last submit: per rank its GPU seconds, particle-steps and cell-steps; null when any rank has no
 * measurement (timing off) or the fit is ill-posed (one rank, or ranks alike in their mix of particles and cells) or
 * unphysical (a particle costing nothing), so the caller balances counts. A negative price per cell fits as zero.
 */
export function rankCostOf(gpuSeconds: readonly number[], particleSteps: readonly number[], cellSteps: readonly number[]): RankCost | null {
  const n = gpuSeconds.length;
  if (n < 2 || particleSteps.length !== n || cellSteps.length !== n) return null;
  for (let r = 0; r < n; r++) {
    if (!(gpuSeconds[r] > 0) || !Number.isFinite(gpuSeconds[r]) || !(particleSteps[r] > 0) || !(cellSteps[r] > 0)) return null;
  }
  // least squares of t = a P + b C through the origin: the 2 x 2 normal equations
  let pp = 0, pc = 0, cc = 0, pt = 0, ct = 0;
  for (let r = 0; r < n; r++) {
    const p = particleSteps[r], c = cellSteps[r], t = gpuSeconds[r];
    pp += p * p; pc += p * c; cc += c * c; pt += p * t; ct += c * t;
  }
  const det = pp * cc - pc * pc;
  const un = loadNonUniformity(gpuSeconds);
  // ranks with the same particles per cell cannot tell a particle's price from a cell's: a particle costs the mean
  if (!(det > 1e-9 * pp * cc)) return { cellWeight: 0, un };
  let a = (pt * cc - ct * pc) / det;
  let b = (pp * ct - pc * pt) / det;
  if (b < 0) {
    b = 0;
    a = pt / pp;
  }
  if (!(a > 0)) return null;
  return { cellWeight: Math.min(MAX_CELL_WEIGHT, b / a), un };
}

/**
 * The run's choice: particle counts, unless DSMC_BALANCE_BY=time asks for the measured cost model on GPUs (software
 * adapters always balance counts).
 */
export function balanceByOf(software: boolean, env: string | undefined = process.env.DSMC_BALANCE_BY): BalanceBy {
  if (env !== undefined && env !== '' && env !== 'particles' && env !== 'time') throw new Error(`DSMC_BALANCE_BY is '${env}': use particles or time (or leave it unset)`);
  return env === 'time' && !software ? 'time' : 'particles';
}
