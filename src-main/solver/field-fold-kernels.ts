// The per-cell work of folding sampled sums into a run's fields, on a range of cells: adding one submit's f32
// sums to the f64 sums, and closing a batch-means block (its fields, then Welford's update of the block mean
// and M2). Every value depends on its own cell alone, so any split of the cells between threads gives bitwise
// the same arrays as one thread over all of them (field-fold-pool.ts runs these on worker threads).
import { FIELD_NAMES, fillFields, type Fields } from './fields.js';

/** The arrays a fold works on: f64 sums of the whole run and of the open block, the block's fields, the batch means. */
export interface FoldArrays {
  /** Cells of the grid. */
  nCells: number;
  /** Planes of nCells values in the sums (moments x species). */
  planes: number;
  sums: Float64Array;
  blockSums: Float64Array;
  blockFields: Fields;
  mean: Fields;
  m2: Fields;
}

/** What closing a block needs besides the arrays. */
export interface CloseParams {
  /** Sampling passes in the block. */
  passes: number;
  /** The block's number, counting from 1 (Welford's k). */
  k: number;
  masses: number[];
  fnum: number;
  cellVolume: number;
}

/** Adds one submit's f32 sums (same layout) to the run's and the block's f64 sums, cells [from, to). */
export function addRange(a: FoldArrays, input: Float32Array, from: number, to: number): void {
  const { sums, blockSums, nCells } = a;
  for (let p = 0; p < a.planes; p++) {
    const end = p * nCells + to;
    for (let i = p * nCells + from; i < end; i++) {
      const v = input[i];
      sums[i] += v;
      blockSums[i] += v;
    }
  }
}

/** Closes the block on cells [from, to): its fields, the batch means' update, and zeroed block sums. */
export function closeRange(a: FoldArrays, c: CloseParams, from: number, to: number): void {
  fillFields(a.blockFields, a.blockSums, c.passes, c.masses, a.nCells, c.fnum, c.cellVolume, { from, to });
  welfordRange(a.mean, a.m2, a.blockFields, c.k, from, to);
  for (let p = 0; p < a.planes; p++) a.blockSums.fill(0, p * a.nCells + from, p * a.nCells + to);
}

/** Welford's update of the running mean and M2 of every field by block number k's values x, cells [from, to). */
export function welfordRange(mean: Fields, m2: Fields, x: Fields, k: number, from: number, to: number): void {
  for (const name of FIELD_NAMES) {
    const xs = x[name], ms = mean[name], m2s = m2[name];
    for (let c = from; c < to; c++) {
      const d = xs[c] - ms[c];
      ms[c] += d / k;
      m2s[c] += d * (xs[c] - ms[c]);
    }
  }
}
