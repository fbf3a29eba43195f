// The unit of every number of a case file, as the case editor prints it beside the input (the schema's
// descriptions say it too, but only in tooltips). One table keyed by the field's path with list indices as `[]`;
// `null` marks a pure number (an exponent, a fraction, a seed). test/renderer/case-editor-units.test.ts walks the
// case's JSON Schema and fails on any number without an entry here: a new numeric field needs its unit added.

/** Faces of the box, whose boundary conditions share their fields' units. */
const FACE_NAMES = ['xmin', 'xmax', 'ymin', 'ymax', 'zmin', 'zmax'] as const;

/** Units of the fields outside the boundaries, by path pattern. */
const FIELD_UNITS: Readonly<Record<string, string | null>> = {
  'grid.cells': 'cells',
  'grid.cellSize': 'm',
  'species[].mass': 'kg',
  'species[].dRef': 'm',
  'species[].omega': null,
  'species[].tRef': 'K',
  'species[].alpha': null,
  'species[].rotationalDof': null,
  'species[].rotationalRelaxation': 'collisions',
  'species[].parker.zInf': 'collisions',
  'species[].parker.tStar': 'K',
  'species[].vibration.characteristicTemperature': 'K',
  'species[].vibration.relaxation': 'collisions',
  'particles.fnum': 'molecules / particle',
  'particles.perCell': 'particles / cell',
  'initial.numberDensity': 'm⁻³',
  'initial.temperature': 'K',
  'initial.rotationalTemperature': 'K',
  'initial.vibrationalTemperature': 'K',
  'initial.velocity': 'm/s',
  'run.steps': 'steps',
  'run.dt': 's',
  'run.seed': null,
  'run.stepsPerSubmit': 'steps',
  'run.checkpointEvery': 'steps',
  'sampling.start': 'step',
  'sampling.interval': 'steps',
  'bodies[].shape.scale': '×',
  'bodies[].shape.rotate': '°',
  'bodies[].shape.translate': 'm',
  'bodies[].shape.min': 'm',
  'bodies[].shape.max': 'm',
  'bodies[].shape.apex': 'm',
  'bodies[].shape.length': 'm',
  'bodies[].shape.angle': '°',
  'bodies[].shape.span': 'm',
  'bodies[].shape.center': 'm',
  'bodies[].shape.radius': 'm',
  'bodies[].shape.segments': 'facets',
  'bodies[].shape.resolution': 'm',
  'bodies[].shape.subdivisions': null,
  'bodies[].surface.temperature': 'K',
  'bodies[].surface.velocity': 'm/s',
  'bodies[].surface.accommodation': null,
  'bodies[].referenceArea': 'm²',
  'bodies[].momentCenter': 'm',
  'reactions.list[].internalDof': 'dof',
  'reactions.list[].activationEnergy': 'J',
  'reactions.list[].prefactor': 'm³/s/K^b',
  'reactions.list[].temperatureExponent': null,
  'reactions.list[].reactionEnergy': 'J',
};

/** Units of a face's boundary fields (diffuse walls and inflow reservoirs). */
const BOUNDARY_UNITS: Readonly<Record<string, string | null>> = { temperature: 'K', velocity: 'm/s', numberDensity: 'm⁻³' };

/** Every entry: the fields above plus each face's boundary fields. */
const UNITS: ReadonlyMap<string, string | null> = new Map([
  ...Object.entries(FIELD_UNITS),
  ...FACE_NAMES.flatMap((f) => Object.entries(BOUNDARY_UNITS).map(([k, u]) => [`boundaries.${f}.${k}`, u] as [string, string | null])),
]);

/** A field's path as a pattern: `['species', 0, 'mass']` -> `species[].mass`. */
export function unitPattern(path: readonly (string | number)[]): string {
  return path.reduce<string>((s, seg) => (typeof seg === 'number' ? `${s}[]` : s ? `${s}.${seg}` : seg), '');
}

/** The unit of the case field at `path` (a tuple's unit for the tuple and each of its items): a unit text, null for a
 *  pure number, undefined for a path without an entry. */
export function caseFieldUnit(path: readonly (string | number)[]): string | null | undefined {
  const own = UNITS.get(unitPattern(path));
  if (own !== undefined || typeof path[path.length - 1] !== 'number') return own;
  // an item of a tuple such as grid.cellSize[0] takes the tuple's unit
  return UNITS.get(unitPattern(path.slice(0, -1)));
}
