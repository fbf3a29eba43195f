// The species shipped with the product, selectable in a case file by name: `"species": [{"use": "N2"}]`, any field
// overridable (`{"use": "N2", "omega": 0.75}`). parseCase expands them before validation.
//
// Values: VHS molecular data of Bird (1994), Molecular Gas Dynamics and the Direct Simulation of Gas Flows, Appendix
// A, Table A1 (reference temperature 273 K, alpha 1), as the public DSMC codes that quote that table give them
// (dsmcFoam+, and ../shared/reference/PHYSICS.md for N2 and Ar); rotational degrees of freedom 2 for the linear
// molecules, with Bird's constant rotational collision number 5. Atomic N and O: the VHS data SPARTA's data/vss.data
// gives for air (d 3.0e-10 m, omega 0.80, 273.15 K). Vibration: one harmonic mode with the characteristic temperature
// of Bird's Table A2 (as SPARTA's data/all.species gives it) and Millikan-White relaxation. CO2 has four vibrational
// modes (945 K twice, 1903 K, 3329 K); the solver carries one mode per species, so CO2 ships without vibration.
// Masses of the air species add up (N = N2 / 2, O = O2 / 2, NO = N + O: Bird's N2 and O2, with O 26.56e-27 kg instead of
// Table A1's 26.5e-27 and NO 49.81e-27 instead of 49.88e-27), so that reactions (reaction-library.ts) keep mass,
// momentum and energy exactly.
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
  /** One vibrational mode: characteristic temperature (K), constant Zvib, Millikan-White relaxation. */
  vibration?: { characteristicTemperature: number; relaxation: number; millikanWhite: boolean };
  /** Where the numbers come from. */
  source: string;
}

const TABLE_A1 = 'Bird 1994, Table A1 (VHS)';
const TABLE_A1_A2 = 'Bird 1994, Table A1 (VHS) and Table A2 (theta_v)';
const AIR_ATOMS = 'SPARTA data/vss.data (air atoms, VHS)';

/** One Millikan-White vibrational mode of characteristic temperature theta (K). */
function vibrationalMode(theta: number): LibrarySpecies['vibration'] {
  return { characteristicTemperature: theta, relaxation: 50, millikanWhite: true };
}

/** The shipped species by name. */
export const SPECIES_LIBRARY: Readonly<Record<string, LibrarySpecies>> = {
  N2: { mass: 46.5e-27, dRef: 4.17e-10, omega: 0.74, tRef: 273, alpha: 1, rotationalDof: 2, rotationalRelaxation: 5, vibration: vibrationalMode(3371), source: TABLE_A1_A2 },
  O2: { mass: 53.12e-27, dRef: 4.07e-10, omega: 0.77, tRef: 273, alpha: 1, rotationalDof: 2, rotationalRelaxation: 5, vibration: vibrationalMode(2256), source: TABLE_A1_A2 },
  NO: { mass: 49.81e-27, dRef: 4.2e-10, omega: 0.79, tRef: 273, alpha: 1, rotationalDof: 2, rotationalRelaxation: 5, vibration: vibrationalMode(2719), source: TABLE_A1_A2 },
  N: { mass: 23.25e-27, dRef: 3.0e-10, omega: 0.8, tRef: 273.15, alpha: 1, rotationalDof: 0, rotationalRelaxation: 5, source: AIR_ATOMS },
  O: { mass: 26.56e-27, dRef: 3.0e-10, omega: 0.8, tRef: 273.15, alpha: 1, rotationalDof: 0, rotationalRelaxation: 5, source: AIR_ATOMS },
  CO2: { mass: 73.1e-27, dRef: 5.62e-10, omega: 0.93, tRef: 273, alpha: 1, rotationalDof: 2, rotationalRelaxation: 5, source: TABLE_A1 },
  Ar: { mass: 66.3e-27, dRef: 4.17e-10, omega: 0.81, tRef: 273, alpha: 1, rotationalDof: 0, rotationalRelaxation: 5, source: TABLE_A1 },
  He: { mass: 6.65e-27, dRef: 2.33e-10, omega: 0.66, tRef: 273, alpha: 1, rotationalDof: 0, rotationalRelaxation: 5, source: TABLE_A1 },
  Xe: { mass: 218e-27, dRef: 5.74e-10, omega: 0.85, tRef: 273, alpha: 1, rotationalDof: 0, rotationalRelaxation: 5, source: TABLE_A1 },
};

/** Names of the shipped species. */
export const LIBRARY_NAMES = Object.keys(SPECIES_LIBRARY);

/**
 * The case JSON with every `{"use": NAME, ...overrides}` species replaced by the library entry, its overrides on top
 * and its name defaulting to NAME (an override of null removes that field); unknown names are issues naming the entry.
 * Anything else is left to the schema.
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
    // an override of null removes the library's field (`"vibration": null`: N2 without its vibrational mode)
    const merged: Record<string, unknown> = { name: use, ...fields, ...overrides };
    for (const [key, value] of Object.entries(overrides)) if (value === null) delete merged[key];
    return merged;
  });
  return { json: { ...(json as Record<string, unknown>), species: expanded }, issues };
}
