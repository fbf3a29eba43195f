// Fixed-point scales of the exact 64-bit integer sums kept on the GPU (surface sums in body.wgsl, sampled
// moments in sample.wgsl): a value times a power of two, rounded to an integer, so that sums do not depend on
// the order of their terms and no f32 rounding accumulates over a run.
import { FACES, type Case } from '../common/case-schema.js';
import { BOLTZMANN } from '../common/physics.js';

/** 2^k, the largest power of two with 2^k * x <= 2^bits. */
export function fixedScale(x: number, bits: number): number {
  return Math.pow(2, Math.floor(Math.log2(Math.pow(2, bits) / x)));
}

/** A speed few molecules exceed: the fastest flow or wall plus six most probable speeds of the hottest, lightest gas. */
export function speedBound(c: Case, tHot: number): number {
  const mMin = Math.min(...c.species.map((s) => s.mass));
  let flow = Math.hypot(...c.initial.velocity);
  for (const f of FACES) {
    const b = c.boundaries[f];
    if (b.type === 'inflow' || b.type === 'diffuse') flow = Math.max(flow, Math.hypot(...b.velocity));
  }
  for (const b of c.bodies) if (b.surface.model !== 'specular') flow = Math.max(flow, Math.hypot(...b.surface.velocity));
  return flow + 6 * Math.sqrt((2 * BOLTZMANN * tHot) / mMin);
}

/** Bits of one particle's moment at the bound speed: a cell's 64-bit sum holds 2^(62 - 24) such terms per block. */
export const SAMPLE_FIXED_BITS = 24;

/**
 * Scales of the sampled moments of order 1, 2 and 3 (sum v_i, sum v_i v_j, sum v^2 v_i) for the bound speed vmax:
 * one particle at vmax adds at most 2^24 to a sum, and the rounding is 2^-24 of that.
 */
export function sampleScales(vmax: number): [number, number, number] {
  return [1, 2, 3].map((p) => fixedScale(Math.pow(vmax, p), SAMPLE_FIXED_BITS)) as [number, number, number];
}

/**
 * Scale of the sampled internal-energy sums (sum E_rot, sum E_vib, J): one particle at 0.5 mMax vmax^2 (over 36 k T at
 * the hottest temperature of the bound speed) adds at most 2^24, as a moment at the bound speed does.
 */
export function sampleEnergyScale(vmax: number, mMax: number): number {
  return fixedScale(0.5 * mMax * vmax * vmax, SAMPLE_FIXED_BITS);
}
