// The sampled per-cell fields: names (in the order they are hashed, stored and exported) and units.

/** Fields every sampled run has, in the order they are hashed and exported (T is the translational temperature). */
export const FIELD_NAMES = ['n', 'ux', 'uy', 'uz', 'T', 'pxx', 'pyy', 'pzz', 'p', 'qx', 'qy', 'qz', 'particlesPerSample'] as const;
/**
 * Temperatures of the internal modes, only in runs whose gas has internal modes (a species rotates): rotational,
 * vibrational and overall temperature, after FIELD_NAMES in hashes and exports. A monatomic run has none of them, so
 * its stored fields and hashes are those of a run before they existed.
 */
export const INTERNAL_FIELD_NAMES = ['Trot', 'Tvib', 'Tall'] as const;
/** Every field a run may have, in order. */
export const ALL_FIELD_NAMES = [...FIELD_NAMES, ...INTERNAL_FIELD_NAMES] as const;

export type BaseFieldName = (typeof FIELD_NAMES)[number];
export type InternalFieldName = (typeof INTERNAL_FIELD_NAMES)[number];
export type FieldName = BaseFieldName | InternalFieldName;
/** One Float64Array per field, cells in order (x fastest, then y, then z); the internal ones only where the gas has internal modes. */
export type Fields = Record<BaseFieldName, Float64Array> & Partial<Record<InternalFieldName, Float64Array>>;

/** The names of the fields a set holds (FIELD_NAMES, then the internal ones it has), in hash and export order. */
export function fieldNamesOf(f: Partial<Record<FieldName, unknown>>): FieldName[] {
  return ALL_FIELD_NAMES.filter((n) => f[n] !== undefined);
}

/** The field names of a run: FIELD_NAMES, and INTERNAL_FIELD_NAMES when its gas has internal modes. */
export function runFieldNames(internalModes: boolean): readonly FieldName[] {
  return internalModes ? ALL_FIELD_NAMES : FIELD_NAMES;
}

/** The error for a field a set lacks: an internal temperature of a gas without internal modes. */
export function missingFieldMessage(name: FieldName): string {
  return `field ${name}: this run has no ${name} (the rotational, vibrational and overall temperatures Trot, Tvib and Tall are sampled only ` +
    'where a species of the gas rotates); choose one of the fields every run has, e.g. T (the translational temperature)';
}

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
  Trot: { label: 'rotational temperature', unit: 'K' },
  Tvib: { label: 'vibrational temperature', unit: 'K' },
  Tall: { label: 'overall temperature', unit: 'K' },
};
