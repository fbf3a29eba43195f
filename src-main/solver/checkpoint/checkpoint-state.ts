// What a checkpoint holds, and its encoding. A rank's file: the live particles [0, N) in cell-sorted
// order (px, py, pz, vx, vy, vz, cell), per-cell (sigma c_r)_max and NTC remainders of its cells, the step
// and N, its loop history (sampling passes, submits, particle totals) and its exact surface sums. The loop file: the host's
// FieldAccumulator (f64 sums, open block, batch means), the decomposition in force and the block plan.
// No RNG state is stored: the generator is counter-based (Philox keyed by seed, step and particle or cell),
// so the step number is the whole of it.
import type { Decomposition } from '../../cluster/decomposition/types.js';
import type { AccumulatorState } from '../field-accumulator.js';
import { FIELD_NAMES, type Fields } from '../fields.js';
import { PARTICLE_ATTRIBUTES, type ParticleAttribute } from '../particle-attributes.js';
import type { ParticleTotals } from '../phases/conservation.js';
import { CheckpointCorrupt, decodeCheckpoint, encodeCheckpoint, type CheckpointArray } from './checkpoint-codec.js';

/** A loop's bookkeeping that results depend on beyond the GPU state. */
export interface LoopHistory {
  /** Sampling passes so far. */
  samples: number;
  /** Submits so far (the particle-total reductions are taken every few submits). */
  submits: number;
  /** Particle totals before the loop's first step (at step startStep), and after submits so far. */
  startStep: number;
  start: ParticleTotals;
  totalsOverTime: { step: number; totals: ParticleTotals }[];
}

/** One rank's state at a submit boundary. */
export interface RankSnapshot {
  rank: number;
  worldSize: number;
  step: number;
  particles: number;
  cellBase: number;
  nLocal: number;
  /** The live particles in cell order; `cell` as u32 words, the others f32. */
  arrays: Record<ParticleAttribute, Float32Array<ArrayBuffer> | Uint32Array<ArrayBuffer>>;
  sigmaCrMax: Float32Array<ArrayBuffer>;
  remainder: Float32Array<ArrayBuffer>;
  history: LoopHistory;
  /** The rank's exact surface sums so far (int64 each) and the sampled steps they cover (absent in older checkpoints). */
  surface?: { totals: BigInt64Array; sampledSteps: number };
}

/** The host's state at a submit boundary (one per checkpoint). */
export interface LoopSnapshot {
  step: number;
  ranks: number;
  /** SHA-256 of the case JSON the run uses (a checkpoint resumes only its own case). */
  caseHash: string;
  /** The decomposition in force (multi-rank), null for one rank. */
  decomposition: Decomposition | null;
  /** The batch-means plan: blocks cover the loop of `steps` steps after step `from`. */
  blockPlan: { from: number; steps: number };
  fields: AccumulatorState | null;
  /** Dynamic balancing of the run (multi-rank with --rebalance): its threshold and the re-decompositions so far; absent otherwise. */
  rebalance?: { thresholdPercent: number; events: { step: number; unBefore: number }[] } | null;
}

/** Encodes one rank's snapshot as a file. */
export function encodeRankSnapshot(s: RankSnapshot): Buffer {
  const arrays: Record<string, CheckpointArray> = { sigmaCrMax: s.sigmaCrMax, remainder: s.remainder };
  for (const a of PARTICLE_ATTRIBUTES) arrays[`p.${a}`] = s.arrays[a];
  // the int64 surface sums travel as their bytes (two u32 words each)
  if (s.surface) arrays['surface.totals'] = new Uint32Array(s.surface.totals.buffer, s.surface.totals.byteOffset, 2 * s.surface.totals.length);
  const { arrays: _a, sigmaCrMax: _s, remainder: _r, surface, ...meta } = s;
  return encodeCheckpoint('rank', { ...meta, surfaceSampledSteps: surface?.sampledSteps ?? null }, arrays);
}

/** Decodes one rank's file (file: its path, for errors). */
export function decodeRankSnapshot(bytes: Buffer, file: string): RankSnapshot {
  const d = decodeCheckpoint(bytes, file, 'rank');
  const { surfaceSampledSteps, ...meta } = d.meta as Omit<RankSnapshot, 'arrays' | 'sigmaCrMax' | 'remainder' | 'surface'> & { surfaceSampledSteps?: number | null };
  const arrays = {} as RankSnapshot['arrays'];
  for (const a of PARTICLE_ATTRIBUTES) {
    const x = d.arrays[`p.${a}`];
    if (!x || x.length !== meta.particles) throw new CheckpointCorrupt(`checkpoint file ${file} is damaged: particle array ${a} does not hold ${meta.particles} particles`);
    arrays[a] = x as Float32Array<ArrayBuffer> | Uint32Array<ArrayBuffer>;
  }
  const sigmaCrMax = d.arrays.sigmaCrMax as Float32Array<ArrayBuffer>;
  const remainder = d.arrays.remainder as Float32Array<ArrayBuffer>;
  if (sigmaCrMax?.length !== meta.nLocal || remainder?.length !== meta.nLocal) throw new CheckpointCorrupt(`checkpoint file ${file} is damaged: per-cell arrays do not hold ${meta.nLocal} cells`);
  const words = d.arrays['surface.totals'];
  let surface: RankSnapshot['surface'];
  if (words !== undefined || (surfaceSampledSteps ?? null) !== null) {
    if (!(words instanceof Uint32Array) || words.length % 2 !== 0 || typeof surfaceSampledSteps !== 'number') {
      throw new CheckpointCorrupt(`checkpoint file ${file} is damaged: the surface sums are incomplete`);
    }
    surface = { totals: new BigInt64Array(words.buffer, words.byteOffset, words.length / 2), sampledSteps: surfaceSampledSteps };
  }
  return { ...meta, arrays, sigmaCrMax, remainder, ...(surface ? { surface } : {}) };
}

/** Encodes the host's state as a file. */
export function encodeLoopSnapshot(s: LoopSnapshot): Buffer {
  const arrays: Record<string, CheckpointArray> = {};
  let fieldsMeta = null;
  if (s.fields) {
    const f = s.fields;
    arrays['acc.sums'] = f.sums;
    arrays['acc.blockSums'] = f.blockSums;
    for (const k of FIELD_NAMES) {
      arrays[`bm.mean.${k}`] = f.batchMeans.mean[k];
      arrays[`bm.m2.${k}`] = f.batchMeans.m2[k];
    }
    fieldsMeta = { blockPasses: f.blockPasses, blockSubmits: f.blockSubmits, samples: f.samples, blocks: f.batchMeans.blocks };
  }
  return encodeCheckpoint('loop', {
    step: s.step, ranks: s.ranks, caseHash: s.caseHash, decomposition: s.decomposition, blockPlan: s.blockPlan, fields: fieldsMeta,
    rebalance: s.rebalance ?? null,
  }, arrays);
}

/** Decodes the host's state file (file: its path, for errors). */
export function decodeLoopSnapshot(bytes: Buffer, file: string): LoopSnapshot {
  const d = decodeCheckpoint(bytes, file, 'loop');
  const m = d.meta as Omit<LoopSnapshot, 'fields'> & { fields: { blockPasses: number; blockSubmits: number; samples: number; blocks: number } | null };
  let fields: AccumulatorState | null = null;
  if (m.fields) {
    const need = (name: string) => {
      const a = d.arrays[name];
      if (!(a instanceof Float64Array)) throw new CheckpointCorrupt(`checkpoint file ${file} is damaged: array ${name} is missing`);
      return a;
    };
    const fieldsOf = (prefix: string) => Object.fromEntries(FIELD_NAMES.map((k) => [k, need(`${prefix}.${k}`)])) as Fields;
    fields = {
      sums: need('acc.sums'), blockSums: need('acc.blockSums'), blockPasses: m.fields.blockPasses, blockSubmits: m.fields.blockSubmits,
      samples: m.fields.samples, batchMeans: { mean: fieldsOf('bm.mean'), m2: fieldsOf('bm.m2'), blocks: m.fields.blocks },
    };
  }
  return { ...m, fields };
}
