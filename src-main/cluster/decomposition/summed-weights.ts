// Per-cell weights held as a 3D summed-area table: the weight of any box of cells in O(1) (8 table entries), so
// that a decomposition's plane profiles, its ranks' loads and the particles a new split moves cost no pass over the
// cells. Building it is one pass; weights are particle counts, whose sums float64 holds exactly (below 2^53), so box
// sums are the same as summing the cells one by one, and so are the decompositions built from them.
import { DecompositionError } from './errors.js';
import type { Box, Grid } from './types.js';

export class SummedWeights {
  /** Cells of the grid (the weights' length). */
  readonly length: number;
  /** S[x + X (y + Y z)] for X = nx + 1, Y = ny + 1: the sum over cells below (x, y, z) on every axis. */
  private readonly table: Float64Array;
  private readonly X: number;
  private readonly XY: number;

  /** Builds the table of one weight per cell (global id order g = x + nx (y + ny z)); throws on a negative or non-finite weight. */
  constructor(readonly grid: Grid, weights: ArrayLike<number>) {
    const [nx, ny, nz] = grid;
    this.length = nx * ny * nz;
    if (weights.length !== this.length) {
      throw new DecompositionError(`weights has ${weights.length} entries but the grid ${nx} x ${ny} x ${nz} has ${this.length}: pass one weight (particle count) per cell`);
    }
    this.X = nx + 1;
    this.XY = (nx + 1) * (ny + 1);
    const t = new Float64Array(this.XY * (nz + 1));
    for (let z = 0; z < nz; z++) {
      for (let y = 0; y < ny; y++) {
        let row = 0;
        const g0 = nx * (y + ny * z);
        const at = this.X * (y + 1) + this.XY * (z + 1);
        const below = at - this.X; // (x, y, z + 1) plane, row y
        const behind = at - this.XY; // (x, y + 1, z) plane z
        const both = below - this.XY;
        for (let x = 0; x < nx; x++) {
          const w = weights[g0 + x];
          if (!(w >= 0) || !Number.isFinite(w)) {
            throw new DecompositionError(`weights[${g0 + x}] is ${w}: weights are particle counts per cell and must be finite and >= 0`);
          }
          row += w;
          // sum over [0, x] x [0, y] x [0, z]: this row's prefix, plus the two smaller prisms, less their overlap
          t[at + x + 1] = row + t[below + x + 1] + t[behind + x + 1] - t[both + x + 1];
        }
      }
    }
    this.table = t;
  }

  /** Sum of the weights over a box's cells. */
  boxSum(box: Box): number {
    const t = this.table;
    const { X, XY } = this;
    const [x0, y0, z0] = box.lo;
    const [x1, y1, z1] = box.hi;
    if (x1 <= x0 || y1 <= y0 || z1 <= z0) return 0;
    const at = (x: number, y: number, z: number) => t[x + X * y + XY * z];
    return at(x1, y1, z1) - at(x0, y1, z1) - at(x1, y0, z1) - at(x1, y1, z0)
      + at(x0, y0, z1) + at(x0, y1, z0) + at(x1, y0, z0) - at(x0, y0, z0);
  }
}
