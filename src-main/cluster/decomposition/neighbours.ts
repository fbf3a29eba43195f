// Which ranks a particle can reach from each rank's box: the boxes sharing a face, edge or corner with it
// (reach 1), with wrap-around on periodic axes. Migration sends each leaving particle to one of these.
import { DecompositionError } from './errors.js';
import type { Box, Decomposition } from './types.js';

/** True when [lo - reach, hi + reach) of a (wrapped modulo n when periodic) shares a cell with [bLo, bHi). */
function reachesOnAxis(aLo: number, aHi: number, bLo: number, bHi: number, n: number, reach: number, periodic: boolean): boolean {
  const lo = aLo - reach;
  const hi = aHi + reach;
  if (!periodic) return lo < bHi && bLo < hi;
  if (hi - lo >= n) return true;
  for (const shift of [-n, 0, n]) {
    if (lo < bHi + shift && bLo + shift < hi) return true;
  }
  return false;
}

/** True when a cell at most reach cells from box a along each axis (wrapping on periodic axes) lies in box b. */
export function boxesTouch(a: Box, b: Box, grid: [number, number, number], periodic: [boolean, boolean, boolean], reach = 1): boolean {
  for (let axis = 0; axis < 3; axis++) {
    if (!reachesOnAxis(a.lo[axis], a.hi[axis], b.lo[axis], b.hi[axis], grid[axis], reach, periodic[axis])) return false;
  }
  return true;
}

/**
 * For each rank, the sorted other ranks whose boxes share a face, edge or corner with its box, counting wrap-around
 * on periodic axes. More generally (reach > 1): every rank owning a cell within reach cells of the box along each
 * axis, so a particle that moves at most reach cells per axis in a step lands in its own box or a neighbour's.
 */
export function neighbours(d: Decomposition, periodic: [boolean, boolean, boolean], reach = 1): number[][] {
  if (!Number.isInteger(reach) || reach < 0) {
    throw new DecompositionError(`reach must be a whole number of cells >= 0, got ${reach}: use 1 when particles cross at most one cell per step`);
  }
  const out: number[][] = d.boxes.map(() => []);
  for (let i = 0; i < d.boxes.length; i++) {
    for (let j = i + 1; j < d.boxes.length; j++) {
      if (boxesTouch(d.boxes[i], d.boxes[j], d.grid, periodic, reach)) {
        out[i].push(j);
        out[j].push(i);
      }
    }
  }
  return out;
}
