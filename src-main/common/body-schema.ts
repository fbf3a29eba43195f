// The `bodies` section of a case file: objects in the flow, each a shape (an STL file or a built-in
// box, wedge, cylinder or sphere) with a gas-surface interaction model. Coordinates are those of the
// grid: the box spans [0, Lx] x [0, Ly] x [0, Lz] (m).
import { z } from 'zod';
import { NO_CONTROL_CHARS } from './case-limits.js';

/** Largest temperature, speed and size accepted here (the same bounds as the rest of the case). */
const BODY_LIMITS = { temperatureMin: 1e-3, temperatureMax: 1e6, speed: 1e6, length: 1e7 } as const;

// A finite number in [min, max] with the unit in the message.
function num(min: number, max: number, what: string) {
  const e = `expected a number from ${min} to ${max} (${what})`;
  return z.number({ error: e }).min(min, { error: e }).max(max, { error: e });
}

// A finite number > 0 and <= max.
function pos(max: number, what: string) {
  const e = `expected a finite number > 0 and <= ${max} (${what})`;
  return z.number({ error: e }).positive({ error: e }).max(max, { error: e });
}

// [x, y, z] of finite numbers.
function vec3(what: string) {
  const e = `expected a finite number (${what})`;
  const item = z.number({ error: e }).min(-BODY_LIMITS.length, { error: e }).max(BODY_LIMITS.length, { error: e });
  return z.tuple([item, item, item], { error: `expected an array of exactly 3 finite numbers [x, y, z] (${what})` });
}

// An object that rejects unknown keys, listing the allowed ones.
function strict<S extends z.ZodRawShape>(shape: S) {
  const keys = Object.keys(shape).join(', ');
  return z.strictObject(shape, {
    error: (iss) => (iss.code === 'unrecognized_keys' ? keys : `expected an object with keys: ${keys}`),
  });
}

const rotate = vec3('degrees')
  .optional()
  .describe('rotation [rx, ry, rz] in degrees about the x, then y, then z axis, through the shape\'s own reference point (STL: its origin after scale; built-ins: their center), applied before translate');
const translate = vec3('m').optional().describe('translation [x, y, z], m, applied last');
const resolution = pos(BODY_LIMITS.length, 'm, the longest facet edge').optional()
  .describe('facet size, m: every face is cut into facets whose edges are at most this long, so surface distributions (Cp, Cf, Ch) get a point per facet (default: the grid\'s smallest cell size; as large as the body for one facet per face)');

/** Axis names or a direction vector for cylinders. */
const axisSchema = z.union([z.enum(['x', 'y', 'z']), vec3('direction')], {
  error: 'expected "x", "y", "z" or a direction vector [x, y, z]',
});

const shapeTypes = ['stl', 'box', 'wedge', 'cylinder', 'sphere'] as const;

/** Shape of a body. */
export const shapeSchema = z.discriminatedUnion(
  'type',
  [
    strict({
      type: z.literal('stl'),
      file: z.string({ error: 'expected a path to an ASCII or binary STL file' }).min(1, { error: 'expected a path to an ASCII or binary STL file' })
        .max(4096, { error: 'expected a path to an ASCII or binary STL file of at most 4096 characters' })
        .describe('STL file (ASCII or binary), relative to the case file\'s folder; outward normals, closed (watertight)'),
      scale: pos(1e9, 'factor').default(1).describe('scale factor applied first (e.g. 0.001 for an STL in mm)'),
      rotate,
      translate,
    }),
    strict({
      type: z.literal('box'),
      min: vec3('m').describe('lower corner [x, y, z], m'),
      max: vec3('m').describe('upper corner [x, y, z], m'),
      rotate,
      resolution,
    }),
    strict({
      type: z.literal('wedge'),
      apex: vec3('m').describe('leading edge point [x, y, z] (the wedge\'s sharp edge, at the lower end of its z span), m'),
      length: pos(BODY_LIMITS.length, 'm').describe('length of the wedge along +x from the apex, m'),
      angle: num(0.1, 89, 'degrees').describe('ramp angle in degrees between the wedge\'s faces at the apex'),
      span: pos(BODY_LIMITS.length, 'm').optional().describe('extent along +z from the apex, m (default: to the top of the box, for 2D cases)'),
      symmetric: z.boolean({ error: 'expected true or false' }).default(false)
        .describe('false: a ramp, flat face on y = apex.y and the inclined face above it; true: both faces inclined, angle/2 each side of y = apex.y'),
      rotate,
      resolution,
    }),
    strict({
      type: z.literal('cylinder'),
      center: vec3('m').describe('center of the cylinder (middle of its axis), m'),
      axis: axisSchema.default('z').describe('axis direction: "x", "y", "z" or a vector'),
      radius: pos(BODY_LIMITS.length, 'm').describe('radius, m'),
      length: pos(BODY_LIMITS.length, 'm').optional().describe('length along the axis, m (default with axis "z": the box height, for 2D cases)'),
      segments: z.number({ error: 'expected an integer from 8 to 4096' }).int({ error: 'expected an integer from 8 to 4096' }).min(8, { error: 'expected an integer from 8 to 4096' }).max(4096, { error: 'expected an integer from 8 to 4096' })
        .default(64).describe('facets around the circumference (default 64)'),
      resolution: resolution.describe('facet size along the axis, m: the sides are cut into pieces at most this long (default: the grid\'s smallest cell size)'),
    }),
    strict({
      type: z.literal('sphere'),
      center: vec3('m').describe('center, m'),
      radius: pos(BODY_LIMITS.length, 'm').describe('radius, m'),
      subdivisions: z.number({ error: 'expected an integer from 0 to 7' }).int({ error: 'expected an integer from 0 to 7' }).min(0, { error: 'expected an integer from 0 to 7' }).max(7, { error: 'expected an integer from 0 to 7' })
        .default(4).describe('icosphere subdivisions: 20 * 4^n triangles (default 4: 5120 triangles)'),
    }),
  ],
  {
    error: (iss) =>
      iss.code === 'invalid_union'
        ? `expected a shape type: one of ${shapeTypes.map((t) => `"${t}"`).join(', ')}`
        : `expected an object such as {"type": "sphere", "center": [0, 0, 0], "radius": 0.1}; types: ${shapeTypes.join(', ')}`,
  },
);

const surfaceModels = ['specular', 'diffuse', 'maxwell'] as const;
const wallTemperature = num(BODY_LIMITS.temperatureMin, BODY_LIMITS.temperatureMax, 'K').describe('wall temperature, K');
const wallVelocity = vec3('m/s').default((): [number, number, number] => [0, 0, 0]).describe('wall velocity [vx, vy, vz], m/s (default at rest)');

/** Gas-surface interaction of a body. */
export const surfaceSchema = z.discriminatedUnion(
  'model',
  [
    strict({ model: z.literal('specular') }),
    strict({ model: z.literal('diffuse'), temperature: wallTemperature, velocity: wallVelocity }),
    strict({
      model: z.literal('maxwell'),
      temperature: wallTemperature,
      velocity: wallVelocity,
      accommodation: num(0, 1, 'fraction of diffuse reflections').describe('accommodation coefficient: the fraction of molecules reflected diffusely, the rest specularly'),
    }),
  ],
  {
    error: (iss) =>
      iss.code === 'invalid_union'
        ? `expected a surface model: one of ${surfaceModels.map((t) => `"${t}"`).join(', ')}`
        : `expected an object such as {"model": "diffuse", "temperature": 300}; models: ${surfaceModels.join(', ')}`,
  },
);

/** One body of the case. */
export const bodySchema = strict({
  name: z.string({ error: 'expected a string of 1 to 64 characters' }).min(1, { error: 'expected a string of 1 to 64 characters' }).max(64, { error: 'expected a string of 1 to 64 characters' })
    .regex(NO_CONTROL_CHARS, { error: 'expected a string of 1 to 64 characters without control characters (escape sequences, tabs, line breaks): remove them' })
    .describe('unique body name'),
  shape: shapeSchema,
  surface: surfaceSchema,
  referenceArea: pos(1e14, 'm^2').optional().describe('reference area of the drag and lift coefficients, m^2 (default: the area the body shows to the free stream)'),
  momentCenter: vec3('m').optional().describe('point the moment is taken about, m (default: the centroid of the body\'s volume)'),
});

/** A body as parsed (defaults applied). */
export type Body = z.output<typeof bodySchema>;
/** A body's shape as parsed. */
export type BodyShape = Body['shape'];
/** A body's surface model as parsed. */
export type BodySurface = Body['surface'];

/** The bodies section: at most this many bodies. */
export const MAX_BODIES = 64;

export const bodiesSchema = z
  .array(bodySchema, { error: `expected an array of up to ${MAX_BODIES} bodies` })
  .max(MAX_BODIES, { error: `expected an array of up to ${MAX_BODIES} bodies` })
  .default(() => [])
  .describe('objects in the flow (default none)');
