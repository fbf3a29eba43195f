// The collision state's trade after a re-split (cell-handover.ts): what every rank packs for the others and assembles
// for itself gives each rank exactly the cells of its new box as cut from arrays over the whole grid, for slab, block
// and rcb splits re-made from scratch and re-cut; a part of the wrong size is refused.
import { describe, expect, it } from 'vitest';
import { assembleCollisionState, handoverParts, moveCollisionState } from '../../src-main/cluster/decomposition/cell-handover.js';
import { decompose, type Decomposition, type Grid } from '../../src-main/cluster/decomposition/index.js';
import { recut } from '../../src-main/cluster/decomposition/decompose.js';
import { cellCoords, intersectBoxes } from '../../src-main/cluster/decomposition/box.js';
import { subdomainOf, takeOwnedCells } from '../../src-main/solver/subdomain.js';

/** Every rank's cells of a global array, local order. */
function piecesOf(d: Decomposition, global: Float32Array): Float32Array[] {
  return d.boxes.map((_, r) => {
    const sub = subdomainOf(d, r);
    const local = new Float32Array(sub.nLocal);
    takeOwnedCells(global, sub, d.grid, local);
    return local;
  });
}

describe('the collision state traded after a re-split', () => {
  const grid: Grid = [30, 26, 12];
  const n = grid[0] * grid[1] * grid[2];
  // every cell's values differ, so a cell put in the wrong place shows
  const sigma = Float32Array.from({ length: n }, (_, g) => 1e-16 * (1 + g / n));
  const remainder = Float32Array.from({ length: n }, (_, g) => (g % 101) / 101);
  const weights = Float64Array.from({ length: n }, (_, g) => {
    const [x, y, z] = cellCoords(grid, g);
    return 10 + x * y + z * z;
  });

  it.each(['slab', 'block', 'rcb'] as const)('%s on 5 ranks, re-made and re-cut: every rank gets its new cells as cut from the whole grid', (method) => {
    const from = decompose(method, grid, 5);
    for (const to of [decompose(method, grid, 5, weights), recut(from, weights)]) {
      expect(to.boxes).not.toEqual(from.boxes);
      const states = from.boxes.map((_, r) => ({ sigmaCrMax: piecesOf(from, sigma)[r], remainder: piecesOf(from, remainder)[r] }));
      const moved = moveCollisionState(from.boxes, states, to.boxes);
      expect(moved.map((m) => m.sigmaCrMax)).toEqual(piecesOf(to, sigma));
      expect(moved.map((m) => m.remainder)).toEqual(piecesOf(to, remainder));
      // a rank packs for each other rank exactly the cells its old box shares with that rank's new box, none for itself
      from.boxes.forEach((box, r) => {
        const parts = handoverParts(states[r], box, to.boxes, r);
        parts.forEach((part, d) => {
          const overlap = d === r ? null : intersectBoxes(box, to.boxes[d]);
          const cells = overlap ? (overlap.hi[0] - overlap.lo[0]) * (overlap.hi[1] - overlap.lo[1]) * (overlap.hi[2] - overlap.lo[2]) : 0;
          expect(part.length).toBe(2 * cells);
        });
      });
    }
  });

  it('refuses a part that holds other than the overlap\'s cells', () => {
    const from = decompose('slab', grid, 3);
    const to = decompose('slab', grid, 3, weights);
    const states = from.boxes.map((_, r) => ({ sigmaCrMax: piecesOf(from, sigma)[r], remainder: piecesOf(from, remainder)[r] }));
    const parts = states.map((s, r) => handoverParts(s, from.boxes[r], to.boxes, r));
    const received = parts.map((p) => p[1]);
    expect(() => assembleCollisionState(to.boxes[1], 1, from.boxes, states[1], received)).not.toThrow();
    const giver = received.findIndex((p, r) => r !== 1 && p.length > 0);
    expect(giver).toBeGreaterThanOrEqual(0);
    const short = received.map((p, r) => (r === giver ? p.subarray(2) : p));
    expect(() => assembleCollisionState(to.boxes[1], 1, from.boxes, states[1], short)).toThrow(new RegExp(`rank ${giver} handed over the collision state of`));
  });
});
