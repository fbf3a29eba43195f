// Host side of the surface sums: each read-back of the GPU's 64-bit fixed-point sums (body.wgsl) is
// added exactly, as integers, so the totals do not depend on the order of the hits nor on how many
// ranks saw them; converted to SI sums over simulated particles (SurfaceSums) when results are needed.
import { DOMAIN_FACE_ELEMENTS, FACE_COPIES, SURFACE_Q, type SurfaceSums } from '../common/surface-layout.js';
import type { BodyTables } from './body-tables.js';

/** Exact integer surface sums of one rank (or of all ranks, once merged). */
export class SurfaceAccumulator {
  /** Per element SURFACE_Q fixed-point integers. */
  readonly totals: BigInt64Array;
  /** Sampled steps the sums cover. */
  sampledSteps = 0;

  constructor(readonly elements: number) {
    this.totals = new BigInt64Array(elements * SURFACE_Q);
  }

  /**
   * Adds one read-back of the GPU buffer (2 u32 words per value: low, high; the triangles, then FACE_COPIES copies of
   * each domain face, which are added into their face) covering `steps` sampled steps.
   */
  addRaw(words: Uint32Array, steps: number): void {
    const t = this.totals;
    const nTris = this.elements - DOMAIN_FACE_ELEMENTS;
    const values = words.length / 2;
    if (values !== (nTris + DOMAIN_FACE_ELEMENTS * FACE_COPIES) * SURFACE_Q) {
      throw new Error(`internal: the GPU surface sums hold ${values} values, expected ${(nTris + DOMAIN_FACE_ELEMENTS * FACE_COPIES) * SURFACE_Q}`);
    }
    for (let v = 0; v < values; v++) {
      const lo = words[2 * v];
      const hi = words[2 * v + 1];
      if (lo === 0 && hi === 0) continue;
      const e = Math.floor(v / SURFACE_Q);
      const target = e < nTris ? e : nTris + Math.floor((e - nTris) / FACE_COPIES);
      t[target * SURFACE_Q + (v % SURFACE_Q)] += (BigInt(hi | 0) << 32n) + BigInt(lo);
    }
    this.sampledSteps += steps;
  }

  /** Adds another accumulator's totals (another rank's). */
  merge(other: { totals: BigInt64Array; sampledSteps: number }): void {
    if (other.totals.length !== this.totals.length) {
      throw new Error(`internal: surface sums of ${other.totals.length / SURFACE_Q} elements cannot merge into ${this.elements}`);
    }
    for (let i = 0; i < this.totals.length; i++) this.totals[i] += other.totals[i];
  }

  /** Continues from a checkpoint's sums (none: from zero, as a checkpoint written before surfaces were kept). */
  restore(saved: { totals: BigInt64Array; sampledSteps: number } | undefined): void {
    this.totals.fill(0n);
    this.sampledSteps = 0;
    if (!saved) return;
    if (saved.totals.length !== this.totals.length) {
      throw new Error(`checkpoint surface sums hold ${saved.totals.length / SURFACE_Q} elements, this case has ${this.elements}: a checkpoint of another case, ` +
        'or one written before the faces of box, wedge and cylinder bodies were cut into cell-sized facets (shape.resolution); ' +
        'resume it with the version that started it, or run the case again');
    }
    this.totals.set(saved.totals);
    this.sampledSteps = saved.sampledSteps;
  }

  /** The sums in SI units over simulated particles: counts, m v (kg m/s) and m v^2 / 2 (J). */
  toSums(b: BodyTables, dt: number): SurfaceSums {
    const values = new Float64Array(this.totals.length);
    const p = b.massRef / b.scaleP;
    const e = b.massRef / b.scaleE;
    const unit = [1, p, p, p, e, 1, p, p, p, e];
    for (let i = 0; i < values.length; i++) values[i] = Number(this.totals[i]) * unit[i % SURFACE_Q];
    return { elements: this.elements, values, sampledTime: this.sampledSteps * dt };
  }
}
