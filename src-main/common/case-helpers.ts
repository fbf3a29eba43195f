// Derived quantities of a parsed case that the solver and the pre-launch check need:
// cell and domain sizes, the reference gas state, mole fractions and the resolved Fnum.
import type { Case } from './case-schema.js';

/** The six faces of the box, in the order the case file lists them. */
export const FACES = ['xmin', 'xmax', 'ymin', 'ymax', 'zmin', 'zmax'] as const;
/** One face of the box. */
export type Face = (typeof FACES)[number];

// Number of cells in the grid.
export function cellCount(c: Case): number {
  const [nx, ny, nz] = c.grid.cells;
  return nx * ny * nz;
}

// Volume of one cell, m^3.
export function cellVolume(c: Case): number {
  const [dx, dy, dz] = c.grid.cellSize;
  return dx * dy * dz;
}

// Edge lengths of the whole box [Lx, Ly, Lz], m.
export function domainLengths(c: Case): [number, number, number] {
  const { cells, cellSize } = c.grid;
  return [cells[0] * cellSize[0], cells[1] * cellSize[1], cells[2] * cellSize[2]];
}

// Volume of the whole box, m^3.
export function domainVolume(c: Case): number {
  return cellCount(c) * cellVolume(c);
}

/** The densest gas state the case puts in the box: the initial gas or an inflow reservoir. */
export interface ReferenceState {
  /** `initial`, `boundaries.xmin`, ... or `none` when no gas is given anywhere. */
  source: string;
  numberDensity: number;
  temperature: number;
  velocity: [number, number, number];
  fractions?: Record<string, number>;
}

// The reference state: the largest of the initial density (unless kind is "empty") and every inflow density.
export function referenceState(c: Case): ReferenceState {
  let best: ReferenceState = { source: 'none', numberDensity: 0, temperature: c.initial.temperature, velocity: [0, 0, 0] };
  if (c.initial.kind !== 'empty' && c.initial.numberDensity > 0) {
    const { numberDensity, temperature, velocity, fractions } = c.initial;
    best = { source: 'initial', numberDensity, temperature, velocity, fractions };
  }
  for (const face of FACES) {
    const b = c.boundaries[face];
    if (b.type === 'inflow' && b.numberDensity > best.numberDensity) {
      const { numberDensity, temperature, velocity, fractions } = b;
      best = { source: `boundaries.${face}`, numberDensity, temperature, velocity, fractions };
    }
  }
  return best;
}

// Mole fractions, one per species in species order, summing to 1 (all equal when `fractions` is absent).
export function moleFractions(c: Case, fractions?: Record<string, number>): number[] {
  if (fractions === undefined) return c.species.map(() => 1 / c.species.length);
  const names = c.species.map((s) => s.name);
  for (const key of Object.keys(fractions)) {
    if (!names.includes(key)) throw new Error(`mole fractions name "${key}", which is not a species; species: ${names.join(', ')}`);
  }
  const raw = names.map((n) => fractions[n] ?? 0);
  const sum = raw.reduce((a, b) => a + b, 0);
  if (!(sum > 0) || !Number.isFinite(sum)) throw new Error(`mole fractions ${JSON.stringify(fractions)} must be >= 0 and sum to a finite value > 0`);
  return raw.map((x) => x / sum);
}

// Real molecules per simulated particle: particles.fnum, or nRef * cellVolume / particles.perCell.
export function resolvedFnum(c: Case): number {
  if (c.particles.fnum !== undefined) return c.particles.fnum;
  if (c.particles.perCell === undefined) throw new Error('particles: expected exactly one of fnum and perCell');
  const nRef = referenceState(c).numberDensity;
  if (!(nRef > 0)) {
    throw new Error('particles.perCell needs a number density > 0 in initial (kind not "empty") or in an inflow boundary; give particles.fnum instead');
  }
  return (nRef * cellVolume(c)) / c.particles.perCell;
}
