// What the fitted coefficient s of a scaling model is, in words a reader can check: strong studies fit Amdahl's
// serial fraction (a share of T1, 0 to 100 %); weak studies fit the time each added GPU adds, as a multiple of T1
// (any size: a weak fit's s is not a fraction, so it is never shown as a percentage).
import type { ScalingFit } from './scaling-fit.js';
import { formatGeneral, formatPercent } from './format-numbers.js';

/** The coefficient s of a fit with its meaning, e.g. "serial fraction s = 3.2 %" or "time added per extra GPU s = 1.086 x T1". */
export function scalingCoefficientText(fit: Pick<ScalingFit, 'kind' | 'serialFraction'>): string {
  const s = fit.serialFraction;
  if (fit.kind === 'weak') return `time added per extra GPU s = ${formatGeneral(s, 4)} x T1`;
  // strong: s = a / (a + b) with a, b >= 0 lies in [0, 1]; anything else is named, not shown as a share
  return s >= 0 && s <= 1 ? `serial fraction s = ${formatPercent(100 * s)}` : `serial fraction s = ${formatGeneral(s, 4)} (outside 0 to 1: the fit is not meaningful)`;
}
