// What a checkpoint holds, and its encoding. A rank's file: the live particles [0, N) in cell-sorted
// order (px, py, pz, vx, vy, vz, cell, and the rotational and vibrational energy when a species has them), per-cell (sigma c_r)_max and NTC remainders of its cells, the step
// and N, its loop history (sampling counters, submits, particle totals), its exact surface sums and its sampling state (the
// GPU's exact moment sums and batch means of its cells). The loop file: the sampling counters, the decomposition in force
// and the block plan.
// No RNG state is stored: the generator is counter-based (Philox keyed by seed, step and particle or cell),
// so the step number is the whole of it.
import type { Decomposition } from '../../cluster/decomposition/types.js';
import type { SampleCounters } from '../field-accumulator.js';
import { SAMPLE_PARTS, type SampleState } from '../sample-buffers.js';
import { PARTICLE_ATTRIBUTES, type ParticleAttribute } from '../particle-attributes.js';
import type { ParticleTotals } from '../phases/conservation.js';
import { CheckpointCorrupt, decodeCheckpoint, encodeCheckpoint, type CheckpointArray } from './checkpoint-codec.js';

/** A loop's bookkeeping that results depend on beyond the GPU state. */
export interface LoopHistory {
  /** Sampling passes and batch-means blocks so far. */
  sampling: SampleCounters;
  /** Submits so far (the particle-total reductions are taken every few submits). */
  submits: number;
  /** Particle totals before the loop's first step (at step startStep), and after submits so far. */
  startStep: number;
  start: ParticleTotals;
  totalsOverTime: { step: number; totals: ParticleTotals }[];
  /** Reacting runs: each reaction's count so far on this rank (absent otherwise). */
  reactionCounts?: number[];
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
  /** The rank's sampling state (exact sums of the run and the open block, batch means) of its local cells; null when the case samples nothing. */
  sampling: SampleState | null;
  /** The live particles' rotational energy (J), in the order of `arrays`; absent when no species rotates. */
  erot?: Float32Array<ArrayBuffer>;
  /** The live particles' vibrational energy (J), in the order of `arrays`; absent when no species vibrates. */
  evib?: Float32Array<ArrayBuffer>;
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
  /** Sampling passes and blocks of the run (the sampling state itself is in the ranks' files); null when it samples nothing. */
  fields: SampleCounters | null;
  /** Dynamic balancing of the run (multi-rank with --rebalance): its threshold and the re-decompositions so far; absent otherwise. */
  rebalance?: {
    thresholdPercent: number; events: { step: number; unBefore: number; unAfter?: number; moved?: number }[];
    /** The checks' back-off after the checkpoint's submit (absent in checkpoints of earlier versions: none). */
    policy?: { wait: number; backoff: number };
    /**
     * The go after the checkpoint's submit (cluster/orchestrator/balance-coordinator.ts KeptGo: a check's round or a
     * re-split the ranks take at the end of the next submit); absent or null: none.
     */
    kept?: Record<string, unknown> | null;
  } | null;
}

/** Encodes one rank's snapshot as a file. */
export function encodeRankSnapshot(s: RankSnapshot): Buffer {
  const arrays: Record<string, CheckpointArray> = { sigmaCrMax: s.sigmaCrMax, remainder: s.remainder };
  for (const a of PARTICLE_ATTRIBUTES) arrays[`p.${a}`] = s.arrays[a];
  // the int64 surface sums travel as their bytes (two u32 words each)
  if (s.surface) arrays['surface.totals'] = new Uint32Array(s.surface.totals.buffer, s.surface.totals.byteOffset, 2 * s.surface.totals.length);
  if (s.sampling) for (const p of SAMPLE_PARTS) arrays[`sample.${p}`] = s.sampling[p];
  if (s.erot) arrays['p.erot'] = s.erot;
  if (s.evib) arrays['p.evib'] = s.evib;
  const { arrays: _a, sigmaCrMax: _s, remainder: _r, surface, sampling, erot: _e, evib: _v, ...meta } = s;
  return encodeCheckpoint('rank', { ...meta, surfaceSampledSteps: surface?.sampledSteps ?? null, sampled: sampling !== null }, arrays);
}

/** Decodes one rank's file (file: its path, for errors). */
export function decodeRankSnapshot(bytes: Buffer, file: string): RankSnapshot {
  const d = decodeCheckpoint(bytes, file, 'rank');
  const { surfaceSampledSteps, sampled, ...meta } = d.meta as Omit<RankSnapshot, 'arrays' | 'sigmaCrMax' | 'remainder' | 'surface' | 'sampling'> & { surfaceSampledSteps?: number | null; sampled?: boolean };
  if (typeof meta.history?.sampling?.samples !== 'number') {
    throw new CheckpointCorrupt(`checkpoint file ${file} was written by an older version whose sampled fields this one cannot continue; start the run again`);
  }
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
  let sampling: SampleState | null = null;
  if (sampled) {
    const part = (p: string) => {
      const a = d.arrays[`sample.${p}`];
      if (!(a instanceof (p === 'welford' ? Float32Array : Uint32Array)) || a.length % meta.nLocal !== 0) throw new CheckpointCorrupt(`checkpoint file ${file} is damaged: sampling state ${p} is missing or the wrong size`);
      return a;
    };
    sampling = Object.fromEntries(SAMPLE_PARTS.map((p) => [p, part(p)])) as SampleState;
  }
  const erot = d.arrays['p.erot'];
  const evib = d.arrays['p.evib'];
  for (const [e, what] of [[erot, 'rotational'], [evib, 'vibrational']] as const) {
    if (e !== undefined && (!(e instanceof Float32Array) || e.length !== meta.particles)) {
      throw new CheckpointCorrupt(`checkpoint file ${file} is damaged: the ${what} energies do not hold ${meta.particles} particles`);
    }
  }
  return {
    ...meta, arrays, sigmaCrMax, remainder, ...(surface ? { surface } : {}), sampling,
    ...(erot ? { erot: erot as Float32Array<ArrayBuffer> } : {}), ...(evib ? { evib: evib as Float32Array<ArrayBuffer> } : {}),
  };
}

/** Encodes the host's state as a file. */
export function encodeLoopSnapshot(s: LoopSnapshot): Buffer {
  return encodeCheckpoint('loop', {
    step: s.step, ranks: s.ranks, caseHash: s.caseHash, decomposition: s.decomposition, blockPlan: s.blockPlan, fields: s.fields,
    rebalance: s.rebalance ?? null,
  }, {});
}

/** Decodes the host's state file (file: its path, for errors). */
export function decodeLoopSnapshot(bytes: Buffer, file: string): LoopSnapshot {
  const d = decodeCheckpoint(bytes, file, 'loop');
  const m = d.meta as LoopSnapshot;
  if (m.fields && typeof (m.fields as { blocks?: unknown }).blocks !== 'number') throw new CheckpointCorrupt(`checkpoint file ${file} is damaged: the sampling counters are incomplete`);
  if (d.arrays['acc.sums']) throw new CheckpointCorrupt(`checkpoint file ${file} was written by an older version whose sampled fields this one cannot continue; start the run again`);
  return m;
}
