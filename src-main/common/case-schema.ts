// The case file: its zod schema (SI units throughout), the parsed Case type with defaults applied,
// parseCase (schema + cross-field rules, throwing CaseError) and the JSON Schema for editors.
import { z } from 'zod';
import { CaseError, issuesFromZod, parseCaseJson } from './case-errors.js';
import { LIMITS, caseRuleIssues } from './case-rules.js';
import { bodiesSchema } from './body-schema.js';
import { MAX_DESCRIPTION_CHARS, NO_CONTROL_CHARS, checkValueNesting } from './case-limits.js';
import { LIBRARY_NAMES, expandSpeciesLibrary } from './species-library.js';
import { reactionsSchema } from './reaction-schema.js';
import { REACTION_SET_NAMES } from './reaction-library.js';

export { CaseError, parseCaseJson } from './case-errors.js';
export { LIMITS } from './case-rules.js';
export type { CaseIssue } from './case-errors.js';
export {
  FACES,
  cellCount,
  cellVolume,
  domainLengths,
  domainVolume,
  moleFractions,
  referenceState,
  resolvedFnum,
} from './case-helpers.js';
export type { Face, ReferenceState } from './case-helpers.js';

// --- leaf builders: each carries the "expected ..." text used in every error about the field ---

// A finite number strictly greater than zero, and at most `max` when given.
function positive(unit: string, max?: number) {
  const e = max === undefined ? `expected a finite number > 0 (${unit})` : `expected a finite number > 0 and <= ${max} (${unit})`;
  const base = z.number({ error: e }).positive({ error: e });
  return max === undefined ? base : base.max(max, { error: e });
}

// A finite number greater than or equal to zero, and at most `max`.
function nonNegative(unit: string, max: number) {
  const e = `expected a finite number from 0 to ${max} (${unit})`;
  return z.number({ error: e }).min(0, { error: e }).max(max, { error: e });
}

// A finite number in the closed range [min, max].
function ranged(min: number, max: number, what: string) {
  const e = `expected a number from ${min} to ${max} (${what})`;
  return z.number({ error: e }).min(min, { error: e }).max(max, { error: e });
}

// An integer >= min, or in [min, max] when max is given.
function integer(min: number, max?: number) {
  const e = max === undefined ? `expected an integer >= ${min}` : `expected an integer from ${min} to ${max}`;
  const base = z.number({ error: e }).int({ error: e }).min(min, { error: e });
  return max === undefined ? base : base.max(max, { error: e });
}

// A string of min..max characters without control characters (names are printed in terminals and tables).
function text(min: number, max: number) {
  const e = `expected a string of ${min} to ${max} characters`;
  return z.string({ error: e }).min(min, { error: e }).max(max, { error: e })
    .regex(NO_CONTROL_CHARS, { error: `expected a string of ${min} to ${max} characters without control characters (escape sequences, tabs, line breaks): remove them` })
    .regex(/\S/, { error: `expected a string of ${min} to ${max} characters, not only spaces: write a name` });
}

// A temperature in kelvin within LIMITS.
function temperature() {
  return ranged(LIMITS.temperatureMin, LIMITS.temperatureMax, 'K');
}

// Exactly three items of one kind, e.g. [nx, ny, nz].
function triple<T extends z.ZodType>(item: T, what: string) {
  return z.tuple([item, item, item], { error: `expected an array of exactly 3 ${what}` });
}

// A velocity vector [vx, vy, vz] in m/s, defaulting to rest.
function velocity() {
  const e = `expected a finite number from ${-LIMITS.speed} to ${LIMITS.speed} (m/s)`;
  return triple(z.number({ error: e }).min(-LIMITS.speed, { error: e }).max(LIMITS.speed, { error: e }), 'finite numbers [vx, vy, vz] in m/s')
    .default((): [number, number, number] => [0, 0, 0])
    .describe('velocity [vx, vy, vz], m/s (default [0, 0, 0])');
}

// An object that rejects unknown keys, listing the allowed ones.
function strict<S extends z.ZodRawShape>(shape: S) {
  const keys = Object.keys(shape).join(', ');
  return z.strictObject(shape, {
    error: (iss) => (iss.code === 'unrecognized_keys' ? keys : `expected an object with keys: ${keys}`),
  });
}

// Mole fractions by species name (normalised when used; species not named get 0).
function fractions() {
  const e = 'expected a finite number >= 0 (mole fraction)';
  return z
    .record(z.string(), z.number({ error: e }).min(0, { error: e }), {
      error: 'expected an object mapping species names to mole fractions >= 0, e.g. {"Ar": 0.8, "N2": 0.2}',
    })
    .describe('mole fractions by species name; normalised; species not named get 0 (default: all equal)');
}

// --- the case ---

const speciesSchema = strict({
  name: text(1, 32).describe('unique species name'),
  mass: ranged(LIMITS.massMin, LIMITS.massMax, 'kg').describe('molecular mass, kg'),
  dRef: ranged(LIMITS.dRefMin, LIMITS.dRefMax, 'm').describe('VHS/VSS reference diameter, m'),
  omega: ranged(0.5, 1.0, 'viscosity-temperature exponent').describe('viscosity-temperature exponent'),
  tRef: temperature().describe('reference temperature of dRef, K'),
  alpha: ranged(1, 2, 'VSS scattering exponent; 1 = VHS').default(1).describe('VSS scattering exponent; 1 = VHS (default)'),
  rotationalDof: z.literal([0, 2], { error: 'expected 0 (no rotation: an atom) or 2 (a linear molecule such as N2, O2, NO, CO2)' })
    .default(0).describe('rotational degrees of freedom: 0 (default, an atom) or 2 (a linear molecule; Larsen-Borgnakke exchange with the translation)'),
  rotationalRelaxation: ranged(1, 1e6, 'collisions').default(5).describe('rotational collision number Zrot: each molecule of a collision relaxes its rotation with probability 1/Zrot (default 5)'),
  parker: strict({
    zInf: ranged(1, 1e6, 'collisions').describe('Parker\'s Z_inf, the high-temperature limit of Zrot'),
    tStar: ranged(1e-3, 1e6, 'K').describe('Parker\'s characteristic temperature T*, K'),
  }).optional().describe('Parker\'s temperature-dependent Zrot = Z_inf / (1 + pi^(3/2)/2 sqrt(T*/T) + (pi + pi^2/4) T*/T) at the temperature of the energy a relaxing molecule pools, T = (E_c + E_rot) / ((7/2 - omega) k), instead of the constant rotationalRelaxation'),
  vibration: strict({
    characteristicTemperature: ranged(1, 1e5, 'K').describe('characteristic vibrational temperature theta_v of the harmonic oscillator, K (N2 3371, O2 2256, NO 2719)'),
    relaxation: ranged(1, 1e12, 'collisions').default(50).describe('vibrational collision number Zvib: each molecule of a collision relaxes its vibration with probability 1/Zvib (default 50; unused with millikanWhite)'),
    millikanWhite: z.boolean({ error: 'expected true or false' }).default(false)
      .describe('Zvib from the Millikan-White correlation for each collision partner, at the temperature of the energy a relaxing molecule pools, instead of the constant relaxation'),
  }).optional().describe('one vibrational mode, a quantized harmonic oscillator exchanging energy by Larsen-Borgnakke (needs rotationalDof 2)'),
});

const boundaryTypes = ['periodic', 'specular', 'diffuse', 'inflow', 'outflow'] as const;
const boundarySchema = z.discriminatedUnion(
  'type',
  [
    strict({ type: z.literal('periodic') }),
    strict({ type: z.literal('specular') }),
    strict({
      type: z.literal('diffuse'),
      temperature: temperature().describe('wall temperature, K'),
      velocity: velocity(),
    }),
    strict({
      type: z.literal('inflow'),
      numberDensity: positive('m^-3', LIMITS.numberDensity).describe('number density of the reservoir, m^-3'),
      temperature: temperature().describe('reservoir temperature, K'),
      velocity: velocity(),
      fractions: fractions().optional(),
    }),
    strict({ type: z.literal('outflow') }),
  ],
  {
    error: (iss) =>
      iss.code === 'invalid_union'
        ? `expected one of ${boundaryTypes.map((t) => `"${t}"`).join(', ')}`
        : `expected an object such as {"type": "specular"}; types: ${boundaryTypes.join(', ')}`,
  },
);

/** Schema of a case file. parseCase adds the cross-field rules; use it rather than this alone. */
export const caseSchema = strict({
  $schema: z.string({ error: 'expected a string (path of the JSON Schema)' }).max(2000, { error: 'expected a string of at most 2000 characters (path of the JSON Schema)' }).optional(),
  name: text(1, 100).describe('case name'),
  description: z.string({ error: `expected a string of at most ${MAX_DESCRIPTION_CHARS} characters` })
    .max(MAX_DESCRIPTION_CHARS, { error: `expected a string of at most ${MAX_DESCRIPTION_CHARS} characters: shorten it (longer notes belong in dsmc note RUN TEXT)` })
    .optional(),
  grid: strict({
    cells: triple(integer(1, LIMITS.cellsPerAxis), `integers from 1 to ${LIMITS.cellsPerAxis} [nx, ny, nz]`).describe(`number of cells along x, y, z (at most ${LIMITS.cells} in all)`),
    cellSize: triple(ranged(LIMITS.cellSizeMin, LIMITS.cellSizeMax, 'm'), `numbers from ${LIMITS.cellSizeMin} to ${LIMITS.cellSizeMax} [dx, dy, dz] in metres`).describe('cell edge lengths [dx, dy, dz], m'),
  }),
  species: z
    .array(speciesSchema, { error: 'expected an array of 1 to 16 species' })
    .min(1, { error: 'expected an array of 1 to 16 species' })
    .max(16, { error: 'expected an array of 1 to 16 species' }),
  particles: strict({
    fnum: positive('real molecules per simulated particle').optional().describe('real molecules per simulated particle'),
    perCell: positive('simulated particles per cell').optional().describe('simulated particles per cell at the reference density (largest of initial and inflow densities)'),
  }).describe('exactly one of fnum and perCell'),
  initial: strict({
    kind: z.enum(['maxwellian', 'plusMinus', 'empty'], { error: 'expected one of "maxwellian", "plusMinus", "empty"' }).default('maxwellian'),
    numberDensity: nonNegative('m^-3', LIMITS.numberDensity).default(0).describe('number density, m^-3 (must be > 0 unless kind is "empty")'),
    temperature: temperature().default(273.15).describe('temperature, K'),
    rotationalTemperature: temperature().optional().describe('temperature of the rotational energy at the start, K (default: temperature; for relaxation studies)'),
    vibrationalTemperature: temperature().optional().describe('temperature of the vibrational energy at the start, K (default: temperature; for relaxation studies)'),
    velocity: velocity(),
    fractions: fractions().optional(),
  }),
  boundaries: strict({
    xmin: boundarySchema,
    xmax: boundarySchema,
    ymin: boundarySchema,
    ymax: boundarySchema,
    zmin: boundarySchema,
    zmax: boundarySchema,
  }),
  run: strict({
    steps: integer(0, LIMITS.steps).describe('number of timesteps'),
    dt: ranged(LIMITS.dtMin, LIMITS.dtMax, 's').describe('timestep, s'),
    seed: integer(0, 4294967295).default(1).describe('random seed'),
    stepsPerSubmit: integer(1, 1000).default(50).describe('timesteps batched in one GPU submit'),
    checkpointEvery: integer(0, LIMITS.steps).default(0).describe(
      'write a checkpoint (particles, per-cell state, sampling sums) to the data folder about every N steps, ' +
      'at the first submit boundary at or after each multiple of N, so `dsmc resume RUN` can continue the run; 0 = off',
    ),
  }),
  bodies: bodiesSchema,
  reactions: reactionsSchema(REACTION_SET_NAMES),
  sampling: strict({
    enabled: z.boolean({ error: 'expected true or false' }).default(true).describe('false turns sampling off (benchmarks)'),
    start: integer(0, LIMITS.steps).default(0).describe('first sampled step'),
    interval: integer(1, LIMITS.steps).default(1).describe('steps between samples'),
  }).default(() => ({ enabled: true, start: 0, interval: 1 })),
});

/** A parsed case with every default applied (SI units). */
export type Case = z.output<typeof caseSchema>;
/** One species of a parsed case. */
export type Species = Case['species'][number];
/** One face's boundary condition of a parsed case. */
export type Boundary = Case['boundaries']['xmin'];
/** The case file as written (before defaults). */
export type CaseInput = z.input<typeof caseSchema>;

// Validates a case (parsed JSON or a JS object) and applies defaults; throws CaseError listing every problem.
export function parseCase(json: unknown): Case {
  // deeper nesting than any case has would overflow the stack of the validators below
  checkValueNesting(json);
  // library species ({"use": "N2", ...overrides}) become full entries first
  const library = expandSpeciesLibrary(json);
  if (library.issues.length > 0) throw new CaseError(library.issues);
  const result = caseSchema.safeParse(library.json);
  if (!result.success) throw new CaseError(issuesFromZod(result.error.issues, library.json));
  const ruleIssues = caseRuleIssues(result.data);
  if (ruleIssues.length > 0) throw new CaseError(ruleIssues);
  return result.data;
}

// Lets the JSON Schema's species items name a library species (`use`) instead of giving every field.
function withLibrarySpecies(schema: Record<string, unknown>): void {
  const item = ((schema.properties as Record<string, { items: Record<string, unknown> }>).species).items;
  const props = item.properties as Record<string, unknown>;
  item.properties = {
    use: { type: 'string', enum: LIBRARY_NAMES, description: `a species of the library (${LIBRARY_NAMES.join(', ')}); the fields given beside it override its values` },
    ...props,
  };
  item.description = 'a species: "use" (a library species, fields beside it override its values), or name, mass, dRef, omega and tRef';
  delete item.required;
}

// JSON Schema (draft 2020-12) of the case file as written, for editors; resources/case.schema.json holds a copy.
export function caseJsonSchema(): object {
  const { $schema, ...rest } = z.toJSONSchema(caseSchema, { io: 'input', target: 'draft-2020-12' });
  withLibrarySpecies(rest);
  return {
    $schema,
    $id: 'urn:dsmc-studio:case.schema.json',
    title: 'DSMC case',
    description:
      'A DSMC case file (SI units). Cross-field rules are checked by parseCase (the dsmc tool), not by this schema: unique species names, periodic on both faces of an axis or neither, exactly one of particles.fnum / particles.perCell, fraction keys naming species, numberDensity > 0 unless initial.kind is "empty".',
    ...rest,
  };
}

// Parses a case file's text (strict JSON) and validates it; every problem, syntax included, is a CaseError.
export function parseCaseText(text: string): Case {
  return parseCase(parseCaseJson(text));
}
