// The grid a rebalance check decides on: the cells grouped in blocks of b x b x b (the last block along an axis may
// be thinner), each block's weight the sum of its cells' particle counts. A check then gathers one count per block from
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
 * Simulation.cellCounts gives them); blocks outside its box hold 0.
 */
export function coarseCountsOf(local: ArrayLike<number>, box: Box, cg: CoarseGrid): Uint32Array {
  const out = new Uint32Array(cg.grid[0] * cg.grid[1] * cg.grid[2]);
  const { lo, hi } = box;
  const b = cg.block;
  // the block column of each x of the box, once (not a division per cell)
  const column = Int32Array.from({ length: Math.max(0, hi[0] - lo[0]) }, (_, k) => Math.floor((lo[0] + k) / b));
  let l = 0;
  for (let z = lo[2]; z < hi[2]; z++) {
    for (let y = lo[1]; y < hi[1]; y++) {
      const row = cellId(cg.grid, 0, Math.floor(y / b), Math.floor(z / b));
      for (let k = 0; k < column.length; k++) out[row + column[k]] += local[l++];
    }
  }
  return out;
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
