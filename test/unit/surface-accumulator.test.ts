// The host's surface sums (surface-accumulator.ts): read-backs of the GPU's 64-bit fixed-point words summed as pairs of
// doubles and folded into the exact 64-bit totals give bitwise what adding every read-back as 64-bit integers gives,
// negative values and wrap-around included, whenever the totals are read.
import { describe, expect, it } from 'vitest';
import { DOMAIN_FACE_ELEMENTS, FACE_COPIES, SURFACE_Q } from '../../src-main/common/surface-layout.js';
import { SurfaceAccumulator } from '../../src-main/solver/surface-accumulator.js';

/** The reference: every value of every read-back added as a 64-bit integer (modulo 2^64). */
function reference(reads: Uint32Array[], triangles: number): BigInt64Array {
  const t = new BigInt64Array((triangles + DOMAIN_FACE_ELEMENTS) * SURFACE_Q);
  for (const w of reads) {
    for (let v = 0; v < w.length / 2; v++) {
      const e = Math.floor(v / SURFACE_Q);
      const target = e < triangles ? e : triangles + Math.floor((e - triangles) / FACE_COPIES);
      t[target * SURFACE_Q + (v % SURFACE_Q)] += (BigInt(w[2 * v + 1] | 0) << 32n) + BigInt(w[2 * v]);
    }
  }
  return t;
}

describe('surface accumulator', () => {
  it('sums read-backs exactly as 64-bit integers, read between additions or not', () => {
    const triangles = 7;
    const values = (triangles + DOMAIN_FACE_ELEMENTS * FACE_COPIES) * SURFACE_Q;
    let seed = 12345;
    const rnd = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
    const reads = Array.from({ length: 300 }, (_, k) => {
      const w = new Uint32Array(2 * values);
      for (let v = 0; v < values; v++) {
        if (rnd() % 5 === 0) continue; // zeros are skipped
        w[2 * v] = rnd();
        // high words near the extremes (negative values, sums that wrap past 2^63) and small ones
        w[2 * v + 1] = k % 3 === 0 ? (rnd() % 2 ? 0x7fffffff : 0x80000000) : rnd() % 7;
      }
      return w;
    });
    const acc = new SurfaceAccumulator(triangles + DOMAIN_FACE_ELEMENTS);
    reads.forEach((w, k) => {
      acc.addRaw(w, 2);
      // the totals read midway (a checkpoint, a live view) fold what came so far
      if (k === 150) expect(Array.from(acc.totals)).toEqual(Array.from(reference(reads.slice(0, 151), triangles)));
    });
    expect(Array.from(acc.totals)).toEqual(Array.from(reference(reads, triangles)));
    expect(acc.sampledSteps).toBe(600);
    // merged into another and restored from a copy: the same totals
    const other = new SurfaceAccumulator(triangles + DOMAIN_FACE_ELEMENTS);
    other.merge(acc);
    expect(Array.from(other.totals)).toEqual(Array.from(acc.totals));
    const back = new SurfaceAccumulator(triangles + DOMAIN_FACE_ELEMENTS);
    back.addRaw(reads[0], 1);
    back.restore({ totals: BigInt64Array.from(acc.totals), sampledSteps: 600 });
    expect(Array.from(back.totals)).toEqual(Array.from(acc.totals));
  });
});
