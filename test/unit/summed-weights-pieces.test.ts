// SummedWeights of weights in pieces (a decomposition's ranks' own cells, as Rebalancer.commit builds it: only the
// top plane until a box that cuts z needs the whole table) against the table of the same weights as one global array:
// every box sum bit for bit, for counts (uint32, also past 2^32 in total) and for counts plus a price per cell
// (balancing by time, float64 sums in the same order); and coarseCountsOf against adding the cells one by one (uint32
// wrap included).
import { describe, expect, it } from 'vitest';
import { SummedWeights, decompose, type Box, type Decomposition, type Grid } from '../../src-main/cluster/decomposition/index.js';
import { coarseCountsOf, coarseGridWithBlock } from '../../src-main/cluster/decomposition/coarse-grid.js';
import { subdomainOf, takeOwnedCells } from '../../src-main/solver/subdomain.js';

/** Deterministic pseudo-random whole numbers below max + 1 (a linear congruential generator). */
function randoms(n: number, seed: number, max: number): Uint32Array {
  const out = new Uint32Array(n);
  let s = seed >>> 0;
  for (let i = 0; i < n; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    out[i] = s % (max + 1);
  }
  return out;
}

/** Random boxes inside the grid: first those that span it along z, then any. */
function boxesOf(grid: Grid, n: number): Box[] {
  const r = randoms(6 * n, 99, 1 << 20);
  const spanning: Box[] = [];
  const any: Box[] = [{ lo: [0, 0, 0], hi: [...grid] }, { lo: [2, 3, 0], hi: [2, 5, grid[2]] }];
  for (let k = 0; k < n; k++) {
    const lo = [0, 1, 2].map((a) => r[6 * k + a] % grid[a]);
    const hi = [0, 1, 2].map((a) => lo[a] + 1 + (r[6 * k + 3 + a] % (grid[a] - lo[a])));
    spanning.push({ lo: [lo[0], lo[1], 0], hi: [hi[0], hi[1], grid[2]] });
    any.push({ lo: lo as Grid, hi: hi as Grid });
  }
  return [...spanning, ...any];
}

/** Each rank's cells of a global array, in its local order. */
function piecesOf<T extends Uint32Array | Float32Array | Float64Array>(d: Decomposition, global: T, make: (n: number) => T): T[] {
  return d.boxes.map((_, r) => {
    const sub = subdomainOf(d, r);
    const local = make(sub.nLocal);
    takeOwnedCells(global, sub, d.grid, local);
    return local;
  });
}

describe('summed weights of weights in pieces', () => {
  const grid: Grid = [23, 17, 9];
  const counts = randoms(grid[0] * grid[1] * grid[2], 12345, 1000);
  const splits = [decompose('rcb', grid, 5), decompose('slab', grid, 3), decompose('block', grid, 6), decompose('slab', grid, 1)];

  it.each(splits.map((d) => [`${d.method} ${d.boxes.length}`, d] as const))('%s: give every box sum of counts, and of float64 loads (counts plus a price per cell), bit for bit', (_, d) => {
    const pieces = piecesOf(d, counts, (n) => new Uint32Array(n));
    const whole = new SummedWeights(grid, counts);
    const byCounts = new SummedWeights(grid, { boxes: d.boxes, weights: pieces });
    const price = 0.37;
    const loads = new SummedWeights(grid, Float64Array.from(counts, (c) => c + price));
    const byTime = new SummedWeights(grid, { boxes: d.boxes, weights: piecesOf(d, Float64Array.from(counts, (c) => c + price), (n) => new Float64Array(n)) });
    for (const b of boxesOf(grid, 200)) {
      expect(byCounts.boxSum(b)).toBe(whole.boxSum(b));
      expect(byTime.boxSum(b)).toBe(loads.boxSum(b));
    }
  });

  it('sum counts of 2^32 particles or more in float64, as exact', () => {
    const big = Uint32Array.from(counts, (c, g) => (g % 7 === 0 ? 4e9 : c));
    const d = splits[0];
    const byCounts = new SummedWeights(grid, { boxes: d.boxes, weights: piecesOf(d, big, (n) => new Uint32Array(n)) });
    const whole = new SummedWeights(grid, Float64Array.from(big));
    // the whole table first (a box that cuts z), then the rest
    for (const b of [{ lo: [0, 0, 1], hi: [5, 5, 2] } as Box, ...boxesOf(grid, 100)]) expect(byCounts.boxSum(b)).toBe(whole.boxSum(b));
  });

  it('refuse pieces that do not cover the grid once, and a bad weight in them', () => {
    const d = splits[0];
    const pieces = piecesOf(d, counts, (n) => new Uint32Array(n));
    expect(() => new SummedWeights(grid, { boxes: d.boxes.slice(1), weights: pieces.slice(1) })).toThrow(/must be a decomposition's/);
    expect(() => new SummedWeights(grid, { boxes: [d.boxes[0], ...d.boxes], weights: [pieces[0], ...pieces] })).toThrow(/must be a decomposition's/);
    const bad = piecesOf(d, Float64Array.from(counts, (c, g) => (g === 77 ? Number.NaN : c)), (n) => new Float64Array(n));
    expect(() => new SummedWeights(grid, { boxes: d.boxes, weights: bad })).toThrow(/is NaN/);
  });
});

describe('coarse counts', () => {
  it('are the cells added one by one into their blocks, wrapping as uint32 does', () => {
    const grid: Grid = [17, 13, 8];
    const counts = randoms(grid[0] * grid[1] * grid[2], 7, 0xffffffff);
    for (const block of [1, 2, 3, 5]) {
      const cg = coarseGridWithBlock(grid, block);
      const d = decompose('rcb', grid, 3);
      piecesOf(d, counts, (k) => new Uint32Array(k)).forEach((local, r) => {
        const box = d.boxes[r];
        const expected = new Uint32Array(cg.grid[0] * cg.grid[1] * cg.grid[2]);
        let l = 0;
        for (let z = box.lo[2]; z < box.hi[2]; z++) for (let y = box.lo[1]; y < box.hi[1]; y++) for (let x = box.lo[0]; x < box.hi[0]; x++) {
          expected[Math.floor(x / block) + cg.grid[0] * (Math.floor(y / block) + cg.grid[1] * Math.floor(z / block))] += local[l++];
        }
        expect(coarseCountsOf(local, box, cg)).toEqual(expected);
      });
    }
  });
});
