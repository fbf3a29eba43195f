// The part of the grid one rank simulates: its box of owned cells, the range of global cell ids its
// per-cell arrays hold, and every rank's box (where migrants go). One rank owns the whole grid.
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
  /** First global cell id the per-cell arrays hold (the box's first cell). */
  cellBase: number;
  /** Cells the per-cell arrays hold: the box's first to last global id (all of them are owned for slabs along z). */
  nLocal: number;
}

/** The subdomain of `rank` in a decomposition. */
export function subdomainOf(d: Decomposition, rank: number): Subdomain {
  if (d.boxes.length > MAX_RANKS) throw new Error(`${d.boxes.length} ranks: at most ${MAX_RANKS} are supported`);
  const box = d.boxes[rank];
  const empty = box.lo.some((lo, a) => lo >= box.hi[a]);
  const cellBase = empty ? 0 : cellId(d.grid, box.lo[0], box.lo[1], box.lo[2]);
  const last = empty ? 0 : cellId(d.grid, box.hi[0] - 1, box.hi[1] - 1, box.hi[2] - 1);
  return { rank, worldSize: d.boxes.length, box, boxes: d.boxes, cellBase, nLocal: last - cellBase + 1 };
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

/** Copies a subdomain's owned cells of a local array (indexed from cellBase) into a global array indexed by cell id. */
export function copyOwnedCells(local: TypedNumbers, sub: Subdomain, grid: Int3, into: TypedNumbers): void {
  const { box, cellBase } = sub;
  const [x0, x1] = [box.lo[0], box.hi[0]];
  for (let z = box.lo[2]; z < box.hi[2]; z++) {
    for (let y = box.lo[1]; y < box.hi[1]; y++) {
      const row = grid[0] * (y + grid[1] * z);
      // one row of x at a time (a memcpy where the element types match)
      into.set(local.subarray(row + x0 - cellBase, row + x1 - cellBase), row + x0);
    }
  }
}

/** The numeric typed arrays copyOwnedCells moves between. */
type TypedNumbers = Float32Array | Float64Array | Uint32Array | Int32Array;

/** SimParams values of a subdomain (localDense and the fields after it in common.wgsl). */
export function subdomainParams(s: Subdomain, segCap: number, oldCellBase = s.cellBase): Record<string, number> {
  return {
    localDense: s.nLocal === boxCells(s.box) ? 1 : 0,
    cellBase: s.cellBase, nLocal: s.nLocal, oldCellBase,
    loX: s.box.lo[0], loY: s.box.lo[1], loZ: s.box.lo[2], hiX: s.box.hi[0], hiY: s.box.hi[1], hiZ: s.box.hi[2],
    rank: s.rank, worldSize: s.worldSize, segCap,
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
