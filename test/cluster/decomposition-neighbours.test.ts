// Neighbour sets (face, edge and corner contact, periodic wrap-around, longer reach) and migration plans
// between two decompositions (every cell moves at most once, from its old owner to its new one).
import { describe, expect, it } from 'vitest';
import {
  blockDecomposition,
  boxCells,
  decompose,
  migrationPlan,
  neighbours,
  owner,
  rcbDecomposition,
  rebalance,
  slabDecomposition,
  type Decomposition,
  type Grid,
  type Method,
} from '../../src-main/cluster/decomposition/index.js';
import { gaussianBlob, randomInt, randomWeights, seededRandom } from './decomposition-fixtures.js';

type Periodic = [boolean, boolean, boolean];
const OPEN: Periodic = [false, false, false];
const ALL: Periodic = [true, true, true];

/** Checks that every neighbour list is sorted, has no self or duplicates, and that j in n[i] iff i in n[j]. */
function expectSymmetric(n: number[][]): void {
  n.forEach((list, i) => {
    expect(list).toEqual([...new Set(list)].sort((a, b) => a - b));
    expect(list).not.toContain(i);
    for (const j of list) expect(n[j]).toContain(i);
  });
}

/** Checks by sampling that a cell moved by at most reach cells per axis lands in its own or a neighbour's box. */
function expectReachable(d: Decomposition, periodic: Periodic, reach: number, rand: () => number, samples = 3000): void {
  const map = owner(d);
  const n = neighbours(d, periodic, reach);
  const [nx, ny, nz] = d.grid;
  for (let s = 0; s < samples; s++) {
    const from = [randomInt(rand, 0, nx - 1), randomInt(rand, 0, ny - 1), randomInt(rand, 0, nz - 1)];
    const to = from.map((c, a) => c + randomInt(rand, -reach, reach));
    let inside = true;
    for (let a = 0; a < 3; a++) {
      if (periodic[a]) to[a] = ((to[a] % d.grid[a]) + d.grid[a]) % d.grid[a];
      else if (to[a] < 0 || to[a] >= d.grid[a]) inside = false;
    }
    if (!inside) continue;
    const r0 = map[from[0] + nx * (from[1] + ny * from[2])];
    const r1 = map[to[0] + nx * (to[1] + ny * to[2])];
    if (r0 !== r1) expect(n[r0], `${from} -> ${to} (rank ${r0} -> ${r1})`).toContain(r1);
  }
}

describe('neighbours', () => {
  it('slabs: a chain, a ring when the slab axis is periodic', () => {
    const d = slabDecomposition([20, 4, 4], 4);
    expect(neighbours(d, OPEN)).toEqual([[1], [0, 2], [1, 3], [2]]);
    expect(neighbours(d, [true, false, false])).toEqual([[1, 3], [0, 2], [1, 3], [0, 2]]);
    // Periodic along an axis that is not cut changes nothing.
    expect(neighbours(d, [false, true, true])).toEqual(neighbours(d, OPEN));
    // Two slabs touch twice when periodic, listed once.
    expect(neighbours(slabDecomposition([20, 4, 4], 2), ALL)).toEqual([[1], [0]]);
  });

  it('blocks 2x2x2: faces, edges and corners all count, so every rank touches the 7 others', () => {
    const n = neighbours(blockDecomposition([8, 8, 8], 8), OPEN);
    n.forEach((list, i) => expect(list).toEqual([0, 1, 2, 3, 4, 5, 6, 7].filter((j) => j !== i)));
  });

  it('blocks 3x3x3: the centre touches 26, a corner 7, an edge 11, a face 17; all 26 when periodic', () => {
    const d = blockDecomposition([9, 9, 9], 27);
    const n = neighbours(d, OPEN);
    expect(n[13]).toHaveLength(26);
    expect(n[0]).toEqual([1, 3, 4, 9, 10, 12, 13]);
    expect(n[1]).toHaveLength(11);
    expect(n[4]).toHaveLength(17);
    expectSymmetric(n);
    for (const list of neighbours(d, ALL)) expect(list).toHaveLength(26);
    // Periodic in x only: a corner block (0,0,0) reaches x = 2 blocks too: 7 + 4.
    expect(neighbours(d, [true, false, false])[0]).toEqual([1, 2, 3, 4, 5, 9, 10, 11, 12, 13, 14]);
  });

  it('2D grid one cell thick: wrap in z never adds a neighbour', () => {
    const d = blockDecomposition([12, 12, 1], 9);
    expect(neighbours(d, [false, false, true])).toEqual(neighbours(d, OPEN));
    expect(neighbours(d, OPEN)[4]).toEqual([0, 1, 2, 3, 5, 6, 7, 8]);
  });

  it('symmetric, and a one-cell (or reach-cell) move lands in a neighbour: random RCB, slab and block splits', () => {
    const rand = seededRandom(42);
    for (let i = 0; i < 60; i++) {
      const grid: Grid = [randomInt(rand, 2, 30), randomInt(rand, 2, 20), rand() < 0.3 ? 1 : randomInt(rand, 2, 12)];
      const method = (['slab', 'block', 'rcb'] as Method[])[i % 3];
      const ranks = randomInt(rand, 1, 16);
      let d: Decomposition;
      try {
        d = decompose(method, grid, ranks, randomWeights(grid, rand));
      } catch {
        continue; // slab or block infeasible for this grid and rank count: covered in decomposition.test.ts
      }
      const periodic: Periodic = [rand() < 0.5, rand() < 0.5, rand() < 0.5];
      const reach = i % 4 === 3 ? 3 : 1;
      expectSymmetric(neighbours(d, periodic, reach));
      expectReachable(d, periodic, reach, rand, 1500);
    }
  });

  it('a longer reach finds ranks beyond the touching ones; reach 0 finds none', () => {
    const d = slabDecomposition([16, 2, 2], 8);
    expect(neighbours(d, OPEN, 3)[0]).toEqual([1, 2]);
    expect(neighbours(d, OPEN, 0)).toEqual(d.boxes.map(() => []));
    expect(() => neighbours(d, OPEN, -1)).toThrow(/reach must be a whole number of cells >= 0, got -1/);
  });
});

describe('migrationPlan', () => {
  /** Checks a plan moves every cell whose owner changes exactly once, from old owner to new, and no other cell. */
  function expectConserving(old: Decomposition, next: Decomposition): number {
    const before = owner(old);
    const after = owner(next);
    const moved = new Int32Array(before.length);
    const [nx, ny] = old.grid;
    const plan = migrationPlan(old, next);
    for (const m of plan) {
      expect(m.from).not.toBe(m.to);
      expect(m.cells).toBe(boxCells(m.box));
      for (let z = m.box.lo[2]; z < m.box.hi[2]; z++) {
        for (let y = m.box.lo[1]; y < m.box.hi[1]; y++) {
          for (let x = m.box.lo[0]; x < m.box.hi[0]; x++) {
            const g = x + nx * (y + ny * z);
            expect(before[g]).toBe(m.from);
            expect(after[g]).toBe(m.to);
            moved[g]++;
          }
        }
      }
    }
    let changed = 0;
    for (let g = 0; g < before.length; g++) {
      expect(moved[g]).toBe(before[g] === after[g] ? 0 : 1);
      if (before[g] !== after[g]) changed++;
    }
    expect(plan.reduce((s, m) => s + m.cells, 0)).toBe(changed);
    return changed;
  }

  it('rebalancing a static split on a blob: every cell moves once, to its new owner', () => {
    const grid: Grid = [32, 24, 8];
    const w = gaussianBlob(grid, { background: 1, peak: 60, sigma: 3, centre: [0.2, 0.7, 0.5] });
    for (const method of ['slab', 'block', 'rcb'] as Method[]) {
      const old = decompose(method, grid, 6);
      expect(expectConserving(old, rebalance(old, w))).toBeGreaterThan(0);
    }
  });

  it('between RCB splits of different rank counts and weights, on random grids', () => {
    const rand = seededRandom(5);
    for (let i = 0; i < 80; i++) {
      const grid: Grid = [randomInt(rand, 1, 20), randomInt(rand, 1, 12), randomInt(rand, 1, 6)];
      const cells = grid[0] * grid[1] * grid[2];
      const a = rcbDecomposition(grid, randomInt(rand, 1, Math.min(12, cells)), randomWeights(grid, rand));
      const b = rcbDecomposition(grid, randomInt(rand, 1, Math.min(12, cells)), randomWeights(grid, rand));
      expectConserving(a, b);
      expectConserving(b, a);
    }
  });

  it('is empty between a decomposition and itself, sorted by from then to, and refuses different grids', () => {
    const d = rcbDecomposition([10, 10, 10], 5);
    expect(migrationPlan(d, d)).toEqual([]);
    const plan = migrationPlan(slabDecomposition([12, 4, 4], 3), slabDecomposition([12, 4, 4], 3, 1));
    expect(plan.map((m) => [m.from, m.to])).toEqual([[0, 1], [0, 2], [1, 0], [1, 2], [2, 0], [2, 1]]);
    expect(() => migrationPlan(d, rcbDecomposition([10, 10, 9], 5))).toThrow(
      /cannot migrate between decompositions of different grids \(10x10x10 \(1000 cells\) and 10x10x9 \(900 cells\)\)/,
    );
  });
});
