// The sampled fields of a run: per-submit f32 moment sums (sample.wgsl, global cell order) folded
// into f64 in submit order, grouped into batch-means blocks for the standard errors. A one-rank run
// feeds it from its own read-back; a multi-rank run feeds it in the orchestrator from the ranks' sums
// placed in global cell order, which gives bitwise the same fields.
import { cellVolume, type Case } from '../common/case-schema.js';
import { BatchMeans } from './field-statistics.js';
import { computeFields, type Fields } from './fields.js';

/** Everything a FieldAccumulator holds, for a checkpoint: f64 sums, the open block, the batch means. */
export interface AccumulatorState {
  sums: Float64Array;
  blockSums: Float64Array;
  blockPasses: number;
  blockSubmits: number;
  samples: number;
  batchMeans: { mean: Fields; m2: Fields; blocks: number };
}
import { SAMPLE_MOMENTS } from './gpu/struct-layouts.js';
import type { SolverTables } from './tables.js';

export class FieldAccumulator {
  /** Raw f64 moment sums (layout of sample.wgsl over all cells). */
  readonly sums: Float64Array;
  private readonly blockSums: Float64Array;
  private blockPasses = 0;
  private blockSubmits = 0;
  private readonly batchMeans: BatchMeans;
  /** Sampling passes so far. */
  samples = 0;

  constructor(private readonly kase: Case, private readonly tables: SolverTables) {
    this.sums = new Float64Array(SAMPLE_MOMENTS * tables.species.length * tables.nCells);
    this.blockSums = new Float64Array(this.sums.length);
    this.batchMeans = new BatchMeans(tables.nCells);
  }

  /** Adds one submit's f32 sums over `passes` sampling passes (global cell order). */
  add(f32: ArrayLike<number>, passes: number): void {
    for (let k = 0; k < f32.length; k++) {
      this.sums[k] += f32[k];
      this.blockSums[k] += f32[k];
    }
    this.samples += passes;
    this.blockPasses += passes;
    this.blockSubmits += 1;
  }

  /** Closes the current batch-means block when it holds `perBlock` sampled submits (or `force`). */
  closeBlock(perBlock: number, force: boolean): void {
    if (this.blockSubmits === 0 || (!force && this.blockSubmits < perBlock)) return;
    this.batchMeans.add(this.fieldsOf(this.blockSums, this.blockPasses));
    this.blockSums.fill(0);
    this.blockPasses = 0;
    this.blockSubmits = 0;
  }

  /** Fields of moment sums over `passes` passes. */
  private fieldsOf(sums: Float64Array, passes: number): Fields {
    const t = this.tables;
    return computeFields(sums, passes, t.species.map((s) => s.mass), t.nCells, t.fnum, cellVolume(this.kase));
  }

  /** The whole state (views of the live arrays: encode them before the next add). */
  state(): AccumulatorState {
    return {
      sums: this.sums, blockSums: this.blockSums, blockPasses: this.blockPasses, blockSubmits: this.blockSubmits,
      samples: this.samples, batchMeans: this.batchMeans.state(),
    };
  }

  /** Continues from a checkpoint's state; throws when its arrays do not fit this grid. */
  restore(s: AccumulatorState): void {
    if (s.sums.length !== this.sums.length || s.blockSums.length !== this.blockSums.length) {
      throw new Error(`checkpoint sampling sums hold ${s.sums.length} values, this case needs ${this.sums.length} (a checkpoint of another case?)`);
    }
    this.sums.set(s.sums);
    this.blockSums.set(s.blockSums);
    this.blockPasses = s.blockPasses;
    this.blockSubmits = s.blockSubmits;
    this.samples = s.samples;
    this.batchMeans.restore(s.batchMeans);
  }

  /** The run's fields so far. */
  fields(): Fields {
    return this.fieldsOf(this.sums, this.samples);
  }

  /** Standard errors per cell by batch means (NaN with fewer than 2 blocks). */
  errors(): Fields {
    return this.batchMeans.errors();
  }

  /** Batch-means blocks closed so far. */
  get blocks(): number {
    return this.batchMeans.count;
  }
}
