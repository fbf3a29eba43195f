// Cells and boxes of cells: global cell ids, box sizes, intersections, weight sums and plane profiles.
import { SummedWeights } from './summed-weights.js';
import type { Axis, Box, Grid, Int3, Weights } from './types.js';

/** Number of cells of a grid. */
export function cellCount(grid: Grid): number {
  return grid[0] * grid[1] * grid[2];
}

/** Global cell id g = x + nx*(y + ny*z). */
export function cellId(grid: Grid, x: number, y: number, z: number): number {
  return x + grid[0] * (y + grid[1] * z);
}

/** Cell coordinates [x, y, z] of a global cell id. */
export function cellCoords(grid: Grid, g: number): Int3 {
  const x = g % grid[0];
  const t = (g - x) / grid[0];
  const y = t % grid[1];
  return [x, y, (t - y) / grid[1]];
}

/** The box covering a whole grid. */
export function wholeBox(grid: Grid): Box {
  return { lo: [0, 0, 0], hi: [grid[0], grid[1], grid[2]] };
}

/** Number of cells along each axis of a box (0 where it is empty). */
export function boxExtent(box: Box): Int3 {
  return [
    Math.max(0, box.hi[0] - box.lo[0]),
    Math.max(0, box.hi[1] - box.lo[1]),
    Math.max(0, box.hi[2] - box.lo[2]),
  ];
}

/** Number of cells in a box (0 when empty). */
export function boxCells(box: Box): number {
  const e = boxExtent(box);
  return e[0] * e[1] * e[2];
}

/** True when cell (x, y, z) lies inside the box. */
export function boxContains(box: Box, x: number, y: number, z: number): boolean {
  return x >= box.lo[0] && x < box.hi[0] && y >= box.lo[1] && y < box.hi[1] && z >= box.lo[2] && z < box.hi[2];
}

/** Intersection of two boxes, or null when they share no cell. */
export function intersectBoxes(a: Box, b: Box): Box | null {
  const lo: Int3 = [Math.max(a.lo[0], b.lo[0]), Math.max(a.lo[1], b.lo[1]), Math.max(a.lo[2], b.lo[2])];
  const hi: Int3 = [Math.min(a.hi[0], b.hi[0]), Math.min(a.hi[1], b.hi[1]), Math.min(a.hi[2], b.hi[2])];
  return lo[0] < hi[0] && lo[1] < hi[1] && lo[2] < hi[2] ? { lo, hi } : null;
}

/** A copy of a box with its range along one axis replaced by [lo, hi). */
export function withRange(box: Box, axis: Axis, lo: number, hi: number): Box {
  const out: Box = { lo: [box.lo[0], box.lo[1], box.lo[2]], hi: [box.hi[0], box.hi[1], box.hi[2]] };
  out.lo[axis] = lo;
  out.hi[axis] = hi;
  return out;
}

/** Axes ordered by decreasing extent; ties keep x before y before z. */
export function axesByLength(extent: Int3): Axis[] {
  return ([0, 1, 2] as Axis[]).sort((a, b) => extent[b] - extent[a] || a - b);
}

/** Calls visit(g) for every cell of a box (clipped to the grid), in global id order. */
export function forEachCell(grid: Grid, box: Box, visit: (g: number) => void): void {
  const x0 = Math.max(0, box.lo[0]), x1 = Math.min(grid[0], box.hi[0]);
  const y0 = Math.max(0, box.lo[1]), y1 = Math.min(grid[1], box.hi[1]);
  const z0 = Math.max(0, box.lo[2]), z1 = Math.min(grid[2], box.hi[2]);
  for (let z = z0; z < z1; z++) {
    for (let y = y0; y < y1; y++) {
      const row = grid[0] * (y + grid[1] * z);
      for (let x = x0; x < x1; x++) visit(row + x);
    }
  }
}

/** Sum of the weights over a box's cells (its cell count when weights is undefined). */
export function boxWeight(grid: Grid, weights: Weights | undefined, box: Box): number {
  if (!weights) return boxCells(box);
  if (weights instanceof SummedWeights) return weights.boxSum(box);
  let sum = 0;
  for (let z = box.lo[2]; z < box.hi[2]; z++) {
    for (let y = box.lo[1]; y < box.hi[1]; y++) {
      const row = grid[0] * (y + grid[1] * z);
      for (let x = box.lo[0]; x < box.hi[0]; x++) sum += weights[row + x];
    }
  }
  return sum;
}

/** Weight of each plane of a box perpendicular to an axis, lowest plane first (plane areas when weights is undefined). */
export function planeProfile(grid: Grid, weights: Weights | undefined, box: Box, axis: Axis): Float64Array {
  const e = boxExtent(box);
  const profile = new Float64Array(e[axis]);
  if (!weights) return profile.fill(boxCells(box) / Math.max(1, e[axis]));
  if (weights instanceof SummedWeights) {
    for (let k = 0; k < e[axis]; k++) profile[k] = weights.boxSum(withRange(box, axis, box.lo[axis] + k, box.lo[axis] + k + 1));
    return profile;
  }
  for (let z = box.lo[2]; z < box.hi[2]; z++) {
    for (let y = box.lo[1]; y < box.hi[1]; y++) {
      const row = grid[0] * (y + grid[1] * z);
      if (axis === 0) {
        for (let x = box.lo[0]; x < box.hi[0]; x++) profile[x - box.lo[0]] += weights[row + x];
      } else {
        let sum = 0;
        for (let x = box.lo[0]; x < box.hi[0]; x++) sum += weights[row + x];
        profile[axis === 1 ? y - box.lo[1] : z - box.lo[2]] += sum;
      }
    }
  }
  return profile;
}
