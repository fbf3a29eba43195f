// Recursive coordinate bisection weighted by particle counts: each box is cut along its longest axis (or one
// at least half as long whose whole-plane cut lands nearer the target) at the weighted median, so that each
// side's weight is proportional to its number of ranks (any rank count, not only powers of 2).
import { axesByLength, boxCells, boxExtent, planeProfile, wholeBox, withRange } from './box.js';
import { nearestCut, prefixSums } from './cuts.js';
import { checkGrid, checkRanks, checkWeights } from './errors.js';
import type { Axis, Box, Decomposition, Grid, Weights } from './types.js';

/** One bisection of a box: the cut plane along axis and how many ranks go to the low side. */
interface Split {
  axis: Axis;
  cut: number;
  lowRanks: number;
}

/** Splits the grid over ranks by weighted recursive coordinate bisection (every cell weighs 1 when weights is undefined). */
export function rcbDecomposition(grid: Grid, ranks: number, weights?: Weights): Decomposition {
  checkGrid(grid);
  checkRanks(grid, ranks);
  if (weights) checkWeights(grid, weights);
  const boxes: Box[] = new Array(ranks);
  bisect(grid, weights, wholeBox(grid), 0, ranks, boxes);
  return { method: 'rcb', grid: [grid[0], grid[1], grid[2]], boxes };
}

/** Assigns box to ranks [first, first + count), bisecting it recursively; needs boxCells(box) >= count. */
export function bisect(grid: Grid, weights: Weights | undefined, box: Box, first: number, count: number, out: Box[]): void {
  if (count === 1) {
    out[first] = box;
    return;
  }
  const { axis, cut, lowRanks } = chooseSplit(grid, weights, box, count);
  bisect(grid, weights, withRange(box, axis, box.lo[axis], cut), first, lowRanks, out);
  bisect(grid, weights, withRange(box, axis, cut, box.hi[axis]), first + lowRanks, count - lowRanks, out);
}

/** Rank counts for the low side, nearest to an even split first. */
export function lowRankOrder(count: number): number[] {
  const order: number[] = [];
  for (let k = 1; k < count; k++) order.push(k);
  return order.sort((a, b) => Math.abs(2 * a - count) - Math.abs(2 * b - count) || a - b);
}

/**
 * The weighted-median cut of box along axis giving lowRanks of count ranks to the low side, keeping >= one cell per
 * rank on each side (and its distance from the target, a share of the box's weight); null when impossible.
 */
export function cutFor(grid: Grid, weights: Weights | undefined, box: Box, count: number, axis: Axis, lowRanks: number): { cut: number; error: number } | null {
  const length = boxExtent(box)[axis];
  if (length < 2) return null;
  const area = boxCells(box) / length;
  const min = Math.ceil(lowRanks / area);
  const max = length - Math.ceil((count - lowRanks) / area);
  if (min > max) return null;
  let prefix = prefixSums(planeProfile(grid, weights, box, axis));
  // A box without weight splits by volume.
  if (!(prefix[length] > 0)) prefix = prefixSums(planeProfile(grid, undefined, box, axis));
  const target = (prefix[length] * lowRanks) / count;
  const cut = nearestCut(prefix, target, min, max);
  return { cut: box.lo[axis] + cut, error: Math.abs(prefix[cut] - target) / prefix[length] };
}

/** The weighted-median cut of box along axis for count ranks, the most even rank split that fits first; null when none fits. */
function splitAlong(grid: Grid, weights: Weights | undefined, box: Box, count: number, axis: Axis): (Split & { error: number }) | null {
  for (const lowRanks of lowRankOrder(count)) {
    const found = cutFor(grid, weights, box, count, axis, lowRanks);
    if (found) return { axis, lowRanks, ...found };
  }
  return null;
}

/**
 * The cut of box for count ranks: along the longest axis at the weighted median, unless an axis at least half as
 * long (so boxes stay compact) lands nearer the weight target, since whole planes limit how close a cut can get.
 */
function chooseSplit(grid: Grid, weights: Weights | undefined, box: Box, count: number): Split {
  const extent = boxExtent(box);
  const axes = axesByLength(extent);
  let best: (Split & { error: number }) | null = null;
  for (const axis of axes) {
    if (best && 2 * extent[axis] < extent[axes[0]]) break;
    const split = splitAlong(grid, weights, box, count, axis);
    if (split && (!best || split.error < best.error - 1e-12)) best = split;
  }
  if (best) return { axis: best.axis, cut: best.cut, lowRanks: best.lowRanks };
  // Unreachable while boxCells(box) >= count >= 2: any cut of the longest axis admits some rank split.
  throw new Error(`internal: no RCB cut for ${count} ranks in a box of ${boxCells(box)} cells`);
}
