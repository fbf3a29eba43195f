// Load balance: per-rank loads and the load non-uniformity UN = (max - min) / mean * 100 % over ranks
// (Su et al. 2012, eq. 2; ../shared/reference/PHYSICS.md), and the test that triggers a rebalance.
import { boxWeight } from './box.js';
import { DecompositionError, checkWeights } from './errors.js';
import type { Decomposition, Weights } from './types.js';

/** Load non-uniformity in percent: (max - min) / mean * 100 over ranks; 0 when every rank is empty. */
export function loadNonUniformity(particlesPerRank: ArrayLike<number>): number {
  const n = particlesPerRank.length;
  if (n === 0) throw new DecompositionError('loadNonUniformity needs the particle count of at least one rank, got none');
  let min = Infinity;
  let max = -Infinity;
  let sum = 0;
  for (let r = 0; r < n; r++) {
    const p = particlesPerRank[r];
    if (!(p >= 0) || !Number.isFinite(p)) {
      throw new DecompositionError(`particle count of rank ${r} is ${p}: counts must be finite and >= 0`);
    }
    min = Math.min(min, p);
    max = Math.max(max, p);
    sum += p;
  }
  return sum === 0 ? 0 : ((max - min) / (sum / n)) * 100;
}

/** Weight (particle count) held by each rank's box. */
export function rankLoads(d: Decomposition, weights: Weights): number[] {
  checkWeights(d.grid, weights);
  return d.boxes.map((box) => boxWeight(d.grid, weights, box));
}

/** True when the load non-uniformity (percent) exceeds the threshold (percent). */
export function shouldRebalance(un: number, thresholdPercent: number): boolean {
  if (!(thresholdPercent >= 0) || !Number.isFinite(thresholdPercent)) {
    throw new DecompositionError(`rebalance threshold must be a finite percentage >= 0, got ${thresholdPercent}: e.g. 10 for UN > 10 %`);
  }
  return un > thresholdPercent;
}
