// Migration plan between two decompositions of one grid: the boxes of cells (with their particles) that
// move from one rank to another when the orchestrator switches from old to next.
import { boxCells, intersectBoxes } from './box.js';
import { DecompositionError, formatGrid } from './errors.js';
import type { Box, Decomposition } from './types.js';

/** Cells that move from rank from to rank to: one box, cells = its cell count. */
export interface CellMove {
  from: number;
  to: number;
  box: Box;
  cells: number;
}

/** Every (from, to) pair of different ranks whose old and next boxes intersect, with that intersection, sorted by from then to. */
export function migrationPlan(old: Decomposition, next: Decomposition): CellMove[] {
  if (old.grid.some((n, a) => n !== next.grid[a])) {
    throw new DecompositionError(
      `cannot migrate between decompositions of different grids (${formatGrid(old.grid)} and ${formatGrid(next.grid)}): decompose the same grid`,
    );
  }
  const moves: CellMove[] = [];
  old.boxes.forEach((a, from) => {
    next.boxes.forEach((b, to) => {
      if (from === to) return;
      const box = intersectBoxes(a, b);
      if (box) moves.push({ from, to, box, cells: boxCells(box) });
    });
  });
  return moves;
}
