// Which optional fields of the case form apply to the case as it stands, so the form shows a species' rotation
// and vibration sub-forms only for a molecule, the initial internal temperatures only for a gas that has those
// modes, and mole fractions only for a mixture. One table of rules keyed by the field's path pattern; a field
// that is set or has a message is always shown (the check names it, and the user must be able to fix it).
import { unitPattern } from '../../src-main/common/case-units.js';
import { SPECIES_LIBRARY } from '../../src-main/common/species-library.js';

type Json = Record<string, unknown>;

/** A rule: whether the field applies, given the object holding it, the whole case and the holder's path; `when` says
 *  when it does. */
interface ApplyRule {
  applies: (holder: Json, root: Json, path: readonly (string | number)[]) => boolean;
  when: string;
}

/** The rotational degrees of freedom of a species item: its own, else its library species', else 0. */
function rotationalDof(species: unknown): number {
  if (typeof species !== 'object' || species === null) return 0;
  const s = species as Json;
  if (s.rotationalDof !== undefined) return Number(s.rotationalDof);
  const lib = typeof s.use === 'string' ? SPECIES_LIBRARY[s.use] : undefined;
  return lib?.rotationalDof ?? 0;
}

/** True when a species item has a vibrational mode, its own or its library species' (unless removed with null). */
function vibrates(species: unknown): boolean {
  if (typeof species !== 'object' || species === null) return false;
  const s = species as Json;
  if (s.vibration !== undefined) return s.vibration !== null;
  return typeof s.use === 'string' && SPECIES_LIBRARY[s.use]?.vibration !== undefined;
}

/** The case's species items. */
function speciesOf(root: Json): unknown[] {
  return Array.isArray(root.species) ? root.species : [];
}

const MOLECULE = 'with rotationalDof 2 (a molecule)';
const MIXTURE = 'with two or more species';
const rotating: ApplyRule = { applies: (s) => rotationalDof(s) === 2, when: MOLECULE };
const mixture: ApplyRule = { applies: (_h, root) => speciesOf(root).length > 1, when: MIXTURE };

/** The rules by path pattern (unitPattern's form); fields without a rule always apply. */
const RULES: Readonly<Record<string, ApplyRule>> = {
  'species[].rotationalRelaxation': { applies: (s) => rotationalDof(s) === 2 && s.parker === undefined, when: `${MOLECULE} without parker` },
  'species[].parker': rotating,
  'species[].vibration': rotating,
  'species[].vibration.relaxation': {
    applies: (v, root, path) => (v.millikanWhite ?? libraryValue([...path, 'millikanWhite'], root)?.value) !== true,
    when: 'with millikanWhite off',
  },
  'initial.rotationalTemperature': { applies: (_h, root) => speciesOf(root).some((s) => rotationalDof(s) === 2), when: 'when a species rotates' },
  'initial.vibrationalTemperature': { applies: (_h, root) => speciesOf(root).some(vibrates), when: 'when a species vibrates' },
  'initial.fractions': mixture,
  ...Object.fromEntries(['xmin', 'xmax', 'ymin', 'ymax', 'zmin', 'zmax'].map((f) => [`boundaries.${f}.fractions`, mixture])),
};

/** Whether the field `key` of the object `holder` at `path` applies to the case `root`; `when` says when it would. */
export function fieldApplies(path: readonly (string | number)[], key: string, holder: Json, root: Json): { applies: boolean; when: string } {
  const rule = RULES[unitPattern([...path, key])];
  if (!rule || holder[key] !== undefined) return { applies: true, when: '' };
  return { applies: rule.applies(holder, root, path), when: rule.when };
}

/** The value a library species gives a field left empty beside `use` (`species[0].mass` of {"use": "N2"}), with the
 *  species' name, for the input's placeholder; null elsewhere. */
export function libraryValue(path: readonly (string | number)[], root: Json): { species: string; value: unknown } | null {
  if (path[0] !== 'species' || typeof path[1] !== 'number' || path.length < 3) return null;
  const item = speciesOf(root)[path[1]] as Json | undefined;
  const name = typeof item?.use === 'string' ? item.use : null;
  let node: unknown = name ? SPECIES_LIBRARY[name] : undefined;
  for (const key of path.slice(2)) node = typeof node === 'object' && node !== null ? (node as Json)[key] : undefined;
  return name && node !== undefined && typeof node !== 'object' ? { species: name, value: node } : null;
}
