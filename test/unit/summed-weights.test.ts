// SummedWeights (the decomposition's summed-area table of per-cell weights) against summing the cells one by one:
// every box sum, plane profile and decomposition (slab, block, rcb) must be exactly the same for particle counts.
import { describe, expect, it } from 'vitest';
import { SummedWeights, boxWeight, decompose, planeProfile, rebalance, type Axis, type Box, type Grid } from '../../src-main/cluster/decomposition/index.js';

/** Deterministic pseudo-random integers (a linear congruential generator), so that the test is the same every run. */
function counts(n: number, seed: number, max: number): Float64Array {
  const out = new Float64Array(n);
  let s = seed >>> 0;
  for (let i = 0; i < n; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    out[i] = s % (max + 1);
  }
  return out;
}

/** Random boxes inside the grid (some empty, some the whole grid). */
function boxes(grid: Grid, n: number): Box[] {
  const r = counts(6 * n, 7, 1 << 20);
  const out: Box[] = [{ lo: [0, 0, 0], hi: [...grid] }, { lo: [1, 1, 1], hi: [1, 2, 2] }];
  for (let k = 0; k < n; k++) {
    const lo = [0, 1, 2].map((a) => r[6 * k + a] % grid[a]);
    const hi = [0, 1, 2].map((a) => lo[a] + 1 + (r[6 * k + 3 + a] % (grid[a] - lo[a])));
    out.push({ lo: lo as Grid, hi: hi as Grid });
  }
  return out;
}

describe('summed weights', () => {
  const grid: Grid = [23, 17, 9];
  const w = counts(grid[0] * grid[1] * grid[2], 12345, 1000);
  const summed = new SummedWeights(grid, w);

  it('give every box sum and plane profile exactly as the cells summed one by one', () => {
    for (const b of boxes(grid, 300)) {
      expect(boxWeight(grid, summed, b)).toBe(boxWeight(grid, w, b));
      for (const axis of [0, 1, 2] as Axis[]) expect(Array.from(planeProfile(grid, summed, b, axis))).toEqual(Array.from(planeProfile(grid, w, b, axis)));
    }
  });

  it('give the same decompositions and rebalances for every method', () => {
    for (const method of ['slab', 'block', 'rcb'] as const) {
      for (const ranks of [2, 3, 4, 8]) {
        expect(decompose(method, grid, ranks, summed)).toEqual(decompose(method, grid, ranks, w));
        const even = decompose(method, grid, ranks);
        expect(rebalance(even, summed)).toEqual(rebalance(even, w));
      }
    }
  });

  it('refuse a negative or non-finite weight and a weight count that does not fit the grid, naming the fix', () => {
    const bad = Float64Array.from(w);
    bad[5] = -1;
    expect(() => new SummedWeights(grid, bad)).toThrow(/weights\[5\] is -1: .*must be finite and >= 0/);
    bad[5] = Number.NaN;
    expect(() => new SummedWeights(grid, bad)).toThrow(/weights\[5\] is NaN/);
    expect(() => new SummedWeights(grid, w.subarray(1))).toThrow(/pass one weight \(particle count\) per cell/);
    expect(() => decompose('slab', [23, 17, 8], 2, summed)).toThrow(/summed over the grid/);
  });
});
