// The part of the grid one rank simulates: its box of owned cells, the local numbering of those cells its
// per-cell arrays use (box-dense: x fastest within the box, so a rank holds only its own cells), and every
// rank's box (where migrants go). One rank owns the whole grid, and its local ids are the global ones.
import { boxCells, cellId, wholeBox } from '../cluster/decomposition/box.js';
import type { Box, Decomposition, Int3 } from '../cluster/decomposition/types.js';

/** Largest world size the shaders' owner lookup holds (MAX_RANKS in common.wgsl). */
export const MAX_RANKS = 256;

/** One rank's view of the decomposition. */
export interface Subdomain {
  rank: number;
  worldSize: number;
  /** Owned cells: [lo, hi) on each axis. */
  box: Box;
  /** Every rank's box, by rank. */
  boxes: Box[];
  /** Global id of the box's first cell (local cell 0). */
  cellBase: number;
  /** Cells the per-cell arrays hold: the box's cells, numbered x fastest within the box (localCellOf). */
  nLocal: number;
}

/** The subdomain of `rank` in a decomposition. */
export function subdomainOf(d: Decomposition, rank: number): Subdomain {
  if (d.boxes.length > MAX_RANKS) throw new Error(`${d.boxes.length} ranks: at most ${MAX_RANKS} are supported`);
  const box = d.boxes[rank];
  const empty = box.lo.some((lo, a) => lo >= box.hi[a]);
  const cellBase = empty ? 0 : cellId(d.grid, box.lo[0], box.lo[1], box.lo[2]);
  return { rank, worldSize: d.boxes.length, box, boxes: d.boxes, cellBase, nLocal: empty ? 1 : boxCells(box) };
}

/** The subdomain of a single-rank run: the whole grid. */
export function wholeGrid(grid: Int3): Subdomain {
  const box = wholeBox(grid);
  return { rank: 0, worldSize: 1, box, boxes: [box], cellBase: 0, nLocal: boxCells(box) };
}

/** The fraction of the grid's cells a subdomain owns (its expected share of the particles). */
export function cellShare(sub: Subdomain, nCells: number): number {
  return boxCells(sub.box) / nCells;
}

/** Whether the box spans the grid along x and y: its local ids are then its global ids less cellBase. */
export function isLocalDense(sub: Subdomain, grid: Int3): boolean {
  const { lo, hi } = sub.box;
  return lo[0] === 0 && hi[0] === grid[0] && lo[1] === 0 && hi[1] === grid[1];
}

/** Local id (x fastest within the box) of global cell g, or -1 when the subdomain does not own it. */
export function localCellOf(sub: Subdomain, grid: Int3, g: number): number {
  const { lo, hi } = sub.box;
  const x = g % grid[0];
  const t = Math.floor(g / grid[0]);
  const y = t % grid[1];
  const z = Math.floor(t / grid[1]);
  if (x < lo[0] || x >= hi[0] || y < lo[1] || y >= hi[1] || z < lo[2] || z >= hi[2]) return -1;
  return (x - lo[0]) + (hi[0] - lo[0]) * ((y - lo[1]) + (hi[1] - lo[1]) * (z - lo[2]));
}

/** Global id of local cell l of a subdomain (the inverse of localCellOf). */
export function globalCellOf(sub: Subdomain, grid: Int3, l: number): number {
  const { lo, hi } = sub.box;
  const bx = hi[0] - lo[0], by = hi[1] - lo[1];
  const x = l % bx;
  const t = Math.floor(l / bx);
  return cellId(grid, lo[0] + x, lo[1] + (t % by), lo[2] + Math.floor(t / by));
}

/**
 * Calls row(globalStart, localStart, length) for each x-row of the box: the owned cells as runs of consecutive ids
 * in both numberings (one run for a box that spans x and y).
 */
function forEachRow(sub: Subdomain, grid: Int3, row: (global: number, local: number, length: number) => void): void {
  const { lo, hi } = sub.box;
  if (lo.some((l, a) => l >= hi[a])) return;
  if (isLocalDense(sub, grid)) {
    row(sub.cellBase, 0, boxCells(sub.box));
    return;
  }
  const bx = hi[0] - lo[0];
  let local = 0;
  for (let z = lo[2]; z < hi[2]; z++) {
    for (let y = lo[1]; y < hi[1]; y++) {
      row(cellId(grid, lo[0], y, z), local, bx);
      local += bx;
    }
  }
}

/** Copies a subdomain's local array (its cells in local order) into a global array indexed by cell id. */
export function copyOwnedCells(local: TypedNumbers, sub: Subdomain, grid: Int3, into: TypedNumbers): void {
  // one row of x at a time (a memcpy where the element types match)
  forEachRow(sub, grid, (g, l, n) => into.set(local.subarray(l, l + n), g));
}

/** Copies a subdomain's cells of a global array (indexed by cell id) into a local array (its cells in local order). */
export function takeOwnedCells(global: TypedNumbers, sub: Subdomain, grid: Int3, into: TypedNumbers): void {
  forEachRow(sub, grid, (g, l, n) => into.set(global.subarray(g, g + n), l));
}

/** Global ids of a subdomain's cells in its local order (local cell l is global cell ids[l]). */
export function ownedCellIds(sub: Subdomain, grid: Int3): Uint32Array {
  const ids = new Uint32Array(sub.nLocal);
  forEachRow(sub, grid, (g, l, n) => {
    for (let k = 0; k < n; k++) ids[l + k] = g + k;
  });
  return ids;
}

/** The numeric typed arrays copyOwnedCells moves between. */
type TypedNumbers = Float32Array | Float64Array | Uint32Array | Int32Array;

/**
 * SimParams values of a subdomain (localDense and the fields after it in common.wgsl); `old`: the box the per-cell
 * arrays had before a rebalance (move.wgsl:relayout reads the old starts through it), by default the same box.
 */
export function subdomainParams(s: Subdomain, grid: Int3, segCap: number, old: Subdomain = s): Record<string, number> {
  return {
    localDense: isLocalDense(s, grid) ? 1 : 0,
    cellBase: s.cellBase, nLocal: s.nLocal, oldCellBase: old.cellBase,
    loX: s.box.lo[0], loY: s.box.lo[1], loZ: s.box.lo[2], hiX: s.box.hi[0], hiY: s.box.hi[1], hiZ: s.box.hi[2],
    rank: s.rank, worldSize: s.worldSize, segCap,
    oldLoX: old.box.lo[0], oldLoY: old.box.lo[1], oldLoZ: old.box.lo[2],
    oldBx: Math.max(0, old.box.hi[0] - old.box.lo[0]), oldBy: Math.max(0, old.box.hi[1] - old.box.lo[1]),
  };
}

/** The Boxes uniform (lo then hi, vec4<u32> per rank, MAX_RANKS each). */
export function packBoxes(s: Subdomain): Uint32Array<ArrayBuffer> {
  const out = new Uint32Array(2 * 4 * MAX_RANKS);
  s.boxes.forEach((b, r) => {
    out.set([b.lo[0], b.lo[1], b.lo[2], 0], 4 * r);
    out.set([b.hi[0], b.hi[1], b.hi[2], 0], 4 * (MAX_RANKS + r));
  });
  return out;
}
