// Per-cell differences of two sampled fields in units of their combined standard error,
// z = (a - b) / sqrt(se_a^2 + se_b^2), summarised per field so a real change stands out from DSMC noise.

/** |z| above this is beyond what DSMC noise explains (0.27 % of cells for Gaussian noise). */
export const Z_LIMIT = 3;
/** A field whose fraction of cells with |z| > Z_LIMIT exceeds this is reported as different. */
export const DIFFERS_FRACTION = 0.05;

/** Summary of z over the cells of one field. */
export interface FieldZStats {
  /** Cells in the field. */
  cells: number;
  /** Cells compared (finite values and both standard errors finite and > 0). */
  compared: number;
  /** Cells skipped because a standard error is NaN or 0 (or a value is not finite). */
  skipped: number;
  /** Fraction of compared cells with |z| > Z_LIMIT (null when none were compared). */
  fractionAbove: number | null;
  maxAbsZ: number | null;
  /** Cell index of the largest |z| (x fastest, then y, then z), or null. */
  maxAbsZCell: number | null;
  rmsZ: number | null;
  /** fractionAbove > DIFFERS_FRACTION. */
  differs: boolean;
}

/** z statistics of field a (errors ea) against field b (errors eb), cell by cell. */
export function fieldZStats(a: ArrayLike<number>, ea: ArrayLike<number>, b: ArrayLike<number>, eb: ArrayLike<number>): FieldZStats {
  if (a.length !== b.length || ea.length !== a.length || eb.length !== b.length) {
    throw new Error(`fields to compare have different cell counts (${a.length} and ${b.length})`);
  }
  let compared = 0, above = 0, sumSq = 0, maxAbs = -1, maxCell = -1;
  for (let c = 0; c < a.length; c++) {
    const sa = ea[c], sb = eb[c];
    if (!(sa > 0) || !(sb > 0) || !Number.isFinite(sa) || !Number.isFinite(sb) || !Number.isFinite(a[c]) || !Number.isFinite(b[c])) continue;
    const z = (a[c] - b[c]) / Math.sqrt(sa * sa + sb * sb);
    compared += 1;
    sumSq += z * z;
    if (Math.abs(z) > Z_LIMIT) above += 1;
    if (Math.abs(z) > maxAbs) { maxAbs = Math.abs(z); maxCell = c; }
  }
  const fractionAbove = compared > 0 ? above / compared : null;
  return {
    cells: a.length,
    compared,
    skipped: a.length - compared,
    fractionAbove,
    maxAbsZ: compared > 0 ? maxAbs : null,
    maxAbsZCell: compared > 0 ? maxCell : null,
    rmsZ: compared > 0 ? Math.sqrt(sumSq / compared) : null,
    differs: fractionAbove !== null && fractionAbove > DIFFERS_FRACTION,
  };
}
