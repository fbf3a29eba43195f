// Method dispatch by table: build a decomposition by method name (the CLI's --decomposition), and
// rebalance one with the same method using per-cell weights (particle counts): from scratch (rebalance), or keeping
// its structure and moving only its cuts (recut: slab axis, block factorisation, rcb bisection tree).
import { blockDecomposition } from './block.js';
import { DecompositionError } from './errors.js';
import { rcbDecomposition } from './rcb.js';
import { rcbTreeOf, recutRcbTree } from './rcb-tree.js';
import { slabAxisOf, slabDecomposition } from './slab.js';
import { METHODS, type Decomposition, type Grid, type Method, type Weights } from './types.js';

/** Builds a decomposition of one method; previous, when given, fixes choices to keep (the slab axis). */
type Builder = (grid: Grid, ranks: number, weights?: Weights, previous?: Decomposition) => Decomposition;

/** One builder per method. */
const BUILDERS: Record<Method, Builder> = {
  slab: (grid, ranks, weights, previous) => slabDecomposition(grid, ranks, previous && slabAxisOf(previous), weights),
  block: (grid, ranks, weights) => blockDecomposition(grid, ranks, weights),
  rcb: (grid, ranks, weights) => rcbDecomposition(grid, ranks, weights),
};

/** The builder of a method; throws naming the known methods when there is none (a typo on the command line). */
function builderOf(method: string): Builder {
  if (!Object.hasOwn(BUILDERS, method)) {
    throw new DecompositionError(`unknown decomposition method '${method}': use one of ${METHODS.join(', ')}`);
  }
  return BUILDERS[method as Method];
}

/** Decomposes grid over ranks with the named method, weighted when weights are given. */
export function decompose(method: Method, grid: Grid, ranks: number, weights?: Weights): Decomposition {
  return builderOf(method)(grid, ranks, weights);
}

/** Recomputes a decomposition with its own method (and slab axis), same grid and ranks, balanced by the weights. */
export function rebalance(d: Decomposition, weights: Weights): Decomposition {
  return builderOf(d.method)(d.grid, d.boxes.length, weights, d);
}

/** Cuts grid over the ranks of d the way d is cut (its structure), by new weights. */
type Recutter = (d: Decomposition, weights: Weights, grid: Grid) => Decomposition;

/** One re-cut per method: slabs and blocks keep their axis and factorisation already when rebuilt, rcb keeps its tree. */
const RECUTTERS: Record<Method, Recutter> = {
  slab: (d, weights, grid) => slabDecomposition(grid, d.boxes.length, slabAxisOf(d), weights),
  block: (d, weights, grid) => blockDecomposition(grid, d.boxes.length, weights),
  rcb: (d, weights, grid) => {
    const tree = rcbTreeOf(d);
    return tree === undefined ? rcbDecomposition(grid, d.boxes.length, weights) : recutRcbTree(grid, d.boxes.length, tree, weights);
  },
};

/**
 * The decomposition d with its cuts moved to the weighted medians of the new weights, its structure kept (slab axis,
 * block factorisation, rcb bisection tree: axes and rank splits), so that fewer cells change owner than with
 * rebalance (rcb from scratch when d's boxes form no bisection tree); grid, when given, is another grid to cut the same way (a rebalance check's coarse grid).
 */
export function recut(d: Decomposition, weights: Weights, grid: Grid = d.grid): Decomposition {
  builderOf(d.method);
  return RECUTTERS[d.method](d, weights, grid);
}
