// Layout of the surface sums: what the GPU accumulates per surface element (each body triangle, then
// the six domain faces) and how the host holds them. One source of truth for surface.wgsl's SURF_*
// constants (checked by test/unit/struct-layouts.test.ts).

/** Quantities summed per element, in this order: incident then reflected number, momentum (x, y, z) and energy. */
export const SURFACE_QUANTITIES = ['nIn', 'pxIn', 'pyIn', 'pzIn', 'eIn', 'nOut', 'pxOut', 'pyOut', 'pzOut', 'eOut'] as const;
/** One surface quantity's name. */
export type SurfaceQuantity = (typeof SURFACE_QUANTITIES)[number];
/** Quantities per element. */
export const SURFACE_Q = SURFACE_QUANTITIES.length;
/** u32 words per element on the GPU: every quantity is a 64-bit two's-complement fixed-point sum (lo, hi). */
export const SURFACE_WORDS = 2 * SURFACE_Q;
/** Domain faces sampled as surface elements after the bodies' triangles, in FACES order. */
export const DOMAIN_FACE_ELEMENTS = 6;
/**
 * Copies of each domain face's sums on the GPU (body.wgsl FACE_COPIES): the wall hits of a step go to one of them
 * by particle index, so their atomics do not all meet on six addresses; the host adds the copies up exactly.
 */
export const FACE_COPIES = 256;

/**
 * Host-side surface sums of one run or one window, over simulated particles (not multiplied by Fnum):
 * per element SURFACE_Q values: hits (count), sum of m v (kg m/s, 3) and sum of m v^2 / 2 (J), for the
 * molecules arriving (In) and leaving (Out). `sampledTime` is the simulated time the sums cover (s).
 */
export interface SurfaceSums {
  elements: number;
  values: Float64Array;
  sampledTime: number;
}

/** An empty set of sums for `elements` elements. */
export function emptySurfaceSums(elements: number): SurfaceSums {
  return { elements, values: new Float64Array(elements * SURFACE_Q), sampledTime: 0 };
}
