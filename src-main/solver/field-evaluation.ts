// The evaluation of sampled fields over a range of cells: the SI moment sums from the exact 64-bit run and block sums,
// the fields (with the internal temperatures and the species' fields where the gas has them) and the standard errors
// from the batch means. Plain data in, arrays out, no solver tables: the same code runs on the calling thread
// (field-accumulator.ts) and on worker threads over shared memory (field-evaluation-threads.ts). Every value depends on
// its own cell only, so any split of the cells gives bitwise the same planes.
import type { Fields, FieldName } from '../common/field-names.js';
import { fillFields } from './fields.js';
import { fillInternalFields, type SpeciesModes } from './internal-fields.js';
import type { SampleState } from './sample-buffers.js';
import { fillSpeciesFields } from './species-fields.js';

/** What the evaluation of a state needs besides its arrays (structured-cloneable: posted to worker threads). */
export interface EvaluationSpec {
  /** Cells of the state's planes. */
  nCells: number;
  /** Sampling passes and closed batch-means blocks of the window. */
  samples: number;
  blocks: number;
  /** False when the case samples nothing (fields stay zero, errors NaN). */
  sampling: boolean;
  /** Species masses (kg), in order; the species' names (their fields where two or more). */
  masses: number[];
  species: string[];
  /** Simulated molecules per particle and the cell volume (m^3). */
  fnum: number;
  cellVolume: number;
  /** Moments per species and 2^-e per moment (fixed point to SI: momentUnscales). */
  moments: number;
  unscale: number[];
  /** The species' internal modes where the gas has them (Trot, Tvib, Tall), else null. */
  modes: SpeciesModes[] | null;
  /** The batch means' fields in sample_close's order and the SI value of one unit of each (welfordUnits). */
  errorNames: FieldName[];
  errorUnits: number[];
}

/** The 64-bit sum (lo, hi) plus (lo2, hi2) as a double (exact below 2^53). */
export function sum64(lo: number, hi: number, lo2: number, hi2: number): number {
  const l = lo + lo2; // both u32: the carry is what passes 2^32
  const carry = l >= 4294967296 ? 1 : 0;
  return ((hi + hi2 + carry) | 0) * 4294967296 + (l - carry * 4294967296);
}

/**
 * SI moment sums (run plus open block) into out ([moment][species][k] over n entries): entry k is state cell cells[k]
 * (a list) or cell k (null); entries from..to only.
 */
export function momentSumsInto(spec: EvaluationSpec, state: SampleState, out: Float64Array, n: number, cells: ArrayLike<number> | null, from: number, to: number): void {
  const S = spec.masses.length, N = spec.nCells;
  const { runLo, runHi, blockLo, blockHi } = state;
  const runHiS = new Int32Array(runHi.buffer, runHi.byteOffset, runHi.length);
  const blockHiS = new Int32Array(blockHi.buffer, blockHi.byteOffset, blockHi.length);
  for (let m = 0; m < spec.moments; m++) {
    for (let s = 0; s < S; s++) {
      const plane = m * S + s, u = spec.unscale[m];
      for (let k = from; k < to; k++) {
        const w = plane * N + (cells ? cells[k] : k);
        out[plane * n + k] = sum64(runLo[w], runHiS[w], blockLo[w], blockHiS[w]) * u;
      }
    }
  }
}

/**
 * Fields from SI moment sums ([moment][species][cell] over nCells) into out: cells from..to of a range (out[c] is
 * cell c), or out[k] for cell ids[k] of a list (the whole list).
 */
export function fieldsOfSumsInto(spec: EvaluationSpec, sums: Float64Array, out: Fields, nCells: number, cells: { from: number; to: number } | ArrayLike<number>): void {
  fillFields(out, sums, spec.samples, spec.masses, nCells, spec.fnum, spec.cellVolume, cells);
  if (spec.modes) fillInternalFields(out, sums, spec.modes, nCells, cells);
  fillSpeciesFields(out, sums, spec.samples, spec.species, nCells, spec.fnum, spec.cellVolume, cells);
}

/** Standard errors by batch means, sqrt(M2 / (k - 1) / k) of the block values (NaN with fewer than 2 blocks), of cells from..to. */
export function errorsInto(spec: EvaluationSpec, welford: Float32Array, out: Fields, from: number, to: number): void {
  const N = spec.nCells, k = spec.blocks, F = spec.errorNames.length;
  const valid = k >= 2 && spec.sampling;
  spec.errorNames.forEach((name, f) => {
    const e = out[name];
    if (!e) throw new Error(`internal: the standard errors are filled into fields that have ${name}`);
    const u = spec.errorUnits[f];
    const m2 = (F + f) * N;
    for (let c = from; c < to; c++) e[c] = valid ? u * Math.sqrt(Math.max(0, welford[m2 + c]) / (k - 1) / k) : NaN;
  });
}

/** The arrays one evaluation reads and fills (in shared memory where threads share the work). */
export interface EvaluationArrays {
  state: SampleState;
  /** SI moment sums scratch, [moment][species][cell] over spec.nCells. */
  sums: Float64Array;
  fields: Fields;
  errors: Fields;
}

/** The whole evaluation (moment sums, fields, errors) of cells from..to: one thread's share. */
export function evaluateRange(spec: EvaluationSpec, a: EvaluationArrays, from: number, to: number): void {
  if (spec.sampling) {
    momentSumsInto(spec, a.state, a.sums, spec.nCells, null, from, to);
    fieldsOfSumsInto(spec, a.sums, a.fields, spec.nCells, { from, to });
  }
  errorsInto(spec, a.state.welford, a.errors, from, to);
}
