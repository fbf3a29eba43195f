// Reading a rank's live particles back to the host (tests, exports, checkpoints, the velocity distribution of the
// summary): the per-particle arrays, the internal energies, and what the summary makes of the velocities.
import type { Case } from '../common/case-schema.js';
import { velocityDistribution, type VelocityDistribution } from '../common/velocity-distribution.js';
import { readBuffer } from './gpu/buffers.js';
import { CELL_WORD } from './gpu/struct-layouts.js';
import type { ParticleAttribute } from './particle-attributes.js';
import type { SimState } from './state.js';
import type { SolverTables } from './tables.js';

/** Rotational and vibrational energies (J) per particle. */
export interface InternalEnergies {
  rotational: Float32Array<ArrayBuffer>;
  vibrational: Float32Array<ArrayBuffer>;
}

/** Copies the first n live particles' arrays to the host; u32 arrays come back as bits to reinterpret. */
export async function readParticleArrays(device: GPUDevice, state: SimState, attrs: readonly ParticleAttribute[], n: number): Promise<Record<ParticleAttribute, ArrayBuffer>> {
  const out = {} as Record<ParticleAttribute, ArrayBuffer>;
  for (const a of attrs) out[a] = await readBuffer(device, state.live[a], 4 * n);
  return out;
}

/** Internal energies of the first n live particles, in particle order (zeros when nothing rotates or vibrates). */
export async function readInternalEnergies(device: GPUDevice, state: SimState, n: number): Promise<InternalEnergies> {
  const t = state.tables;
  if (!t.hasRotation) return { rotational: new Float32Array(n), vibrational: new Float32Array(n) };
  const w = t.internalWords;
  const words = new Float32Array(await readBuffer(device, state.liveEint, 4 * w * n));
  const rotational = new Float32Array(n);
  const vibrational = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    rotational[i] = words[w * i];
    if (w > 1) vibrational[i] = words[w * i + 1];
  }
  return { rotational, vibrational };
}

/** The velocity distribution of the first species among particles read back (vx, vy, vz and cell words). */
export function firstSpeciesDistribution(kase: Case, tables: SolverTables, r: Record<'vx' | 'vy' | 'vz' | 'cell', ArrayBuffer>): VelocityDistribution | null {
  const cell = new Uint32Array(r.cell);
  return velocityDistribution(kase.species[0].name, tables.species[0].mass,
    new Float32Array(r.vx), new Float32Array(r.vy), new Float32Array(r.vz), (i) => cell[i] >>> CELL_WORD.BITS === 0);
}

/**
 * Per-cell particle counts of the last sort plus the particles the last step's dissociations appended after it (the
 * last `products` of the n live ones, not yet in any cell's count): what a rebalance weighs and plans its rounds by.
 */
export async function countsWithProducts(device: GPUDevice, state: SimState, counts: Uint32Array<ArrayBuffer>, n: number, products: number,
  localOf: (g: number) => number): Promise<Uint32Array<ArrayBuffer>> {
  if (products <= 0) return counts;
  const words = new Uint32Array(await readBuffer(device, state.live.cell, 4 * products, 4 * (n - products)));
  for (const w of words) counts[localOf(w & CELL_WORD.MASK)] += 1;
  return counts;
}
