// Host side of the surface sums: each read-back of the GPU's 64-bit fixed-point sums (body.wgsl) is
// added exactly, as integers, so the totals do not depend on the order of the hits nor on how many
// ranks saw them; converted to SI sums over simulated particles (SurfaceSums) when results are needed.
import { DOMAIN_FACE_ELEMENTS, FACE_COPIES, SURFACE_Q, type SurfaceSums } from '../common/surface-layout.js';
import type { BodyTables } from './body-tables.js';

/** Exact integer surface sums of one rank (or of all ranks, once merged). */
export class SurfaceAccumulator {
  /** Sampled steps the sums cover. */
  sampledSteps = 0;
  /** Per element SURFACE_Q fixed-point integers, up to the last fold. */
  private readonly exact: BigInt64Array;
  /**
   * The read-backs since the last fold, per value: their high words (signed) and low words (unsigned) summed as doubles,
   * exact while below 2^53, i.e. for 2^20 read-backs (folded before); BigInt arithmetic per value and read-back cost a
   * sampled submit's end 5 ms on the wedge's ranks, every rank waiting.
   */
  private readonly pendingHi: Float64Array;
  private readonly pendingLo: Float64Array;
  private pendingReads = 0;

  constructor(readonly elements: number) {
    this.exact = new BigInt64Array(elements * SURFACE_Q);
    this.pendingHi = new Float64Array(elements * SURFACE_Q);
    this.pendingLo = new Float64Array(elements * SURFACE_Q);
  }

  /** Per element SURFACE_Q fixed-point integers (the read-backs so far folded in). */
  get totals(): BigInt64Array {
    this.fold();
    return this.exact;
  }

  /**
   * Adds one read-back of the GPU buffer (2 u32 words per value: low, high; the triangles, then FACE_COPIES copies of
   * each domain face, which are added into their face) covering `steps` sampled steps.
   */
  addRaw(words: Uint32Array, steps: number): void {
    const hiSums = this.pendingHi, loSums = this.pendingLo;
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
      const i = target * SURFACE_Q + (v % SURFACE_Q);
      hiSums[i] += hi | 0;
      loSums[i] += lo;
    }
    this.sampledSteps += steps;
    this.pendingReads += 1;
    if (this.pendingReads >= 1 << 20) this.fold();
  }

  /** Adds the pending sums into the exact totals (modulo 2^64, as every addition into them: the order does not matter). */
  private fold(): void {
    if (this.pendingReads === 0) return;
    const hiSums = this.pendingHi, loSums = this.pendingLo, t = this.exact;
    for (let i = 0; i < t.length; i++) {
      if (hiSums[i] === 0 && loSums[i] === 0) continue;
      t[i] += (BigInt(hiSums[i]) << 32n) + BigInt(loSums[i]);
    }
    hiSums.fill(0);
    loSums.fill(0);
    this.pendingReads = 0;
  }

  /** Adds another accumulator's totals (another rank's). */
  merge(other: { totals: BigInt64Array; sampledSteps: number }): void {
    // each side's pending read-backs folded once, not at every element
    const mine = this.totals, theirs = other.totals;
    if (theirs.length !== mine.length) {
      throw new Error(`internal: surface sums of ${theirs.length / SURFACE_Q} elements cannot merge into ${this.elements}`);
    }
    for (let i = 0; i < mine.length; i++) mine[i] += theirs[i];
  }

  /** Continues from a checkpoint's sums (none: from zero, as a checkpoint written before surfaces were kept). */
  restore(saved: { totals: BigInt64Array; sampledSteps: number } | undefined): void {
    this.pendingHi.fill(0);
    this.pendingLo.fill(0);
    this.pendingReads = 0;
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
