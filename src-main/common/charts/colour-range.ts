// The colour range of a field map: robust automatic limits (percentiles, so a few near-wall outliers do not
// wash out a shock), the full range, or limits the user fixes; on a linear or a log10 scale.

/** How the map's limits are chosen: 'robust' (2nd to 98th percentile), 'full' (min to max), 'fixed' (the user's). */
export type RangeMode = 'robust' | 'full' | 'fixed';

/** The user's choice of range: mode, fixed limits (used in 'fixed' mode) and log scale. */
export interface RangeChoice {
  mode: RangeMode;
  min?: number;
  max?: number;
  log?: boolean;
}

/** The limits a map colours between; `log`: colours follow log10 of the value (limits stay in the field's unit). */
export interface ColourRange {
  min: number;
  max: number;
  log: boolean;
}

/** Lower and upper percentile of the robust limits: 2 % of the cells may saturate at each end. */
export const ROBUST_PERCENTILES: [number, number] = [2, 98];

/** The p-th percentile (0-100) of sorted values, linearly interpolated between ranks; NaN when empty. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const r = (Math.min(100, Math.max(0, p)) / 100) * (sorted.length - 1);
  const lo = Math.floor(r);
  const hi = Math.min(sorted.length - 1, lo + 1);
  return sorted[lo] + (r - lo) * (sorted[hi] - sorted[lo]);
}

/** The finite values (positive only for a log scale), sorted ascending. */
function usable(values: readonly (number | null)[], log: boolean): number[] {
  const out: number[] = [];
  for (const v of values) if (v !== null && Number.isFinite(v) && (!log || v > 0)) out.push(v);
  return out.sort((a, b) => a - b);
}

/** A range that is never empty: equal limits are widened (by 1 on a linear scale, a factor 10 on a log one). */
function widened(min: number, max: number, log: boolean): [number, number] {
  if (max > min) return [min, max];
  return log ? [min / 10, min * 10 || 1] : [min - 0.5, min + 0.5];
}

/**
 * The colour range of a map's values: robust percentiles, the full range or the user's fixed limits (a
 * missing or invalid fixed limit falls back to the robust one); `signed` maps (z of differences) are symmetric
 * about 0 and at least +-3; log scales take the positive values only (fixed limits <= 0 fall back too).
 */
export function colourRange(values: readonly (number | null)[], choice: RangeChoice, signed = false): ColourRange {
  const log = !signed && choice.log === true;
  const v = usable(signed ? values.map((x) => (x === null ? null : Math.abs(x))) : values, log);
  const [pLo, pHi] = choice.mode === 'full' ? [0, 100] : ROBUST_PERCENTILES;
  let lo = percentile(v, signed ? 0 : pLo);
  let hi = percentile(v, pHi);
  if (v.length === 0) { lo = log ? 1 : 0; hi = log ? 10 : 1; }
  if (choice.mode === 'fixed') {
    const ok = (x: number | undefined): x is number => x !== undefined && Number.isFinite(x) && (!log || x > 0);
    if (ok(choice.min)) lo = choice.min;
    if (ok(choice.max)) hi = choice.max;
  }
  if (signed) {
    const r = choice.mode === 'fixed' && Number.isFinite(choice.max) && choice.max! > 0 ? choice.max! : Math.max(hi, 3);
    return { min: -r, max: r, log: false };
  }
  const [min, max] = widened(Math.min(lo, hi), Math.max(lo, hi), log);
  return { min, max, log };
}

/** The number a value is coloured by: clamped into the range (colours saturate at the ends), log10 on a log scale; null: none. */
export function colourValue(v: number | null, range: ColourRange): number | null {
  if (v === null || !Number.isFinite(v)) return null;
  if (range.log) return v > 0 ? Math.log10(Math.min(range.max, Math.max(range.min, v))) : null;
  return Math.min(range.max, Math.max(range.min, v));
}
