// Checks what callers hand the run store (zod), so bad data is refused at the boundary with the field named.
import { z } from 'zod';
import { ALL_FIELD_NAMES, FIELD_NAMES, INTERNAL_FIELD_NAMES, fieldNamesOf, isFieldName } from '../common/field-names.js';
import { NO_CONTROL_CHARS } from '../common/case-limits.js';
import type { FieldSet, PhaseRecord, RankStepRecord, RunStatus, RunSurface, StepRecord, StudyKind, TotalsRecord } from '../common/run-record.js';
import { SURFACE_Q } from '../common/surface-layout.js';
import type { RunSummary } from '../common/run-summary.js';

const count = z.number().int().nonnegative();
const finite = z.number().refine(Number.isFinite, 'expected a finite number');
const seconds = z.number().nonnegative();
const label = (max: number) => z.string().trim().min(1, 'must not be empty').max(max, `at most ${max} characters`)
  .regex(NO_CONTROL_CHARS, 'no control characters (escape sequences, tabs, line breaks): remove them');

export const RUN_STATUSES = ['queued', 'running', 'completed', 'failed', 'cancelled'] as const satisfies readonly RunStatus[];
export const runStatusSchema = z.enum(RUN_STATUSES);
export const projectNameSchema = label(100);
export const tagSchema = label(64).refine((t) => !/[\s,]/.test(t), 'no spaces or commas (e.g. "baseline" or "wall-300K")');
export const notesSchema = z.string().max(20_000, 'at most 20000 characters');
export const runIdSchema = z.number().int().positive();

export const createRunSchema = z.object({
  project: projectNameSchema,
  caseName: label(100),
  caseJson: z.unknown().refine((v) => v !== undefined && v !== null, 'the validated case JSON is required'),
  seed: z.number().int().min(0).max(0xffffffff),
  ranks: z.number().int().positive(),
  gpus: z.number().int().nonnegative(),
  adapter: z.object({ description: z.string().max(500), backend: z.string().max(100) }),
  productVersion: label(50),
});

export const stepSchema = z.object({
  step: count, particles: count, injected: count, collisions: count, candidates: count,
}) satisfies z.ZodType<StepRecord>;

export const totalsSchema = z.object({
  step: count, particles: count, kineticEnergy: finite, momentum: z.tuple([finite, finite, finite]),
}) satisfies z.ZodType<TotalsRecord>;

export const phaseSchema = z.object({
  rank: count, phase: label(50), calls: count, totalSeconds: seconds, minSeconds: seconds, maxSeconds: seconds,
}) satisfies z.ZodType<PhaseRecord>;

const phaseSummarySchema = z.object({
  calls: count, totalSeconds: seconds, avgSeconds: seconds, minSeconds: seconds, maxSeconds: seconds,
  percentOfLoop: z.number(), secondsPerParticleStep: z.number(),
});

export const summarySchema = z.object({
  case: z.string(),
  steps: count,
  particles: count,
  meanParticles: z.number(),
  particleSteps: count,
  seconds,
  particleStepsPerSecond: z.number(),
  collisionsPerParticleStep: z.number(),
  candidatesPerParticleStep: z.number(),
  // the solver owns the list of timing sources; the store only needs a name
  timing: z.custom<RunSummary['timing']>((v) => typeof v === 'string' && v.length > 0, 'expected the name of the timing source'),
  phases: z.record(z.string(), phaseSummarySchema),
  otherSeconds: z.number(),
  host: z.object({ encodeSeconds: seconds, waitSeconds: seconds, readbackSeconds: seconds, foldSeconds: seconds.optional(), submits: count }),
  conservation: z.object({
    particlesStart: count, particlesEnd: count, momentumRelDrift: z.number().nullable(), energyRelDrift: z.number().nullable(),
  }),
  samples: count,
  fieldsSha256: z.string(),
  capacity: count,
  bytesPerParticle: z.number(),
  adapter: z.object({ description: z.string(), backend: z.string() }),
}).loose() satisfies z.ZodType<RunSummary>;

const float64Array = z.instanceof(Float64Array, { message: 'expected a Float64Array' });
const fieldArrays = z.object({
  ...(Object.fromEntries(FIELD_NAMES.map((n) => [n, float64Array])) as Record<(typeof FIELD_NAMES)[number], typeof float64Array>),
  ...(Object.fromEntries(INTERNAL_FIELD_NAMES.map((n) => [n, float64Array.optional()])) as Record<(typeof INTERNAL_FIELD_NAMES)[number], z.ZodOptional<typeof float64Array>>),
}).catchall(float64Array); // n_<species> and x_<species> of a mixture (names checked below)
const positiveInt = z.number().int().positive();
const positive = z.number().positive();

export const fieldSetSchema = z.object({
  cells: z.tuple([positiveInt, positiveInt, positiveInt]),
  cellSize: z.tuple([positive, positive, positive]),
  samples: count,
  blocks: count,
  values: fieldArrays,
  errors: fieldArrays,
}).superRefine((f, ctx) => {
  const n = f.cells[0] * f.cells[1] * f.cells[2];
  for (const part of ['values', 'errors'] as const) {
    for (const name of Object.keys(f[part]).filter((k) => !isFieldName(k))) {
      ctx.addIssue({ code: 'custom', path: [part, name], message: 'is no field name: expected one of ' + ALL_FIELD_NAMES.join(', ') + ', n_<species> or x_<species>' });
    }
    for (const name of fieldNamesOf(f[part])) {
      const a = f[part][name]!;
      if (a.length !== n) ctx.addIssue({ code: 'custom', path: [part, name], message: `has ${a.length} values; the grid has ${n} cells` });
    }
  }
  const names = (x: object) => fieldNamesOf(x).join(', ');
  if (names(f.values) !== names(f.errors)) {
    ctx.addIssue({ code: 'custom', path: ['errors'], message: `holds the fields ${names(f.errors)} but the values hold ${names(f.values)}: give a standard error for each field` });
  }
}) satisfies z.ZodType<FieldSet>;

export const runSurfaceSchema = z.object({
  sums: z.object({ elements: count, values: float64Array, sampledTime: z.number().min(0) }),
  triangles: float64Array,
  triangleBody: z.instanceof(Int32Array, { message: 'expected an Int32Array' }),
  bodyNames: z.array(z.string()),
  cellKind: z.instanceof(Uint8Array, { message: 'expected a Uint8Array' }).nullable(),
  volumeFraction: float64Array.nullable(),
}).superRefine((s, ctx) => {
  if (s.sums.values.length !== s.sums.elements * SURFACE_Q) ctx.addIssue({ code: 'custom', path: ['sums', 'values'], message: `has ${s.sums.values.length} values; ${s.sums.elements} elements need ${s.sums.elements * SURFACE_Q}` });
  if (s.triangles.length !== 9 * s.triangleBody.length) ctx.addIssue({ code: 'custom', path: ['triangles'], message: `has ${s.triangles.length} numbers for ${s.triangleBody.length} triangles (9 each)` });
  if ((s.cellKind === null) !== (s.volumeFraction === null) || (s.cellKind && s.cellKind.length !== s.volumeFraction!.length)) {
    ctx.addIssue({ code: 'custom', path: ['cellKind'], message: 'cellKind and volumeFraction must both be absent or hold one value per cell' });
  }
}) satisfies z.ZodType<RunSurface>;

export const STUDY_KINDS = ['strong', 'weak'] as const satisfies readonly StudyKind[];
export const studyIdSchema = z.number().int().positive();

export const createStudySchema = z.object({
  name: label(100),
  kind: z.enum(STUDY_KINDS, { message: 'expected "strong" (same problem, more GPUs) or "weak" (problem grown with the GPUs)' }),
  project: projectNameSchema,
  caseName: label(100),
  caseHash: z.string().regex(/^[0-9a-f]{64}$/, 'expected the SHA-256 of the case: 64 lower-case hex digits (RunRecord.caseHash)'),
  notes: notesSchema.optional(),
});

export const studyRunSchema = z.object({
  studyId: studyIdSchema,
  runId: runIdSchema,
  gpus: z.number().int().positive('must be at least 1').max(1_000_000),
});

export const rankStepSchema = z.object({
  rank: count, step: count, particles: count, sent: count, received: count, waitSeconds: seconds,
}) satisfies z.ZodType<RankStepRecord>;

/** Parses `value` or throws an Error naming the call, every bad field and what was expected. */
export function checkInput<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const lines = r.error.issues.slice(0, 10).map((i) => `  ${i.path.length ? i.path.join('.') : '(value)'}: ${i.message}`);
  throw new Error(`${what}: invalid input\n${lines.join('\n')}`);
}
