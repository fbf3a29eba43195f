// The grid a rebalance check decides on: the cells grouped in blocks of b x b x b (the last block along an axis may
// be thinner), each block's weight the sum of its cells' particle counts (and, for balancing by time, the sum of their
// squares: CoarseSums). A check then gathers one count per block from
// every rank instead of every cell's state (6.4M cells of the hypersonic wedge: 77 MB through the orchestrator and
// about 0.15 s per check; at most COARSE_CELLS blocks: about 1 MB per rank), and a new split cuts along block faces.
// Block sums are exact, so every block-aligned box's weight is too. Grids of at most COARSE_CELLS cells keep b = 1
// (the cells themselves).
import { cellId } from './box.js';
import type { Box, Grid, Int3 } from './types.js';

/** Most blocks of the coarse grid a check gathers. */
export const COARSE_CELLS = 1 << 18;

/** Blocks of `block` cells per axis over a fine grid. */
export interface CoarseGrid {
  block: number;
  /** Blocks along x, y, z. */
  grid: Grid;
  fine: Grid;
}

/** The coarse grid of `block` cells per axis. */
export function coarseGridWithBlock(fine: Grid, block: number): CoarseGrid {
  if (!Number.isInteger(block) || block < 1) throw new Error(`internal: coarse block ${block} (a whole number of cells >= 1)`);
  return { block, fine: [...fine] as Int3, grid: fine.map((n) => Math.ceil(n / block)) as Int3 };
}

/** The coarse grid of the smallest block that keeps it within maxCells blocks. */
export function coarseGridOf(fine: Grid, maxCells = COARSE_CELLS): CoarseGrid {
  let block = 1;
  while (fine.reduce((p, n) => p * Math.ceil(n / block), 1) > maxCells) block += 1;
  return coarseGridWithBlock(fine, block);
}

/**
 * A rank's per-block counts over the whole coarse grid, from its counts per local cell (x fastest within its box, as
 * Simulation.cellCounts gives them); blocks outside its box hold 0 (whole numbers: the same as adding the cells one by
 * one, modulo 2^32).
 */
export function coarseCountsOf(local: ArrayLike<number>, box: Box, cg: CoarseGrid): Uint32Array {
  return coarseSumsInto(new Uint32Array(cg.grid[0] * cg.grid[1] * cg.grid[2]), local, box, cg);
}

/**
 * A rank's per-block sums of its cells' squared counts over the whole coarse grid (what a cell's sort and collide work
 * grow with: balancing by time), from its counts per local cell; exact below 2^53.
 */
export function coarseSquaresOf(local: ArrayLike<number>, box: Box, cg: CoarseGrid): Float64Array {
  const squares = new Float64Array(local.length);
  for (let i = 0; i < squares.length; i++) squares[i] = local[i] * local[i];
  return coarseSumsInto(new Float64Array(cg.grid[0] * cg.grid[1] * cg.grid[2]), squares, box, cg);
}

/** A rank's sums over the coarse blocks: its particle counts and the sums of its cells' squared counts. */
export interface CoarseSums {
  counts: Uint32Array;
  squares: Float64Array;
}

/** A rank's coarse sums from its counts per local cell (coarseCountsOf and coarseSquaresOf). */
export function coarseSumsOf(local: ArrayLike<number>, box: Box, cg: CoarseGrid): CoarseSums {
  return { counts: coarseCountsOf(local, box, cg), squares: coarseSquaresOf(local, box, cg) };
}

/** Words per block of packed coarse sums: the count, the low and the high word of the sum of squares. */
export const COARSE_WORDS = 3;

/** The coarse sums as one u32 array of three planes (counts, squares' low words, high words): the GPU's layout and the wire's. */
export function packCoarseSums(sums: CoarseSums): Uint32Array {
  const n = sums.counts.length;
  if (sums.squares.length !== n) throw new Error(`internal: ${n} block counts but ${sums.squares.length} sums of squares`);
  const out = new Uint32Array(COARSE_WORDS * n);
  out.set(sums.counts);
  for (let k = 0; k < n; k++) {
    const sq = sums.squares[k];
    out[n + k] = sq % 0x100000000;
    out[2 * n + k] = Math.floor(sq / 0x100000000);
  }
  return out;
}

/** The coarse sums of a packed array (packCoarseSums; a rank's GPU sums); throws on a length that is no whole number of blocks. */
export function unpackCoarseSums(words: Uint32Array, blocks: number): CoarseSums {
  if (words.length !== COARSE_WORDS * blocks) throw new Error(`internal: ${words.length} words of coarse sums for ${blocks} blocks (expected ${COARSE_WORDS * blocks})`);
  const squares = new Float64Array(blocks);
  for (let k = 0; k < blocks; k++) squares[k] = words[blocks + k] + 0x100000000 * words[2 * blocks + k];
  return { counts: words.subarray(0, blocks), squares };
}

/**
 * Sums per-cell values over the blocks into `out` (one entry per block of the whole coarse grid), block row by block
 * row: the box's fine rows in it summed per x, then those sums per block column.
 */
function coarseSumsInto<T extends Uint32Array | Float64Array>(out: T, local: ArrayLike<number>, box: Box, cg: CoarseGrid): T {
  const { lo, hi } = box;
  const b = cg.block;
  const bx = hi[0] - lo[0];
  const by = hi[1] - lo[1];
  if (bx <= 0 || by <= 0) return out;
  // where the runs of an x-row that fall in one block column end (box-relative), and the first such column
  const ends = blockRunEnds(lo[0], hi[0], b);
  const first = Math.floor(lo[0] / b);
  const columns = new Float64Array(bx);
  for (let zc = Math.floor(lo[2] / b); zc * b < hi[2]; zc++) {
    for (let yc = Math.floor(lo[1] / b); yc * b < hi[1]; yc++) {
      const y0 = Math.max(lo[1], yc * b);
      const y1 = Math.min(hi[1], (yc + 1) * b);
      columns.fill(0);
      // the block row's fine rows of each z-plane follow each other in local order
      for (let z = Math.max(lo[2], zc * b); z < Math.min(hi[2], (zc + 1) * b); z++) addRows(columns, local, bx * ((y0 - lo[1]) + by * (z - lo[2])), y1 - y0);
      addRuns(out, cellId(cg.grid, first, yc, zc), columns, ends);
    }
  }
  return out;
}

/** Where the runs of x in [lo, hi) that share a block column of `block` cells end, relative to lo (the last is hi - lo). */
function blockRunEnds(lo: number, hi: number, block: number): Int32Array {
  const ends: number[] = [];
  for (let x = lo; x < hi; x = (Math.floor(x / block) + 1) * block) ends.push(Math.min(hi, (Math.floor(x / block) + 1) * block) - lo);
  return Int32Array.from(ends);
}

/** Adds `rows` consecutive rows of local counts from index `start` (each columns.length long) to columns. */
function addRows(columns: Float64Array, local: ArrayLike<number>, start: number, rows: number): void {
  const n = columns.length;
  for (let r = 0, l = start; r < rows; r++, l += n) for (let k = 0; k < n; k++) columns[k] += local[l + k];
}

/** Adds the column sums run by run (runs ending at `ends`) to consecutive blocks of out from `at` (a Uint32Array wrapping as uint32 adds do). */
function addRuns(out: Uint32Array | Float64Array, at: number, columns: Float64Array, ends: Int32Array): void {
  let k = 0;
  for (let c = 0; c < ends.length; c++) {
    let sum = 0;
    for (; k < ends[c]; k++) sum += columns[k];
    out[at + c] += sum;
  }
}

/** The fine cells of a box of blocks (the last block along an axis clipped to the grid). */
export function fineBoxOf(box: Box, cg: CoarseGrid): Box {
  const scale = (v: Int3) => v.map((c, a) => Math.min(c * cg.block, cg.fine[a])) as Int3;
  return { lo: scale(box.lo), hi: scale(box.hi) };
}

/** The blocks nearest a box of fine cells (its faces rounded to the nearest block face; for estimates only). */
export function nearestCoarseBox(box: Box, cg: CoarseGrid): Box {
  const round = (v: Int3) => v.map((c, a) => Math.min(Math.round(c / cg.block), cg.grid[a])) as Int3;
  return { lo: round(box.lo), hi: round(box.hi) };
}

/** The fine cells of each block of a coarse grid, in block id order (block^3, fewer in the last block along an axis). */
export function coarseBlockCells(cg: CoarseGrid): Float64Array {
  const along = cg.grid.map((n, a) => Float64Array.from({ length: n }, (_, i) => Math.min(cg.block, cg.fine[a] - i * cg.block)));
  const out = new Float64Array(cg.grid[0] * cg.grid[1] * cg.grid[2]);
  let k = 0;
  for (let z = 0; z < cg.grid[2]; z++) for (let y = 0; y < cg.grid[1]; y++) for (let x = 0; x < cg.grid[0]; x++) out[k++] = along[0][x] * along[1][y] * along[2][z];
  return out;
}
