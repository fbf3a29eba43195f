// Cell -> rank lookup: an Int32Array over all global cell ids (uploadable to the GPU as it is).
import { DecompositionError } from './errors.js';
import type { Decomposition, Grid } from './types.js';
import { fillOwners } from './validate.js';

/** Rank owning each cell, indexed by global cell id; throws when the boxes overlap, leave gaps or leave the grid. */
export function owner(d: Decomposition): Int32Array {
  const { map, problems } = fillOwners(d);
  if (problems.length) {
    throw new DecompositionError(`${d.method} decomposition does not cover its grid exactly once: ${problems.join('; ')}`);
  }
  return map;
}

/** Rank owning cell (x, y, z), read from an owner map. */
export function ownerAt(map: Int32Array, grid: Grid, x: number, y: number, z: number): number {
  return map[x + grid[0] * (y + grid[1] * z)];
}
