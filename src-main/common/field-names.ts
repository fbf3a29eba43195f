// The sampled per-cell fields: names (in the order they are hashed, stored and exported) and units.

/** Field names in the order they are hashed and exported. */
export const FIELD_NAMES = ['n', 'ux', 'uy', 'uz', 'T', 'pxx', 'pyy', 'pzz', 'p', 'qx', 'qy', 'qz', 'particlesPerSample'] as const;
export type FieldName = (typeof FIELD_NAMES)[number];
/** One Float64Array per field, cells in order (x fastest, then y, then z). */
export type Fields = Record<FieldName, Float64Array>;

/** What each field is, with its SI unit. */
export const FIELD_INFO: Record<FieldName, { label: string; unit: string }> = {
  n: { label: 'number density', unit: 'm^-3' },
  ux: { label: 'velocity x', unit: 'm/s' },
  uy: { label: 'velocity y', unit: 'm/s' },
  uz: { label: 'velocity z', unit: 'm/s' },
  T: { label: 'translational temperature', unit: 'K' },
  pxx: { label: 'pressure tensor xx', unit: 'Pa' },
  pyy: { label: 'pressure tensor yy', unit: 'Pa' },
  pzz: { label: 'pressure tensor zz', unit: 'Pa' },
  p: { label: 'pressure', unit: 'Pa' },
  qx: { label: 'heat flux x', unit: 'W/m^2' },
  qy: { label: 'heat flux y', unit: 'W/m^2' },
  qz: { label: 'heat flux z', unit: 'W/m^2' },
  particlesPerSample: { label: 'simulated particles per sample', unit: '1' },
};
