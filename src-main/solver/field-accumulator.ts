// The sampled fields of a run on the host: the GPU sampling state (sample-buffers.ts) in global cell order,
// as read at the end of a run or at a checkpoint, and the counters of the sampling window. The means come
// from the exact 64-bit sums (run plus open block), the standard errors from the GPU's batch means. A one-rank
// run fills it from its own state; a multi-rank run places every rank's state in global order, which gives
// bitwise the same fields.
import { cellVolume, type Case } from '../common/case-schema.js';
import { isSpeciesFieldName, runFieldNames } from '../common/field-names.js';
import { emptyFields, scaleByGasVolume, type FieldName, type Fields } from './fields.js';
import { SAMPLE_MOMENTS } from './gpu/struct-layouts.js';
import { speciesModes } from './internal-fields.js';
import { errorsInto, fieldsOfSumsInto, momentSumsInto, sum64, type EvaluationArrays, type EvaluationSpec } from './field-evaluation.js';
import { evaluateOnThreads } from './field-evaluation-threads.js';
import { sharedOr } from './prefault.js';
import { SAMPLE_PARTS, emptySampleState, partPlanes, sampleLayout, type SampleState } from './sample-buffers.js';
import { addSpeciesFields } from './species-fields.js';
import { copyOwnedCells, takeOwnedCells, type Subdomain } from './subdomain.js';
import type { SolverTables } from './tables.js';

/**
 * Counters of the sampling window (the same on every rank): passes, the open block's passes and its sampled units
 * (blockSubmits: units were submits once; submit-plan.ts countStep), closed blocks.
 */
export interface SampleCounters {
  samples: number;
  blockPasses: number;
  blockSubmits: number;
  blocks: number;
}

/** Counters before the first sampling pass. */
export function noSamples(): SampleCounters {
  return { samples: 0, blockPasses: 0, blockSubmits: 0, blocks: 0 };
}

/** Counts the close of the open block (after advanceCounters said it closes). */
export function closeCounters(k: SampleCounters): void {
  k.blocks += 1;
  k.blockPasses = 0;
  k.blockSubmits = 0;
}

/**
 * SI value of one unit of each field as sample_close keeps its batch means: per-volume fields per sampled particle
 * and cell (n and n_<species>: fnum / cell volume; pressures and heat fluxes: also times the reference mass), the
 * others (x_<species> too) in SI.
 */
export function welfordUnits(kase: Case, t: SolverTables): Record<FieldName, number> {
  const perParticle = t.fnum / cellVolume(kase);
  const flux = perParticle * t.species[0].mass;
  const fixed: Record<string, number> = {
    n: perParticle, ux: 1, uy: 1, uz: 1, T: 1, pxx: flux, pyy: flux, pzz: flux, p: flux, qx: flux, qy: flux, qz: flux, particlesPerSample: 1,
    Trot: 1, Tvib: 1, Tall: 1,
  };
  const species = Object.fromEntries(runFieldNames(false, speciesNames(kase)).filter(isSpeciesFieldName).map((f) => [f, f.startsWith('n_') ? perParticle : 1]));
  return { ...fixed, ...species } as Record<FieldName, number>;
}

/** The names of the case's species, in order (the per-species fields of a mixture). */
export function speciesNames(kase: Case): string[] {
  return kase.species.map((s) => s.name);
}

/** A zeroed f64 array of n values (fresh, or from a prefaulted arena: prefault.ts). */
export type AllocF64 = (n: number) => Float64Array;

/** Zeroed fields of a run over n cells: those of every run, the internal ones where the gas has internal modes, the species ones of a mixture. */
export function blankFields(kase: Case, t: SolverTables, n: number, alloc?: AllocF64): Fields {
  return addSpeciesFields(emptyFields(n, alloc, t.hasRotation), speciesNames(kase), n, alloc);
}

/** 2^-e per moment: turns moment m's fixed-point sums into SI sums (the count is an integer already; internal energies: sampleScaleE). */
export function momentUnscales(t: SolverTables): number[] {
  const p = t.simParams;
  const order = (m: number) => (m === 0 ? 0 : m < 4 ? 1 : m < 10 ? 2 : m < SAMPLE_MOMENTS ? 3 : 4);
  const scales = [1, p.sampleScale1, p.sampleScale2, p.sampleScale3, p.sampleScaleE];
  return Array.from({ length: sampleLayout(t).moments }, (_, m) => 1 / scales[order(m)]);
}

/**
 * Fields from SI moment sums ([moment][species][cell] over nCells cells) over `samples` passes, with the internal
 * temperatures where the gas has internal modes: the fields of listed cells or of a gathered plane.
 */
function fieldsOfSums(kase: Case, t: SolverTables, sums: Float64Array, samples: number, nCells: number): Fields {
  const out = blankFields(kase, t, nCells);
  fieldsOfSumsInto(evaluationSpec(kase, t, nCells, { ...noSamples(), samples }), sums, out, nCells, { from: 0, to: nCells });
  return out;
}

/** The plain-data part of evaluating a state of nCells cells of this case with these counters (field-evaluation.ts). */
export function evaluationSpec(kase: Case, t: SolverTables, nCells: number, counters: SampleCounters): EvaluationSpec {
  const units = welfordUnits(kase, t);
  // the batch means' order on the GPU (sample_close): every run's fields, the internal ones, then the species' in species order
  const errorNames = [...runFieldNames(t.hasRotation, speciesNames(kase))];
  return {
    nCells, samples: counters.samples, blocks: counters.blocks, sampling: t.sampling,
    masses: t.species.map((x) => x.mass), species: speciesNames(kase), fnum: t.fnum, cellVolume: cellVolume(kase),
    moments: sampleLayout(t).moments, unscale: momentUnscales(t), modes: t.hasRotation ? speciesModes(t) : null,
    errorNames, errorUnits: errorNames.map((f) => units[f]),
  };
}

/** The state where it lives in shared memory, else a copy in shared memory (threads can read it). */
function sharedState(s: SampleState): SampleState {
  const copy = <T extends Uint32Array<ArrayBuffer> | Float32Array<ArrayBuffer>>(a: T): T => {
    if (a.buffer instanceof SharedArrayBuffer) return a;
    const c = new (a.constructor as { new (b: SharedArrayBuffer): T })(new SharedArrayBuffer(a.byteLength));
    c.set(a);
    return c;
  };
  return { runLo: copy(s.runLo), runHi: copy(s.runHi), blockLo: copy(s.blockLo), blockHi: copy(s.blockHi), welford: copy(s.welford) };
}

/** Some of the grid's cells: `globalIds[k]` is the grid cell that the accumulator's cell k is (a rank's cells in its local order). */
export interface AccumulatorCells {
  globalIds: Uint32Array;
}

export class FieldAccumulator {
  /** The sampling state of every cell it holds: the whole grid in global order, or `cells` in their order. */
  state: SampleState;
  counters: SampleCounters = noSamples();
  /** Cells it holds (the planes' length). */
  private readonly nCells: number;
  /** Fields and errors placed whole from the ranks' own (usePlaced): fields() and errors() give them. */
  private placed: { fields: Fields; errors: Fields } | null = null;

  /**
   * cells: some of the grid's cells (a rank's), else every cell in global order; alloc: where fields(), errors() and
   * their scratch sums take their arrays (the end of a run: a prefaulted arena), fresh ones by default.
   */
  constructor(private readonly kase: Case, private readonly tables: SolverTables, private readonly cells: AccumulatorCells | null = null, private readonly alloc?: AllocF64) {
    this.nCells = cells ? cells.globalIds.length : tables.nCells;
    this.state = emptySampleState(sampleLayout(tables), tables.sampling ? this.nCells : 0);
  }

  /** From now on fields() and errors() give these (every cell's, placed from the ranks' fields: rank-fields.ts). */
  usePlaced(fields: Fields, errors: Fields): void {
    this.placed = { fields, errors };
  }

  /** Sampling passes so far. */
  get samples(): number {
    return this.counters.samples;
  }

  /** Batch-means blocks closed so far. */
  get blocks(): number {
    return this.counters.blocks;
  }

  /** Places a rank's state (its local cells) into global order; its owned cells only. */
  place(local: SampleState, sub: Subdomain): void {
    const t = this.tables;
    if (!t.sampling) return;
    if (this.cells) throw new Error('internal: a subdomain\'s state is placed into the whole grid\'s accumulator, not into one of some cells');
    if (sub.worldSize === 1) {
      this.state = local; // one rank holds the whole grid in global order: no copy
      return;
    }
    const grid = this.kase.grid.cells;
    for (const part of SAMPLE_PARTS) {
      const planes = partPlanes(part, sampleLayout(t));
      const from = local[part], into = this.state[part];
      for (let k = 0; k < planes; k++) {
        copyOwnedCells(from.subarray(k * sub.nLocal, (k + 1) * sub.nLocal), sub, grid, into.subarray(k * t.nCells, (k + 1) * t.nCells));
      }
    }
  }

  /** The SI moment sums (run plus open block) of the given cells (default all), [moment][species][k] over cells.length entries. */
  momentSums(cells: ArrayLike<number> | null = null, alloc: AllocF64 = (m) => new Float64Array(m)): Float64Array {
    const n = cells ? cells.length : this.nCells;
    const out = alloc(sampleLayout(this.tables).moments * this.tables.species.length * n);
    momentSumsInto(this.spec(), this.state, out, n, cells, 0, n);
    return out;
  }

  /** The plain-data part of evaluating this accumulator's state (field-evaluation.ts). */
  private spec(): EvaluationSpec {
    return evaluationSpec(this.kase, this.tables, this.nCells, this.counters);
  }

  /** The run's fields so far. */
  fields(): Fields {
    if (this.placed) return this.placed.fields;
    const t = this.tables;
    const out = blankFields(this.kase, t, this.nCells, this.alloc);
    if (t.sampling) fieldsOfSumsInto(this.spec(), this.momentSums(null, this.alloc), out, this.nCells, { from: 0, to: this.nCells });
    return scaleByGasVolume(out, t.bodies.volumeFraction, this.cells?.globalIds);
  }

  /** The run's fields so far in the given cells only (out[k] is cell cellIds[k]). */
  fieldsOfCells(cellIds: ArrayLike<number>): Fields {
    if (this.cells) throw new Error('internal: fieldsOfCells takes global cell ids, and this accumulator holds some cells only');
    if (this.placed) throw new Error('internal: fieldsOfCells reads the sums, and this accumulator holds fields placed from the ranks');
    const t = this.tables;
    const n = cellIds.length;
    const out = t.sampling ? fieldsOfSums(this.kase, t, this.momentSums(cellIds), this.samples, n) : blankFields(this.kase, t, n);
    return scaleByGasVolume(out, t.bodies.volumeFraction, cellIds);
  }

  /** Standard errors per cell by batch means: sqrt(M2 / (k - 1) / k) of the block values (NaN with fewer than 2 blocks). */
  errors(): Fields {
    if (this.placed) return this.placed.errors;
    const out = blankFields(this.kase, this.tables, this.nCells, this.alloc);
    errorsInto(this.spec(), this.state.welford, out, 0, this.nCells);
    return scaleByGasVolume(out, this.tables.bodies.volumeFraction, this.cells?.globalIds);
  }

  /**
   * The run's fields and standard errors at once, the cells split over `threads` threads (field-evaluation-threads.ts;
   * bitwise those of fields() and errors()): the end of a sampled run. Its planes come from the allocator where it gives
   * shared memory (an arena), else from fresh shared memory; a state outside shared memory is copied into it first.
   * `threads` says how many evaluated (0: fields placed from the ranks).
   */
  async evaluate(threads: number): Promise<{ fields: Fields; errors: Fields; threads: number }> {
    if (this.placed) return { ...this.placed, threads: 0 };
    const t = this.tables;
    const N = this.nCells;
    const given = this.alloc ?? ((m: number) => new Float64Array(m));
    // threads fill shared memory only: past the arena's end (or without one) their planes come from fresh shared memory
    const alloc = threads > 1 ? (m: number) => sharedOr(given(m)) : given;
    const arrays: EvaluationArrays = {
      // a state outside shared memory (arenas off, or a rebalanced rank's state past its arena) is copied into it
      state: threads > 1 ? sharedState(this.state) : this.state,
      sums: alloc(t.sampling ? sampleLayout(t).moments * t.species.length * N : 0),
      fields: blankFields(this.kase, t, N, alloc),
      errors: blankFields(this.kase, t, N, alloc),
    };
    const used = await evaluateOnThreads(this.spec(), arrays, threads);
    const fraction = t.bodies.volumeFraction, ids = this.cells?.globalIds;
    return { fields: scaleByGasVolume(arrays.fields, fraction, ids), errors: scaleByGasVolume(arrays.errors, fraction, ids), threads: used };
  }
}

/**
 * Fields of a few cells from the sums sample_gather copied ([moment][species][run lo, run hi, block lo, block hi][k])
 * over `samples` passes: the live view's plane.
 */
export function fieldsOfGathered(kase: Case, t: SolverTables, gathered: Uint32Array, cellIds: ArrayLike<number>, samples: number): Fields {
  const S = t.species.length, n = cellIds.length, M = sampleLayout(t).moments;
  const sums = new Float64Array(M * S * n);
  const hi = new Int32Array(gathered.buffer, gathered.byteOffset, gathered.length);
  const unscale = momentUnscales(t);
  for (let m = 0; m < M; m++) {
    for (let s = 0; s < S; s++) {
      const plane = m * S + s;
      const o = 4 * plane * n;
      for (let k = 0; k < n; k++) sums[plane * n + k] = sum64(gathered[o + k], hi[o + n + k], gathered[o + 2 * n + k], hi[o + 3 * n + k]) * unscale[m];
    }
  }
  return scaleByGasVolume(fieldsOfSums(kase, t, sums, samples, n), t.bodies.volumeFraction, cellIds);
}

/** Each rank's sampling state for its new subdomain after a rebalance, from every rank's state over its old one. */
export function redistributeSampleState(kase: Case, t: SolverTables, states: SampleState[], oldSubs: Subdomain[], newSubs: Subdomain[]): SampleState[] {
  const global = new FieldAccumulator(kase, t);
  states.forEach((s, r) => global.place(s, oldSubs[r]));
  return newSubs.map((sub) => {
    const out = emptySampleState(sampleLayout(t), sub.nLocal);
    for (const part of SAMPLE_PARTS) {
      const planes = partPlanes(part, sampleLayout(t));
      for (let k = 0; k < planes; k++) {
        takeOwnedCells(global.state[part].subarray(k * t.nCells, (k + 1) * t.nCells), sub, kase.grid.cells, out[part].subarray(k * sub.nLocal, (k + 1) * sub.nLocal));
      }
    }
    return out;
  });
}
