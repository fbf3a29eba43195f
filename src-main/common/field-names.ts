// The sampled per-cell fields: names (in the order they are hashed, stored and exported) and units.

/** Fields every sampled run has, in the order they are hashed and exported (T is the translational temperature). */
export const FIELD_NAMES = ['n', 'ux', 'uy', 'uz', 'T', 'pxx', 'pyy', 'pzz', 'p', 'qx', 'qy', 'qz', 'particlesPerSample'] as const;
/**
 * Temperatures of the internal modes, only in runs whose gas has internal modes (a species rotates): rotational,
 * vibrational and overall temperature, after FIELD_NAMES in hashes and exports. A monatomic run has none of them, so
 * its stored fields and hashes are those of a run before they existed.
 */
export const INTERNAL_FIELD_NAMES = ['Trot', 'Tvib', 'Tall'] as const;
/** Every field of fixed name a run may have, in order (the per-species fields follow them: speciesFieldNames). */
export const ALL_FIELD_NAMES = [...FIELD_NAMES, ...INTERNAL_FIELD_NAMES] as const;

export type BaseFieldName = (typeof FIELD_NAMES)[number];
export type InternalFieldName = (typeof INTERNAL_FIELD_NAMES)[number];
/**
 * Per-species fields of a gas of two or more species: number density n_<species> (m^-3) and mole fraction x_<species>.
 * A one-species run has none, so its stored fields and hashes are those of a run before they existed.
 */
export type SpeciesFieldName = `n_${string}` | `x_${string}`;
export type FieldName = BaseFieldName | InternalFieldName | SpeciesFieldName;
/**
 * One Float64Array per field, cells in order (x fastest, then y, then z); the internal ones only where the gas has
 * internal modes, the per-species ones only in a gas of two or more species.
 */
export type Fields = Record<BaseFieldName, Float64Array> & Partial<Record<InternalFieldName, Float64Array>> & { [k: SpeciesFieldName]: Float64Array | undefined };

/** Whether a name is a per-species field's (n_<species> or x_<species>). */
export function isSpeciesFieldName(name: string): name is SpeciesFieldName {
  return name.length > 2 && (name.startsWith('n_') || name.startsWith('x_'));
}

/** Whether a name is a field's a run may have (a fixed name or a per-species one). */
export function isFieldName(name: string): name is FieldName {
  return (ALL_FIELD_NAMES as readonly string[]).includes(name) || isSpeciesFieldName(name);
}

/** The per-species fields of a gas's species (none for fewer than two): every n_<species>, then every x_<species>, in species order. */
export function speciesFieldNames(species: readonly string[]): SpeciesFieldName[] {
  if (speciesFieldCount(species.length) === 0) return [];
  return [...species.map((s): SpeciesFieldName => `n_${s}`), ...species.map((s): SpeciesFieldName => `x_${s}`)];
}

/** How many per-species fields a gas of S species has (2 S from two species on, else none). */
export function speciesFieldCount(S: number): number {
  return S >= 2 ? 2 * S : 0;
}

/** Code-unit order of two strings (the same on every machine, unlike localeCompare). */
function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The names of the fields a set holds in hash and export order: FIELD_NAMES, the internal ones it has, then its
 * n_<species> and its x_<species> each sorted by name (an order that does not hang on how the set was built or read).
 */
export function fieldNamesOf(f: Partial<Record<FieldName, unknown>>): FieldName[] {
  const species = Object.keys(f).filter((k) => isSpeciesFieldName(k) && f[k as SpeciesFieldName] !== undefined) as SpeciesFieldName[];
  const sorted = (prefix: string) => species.filter((k) => k.startsWith(prefix)).sort(byCodeUnits);
  return [...ALL_FIELD_NAMES.filter((n) => f[n] !== undefined), ...sorted('n_'), ...sorted('x_')];
}

/** The field names of a run: FIELD_NAMES, INTERNAL_FIELD_NAMES when its gas has internal modes, and the per-species fields of a mixture (species order). */
export function runFieldNames(internalModes: boolean, species: readonly string[] = []): readonly FieldName[] {
  return [...(internalModes ? ALL_FIELD_NAMES : FIELD_NAMES), ...speciesFieldNames(species)];
}

/**
 * The field names a run of a case samples (runFieldNames): its gas has internal modes where a species rotates, and
 * per-species fields where it has two or more species. Works on a parsed case or its stored JSON.
 */
export function caseFieldNames(c: { species: readonly { name: string; rotationalDof?: number }[] }): readonly FieldName[] {
  return runFieldNames(c.species.some((s) => (s.rotationalDof ?? 0) > 0), c.species.map((s) => s.name));
}

/** The error for a field a set lacks: an internal temperature of a gas without internal modes, or a species field of another gas. */
export function missingFieldMessage(name: FieldName): string {
  if (isSpeciesFieldName(name)) {
    return `field ${name}: this run has no ${name} (n_<species> and x_<species> are sampled per species of the run's gas, only where it has two or more ` +
      'species); choose one of the fields every run has, e.g. n (the number density)';
  }
  return `field ${name}: this run has no ${name} (the rotational, vibrational and overall temperatures Trot, Tvib and Tall are sampled only ` +
    'where a species of the gas rotates); choose one of the fields every run has, e.g. T (the translational temperature)';
}

/** What a field is, with its SI unit (per-species fields name their species). */
export function fieldInfo(name: FieldName): { label: string; unit: string } {
  if (name in FIELD_INFO) return FIELD_INFO[name as BaseFieldName | InternalFieldName];
  const species = name.slice(2);
  return name.startsWith('n_') ? { label: `number density of ${species}`, unit: 'm^-3' } : { label: `mole fraction of ${species}`, unit: '1' };
}

/** What each field of fixed name is, with its SI unit (fieldInfo: any field). */
export const FIELD_INFO: Record<BaseFieldName | InternalFieldName, { label: string; unit: string }> = {
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
