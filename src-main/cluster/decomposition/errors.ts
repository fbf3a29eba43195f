// Errors of the decomposition layer and the argument checks that raise them; every message names
// what was wrong and how to fix it.
import { AXIS_NAMES, type Box, type Grid, type Weights } from './types.js';

/** An impossible or malformed decomposition request (the CLI prints the message as is). */
export class DecompositionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DecompositionError';
  }
}

/** A grid for messages: '64x48x32 (98304 cells)'. */
export function formatGrid(grid: Grid): string {
  return `${grid[0]}x${grid[1]}x${grid[2]} (${grid[0] * grid[1] * grid[2]} cells)`;
}

/** A box for messages: '[0,4)x[0,8)x[0,1)'. */
export function formatBox(box: Box): string {
  return [0, 1, 2].map((a) => `[${box.lo[a]},${box.hi[a]})`).join('x');
}

/** Throws unless the grid is three positive integers. */
export function checkGrid(grid: Grid): void {
  if (!Array.isArray(grid) || grid.length !== 3 || !grid.every((n) => Number.isInteger(n) && n >= 1)) {
    throw new DecompositionError(
      `grid ${JSON.stringify(grid)} is not three positive integers [nx, ny, nz]: give the number of cells along x, y and z (use 1 for a flat axis)`,
    );
  }
}

/** Throws unless ranks is a positive integer no larger than the number of cells. */
export function checkRanks(grid: Grid, ranks: number): void {
  if (!Number.isInteger(ranks) || ranks < 1) {
    throw new DecompositionError(`ranks must be a positive integer, got ${ranks}: pass the number of rank processes (GPUs), e.g. --ranks 4`);
  }
  const cells = grid[0] * grid[1] * grid[2];
  if (ranks > cells) {
    throw new DecompositionError(
      `cannot split the grid ${formatGrid(grid)} over ${ranks} ranks: every rank needs at least one cell; use at most ${cells} ranks or a finer grid`,
    );
  }
}

/** Throws unless axis is 0, 1 or 2. */
export function checkAxis(axis: number): void {
  if (axis !== 0 && axis !== 1 && axis !== 2) {
    throw new DecompositionError(`axis must be 0 (x), 1 (y) or 2 (z), got ${axis}`);
  }
}

/** Throws unless there is one finite, non-negative weight per cell. */
export function checkWeights(grid: Grid, weights: Weights): void {
  const cells = grid[0] * grid[1] * grid[2];
  // a summed-area table checked its weights when it was built
  if ('boxSum' in weights) {
    if (weights.grid.some((n, a) => n !== grid[a])) throw new DecompositionError(`weights were summed over the grid ${formatGrid(weights.grid)}, not ${formatGrid(grid)}`);
    return;
  }
  if (weights.length !== cells) {
    throw new DecompositionError(
      `weights has ${weights.length} entries but the grid ${formatGrid(grid)} has ${cells}: pass one weight (particle count) per cell in global id order g = x + nx*(y + ny*z)`,
    );
  }
  for (let g = 0; g < cells; g++) {
    const w = weights[g];
    if (!(w >= 0) || !Number.isFinite(w)) {
      throw new DecompositionError(`weights[${g}] is ${w}: weights are particle counts per cell and must be finite and >= 0`);
    }
  }
}

/** Name of an axis for messages ('x', 'y' or 'z'). */
export function axisName(axis: number): string {
  return AXIS_NAMES[axis] ?? String(axis);
}
