// Decomposition layer (src-main/cluster/decomposition): slabs, Cartesian blocks and weighted RCB cover every
// grid exactly once with non-empty boxes, fail clearly when they cannot, pick the least-surface block
// factorisation, split RCB weight in proportion to ranks, and stay environment-free.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import {
  DecompositionError,
  blockDecomposition,
  blockFactorisation,
  blockPartsOf,
  boxWeight,
  cellCoords,
  cellId,
  coverageProblems,
  cutSurface,
  decompose,
  isMethod,
  owner,
  ownerAt,
  rcbDecomposition,
  slabAxisOf,
  slabDecomposition,
  type Decomposition,
  type Grid,
  type Method,
} from '../../src-main/cluster/decomposition/index.js';
import { coverageFault, randomInt, randomWeights, seededRandom } from './decomposition-fixtures.js';

/** Grids for the exhaustive coverage loop: cubes, odd sizes, 1-cell-thick 2D and 1D grids. */
const GRIDS: Grid[] = [
  [1, 1, 1], [2, 1, 1], [16, 1, 1], [1, 1, 17], [1, 13, 1], [4, 4, 4], [8, 8, 8], [7, 5, 3], [3, 5, 7],
  [9, 9, 1], [31, 17, 1], [1, 6, 10], [2, 3, 5], [5, 5, 5], [13, 11, 2], [16, 16, 16], [6, 4, 1], [2, 2, 2],
];

/** Builds one method's decomposition, or the DecompositionError it raises. */
function tryBuild(method: Method, grid: Grid, ranks: number, weights?: Float64Array): Decomposition | DecompositionError {
  try {
    return decompose(method, grid, ranks, weights);
  } catch (e) {
    if (e instanceof DecompositionError) return e;
    throw e;
  }
}

/** Whether a method can split grid over ranks without an empty box (what the tests expect). */
function feasible(method: Method, grid: Grid, ranks: number): boolean {
  const cells = grid[0] * grid[1] * grid[2];
  if (ranks > cells) return false;
  if (method === 'slab') return ranks <= Math.max(...grid);
  if (method === 'block') {
    for (let px = 1; px <= ranks; px++) {
      for (let py = 1; px * py <= ranks; py++) {
        const pz = ranks / (px * py);
        if (Number.isInteger(pz) && px <= grid[0] && py <= grid[1] && pz <= grid[2]) return true;
      }
    }
    return false;
  }
  return true;
}

describe('exact coverage', () => {
  for (const method of ['slab', 'block', 'rcb'] as Method[]) {
    it(`${method}: every grid and 1..16 ranks: each cell in exactly one non-empty box, or a DecompositionError when impossible`, () => {
      let built = 0;
      let refused = 0;
      for (const grid of GRIDS) {
        for (let ranks = 1; ranks <= 16; ranks++) {
          const d = tryBuild(method, grid, ranks);
          if (feasible(method, grid, ranks)) {
            expect(d, `${method} ${grid} ranks ${ranks}`).not.toBeInstanceOf(DecompositionError);
            const dd = d as Decomposition;
            expect(coverageFault(dd, ranks), `${method} ${grid} ranks ${ranks}`).toBe('');
            expect(coverageProblems(dd)).toEqual([]);
            expect(dd.method).toBe(method);
            built++;
          } else {
            expect(d, `${method} ${grid} ranks ${ranks}`).toBeInstanceOf(DecompositionError);
            refused++;
          }
        }
      }
      expect(built).toBeGreaterThan(150);
      expect(refused).toBeGreaterThan(0);
    });
  }

  it('seeded random grids, rank counts and weights (500 cases per method, weighted and not)', () => {
    const rand = seededRandom(20240611);
    for (let i = 0; i < 500; i++) {
      const grid: Grid = [randomInt(rand, 1, 24), randomInt(rand, 1, 12), rand() < 0.3 ? 1 : randomInt(rand, 1, 9)];
      const cells = grid[0] * grid[1] * grid[2];
      const ranks = randomInt(rand, 1, Math.min(40, cells));
      const weights = rand() < 0.5 ? randomWeights(grid, rand, 50, rand() * 0.9) : undefined;
      for (const method of ['slab', 'block', 'rcb'] as Method[]) {
        const d = tryBuild(method, grid, ranks, weights);
        const label = `case ${i}: ${method} ${grid} ranks ${ranks} ${weights ? 'weighted' : ''}`;
        if (feasible(method, grid, ranks)) expect(coverageFault(d as Decomposition, ranks), label).toBe('');
        else expect(d, label).toBeInstanceOf(DecompositionError);
      }
    }
  });

  it('RCB with as many ranks as cells gives one cell per rank, even on skewed weights', () => {
    const rand = seededRandom(7);
    for (const grid of [[3, 3, 3], [5, 2, 1], [1, 1, 7], [4, 3, 2]] as Grid[]) {
      const cells = grid[0] * grid[1] * grid[2];
      const d = rcbDecomposition(grid, cells, randomWeights(grid, rand, 1000, 0.5));
      expect(coverageFault(d, cells)).toBe('');
    }
  });
});

describe('clear errors', () => {
  it('more ranks than cells names both numbers and the fix', () => {
    for (const method of ['slab', 'block', 'rcb'] as Method[]) {
      expect(() => decompose(method, [4, 4, 1], 20)).toThrow(
        'cannot split the grid 4x4x1 (16 cells) over 20 ranks: every rank needs at least one cell; use at most 16 ranks or a finer grid',
      );
    }
  });

  it('slabs: more ranks than planes along the axis', () => {
    expect(() => slabDecomposition([8, 4, 2], 10)).toThrow(/cannot cut the grid 8x4x2 \(64 cells\) into 10 slabs along x: it has only 8 planes.*use at most 8 ranks.*block or rcb/);
    expect(() => slabDecomposition([8, 4, 2], 3, 2)).toThrow(/only 2 planes along z.*or another axis/);
  });

  it('blocks: a rank count whose factors do not fit the grid', () => {
    expect(() => blockDecomposition([4, 4, 4], 7)).toThrow(/no Cartesian split px\*py\*pz = 7 fits the grid 4x4x4 \(64 cells\).*--decomposition rcb/);
  });

  it('bad grids, rank counts, axes and weights', () => {
    expect(() => rcbDecomposition([4, 0, 1], 2)).toThrow(/grid \[4,0,1\] is not three positive integers/);
    expect(() => rcbDecomposition([4, 2.5, 1] as Grid, 2)).toThrow(DecompositionError);
    expect(() => rcbDecomposition([4, 4, 1], 0)).toThrow(/ranks must be a positive integer, got 0/);
    expect(() => rcbDecomposition([4, 4, 1], 1.5)).toThrow(/ranks must be a positive integer, got 1.5/);
    expect(() => slabDecomposition([4, 4, 1], 2, 3 as 0)).toThrow(/axis must be 0 \(x\), 1 \(y\) or 2 \(z\), got 3/);
    expect(() => rcbDecomposition([4, 4, 1], 2, new Float64Array(15))).toThrow(
      /weights has 15 entries but the grid 4x4x1 \(16 cells\) has 16: pass one weight/,
    );
    const w = new Float64Array(16);
    w[5] = -1;
    expect(() => slabDecomposition([4, 4, 1], 2, undefined, w)).toThrow(/weights\[5\] is -1: .*must be finite and >= 0/);
    w[5] = NaN;
    expect(() => blockDecomposition([4, 4, 1], 2, w)).toThrow(/weights\[5\] is NaN/);
    expect(() => decompose('strips' as Method, [4, 4, 1], 2)).toThrow(/unknown decomposition method 'strips': use one of slab, block, rcb/);
    expect(() => decompose('constructor' as Method, [4, 4, 1], 2)).toThrow(/unknown decomposition method 'constructor'/);
    expect(['slab', 'block', 'rcb', 'strips', 'constructor'].map(isMethod)).toEqual([true, true, true, false, false]);
  });

  it('owner() refuses a hand-made decomposition with a gap or an overlap, naming the cell', () => {
    const gap: Decomposition = { method: 'slab', grid: [4, 2, 1], boxes: [{ lo: [0, 0, 0], hi: [2, 2, 1] }, { lo: [3, 0, 0], hi: [4, 2, 1] }] };
    expect(() => owner(gap)).toThrow(/2 cells belong to no rank, the first at \(2,0,0\)/);
    const overlap: Decomposition = { method: 'slab', grid: [4, 2, 1], boxes: [{ lo: [0, 0, 0], hi: [3, 2, 1] }, { lo: [2, 0, 0], hi: [4, 2, 1] }] };
    expect(() => owner(overlap)).toThrow(/rank 1's box \[2,4\)x\[0,2\)x\[0,1\) overlaps rank 0's at cell \(2,0,0\), 2 cells in all/);
    const outside: Decomposition = { method: 'rcb', grid: [4, 2, 1], boxes: [{ lo: [0, 0, 0], hi: [5, 2, 1] }] };
    expect(coverageProblems(outside)[0]).toMatch(/reaches outside the grid 4x2x1/);
  });
});

describe('slabs', () => {
  it('cut the longest axis into nearly equal slabs, or the given axis', () => {
    const d = slabDecomposition([10, 30, 4], 4);
    expect(slabAxisOf(d)).toBe(1);
    expect(d.boxes.map((b) => [b.lo[1], b.hi[1]])).toEqual([[0, 7], [7, 15], [15, 22], [22, 30]]);
    expect(slabAxisOf(slabDecomposition([10, 30, 4], 4, 2))).toBe(2);
    expect(slabAxisOf(slabDecomposition([10, 30, 4], 1))).toBeUndefined();
  });

  it('weighted slabs put equal weight in each slab', () => {
    // All the weight in the first 4 of 16 x-planes: 4 ranks get one loaded plane each, the last slab the empty rest.
    const grid: Grid = [16, 2, 2];
    const w = new Float64Array(64);
    for (let g = 0; g < 64; g++) if (cellCoords(grid, g)[0] < 4) w[g] = 10;
    const d = slabDecomposition(grid, 4, 0, w);
    expect(d.boxes.map((b) => [b.lo[0], b.hi[0]])).toEqual([[0, 1], [1, 2], [2, 3], [3, 16]]);
    expect(d.boxes.map((b) => boxWeight(grid, w, b))).toEqual([40, 40, 40, 40]);
  });
});

describe('blocks', () => {
  it('8 ranks on a cube: 2x2x2', () => {
    expect(blockFactorisation([32, 32, 32], 8)).toEqual([2, 2, 2]);
    const d = blockDecomposition([32, 32, 32], 8);
    expect(blockPartsOf(d)).toEqual([2, 2, 2]);
    expect(d.boxes.every((b) => b.hi[0] - b.lo[0] === 16 && b.hi[1] - b.lo[1] === 16 && b.hi[2] - b.lo[2] === 16)).toBe(true);
  });

  it('picks the factorisation with the least cut surface', () => {
    expect(blockFactorisation([64, 64, 64], 64)).toEqual([4, 4, 4]);
    expect(blockFactorisation([16, 16, 1], 4)).toEqual([2, 2, 1]);
    expect(blockFactorisation([64, 16, 16], 4)).toEqual([4, 1, 1]);
    expect(blockFactorisation([64, 32, 16], 8)).toEqual([4, 2, 1]);
    expect(blockFactorisation([60, 40, 20], 12)).toEqual([4, 3, 1]); // 4800 faces; 3x2x2 would cut 5200
    expect(blockFactorisation([5, 5, 5], 2)).toEqual([2, 1, 1]);
    // Brute force over every factorisation agrees on random grids.
    const rand = seededRandom(99);
    for (let i = 0; i < 200; i++) {
      const grid: Grid = [randomInt(rand, 1, 40), randomInt(rand, 1, 40), randomInt(rand, 1, 40)];
      const ranks = randomInt(rand, 1, 48);
      if (!feasible('block', grid, ranks)) continue;
      let least = Infinity;
      for (let px = 1; px <= Math.min(ranks, grid[0]); px++) {
        for (let py = 1; py <= Math.min(ranks, grid[1]); py++) {
          const pz = ranks / (px * py);
          if (Number.isInteger(pz) && pz <= grid[2]) least = Math.min(least, cutSurface(grid, [px, py, pz]));
        }
      }
      expect(cutSurface(grid, blockFactorisation(grid, ranks))).toBe(least);
    }
  });

  it('rank r is block (ix, iy, iz) with r = ix + px*(iy + py*iz)', () => {
    const d = blockDecomposition([12, 9, 4], 12);
    expect(blockPartsOf(d)).toEqual(blockFactorisation([12, 9, 4], 12));
    const [px, py] = blockPartsOf(d);
    d.boxes.forEach((b, r) => {
      const ix = r % px;
      const iy = Math.floor(r / px) % py;
      const iz = Math.floor(r / (px * py));
      expect(b.lo).toEqual([d.boxes[ix].lo[0], d.boxes[iy * px].lo[1], d.boxes[iz * px * py].lo[2]]);
    });
  });
});

describe('recursive coordinate bisection', () => {
  it('uniform weights, 3 ranks on 12^3: the first cut gives 1 rank a third of the cells', () => {
    const d = rcbDecomposition([12, 12, 12], 3);
    expect(d.boxes.map((b) => boxWeight(d.grid, undefined, b))).toEqual([576, 576, 576]);
    expect(d.boxes[0]).toEqual({ lo: [0, 0, 0], hi: [4, 12, 12] });
  });

  it('each side of a cut gets weight in proportion to its ranks (random weights, odd rank counts)', () => {
    const rand = seededRandom(3);
    const grid: Grid = [48, 40, 24];
    const w = randomWeights(grid, rand, 30, 0.1);
    const total = w.reduce((s, x) => s + x, 0);
    for (const ranks of [3, 5, 6, 7, 12]) {
      const loads = rcbDecomposition(grid, ranks, w).boxes.map((b) => boxWeight(grid, w, b));
      for (const l of loads) expect(Math.abs(l - total / ranks) / (total / ranks)).toBeLessThan(0.08);
    }
  });

  it('splits an empty box by volume', () => {
    const d = rcbDecomposition([16, 8, 1], 4, new Float64Array(128));
    expect(d.boxes.map((b) => boxWeight(d.grid, undefined, b))).toEqual([32, 32, 32, 32]);
  });
});

describe('owner lookup', () => {
  it('agrees with the boxes for every cell (all methods, random weights)', () => {
    const rand = seededRandom(11);
    const grid: Grid = [13, 7, 5];
    const w = randomWeights(grid, rand);
    for (const method of ['slab', 'block', 'rcb'] as Method[]) {
      const d = decompose(method, grid, 6, w);
      const map = owner(d);
      expect(map).toBeInstanceOf(Int32Array);
      for (let g = 0; g < map.length; g++) {
        const [x, y, z] = cellCoords(grid, g);
        expect(cellId(grid, x, y, z)).toBe(g);
        const b = d.boxes[ownerAt(map, grid, x, y, z)];
        expect(x >= b.lo[0] && x < b.hi[0] && y >= b.lo[1] && y < b.hi[1] && z >= b.lo[2] && z < b.hi[2]).toBe(true);
      }
    }
  });
});

describe('environment-free', () => {
  it('src-main/cluster/decomposition imports only its own files (no node:*, no packages)', () => {
    const dir = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'src-main', 'cluster', 'decomposition');
    const files = readdirSync(dir).filter((f) => f.endsWith('.ts'));
    expect(files.length).toBeGreaterThan(5);
    for (const f of files) {
      const sf = ts.createSourceFile(f, readFileSync(join(dir, f), 'utf8'), ts.ScriptTarget.Latest, true);
      sf.forEachChild((node) => {
        if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
          expect(node.moduleSpecifier.text, `${f}`).toMatch(/^\.\/[a-z-]+\.js$/);
        }
      });
    }
  });
});
