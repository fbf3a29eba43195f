// Load balance of the decompositions on non-uniform particle fields, the load non-uniformity
// UN = (max - min) / mean * 100 % (Su et al. 2012; shared/reference/PHYSICS.md), rankLoads, shouldRebalance
// and rebalance. The UN table of each field is printed so the numbers can be quoted.
import { describe, expect, it } from 'vitest';
import {
  blockDecomposition,
  decompose,
  loadNonUniformity,
  rankLoads,
  rcbDecomposition,
  rebalance,
  shouldRebalance,
  slabAxisOf,
  slabDecomposition,
  type Grid,
} from '../../src-main/cluster/decomposition/index.js';
import { coverageFault, gaussianBlob } from './decomposition-fixtures.js';

/** UN (%) of one decomposition for a weight field. */
function un(d: ReturnType<typeof slabDecomposition>, w: Float64Array): number {
  return loadNonUniformity(rankLoads(d, w));
}

/** UN of every method (even slabs, weighted slabs, even blocks, weighted blocks, RCB) for each rank count, printed as a table. */
function unTable(title: string, grid: Grid, w: Float64Array, rankCounts: number[]): Record<number, Record<string, number>> {
  const table: Record<number, Record<string, number>> = {};
  for (const ranks of rankCounts) {
    table[ranks] = {
      slab: un(slabDecomposition(grid, ranks), w),
      slabWeighted: un(slabDecomposition(grid, ranks, undefined, w), w),
      block: un(blockDecomposition(grid, ranks), w),
      blockWeighted: un(blockDecomposition(grid, ranks, w), w),
      rcb: un(rcbDecomposition(grid, ranks, w), w),
    };
  }
  const rows = rankCounts.map((r) => `  ${String(r).padStart(2)} ranks: ` + Object.entries(table[r]).map(([k, v]) => `${k} ${v.toFixed(1)}`).join(', '));
  console.info(`UN (%) ${title}\n${rows.join('\n')}`);
  return table;
}

describe('load non-uniformity', () => {
  it('UN = (max - min) / mean * 100', () => {
    expect(loadNonUniformity([100, 100, 100, 100])).toBe(0);
    expect(loadNonUniformity([50, 150])).toBe(100);
    expect(loadNonUniformity([10, 20, 30])).toBe(100);
    expect(loadNonUniformity([90, 100, 110, 100])).toBeCloseTo(20, 12);
    expect(loadNonUniformity(new Float64Array([0, 0, 40]))).toBe(300);
    expect(loadNonUniformity([7])).toBe(0);
    expect(loadNonUniformity([0, 0])).toBe(0);
  });

  it('refuses no ranks and bad counts', () => {
    expect(() => loadNonUniformity([])).toThrow(/at least one rank, got none/);
    expect(() => loadNonUniformity([1, -2])).toThrow(/particle count of rank 1 is -2/);
    expect(() => loadNonUniformity([1, Infinity])).toThrow(/rank 1 is Infinity/);
  });

  it('shouldRebalance: strictly above the threshold', () => {
    expect(shouldRebalance(10.5, 10)).toBe(true);
    expect(shouldRebalance(10, 10)).toBe(false);
    expect(shouldRebalance(0, 0)).toBe(false);
    expect(() => shouldRebalance(5, -1)).toThrow(/threshold must be a finite percentage >= 0, got -1/);
  });

  it('rankLoads sums each box and conserves the total', () => {
    const grid: Grid = [10, 6, 4];
    const w = gaussianBlob(grid, { background: 1, peak: 50, sigma: 2, centre: [0.2, 0.5, 0.5] });
    const total = w.reduce((s, x) => s + x, 0);
    for (const method of ['slab', 'block', 'rcb'] as const) {
      const loads = rankLoads(decompose(method, grid, 4, w), w);
      expect(loads).toHaveLength(4);
      expect(loads.reduce((s, x) => s + x, 0)).toBe(total);
    }
    expect(rankLoads(slabDecomposition([2, 1, 1], 2), new Float64Array([3, 5]))).toEqual([3, 5]);
  });
});

describe('balance on a Gaussian blob (64x48x32 cells, 2 particles per cell background, peak 200, sigma 6 cells)', () => {
  const grid: Grid = [64, 48, 32];
  const w = gaussianBlob(grid, { background: 2, peak: 200, sigma: 6, centre: [0.3, 0.6, 0.5] });

  it("RCB's UN is far below the static slab's; weights help slabs and blocks", () => {
    const t = unTable('Gaussian blob 64x48x32', grid, w, [2, 4, 7, 8, 16]);
    for (const ranks of [4, 7, 8, 16]) {
      expect(t[ranks].slab).toBeGreaterThan(200);
      expect(t[ranks].rcb).toBeLessThan(t[ranks].slab / 10);
      expect(t[ranks].rcb).toBeLessThanOrEqual(t[ranks].slabWeighted);
      expect(t[ranks].slabWeighted).toBeLessThan(t[ranks].slab / 3);
      expect(t[ranks].blockWeighted).toBeLessThan(t[ranks].block / 3);
    }
    expect(t[2].rcb).toBeLessThan(1);
    expect(t[4].rcb).toBeLessThan(2);
    expect(t[8].rcb).toBeLessThan(15);
    expect(t[16].rcb).toBeLessThan(25);
  });
});

describe('balance on a 2D cavity-like field (256x256x1, particles crowd into one corner)', () => {
  const grid: Grid = [256, 256, 1];
  const w = new Float64Array(256 * 256);
  for (let y = 0; y < 256; y++) {
    for (let x = 0; x < 256; x++) w[x + 256 * y] = Math.round(5 + 60 * Math.exp(-(255 - x + (255 - y)) / 40));
  }

  it('RCB keeps UN under 10 % on 4 ranks where static slabs do not', () => {
    const t = unTable('2D corner field 256x256x1', grid, w, [2, 4, 8, 16]);
    expect(t[4].slab).toBeGreaterThan(10);
    expect(t[4].rcb).toBeLessThan(10);
    for (const ranks of [2, 4, 8, 16]) expect(t[ranks].rcb).toBeLessThan(t[ranks].slab);
  });
});

describe('rebalance', () => {
  const grid: Grid = [40, 24, 16];
  const w = gaussianBlob(grid, { background: 1, peak: 80, sigma: 4, centre: [0.8, 0.3, 0.5] });

  it('keeps the method, grid, rank count and slab axis, and lowers UN', () => {
    for (const start of [slabDecomposition(grid, 5, 1), slabDecomposition(grid, 6), blockDecomposition(grid, 6), rcbDecomposition(grid, 6)]) {
      const next = rebalance(start, w);
      expect(next.method).toBe(start.method);
      expect(next.grid).toEqual(grid);
      expect(coverageFault(next, start.boxes.length)).toBe('');
      if (start.method === 'slab') expect(slabAxisOf(next)).toBe(slabAxisOf(start));
      const before = un(start, w);
      const after = un(next, w);
      expect(after, `${start.method}: ${before.toFixed(1)} -> ${after.toFixed(1)}`).toBeLessThan(before / 2);
      expect(shouldRebalance(before, 10)).toBe(true);
    }
  });

  it('is stable: rebalancing with the same weights again changes nothing', () => {
    for (const method of ['slab', 'block', 'rcb'] as const) {
      const once = rebalance(decompose(method, grid, 6), w);
      expect(rebalance(once, w)).toEqual(once);
    }
  });
});
