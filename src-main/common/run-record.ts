// The run database's records as the rest of the product sees them (CLI, reports, the renderer).
// Environment-free types only; src-main/store reads and writes them.
import type { SurfaceSums } from './surface-layout.js';
import type { Fields } from './field-names.js';
import type { RunSummary } from './run-summary.js';

export type RunStatus = 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';

/** A project groups runs. */
export interface ProjectRecord {
  id: number;
  name: string;
  createdAt: string;
  archived: boolean;
  runCount: number;
}

/** A validated case as stored (the full JSON with defaults applied, and its SHA-256). */
export interface CaseRecord {
  id: number;
  name: string;
  hash: string;
  json: unknown;
}

/** Time of one phase on one rank. */
export interface PhaseRecord {
  rank: number;
  phase: string;
  calls: number;
  totalSeconds: number;
  minSeconds: number;
  maxSeconds: number;
}

/** Statistics of one step. */
export interface StepRecord {
  step: number;
  /** Live particles after the step (after injection and outflow). */
  particles: number;
  injected: number;
  collisions: number;
  candidates: number;
}

/** Totals of the particle system after a submit (real molecules, SI units). */
export interface TotalsRecord {
  step: number;
  particles: number;
  /** Energy of the particles, J: translation, plus rotation when a species rotates (the field keeps its first name). */
  kineticEnergy: number;
  momentum: [number, number, number];
}

/** One run with everything but its fields. */
export interface RunRecord {
  id: number;
  project: string;
  caseId: number;
  caseName: string;
  caseHash: string;
  status: RunStatus;
  /** Why a run failed or was cancelled (null otherwise). */
  reason: string | null;
  startedAt: string;
  endedAt: string | null;
  seed: number;
  ranks: number;
  gpus: number;
  adapter: { description: string; backend: string };
  productVersion: string;
  /** Null until the run completes. */
  summary: RunSummary | null;
  /** The last step whose statistics are recorded (0 before any): how far a running, failed or cancelled run got. */
  lastStep: number;
  tags: string[];
  notes: string;
}

/** The sampled fields of a completed run with their standard errors (batch means). */
export interface FieldSet {
  cells: [number, number, number];
  cellSize: [number, number, number];
  /** Sampling passes behind the fields. */
  samples: number;
  /** Batch-means blocks behind the standard errors (errors are NaN with fewer than 2). */
  blocks: number;
  /** FIELD_NAMES, Trot, Tvib and Tall where the gas has internal modes, n_<species> and x_<species> in a mixture (errors: the same names). */
  values: Fields;
  errors: Fields;
}

/**
 * The surfaces of a completed run: the surface sums (../surface-layout.ts) over its sampled steps, the bodies'
 * triangles (9 numbers each, as meshed for the run) with each one's body, and the grid's cell marks (absent
 * without bodies): per cell 0 gas, 1 cut, 2 inside a body, and the gas volume fraction of every cell.
 */
export interface RunSurface {
  sums: SurfaceSums;
  triangles: Float64Array;
  triangleBody: Int32Array;
  bodyNames: string[];
  cellKind: Uint8Array | null;
  volumeFraction: Float64Array | null;
}

/** How a scaling study grows: 'strong' keeps the problem and adds GPUs; 'weak' grows the problem with the GPUs. */
export type StudyKind = 'strong' | 'weak';

/** One rank's counts at one step of a multi-rank run (particles after the step, migration traffic, waiting). */
export interface RankStepRecord {
  rank: number;
  step: number;
  /** Particles the rank owns after the step. */
  particles: number;
  /** Particles the rank sent to other ranks during the step. */
  sent: number;
  /** Particles the rank received from other ranks during the step. */
  received: number;
  /** Host seconds the rank spent waiting for the other ranks during the step. */
  waitSeconds: number;
}

/** One run of a study, on `gpus` GPUs. */
export interface StudyRunRecord {
  runId: number;
  gpus: number;
  /** Order in which the run was added to the study (0, 1, ...). */
  position: number;
  run: RunRecord;
}

/** A scaling study: a series of runs of one case on growing GPU counts. */
export interface StudyRecord {
  id: number;
  name: string;
  kind: StudyKind;
  project: string;
  caseName: string;
  /** SHA-256 of the study's case (for weak studies: of the case on the smallest GPU count, before it is grown). */
  caseHash: string;
  createdAt: string;
  notes: string;
  /** The runs by GPU count (then by position). */
  runs: StudyRunRecord[];
}
