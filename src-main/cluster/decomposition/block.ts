// Cartesian block decomposition (2D/3D): px*py*pz = ranks blocks, the factorisation chosen to minimise
// the total cut surface of the grid; each axis is split evenly (or by the weight marginals when given).
import { planeProfile, wholeBox } from './box.js';
import { evenCuts, weightedCuts } from './cuts.js';
import { DecompositionError, checkGrid, checkRanks, checkWeights, formatGrid } from './errors.js';
import type { Axis, Box, Decomposition, Grid, Int3, Weights } from './types.js';

/** Number of cell faces inside the grid that lie on cuts between blocks, for px x py x pz blocks. */
export function cutSurface(grid: Grid, parts: Int3): number {
  const [nx, ny, nz] = grid;
  return (parts[0] - 1) * ny * nz + (parts[1] - 1) * nx * nz + (parts[2] - 1) * nx * ny;
}

/** The factorisation [px, py, pz] of ranks with at most one block per cell along each axis and the least cut surface. */
export function blockFactorisation(grid: Grid, ranks: number): Int3 {
  checkGrid(grid);
  checkRanks(grid, ranks);
  let best: Int3 | null = null;
  let bestCost = Infinity;
  // Largest px first, then largest py: among equal surfaces, cut x before y before z (like slabs).
  for (let px = Math.min(ranks, grid[0]); px >= 1; px--) {
    if (ranks % px) continue;
    const rest = ranks / px;
    for (let py = Math.min(rest, grid[1]); py >= 1; py--) {
      if (rest % py) continue;
      const pz = rest / py;
      if (pz > grid[2]) continue;
      const cost = cutSurface(grid, [px, py, pz]);
      if (cost < bestCost) {
        best = [px, py, pz];
        bestCost = cost;
      }
    }
  }
  if (!best) {
    throw new DecompositionError(
      `no Cartesian split px*py*pz = ${ranks} fits the grid ${formatGrid(grid)} with at least one cell per block along each axis; ` +
        `use --decomposition rcb (any rank count) or a rank count whose factors fit the grid`,
    );
  }
  return best;
}

/** Splits the grid into px*py*pz = ranks blocks (rank = ix + px*(iy + py*iz)); weights, when given, place the cuts by each axis's marginal profile. */
export function blockDecomposition(grid: Grid, ranks: number, weights?: Weights): Decomposition {
  const parts = blockFactorisation(grid, ranks);
  if (weights) checkWeights(grid, weights);
  const whole = wholeBox(grid);
  const cuts = ([0, 1, 2] as Axis[]).map((a) =>
    weights ? weightedCuts(planeProfile(grid, weights, whole, a), parts[a]) : evenCuts(grid[a], parts[a]),
  );
  const boxes: Box[] = [];
  for (let iz = 0; iz < parts[2]; iz++) {
    for (let iy = 0; iy < parts[1]; iy++) {
      for (let ix = 0; ix < parts[0]; ix++) {
        boxes.push({
          lo: [cuts[0][ix], cuts[1][iy], cuts[2][iz]],
          hi: [cuts[0][ix + 1], cuts[1][iy + 1], cuts[2][iz + 1]],
        });
      }
    }
  }
  return { method: 'block', grid: [grid[0], grid[1], grid[2]], boxes };
}

/** The block counts [px, py, pz] of a block decomposition, read from its boxes. */
export function blockPartsOf(d: Decomposition): Int3 {
  return ([0, 1, 2] as Axis[]).map((a) => new Set(d.boxes.map((b) => b.lo[a])).size) as Int3;
}
