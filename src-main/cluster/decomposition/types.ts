import type { SummedWeights } from './summed-weights.js';

// Types of the domain decomposition: a grid of cells, axis-aligned boxes of cells, one box per rank.
// Global cell id g = x + nx*(y + ny*z); a box is [lo, hi) on each axis (hi exclusive).

/** Three integers, one per axis x, y, z. */
export type Int3 = [number, number, number];

/** An axis: 0 = x, 1 = y, 2 = z. */
export type Axis = 0 | 1 | 2;

/** Number of cells along x, y, z. */
export type Grid = Int3;

/** An axis-aligned box of cells: lo inclusive, hi exclusive on each axis. */
export interface Box {
  lo: Int3;
  hi: Int3;
}

/** How the grid was split: slabs along one axis, Cartesian blocks, or recursive coordinate bisection. */
export type Method = 'slab' | 'block' | 'rcb';

/** Every method, in the order the CLI lists them. */
export const METHODS: readonly Method[] = ['slab', 'block', 'rcb'];

/** A split of a grid over ranks: boxes[r] is the subdomain of rank r; together they cover the grid once. */
export interface Decomposition {
  method: Method;
  grid: Grid;
  boxes: Box[];
}

/**
 * One non-negative weight (particle count) per cell, indexed by global cell id; or such weights as a summed-area table
 * (summed-weights.ts), which gives box sums without a pass over the cells.
 */
export type Weights = ArrayLike<number> | SummedWeights;

/** Names of the axes for messages. */
export const AXIS_NAMES = ['x', 'y', 'z'] as const;

/** True when text names a method ('slab', 'block' or 'rcb'), e.g. the CLI's --decomposition value. */
export function isMethod(text: string): text is Method {
  return (METHODS as readonly string[]).includes(text);
}
