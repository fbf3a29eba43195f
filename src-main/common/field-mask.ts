// Which cells of a field map have too few samples to show: a cell's temperature, pressure, velocity or heat flux
// from a handful of particle samples is noise (and from one or two particles, rounding noise that can be negative),
// so such cells are left blank on the maps. Number density and the particle count stay: zero is a true value there.
import { isSpeciesFieldName, type FieldName } from './field-names.js';

/**
 * Particle samples (simulated particles per sampling pass x passes) a cell needs for a shown value. Below 10, the
 * relative standard error of a temperature exceeds sqrt(2 / (3 N)) = 26 % even for independent samples (the
 * variance of a chi-square with 3N degrees of freedom), and successive passes of the same particles are not
 * independent; with one or two particles the spread about the cell's own mean velocity is 0 plus rounding error,
 * which is where negative temperatures and pressures of near-empty cells come from.
 */
export const MIN_CELL_SAMPLES = 10;

/** Fields shown in every cell with a value, however few its samples (counts, whose zero is a true value). */
const COUNT_FIELDS: ReadonlySet<FieldName> = new Set<FieldName>(['n', 'particlesPerSample']);

/** Fields that cannot be negative: a negative value (rounding in a near-empty cell) is blanked too. */
const NON_NEGATIVE: ReadonlySet<FieldName> = new Set<FieldName>(['n', 'T', 'pxx', 'pyy', 'pzz', 'p', 'particlesPerSample', 'Trot', 'Tvib', 'Tall']);

/**
 * True when a cell's value of `field` is left blank: fewer than MIN_CELL_SAMPLES particle samples (fields other
 * than counts), or a negative value of a field that cannot be negative. `particleSamples`: particles per sampling
 * pass in the cell times the passes.
 */
export function isMasked(field: FieldName, value: number, particleSamples: number): boolean {
  // a species' number density is a count like n; its mole fraction, a ratio of counts, needs samples like T
  const species = isSpeciesFieldName(field);
  if ((NON_NEGATIVE.has(field) || species) && value < 0) return true;
  return !(COUNT_FIELDS.has(field) || field.startsWith('n_')) && !(particleSamples >= MIN_CELL_SAMPLES);
}
