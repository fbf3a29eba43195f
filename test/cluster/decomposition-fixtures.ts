// Helpers for the decomposition tests: a seeded random generator, weight fields, and a coverage count
// written independently of the library (plain loops over each box).
import type { Decomposition, Grid } from '../../src-main/cluster/decomposition/index.js';
import { seededUniform } from '../seeded-random.js';

/** Seeded uniform random numbers in [0, 1), so every failure reproduces. */
export const seededRandom = seededUniform;

/** Random integer in [lo, hi]. */
export function randomInt(rand: () => number, lo: number, hi: number): number {
  return lo + Math.floor(rand() * (hi - lo + 1));
}

/** Particle counts per cell: a background plus a Gaussian blob of the given peak and width (cells) centred at a fraction of the grid. */
export function gaussianBlob(grid: Grid, opts: { background: number; peak: number; sigma: number; centre: [number, number, number] }): Float64Array {
  const [nx, ny, nz] = grid;
  const w = new Float64Array(nx * ny * nz);
  const c = opts.centre.map((f, a) => f * grid[a]);
  for (let z = 0; z < nz; z++) {
    for (let y = 0; y < ny; y++) {
      for (let x = 0; x < nx; x++) {
        const r2 = (x + 0.5 - c[0]) ** 2 + (y + 0.5 - c[1]) ** 2 + (z + 0.5 - c[2]) ** 2;
        w[x + nx * (y + ny * z)] = Math.round(opts.background + opts.peak * Math.exp(-r2 / (2 * opts.sigma ** 2)));
      }
    }
  }
  return w;
}

/** Random particle counts per cell in [0, max], with a share of empty cells. */
export function randomWeights(grid: Grid, rand: () => number, max = 40, emptyShare = 0.2): Float64Array {
  const w = new Float64Array(grid[0] * grid[1] * grid[2]);
  for (let g = 0; g < w.length; g++) w[g] = rand() < emptyShare ? 0 : Math.floor(rand() * (max + 1));
  return w;
}

/** How many boxes hold each cell, counted with plain loops (1 everywhere when the coverage is exact). */
export function coverCounts(d: Decomposition): Int32Array {
  const [nx, ny, nz] = d.grid;
  const counts = new Int32Array(nx * ny * nz);
  for (const b of d.boxes) {
    for (let z = b.lo[2]; z < b.hi[2]; z++) {
      for (let y = b.lo[1]; y < b.hi[1]; y++) {
        for (let x = b.lo[0]; x < b.hi[0]; x++) counts[x + nx * (y + ny * z)]++;
      }
    }
  }
  return counts;
}

/** Why a decomposition does not cover its grid exactly once with non-empty in-grid boxes ('' when it does). */
export function coverageFault(d: Decomposition, ranks: number): string {
  if (d.boxes.length !== ranks) return `${d.boxes.length} boxes for ${ranks} ranks`;
  for (const [r, b] of d.boxes.entries()) {
    for (let a = 0; a < 3; a++) {
      if (!(b.lo[a] >= 0 && b.hi[a] <= d.grid[a] && b.lo[a] < b.hi[a])) return `box ${r} ${JSON.stringify(b)} is empty or outside`;
      if (!Number.isInteger(b.lo[a]) || !Number.isInteger(b.hi[a])) return `box ${r} has non-integer bounds`;
    }
  }
  const counts = coverCounts(d);
  const bad = counts.findIndex((c) => c !== 1);
  return bad === -1 ? '' : `cell ${bad} is covered ${counts[bad]} times`;
}
