// Slab decomposition (as in the seeds): the grid cut along one axis into ranks slabs of whole planes,
// of nearly equal thickness, or of nearly equal weight when per-cell weights (particle counts) are given.
import { axesByLength, planeProfile, wholeBox, withRange } from './box.js';
import { evenCuts, weightedCuts } from './cuts.js';
import { DecompositionError, axisName, checkAxis, checkGrid, checkRanks, checkWeights, formatGrid } from './errors.js';
import type { Axis, Decomposition, Grid, Weights } from './types.js';

/** Splits the grid into ranks slabs along axis (default: the longest), balanced by weights when given. */
export function slabDecomposition(grid: Grid, ranks: number, axis?: Axis, weights?: Weights): Decomposition {
  checkGrid(grid);
  checkRanks(grid, ranks);
  if (axis !== undefined) checkAxis(axis);
  if (weights) checkWeights(grid, weights);
  const a = axis ?? axesByLength(grid)[0];
  if (ranks > grid[a]) {
    throw new DecompositionError(
      `cannot cut the grid ${formatGrid(grid)} into ${ranks} slabs along ${axisName(a)}: it has only ${grid[a]} planes along ${axisName(a)} and every slab needs at least one; ` +
        `use at most ${grid[a]} ranks${axis === undefined ? '' : ' or another axis'}, or --decomposition block or rcb`,
    );
  }
  const whole = wholeBox(grid);
  const cuts = weights ? weightedCuts(planeProfile(grid, weights, whole, a), ranks) : evenCuts(grid[a], ranks);
  const boxes = [];
  for (let r = 0; r < ranks; r++) boxes.push(withRange(whole, a, cuts[r], cuts[r + 1]));
  return { method: 'slab', grid: [grid[0], grid[1], grid[2]], boxes };
}

/** The axis a slab decomposition cuts along (undefined for one rank, where nothing is cut). */
export function slabAxisOf(d: Decomposition): Axis | undefined {
  for (const a of [0, 1, 2] as Axis[]) {
    if (d.boxes.some((b) => b.lo[a] !== 0 || b.hi[a] !== d.grid[a])) return a;
  }
  return undefined;
}
