// The sampled fields of a run: per-submit f32 moment sums (sample.wgsl, global cell order) folded
// into f64 in submit order, grouped into batch-means blocks for the standard errors. A one-rank run
// feeds it from its own read-back; a multi-rank run feeds it in the orchestrator from the ranks' sums
// placed in global cell order, which gives bitwise the same fields.
import { cellVolume, type Case } from '../common/case-schema.js';
import { BatchMeans } from './field-statistics.js';
import { addRange, closeRange, type FoldArrays } from './field-fold-kernels.js';
import { FoldPool, foldThreads, sharedF64 } from './field-fold-pool.js';
import { computeFields, emptyFields, fillFields, scaleByGasVolume, type Fields } from './fields.js';

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
  /** The arrays the fold works on (in shared memory when it uses several threads). */
  private readonly arrays: FoldArrays;
  /** Threads that fold each submit and block (1: this thread alone). */
  readonly threads: number;
  /** The worker threads, started at the first fold and stopped by releaseThreads(). */
  private pool: FoldPool | null = null;
  /** True once the workers could not start: this accumulator then folds on its own thread. */
  private poolFailed = false;
  /** Threads the last fold ran on (threads, or 1 where the workers could not start). */
  lastFoldThreads = 0;
  /** Sampling passes so far. */
  samples = 0;

  /** options.threads: fold threads (default: by grid size and cores; 1 for small grids). */
  constructor(private readonly kase: Case, private readonly tables: SolverTables, options: { threads?: number } = {}) {
    this.threads = options.threads ?? foldThreads(tables.nCells);
    const alloc = this.threads > 1 ? sharedF64 : (n: number) => new Float64Array(n);
    const planes = SAMPLE_MOMENTS * tables.species.length;
    this.sums = alloc(planes * tables.nCells);
    this.blockSums = alloc(this.sums.length);
    this.batchMeans = new BatchMeans(tables.nCells, alloc);
    const { mean, m2 } = this.batchMeans.state();
    this.arrays = { nCells: tables.nCells, planes, sums: this.sums, blockSums: this.blockSums, blockFields: emptyFields(tables.nCells, alloc), mean, m2 };
  }

  /** Adds one submit's f32 sums over `passes` sampling passes (global cell order). */
  add(f32: Float32Array, passes: number): void {
    if (f32.length !== this.sums.length) throw new Error(`internal: ${f32.length} sampled sums where the grid has ${this.sums.length}`);
    const pool = this.threadPool();
    if (pool) pool.add(f32);
    else addRange(this.arrays, f32, 0, this.tables.nCells);
    this.samples += passes;
    this.blockPasses += passes;
    this.blockSubmits += 1;
  }

  /** Closes the current batch-means block when it holds `perBlock` sampled submits (or `force`). */
  closeBlock(perBlock: number, force: boolean): void {
    if (this.blockSubmits === 0 || (!force && this.blockSubmits < perBlock)) return;
    const t = this.tables;
    const base = { passes: this.blockPasses, masses: t.species.map((x) => x.mass), fnum: t.fnum, cellVolume: cellVolume(this.kase) };
    const pool = this.threadPool();
    // the block's fields, the batch means' update and zeroed block sums, cell by cell
    this.batchMeans.update((_mean, _m2, k) => {
      if (pool) pool.close({ ...base, k });
      else closeRange(this.arrays, { ...base, k }, 0, t.nCells);
    });
    this.blockPasses = 0;
    this.blockSubmits = 0;
  }

  /** Stops the fold's worker threads (a later fold starts them again); the arrays stay. */
  releaseThreads(): void {
    this.pool?.destroy();
    this.pool = null;
  }

  /** The worker pool when this accumulator folds on several threads (started on first use; null if they cannot start). */
  private threadPool(): FoldPool | null {
    if (this.threads <= 1 || this.poolFailed) {
      this.lastFoldThreads = 1;
      return null;
    }
    this.pool ??= FoldPool.start(this.arrays, this.threads);
    this.poolFailed = this.pool === null;
    this.lastFoldThreads = this.pool ? this.threads : 1;
    return this.pool;
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
    return scaleByGasVolume(this.fieldsOf(this.sums, this.samples), this.tables.bodies.volumeFraction);
  }

  /** The run's fields so far in the given cells only (out[k] is cell cellIds[k]): a live slice's plane. */
  fieldsOfCells(cellIds: ArrayLike<number>): Fields {
    const t = this.tables;
    const out = emptyFields(cellIds.length);
    fillFields(out, this.sums, this.samples, t.species.map((x) => x.mass), t.nCells, t.fnum, cellVolume(this.kase), cellIds);
    return scaleByGasVolume(out, t.bodies.volumeFraction, cellIds);
  }

  /** Standard errors per cell by batch means (NaN with fewer than 2 blocks). */
  errors(): Fields {
    return scaleByGasVolume(this.batchMeans.errors(), this.tables.bodies.volumeFraction);
  }

  /** Batch-means blocks closed so far. */
  get blocks(): number {
    return this.batchMeans.count;
  }
}

/** A host array for `n` f32 sums to fold into `acc`: in shared memory when its fold uses worker threads (no copy then). */
export function foldInput(n: number, acc: FieldAccumulator | null): Float32Array {
  return acc && acc.threads > 1 ? new Float32Array(new SharedArrayBuffer(4 * n)) : new Float32Array(n);
}
