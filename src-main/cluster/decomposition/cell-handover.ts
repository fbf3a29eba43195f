// The per-cell collision state ((sigma c_r)_max and NTC remainders) follows its cells when the grid is re-split: each
// rank packs the cells it gives every other rank (its old box's overlap with their new boxes) and assembles its new
// box's state from the cells it keeps and the parts it gets. The ranks trade the parts with each other
// (solver/cell-state-trade.ts), not through the orchestrator (which gathered and sent back every cell's state
// before: 77 MB in and 51 MB out for the wedge's 6.4M cells). All arrays are in local order (x fastest within a box).
import { boxCells, boxExtent, cellId, intersectBoxes } from './box.js';
import type { Box } from './types.js';

/** A rank's collision state over its box's cells, local order. */
export interface CollisionState {
  sigmaCrMax: Float32Array;
  remainder: Float32Array;
}

/** Index of cell (x, y, z) in an array over a box's cells (local order: x fastest within the box). */
function localIndex(box: Box, x: number, y: number, z: number): number {
  return cellId(boxExtent(box), x - box.lo[0], y - box.lo[1], z - box.lo[2]);
}

/**
 * Copies the cells of `part` (inside both boxes) from `src` over box `from` into `dst` over box `to` (from `dstAt` on),
 * local order: one copy per x-row, or per z-plane of `part` where its rows run on in both arrays (it spans both boxes along x).
 */
function copyPart(src: Float32Array, from: Box, dst: Float32Array, to: Box, part: Box, dstAt = 0): void {
  const n = part.hi[0] - part.lo[0];
  const rowsRunOn = n === from.hi[0] - from.lo[0] && n === to.hi[0] - to.lo[0];
  const [y0, y1] = rowsRunOn ? [part.lo[1], part.lo[1] + 1] : [part.lo[1], part.hi[1]];
  const length = rowsRunOn ? n * (part.hi[1] - part.lo[1]) : n;
  for (let z = part.lo[2]; z < part.hi[2]; z++) {
    for (let y = y0; y < y1; y++) {
      const i = localIndex(from, part.lo[0], y, z);
      dst.set(src.subarray(i, i + length), dstAt + localIndex(to, part.lo[0], y, z));
    }
  }
}

/**
 * What rank `self` (old box `oldBox`, its state `state`) gives every rank under the new boxes: parts[d] holds the
 * cells of oldBox within newBoxes[d], local order over that overlap, (sigma c_r)_max then remainders (empty for itself
 * and where the boxes do not overlap).
 */
export function handoverParts(state: CollisionState, oldBox: Box, newBoxes: readonly Box[], self: number): Float32Array[] {
  return newBoxes.map((box, d) => {
    const part = d === self ? null : intersectBoxes(oldBox, box);
    if (!part) return new Float32Array(0);
    const n = boxCells(part);
    const out = new Float32Array(2 * n);
    copyPart(state.sigmaCrMax, oldBox, out, part, part);
    copyPart(state.remainder, oldBox, out, part, part, n);
    return out;
  });
}

/**
 * The particles rank `self` gives every rank under the new boxes: sends[d] sums `counts` (its cells' particles over
 * oldBox, local order) over oldBox's overlap with newBoxes[d] (0 for itself and where the boxes do not overlap).
 */
export function handoverCounts(counts: ArrayLike<number>, oldBox: Box, newBoxes: readonly Box[], self: number): number[] {
  return newBoxes.map((box, d) => {
    const part = d === self ? null : intersectBoxes(oldBox, box);
    if (!part) return 0;
    let sum = 0;
    for (let z = part.lo[2]; z < part.hi[2]; z++) {
      for (let y = part.lo[1]; y < part.hi[1]; y++) {
        const i = localIndex(oldBox, part.lo[0], y, z);
        for (let x = 0; x < part.hi[0] - part.lo[0]; x++) sum += counts[i + x];
      }
    }
    return sum;
  });
}

/**
 * Rank `self`'s collision state over its new box: the cells it keeps from `own` (over oldBoxes[self]) and every other
 * rank r's overlap from received[r] (handoverParts of r); throws when a part holds other than its overlap's cells.
 */
export function assembleCollisionState(newBox: Box, self: number, oldBoxes: readonly Box[], own: CollisionState, received: readonly Float32Array[]): CollisionState {
  const n = boxCells(newBox);
  const next: CollisionState = { sigmaCrMax: new Float32Array(n), remainder: new Float32Array(n) };
  oldBoxes.forEach((oldBox, r) => {
    const part = intersectBoxes(oldBox, newBox);
    const cells = part ? boxCells(part) : 0;
    if (r === self) {
      if (!part) return;
      copyPart(own.sigmaCrMax, oldBox, next.sigmaCrMax, newBox, part);
      copyPart(own.remainder, oldBox, next.remainder, newBox, part);
      return;
    }
    const got = received[r];
    if (got.length !== 2 * cells) throw new Error(`internal: rank ${r} handed over the collision state of ${got.length / 2} cells, but its old box overlaps rank ${self}'s new box in ${cells}`);
    if (!part) return;
    copyPart(got.subarray(0, cells), part, next.sigmaCrMax, newBox, part);
    copyPart(got.subarray(cells), part, next.remainder, newBox, part);
  });
  return next;
}

/** Every rank's new collision state from every rank's old one, as the ranks trade it (in-process runs, tests, benchmarks). */
export function moveCollisionState(oldBoxes: readonly Box[], states: readonly CollisionState[], newBoxes: readonly Box[]): CollisionState[] {
  const parts = states.map((s, r) => handoverParts(s, oldBoxes[r], newBoxes, r));
  return newBoxes.map((box, d) => assembleCollisionState(box, d, oldBoxes, states[d], parts.map((p) => p[d])));
}
