// Per-cell weights held as a 3D summed-area table: the weight of any box of cells in O(1) (8 table entries), so
// that a decomposition's plane profiles, its ranks' loads and the particles a new split moves cost no pass over the
// cells. Building it is one pass; weights are particle counts, whose sums float64 holds exactly (below 2^53), so box
// sums are the same as summing the cells one by one, and so are the decompositions built from them.
// The weights come as one global array, or in pieces over boxes that cover the grid (a decomposition's ranks' own
// cells: the orchestrator's rebalance check sums them with no array over the whole grid). Weights in pieces first get
// only the table's top plane (one pass, two planes of memory), which sums every box that spans the grid along z, all
// that a split that cuts no z-plane asks (the hypersonic wedge's 20 planes: 6.4M cells, whose whole table costs more in
// page faults than in sums); the first box that does not span z builds the whole table. Counts (uint32) get their top
// plane as every column summed over z, then over x and y, and the whole table as uint32 while their total stays below
// 2^32 (half the memory of float64, integer adds): their sums are exact in any order. Any other weights (or a larger
// total) are summed in float64 plane by plane in the same order as ever, top plane included. Box sums, and what is
// decided from them, are the same bit for bit as from a global array.
import { DecompositionError } from './errors.js';
import type { Box, Grid } from './types.js';

/**
 * Weights in pieces: weights[i] holds the cells of boxes[i] in its local order (x fastest within the box), and the
 * boxes cover the grid once (a decomposition's ranks' cell counts, or their loads by time). The pieces are read again when a box first needs the
 * whole table, so they must not change while the table is in use.
 */
export interface BoxedWeights {
  boxes: readonly Box[];
  weights: readonly ArrayLike<number>[];
}

/** Largest entry a uint32 table holds. */
const UINT32_MAX = 0xffffffff;

/** A piece's cells in one z-plane: its box's x and y ranges and the local index of its cell (lo x, lo y) there. */
interface Run {
  weights: ArrayLike<number>;
  x0: number;
  x1: number;
  y0: number;
  y1: number;
  start: number;
}

export class SummedWeights {
  /** Cells of the grid (the weights' length). */
  readonly length: number;
  /** S[x + X (y + Y z)] for X = nx + 1, Y = ny + 1: the sum over cells below (x, y, z) on every axis (null until needed). */
  private table: Uint32Array | Float64Array | null = null;
  /** The table's top plane S[x + X y] (z = nz), for weights in pieces until the whole table is built. */
  private readonly top: Float64Array | null = null;
  /** The weights in pieces the whole table is still to be built from (null once it is). */
  private pieces: BoxedWeights | null = null;
  private readonly X: number;
  private readonly XY: number;

  /**
   * Builds the table of one weight per cell (global id order g = x + nx (y + ny z)), or of weights in pieces (only its
   * top plane); throws on a negative or non-finite weight.
   */
  constructor(readonly grid: Grid, weights: ArrayLike<number> | BoxedWeights) {
    const [nx, ny, nz] = grid;
    this.length = nx * ny * nz;
    if (!isBoxed(weights) && weights.length !== this.length) {
      throw new DecompositionError(`weights has ${weights.length} entries but the grid ${nx} x ${ny} x ${nz} has ${this.length}: pass one weight (particle count) per cell`);
    }
    this.X = nx + 1;
    this.XY = (nx + 1) * (ny + 1);
    if (!isBoxed(weights)) {
      this.table = tableOf(grid, { boxes: [{ lo: [0, 0, 0], hi: [nx, ny, nz] }], weights: [weights] });
    } else {
      this.top = isCounts(weights) ? topOfCounts(grid, weights) : topOfWeights(grid, weights);
      this.pieces = weights;
    }
  }

  /** Sum of the weights over a box's cells. */
  boxSum(box: Box): number {
    const { X, XY } = this;
    const [x0, y0, z0] = box.lo;
    const [x1, y1, z1] = box.hi;
    if (x1 <= x0 || y1 <= y0 || z1 <= z0) return 0;
    let at: (x: number, y: number, z: number) => number;
    if (!this.table && z0 === 0 && z1 === this.grid[2]) {
      // the top plane and the bottom one (zeros), summed as from the whole table
      const top = this.top!;
      at = (x, y, z) => (z === 0 ? 0 : top[x + X * y]);
    } else {
      const t = this.wholeTable();
      at = (x, y, z) => t[x + X * y + XY * z];
    }
    return at(x1, y1, z1) - at(x0, y1, z1) - at(x1, y0, z1) - at(x1, y1, z0)
      + at(x0, y0, z1) + at(x0, y1, z0) + at(x1, y0, z0) - at(x0, y0, z0);
  }

  /** The whole table, built from the weights in pieces on first use. */
  private wholeTable(): Uint32Array | Float64Array {
    if (!this.table) {
      this.table = tableOf(this.grid, this.pieces!);
      this.pieces = null;
    }
    return this.table;
  }
}

/** Whether weights in pieces are counts (uint32): exact sums, the same in any order. */
function isCounts(pieces: BoxedWeights): boolean {
  return pieces.weights.every((w) => w instanceof Uint32Array);
}

/**
 * The top plane of the table of counts in pieces, S[x + X y] = the counts of cells below (x, y) summed over every z: each
 * column's counts summed over z, then running sums along x and y (float64, exact).
 */
function topOfCounts(grid: Grid, pieces: BoxedWeights): Float64Array {
  const [nx, ny, nz] = grid;
  const X = nx + 1;
  const top = new Float64Array(X * (ny + 1));
  let cells = 0;
  pieces.boxes.forEach(({ lo, hi }, i) => {
    if (lo[0] >= hi[0] || lo[1] >= hi[1] || lo[2] >= hi[2]) return;
    cells += (hi[0] - lo[0]) * (hi[1] - lo[1]) * (hi[2] - lo[2]);
    addColumns(top, X, pieces.weights[i] as Uint32Array, lo, hi);
  });
  if (cells !== nx * ny * nz) throw new DecompositionError(`internal: the weights' boxes hold ${cells} cells but the grid has ${nx * ny * nz} (they must be a decomposition's)`);
  for (let y = 1; y <= ny; y++) {
    let row = 0;
    for (let k = X * y + 1; k <= X * y + nx; k++) {
      row += top[k];
      top[k] = row + top[k - X];
    }
  }
  return top;
}

/**
 * The top plane of the table of any weights in pieces, summed plane by plane as the whole table is (the same float64
 * sums in the same order), holding only the plane below the one summed.
 */
function topOfWeights(grid: Grid, pieces: BoxedWeights): Float64Array {
  const [nx, ny, nz] = grid;
  const XY = (nx + 1) * (ny + 1);
  const planes = new Float64Array(2 * XY);
  for (let z = 0; z < nz; z++) {
    sumWeightPlane(planes, runsOf(pieces, z), grid, z, 1);
    planes.copyWithin(0, XY);
  }
  return planes.slice(0, XY);
}

/** Adds a box's counts (local order) to the columns of the top plane, column (x, y) at top[x + 1 + X (y + 1)], plane by plane. */
function addColumns(top: Float64Array, X: number, counts: Uint32Array, lo: readonly number[], hi: readonly number[]): void {
  const bx = hi[0] - lo[0];
  for (let z = lo[2], l = 0; z < hi[2]; z++) {
    for (let y = lo[1]; y < hi[1]; y++, l += bx) {
      const at = X * (y + 1) + 1 + lo[0];
      for (let k = 0; k < bx; k++) top[at + k] += counts[l + k];
    }
  }
}

/** The whole table of weights in pieces (a global array: one piece over the grid). */
function tableOf(grid: Grid, pieces: BoxedWeights): Uint32Array | Float64Array {
  const [nx, ny, nz] = grid;
  const XY = (nx + 1) * (ny + 1);
  const size = XY * (nz + 1);
  // counts: uint32 entries (their bits in an int32 view, where the sums run) while the total allows
  let counts = isCounts(pieces) ? new Int32Array(size) : null;
  let wide: Float64Array | null = counts ? null : new Float64Array(size);
  let total = 0;
  for (let z = 0; z < nz; z++) {
    const runs = runsOf(pieces, z);
    if (counts) {
      total = sumCountPlane(counts, runs, grid, z, total);
      if (total >= 0) continue;
      // 2^32 particles or more: float64 from this plane on (the planes below are exact in either)
      wide = widened(counts, XY * (z + 1));
      counts = null;
    }
    sumWeightPlane(wide!, runs, grid, z);
  }
  return counts ? new Uint32Array(counts.buffer) : wide!;
}

/** Whether weights come in pieces over boxes. */
function isBoxed(weights: ArrayLike<number> | BoxedWeights): weights is BoxedWeights {
  return 'boxes' in weights;
}

/** A float64 copy of a uint32 table (held in an int32 view) whose first `filled` entries are summed. */
function widened(counts: Int32Array, filled: number): Float64Array {
  const wide = new Float64Array(counts.length);
  wide.set(new Uint32Array(counts.buffer, 0, filled));
  return wide;
}

/** The pieces' cells in plane z, ordered by x (the runs of every row then follow each other along x). */
function runsOf(pieces: BoxedWeights, z: number): Run[] {
  const runs: Run[] = [];
  pieces.boxes.forEach(({ lo, hi }, i) => {
    if (z < lo[2] || z >= hi[2] || lo[0] >= hi[0] || lo[1] >= hi[1]) return;
    runs.push({ weights: pieces.weights[i], x0: lo[0], x1: hi[0], y0: lo[1], y1: hi[1], start: (hi[0] - lo[0]) * (hi[1] - lo[1]) * (z - lo[2]) });
  });
  return runs.sort((a, b) => a.x0 - b.x0);
}

/** Throws when the pieces do not cover row (y, z) of the grid once: they must be a decomposition's boxes. */
function checkRow(x: number, nx: number, y: number, z: number): void {
  if (x !== nx) throw new DecompositionError(`internal: the weights' boxes do not cover the cells of row y = ${y}, z = ${z} once (they must be a decomposition's)`);
}

/**
 * Fills table plane z + 1 of a uint32 table (written through an int32 view: sums modulo 2^32) from the counts of cell
 * plane z, as sumWeightPlane does; the running total of the counts after the plane, or -1 once it reaches 2^32 (the
 * table is exact while it stays below: every entry is at most the total).
 */
function sumCountPlane(t: Int32Array, runs: readonly Run[], grid: Grid, z: number, total: number): number {
  const [nx, ny] = grid;
  const X = nx + 1;
  const XY = X * (ny + 1);
  for (let y = 0; y < ny; y++) {
    let row = 0;
    let rowSum = 0;
    let x = 0;
    const at = X * (y + 1) + XY * (z + 1) + 1;
    for (const r of runs) {
      if (y < r.y0 || y >= r.y1) continue;
      if (r.x0 !== x) break;
      const w = r.weights as Uint32Array;
      const l = r.start + (r.x1 - r.x0) * (y - r.y0) - x;
      for (; x < r.x1; x++) {
        const c = w[l + x];
        rowSum += c;
        row = (row + c) | 0;
        const i = at + x;
        t[i] = (row + t[i - X] + t[i - XY] - t[i - X - XY]) | 0;
      }
    }
    checkRow(x, nx, y, z);
    total += rowSum;
    if (total > UINT32_MAX) return -1;
  }
  return total;
}

/**
 * Fills table plane z + 1 (held at plane `plane` of t, the plane below it holding table plane z) from the weights of
 * cell plane z: every entry is the sum over [0, x] x [0, y] x [0, z], its row's prefix plus the two smaller
 * prisms less their overlap; throws on a bad weight.
 */
function sumWeightPlane(t: Float64Array, runs: readonly Run[], grid: Grid, z: number, plane = z + 1): void {
  const [nx, ny] = grid;
  const X = nx + 1;
  const XY = X * (ny + 1);
  for (let y = 0; y < ny; y++) {
    let row = 0;
    let x = 0;
    const at = X * (y + 1) + XY * plane + 1;
    const below = at - X; // (x, y, z + 1) plane, row y
    const behind = at - XY; // (x, y + 1, z) plane z
    const both = below - XY;
    for (const r of runs) {
      if (y < r.y0 || y >= r.y1) continue;
      if (r.x0 !== x) break;
      const w = r.weights;
      const l = r.start + (r.x1 - r.x0) * (y - r.y0) - x;
      for (; x < r.x1; x++) {
        const v = w[l + x];
        if (!(v >= 0) || v === Infinity) badWeight(v, x + nx * (y + ny * z));
        row += v;
        t[at + x] = row + t[below + x] + t[behind + x] - t[both + x];
      }
    }
    checkRow(x, nx, y, z);
  }
}

/** Throws for a weight that is no particle count (negative, NaN or infinite). */
function badWeight(w: number, g: number): never {
  throw new DecompositionError(`weights[${g}] is ${w}: weights are particle counts per cell and must be finite and >= 0`);
}
