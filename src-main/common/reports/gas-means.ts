// Mean state of the gas over a run's sampled cells, as a SPARTA user reads it from `compute temp` and
// `compute grid` averages: the number density averaged over the cells that hold gas, and the translational,
// rotational and vibrational temperatures weighted by the cells' densities (cells with more molecules count more),
// each with a standard error from the cells' batch-means errors (cells taken as independent).
import type { FieldName } from '../field-names.js';

/** A mean with its standard error (NaN when the run had fewer than two batch-means blocks). */
export interface MeanValue {
  mean: number;
  error: number;
}

/** The gas means of a run; the internal temperatures only where the gas has internal modes. */
export interface GasMeans {
  /** Cells that held gas (at least one simulated particle per sample on average). */
  gasCells: number;
  n: MeanValue;
  T: MeanValue;
  Trot?: MeanValue;
  Tvib?: MeanValue;
}

type FieldArrays = Partial<Record<FieldName, ArrayLike<number>>>;

/** The weighted mean of `value` over `cells` and its standard error; NaN error when any cell's error is NaN. */
function weightedMean(cells: number[], value: ArrayLike<number>, error: ArrayLike<number> | undefined, weight: (c: number) => number): MeanValue {
  let sw = 0, swx = 0, swe2 = 0;
  for (const c of cells) {
    const w = weight(c);
    sw += w;
    swx += w * value[c];
    const e = error ? error[c] : NaN;
    swe2 += w * w * e * e;
  }
  return sw > 0 ? { mean: swx / sw, error: Math.sqrt(swe2) / sw } : { mean: NaN, error: NaN };
}

/** The gas means of sampled fields and their errors (null when no cell held gas). */
export function gasMeans(values: FieldArrays, errors: FieldArrays): GasMeans | null {
  const pps = values.particlesPerSample, n = values.n, T = values.T;
  if (!pps || !n || !T) return null;
  const cells: number[] = [];
  for (let c = 0; c < pps.length; c++) if (pps[c] > 0) cells.push(c);
  if (cells.length === 0) return null;
  const byDensity = (c: number) => n[c];
  const out: GasMeans = {
    gasCells: cells.length,
    n: weightedMean(cells, n, errors.n, () => 1),
    T: weightedMean(cells, T, errors.T, byDensity),
  };
  if (values.Trot) out.Trot = weightedMean(cells, values.Trot, errors.Trot, byDensity);
  if (values.Tvib) out.Tvib = weightedMean(cells, values.Tvib, errors.Tvib, byDensity);
  return out;
}
