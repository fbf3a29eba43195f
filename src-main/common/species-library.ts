// The species shipped with the product, selectable in a case file by name: `"species": [{"use": "N2"}]`, any field
// overridable (`{"use": "N2", "omega": 0.75}`). parseCase expands them before validation.
//
// Values: VHS molecular data of Bird (1994), Molecular Gas Dynamics and the Direct Simulation of Gas Flows, Appendix
// A, Table A1 (reference temperature 273 K, alpha 1), as the public DSMC codes that quote that table give them
// (dsmcFoam+, and ../shared/reference/PHYSICS.md for N2 and Ar); rotational degrees of freedom 2 for the linear
// molecules, with Bird's constant rotational collision number 5. Not shipped yet: atomic N and O (their Table A1
// values were not available to check when this was written) and vibrational data (the solver has no vibrational
// modes yet; docs/INTERNAL-MODES.md).
import type { CaseIssue } from './case-errors.js';

/** One library entry: the fields of a case's species (without its name). */
export interface LibrarySpecies {
  mass: number;
  dRef: number;
  omega: number;
  tRef: number;
  alpha: number;
  rotationalDof: 0 | 2;
  rotationalRelaxation: number;
  /** Where the numbers come from. */
  source: string;
}

const TABLE_A1 = 'Bird 1994, Table A1 (VHS)';

/** The shipped species by name. */
export const SPECIES_LIBRARY: Readonly<Record<string, LibrarySpecies>> = {
  N2: { mass: 46.5e-27, dRef: 4.17e-10, omega: 0.74, tRef: 273, alpha: 1, rotationalDof: 2, rotationalRelaxation: 5, source: TABLE_A1 },
  O2: { mass: 53.12e-27, dRef: 4.07e-10, omega: 0.77, tRef: 273, alpha: 1, rotationalDof: 2, rotationalRelaxation: 5, source: TABLE_A1 },
  NO: { mass: 49.88e-27, dRef: 4.2e-10, omega: 0.79, tRef: 273, alpha: 1, rotationalDof: 2, rotationalRelaxation: 5, source: TABLE_A1 },
  CO2: { mass: 73.1e-27, dRef: 5.62e-10, omega: 0.93, tRef: 273, alpha: 1, rotationalDof: 2, rotationalRelaxation: 5, source: TABLE_A1 },
  Ar: { mass: 66.3e-27, dRef: 4.17e-10, omega: 0.81, tRef: 273, alpha: 1, rotationalDof: 0, rotationalRelaxation: 5, source: TABLE_A1 },
  He: { mass: 6.65e-27, dRef: 2.33e-10, omega: 0.66, tRef: 273, alpha: 1, rotationalDof: 0, rotationalRelaxation: 5, source: TABLE_A1 },
  Xe: { mass: 218e-27, dRef: 5.74e-10, omega: 0.85, tRef: 273, alpha: 1, rotationalDof: 0, rotationalRelaxation: 5, source: TABLE_A1 },
};

/** Names of the shipped species. */
export const LIBRARY_NAMES = Object.keys(SPECIES_LIBRARY);

/**
 * The case JSON with every `{"use": NAME, ...overrides}` species replaced by the library entry, its overrides on top
 * and its name defaulting to NAME; unknown names are issues naming the entry. Anything else is left to the schema.
 */
export function expandSpeciesLibrary(json: unknown): { json: unknown; issues: CaseIssue[] } {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return { json, issues: [] };
  const species = (json as Record<string, unknown>).species;
  if (!Array.isArray(species)) return { json, issues: [] };
  const issues: CaseIssue[] = [];
  const expanded = species.map((entry, i) => {
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry) || !Object.hasOwn(entry, 'use')) return entry;
    const { use, ...overrides } = entry as Record<string, unknown>;
    if (typeof use !== 'string' || !Object.hasOwn(SPECIES_LIBRARY, use)) {
      issues.push({ path: `species[${i}].use`, message: `got ${JSON.stringify(use)}; expected one of the library species ${LIBRARY_NAMES.join(', ')}` });
      return entry;
    }
    const { source: _source, ...fields } = SPECIES_LIBRARY[use];
    return { name: use, ...fields, ...overrides };
  });
  return { json: { ...(json as Record<string, unknown>), species: expanded }, issues };
}
