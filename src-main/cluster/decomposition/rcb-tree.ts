// The bisection tree of an RCB decomposition, read back from its boxes, and the same tree re-cut for new weights: every
// node keeps its axis and its split of the ranks and only moves its cut to the weighted median of its own (new) box.
// A rebalance that re-cuts the tree moves the particles near the cuts; rcbDecomposition from scratch may pick other axes
// (near-ties of whole-plane cuts flip with the weights) and so hand large regions to other ranks (issue 24).
import { boxCells, wholeBox, withRange } from './box.js';
import { checkGrid, checkRanks, checkWeights } from './errors.js';
import { bisect, cutFor, lowRankOrder } from './rcb.js';
import type { Axis, Box, Decomposition, Grid, Weights } from './types.js';

/** A bisection: ranks [first, first + lowRanks) below the cut along axis, the rest above; leaves (one rank) are null. */
export interface RcbNode {
  axis: Axis;
  lowRanks: number;
  low: RcbTree;
  high: RcbTree;
}

/** A bisection tree over a run of ranks (null for one rank). */
export type RcbTree = RcbNode | null;

/** The bounding box of boxes [first, first + count). */
function boundsOf(boxes: Box[], first: number, count: number): Box {
  const lo = [...boxes[first].lo] as Box['lo'];
  const hi = [...boxes[first].hi] as Box['hi'];
  for (let r = first + 1; r < first + count; r++) {
    for (let a = 0; a < 3; a++) {
      lo[a] = Math.min(lo[a], boxes[r].lo[a]);
      hi[a] = Math.max(hi[a], boxes[r].hi[a]);
    }
  }
  return { lo, hi };
}

/** The axis along which low and high split parent in two (each spanning parent on the other axes), or null. */
function splitAxis(parent: Box, low: Box, high: Box): Axis | null {
  for (const axis of [0, 1, 2] as Axis[]) {
    const others = ([0, 1, 2] as Axis[]).filter((a) => a !== axis);
    const spans = (b: Box) => others.every((a) => b.lo[a] === parent.lo[a] && b.hi[a] === parent.hi[a]);
    if (low.lo[axis] === parent.lo[axis] && low.hi[axis] === high.lo[axis] && high.hi[axis] === parent.hi[axis] && spans(low) && spans(high)) {
      return axis;
    }
  }
  return null;
}

/** The tree over boxes [first, first + count), trying rank splits in rcb's order; undefined when they are no bisection. */
function treeOf(boxes: Box[], first: number, count: number): RcbTree | undefined {
  if (count === 1) return null;
  const parent = boundsOf(boxes, first, count);
  for (const lowRanks of lowRankOrder(count)) {
    const axis = splitAxis(parent, boundsOf(boxes, first, lowRanks), boundsOf(boxes, first + lowRanks, count - lowRanks));
    if (axis === null) continue;
    const low = treeOf(boxes, first, lowRanks);
    const high = low === undefined ? undefined : treeOf(boxes, first + lowRanks, count - lowRanks);
    if (high !== undefined) return { axis, lowRanks, low: low!, high };
  }
  return undefined;
}

/** The bisection tree of a decomposition's boxes (rank ranges contiguous, as rcbDecomposition makes them); undefined when they form none. */
export function rcbTreeOf(d: Decomposition): RcbTree | undefined {
  return treeOf(d.boxes, 0, d.boxes.length);
}

/** Cuts box for ranks [first, first + count) along the tree's axes at the new medians; a node whose axis no longer fits splits from scratch. */
function recutNode(grid: Grid, weights: Weights | undefined, box: Box, first: number, count: number, node: RcbTree, out: Box[]): void {
  if (count === 1 || !node) {
    if (count === 1) out[first] = box;
    else bisect(grid, weights, box, first, count, out);
    return;
  }
  const found = cutFor(grid, weights, box, count, node.axis, node.lowRanks);
  if (!found) {
    bisect(grid, weights, box, first, count, out);
    return;
  }
  const { axis, lowRanks } = node;
  recutNode(grid, weights, withRange(box, axis, box.lo[axis], found.cut), first, lowRanks, node.low, out);
  recutNode(grid, weights, withRange(box, axis, found.cut, box.hi[axis]), first + lowRanks, count - lowRanks, node.high, out);
}

/** An RCB decomposition of grid over the tree's ranks with the tree's axes and rank splits, each cut at its box's weighted median. */
export function recutRcbTree(grid: Grid, ranks: number, tree: RcbTree, weights?: Weights): Decomposition {
  checkGrid(grid);
  checkRanks(grid, ranks);
  if (weights) checkWeights(grid, weights);
  const boxes: Box[] = new Array(ranks);
  recutNode(grid, weights, wholeBox(grid), 0, ranks, tree, boxes);
  if (boxes.some((b) => boxCells(b) === 0)) throw new Error('internal: an RCB re-cut left a rank without cells');
  return { method: 'rcb', grid: [grid[0], grid[1], grid[2]], boxes };
}
