// Statistical standard errors of the sampled fields by the method of batch means: the sampling
// passes are grouped into consecutive blocks (about 20 per run), each block's fields are computed
// on their own, and the spread of the block values gives the standard error of the run's value.
// Blocks many steps long make this honest for time-correlated DSMC samples, where the naive
// sigma/sqrt(samples) would be too small.
import { welfordRange } from './field-fold-kernels.js';
import { FIELD_NAMES, emptyFields, type Fields } from './fields.js';

/** Running mean and variance (Welford) of every field of every cell over the blocks. */
export class BatchMeans {
  private readonly mean: Fields;
  private readonly m2: Fields;
  private blocks = 0;

  /** alloc: where the arrays live (shared memory when several threads update them). */
  constructor(private readonly nCells: number, alloc?: (n: number) => Float64Array) {
    this.mean = emptyFields(nCells, alloc);
    this.m2 = emptyFields(nCells, alloc);
  }

  /** Adds one block's fields. */
  add(block: Fields): void {
    this.update((mean, m2, k) => welfordRange(mean, m2, block, k, 0, this.nCells));
  }

  /** Counts one more block, whose values `apply` folds into the running mean and M2 (k: its number from 1). */
  update(apply: (mean: Fields, m2: Fields, k: number) => void): void {
    apply(this.mean, this.m2, this.blocks + 1);
    this.blocks += 1;
  }

  /** The running mean and M2 of every field and the block count, for a checkpoint. */
  state(): { mean: Fields; m2: Fields; blocks: number } {
    return { mean: this.mean, m2: this.m2, blocks: this.blocks };
  }

  /** Continues from a checkpoint's state (arrays copied in; their lengths must match the grid). */
  restore(s: { mean: Fields; m2: Fields; blocks: number }): void {
    for (const name of FIELD_NAMES) {
      this.mean[name].set(s.mean[name]);
      this.m2[name].set(s.m2[name]);
    }
    this.blocks = s.blocks;
  }

  /** Number of blocks so far. */
  get count(): number {
    return this.blocks;
  }

  /** Standard error of each field per cell: sqrt(var(block values) / blocks); NaN with fewer than 2 blocks. */
  errors(): Fields {
    const out = emptyFields(this.nCells);
    const k = this.blocks;
    for (const name of FIELD_NAMES) {
      const e = out[name], m2 = this.m2[name];
      for (let c = 0; c < this.nCells; c++) e[c] = k >= 2 ? Math.sqrt(m2[c] / (k - 1) / k) : NaN;
    }
    return out;
  }
}

/** Submits per block so that a run's sampled submits form about `target` blocks. */
export function submitsPerBlock(sampledSubmits: number, target = 20): number {
  return Math.max(1, Math.ceil(sampledSubmits / target));
}
