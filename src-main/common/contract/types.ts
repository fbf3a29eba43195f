// The data the contract carries between the services and the renderer (results and live events).
// Environment-free types; the zod schemas of what the renderer sends are in methods.ts.
import type { CaseIssue } from '../case-errors.js';
import type { FieldName } from '../field-names.js';
import type { Comparison } from '../reports/compare-model.js';
import type { ProfileReport } from '../reports/profile-model.js';
import type { RankBalance } from '../reports/rank-balance.js';
import type { SurfaceLoads } from '../reports/surface-loads.js';
import type { RunRecord, RunStatus, StepRecord, TotalsRecord } from '../run-record.js';

export type { ProjectRecord, RunRecord, RunStatus, StepRecord, TotalsRecord } from '../run-record.js';

/** One finding of the pre-launch check (same shape as src-main/cases/prelaunch.ts Finding). */
export interface CheckFinding {
  code: string;
  field: string;
  message: string;
}

/** Result of checking a case as the user edits it: schema issues, or the pre-launch report. */
export interface CaseCheck {
  /** True when the case parses and the pre-launch check finds no error. */
  ok: boolean;
  /** Schema and cross-field problems, each naming its field path (empty when the case parses). */
  issues: CaseIssue[];
  /** Null while the case does not parse. */
  prelaunch: {
    errors: CheckFinding[];
    warnings: CheckFinding[];
    estimates: Record<string, number>;
  } | null;
  /** Adapter the check used for the GPU limits. */
  adapter: string;
}

/** A GPU the launch view can choose. */
export interface GpuInfo {
  index: number;
  description: string;
  /** 'discrete GPU', 'integrated GPU', 'CPU' (software), ... */
  kind: string;
  /** PCI address; null where the driver gives none (then ranks cannot be pinned to it and share the default adapter). */
  pci: string | null;
  /** Backend of the default adapter (Vulkan, Metal, D3D12). */
  backend: string;
  /** Largest buffer the default adapter allocates (bytes); WebGPU reports no device memory. Null for other GPUs. */
  maxBufferBytes: number | null;
  /** Device memory (bytes) where the vendor's tool reports it (nvidia-smi); null otherwise. */
  memoryBytes: number | null;
}

/** A stored Slurm cluster profile, as the launch view offers it. */
export interface ClusterProfileInfo {
  name: string;
  /** One line: partition, account, time limit, modules. */
  summary: string;
  nodes: number;
  gpusPerNode: number;
}

/** A bundled case preset. */
export interface PresetInfo {
  name: string;
  description: string;
  json: unknown;
}

/** Everything the run detail view shows but the fields. */
export interface RunDetail {
  run: RunRecord;
  caseJson: unknown;
  profile: ProfileReport;
  hasFields: boolean;
  /** The fields the run holds (FIELD_NAMES, plus Trot, Tvib and Tall for a gas with internal modes, n_<species> and x_<species> for a mixture); absent: FIELD_NAMES. */
  fieldNames?: FieldName[];
  cells: [number, number, number];
  /** Step of the newest complete checkpoint of a failed or cancelled run (resumeRun continues from it); null otherwise. */
  resumeFromStep: number | null;
  /** Bodies whose loads the run's summary holds (> 0: getSurface has per-triangle results, the export offers vtp). */
  bodies: number;
}

/** Axis normal to a field slice. */
export type SliceAxis = 'x' | 'y' | 'z';

/** A 2-D slice of one sampled field: values[row][col] with rows along the second in-plane axis. */
export interface FieldSlice {
  field: FieldName;
  label: string;
  unit: string;
  axis: SliceAxis;
  index: number;
  /** Cells along the normal axis (the slider's range). */
  depth: number;
  /** In-plane axis names (horizontal, vertical). */
  axes: [string, string];
  width: number;
  height: number;
  /** Row-major: values[v * width + u]; null where there is no value (no sample, no standard error). */
  values: (number | null)[];
  min: number;
  max: number;
  samples: number;
  /**
   * Where the plane cuts the bodies of the case: 4 numbers per segment (u0, v0, u1, v1) in cell units of the
   * plane's axes (cell u spans [u, u + 1], as the heatmap's columns); absent or empty without bodies.
   */
  outline?: number[];
  /** Cells of the plane inside a body (left without a value, so the heatmap leaves them blank); absent: none known. */
  bodyCells?: number;
  /** Cell size along the in-plane axes (horizontal, vertical), m: the heatmap keeps the plane's proportions; absent: unknown. */
  cellSize?: [number, number];
  /** Standard error of each value (batch means), as `values`; null where unknown; absent: none (live fields). */
  errors?: (number | null)[];
  /** Cells left blank for too few particle samples (under `minCellSamples`) or an impossible negative value; absent: not checked. */
  maskedCells?: number;
  /** The particle samples a cell needs to be shown (common/field-mask.ts says why). */
  minCellSamples?: number;
}

/**
 * Surface results of a completed run with bodies, per body triangle in parallel arrays (index t of each
 * array is triangle t; vectors take 3 numbers per triangle), plus the summary's loads per body and per face.
 * Per-triangle values are null where unknown (no sampled time, zero area); numbers are rounded to 6
 * significant digits (far below the statistical scatter) to keep the message small.
 */
export interface SurfaceView {
  runId: number;
  bodyNames: string[];
  /** Simulated time the results average over, s. */
  sampledTime: number;
  /** Free-stream velocity the coefficients and the stagnation point refer to; null: no moving free stream. */
  freeStreamVelocity: [number, number, number] | null;
  /** Triangles in the arrays below. */
  triangles: number;
  /** 1: every triangle of the run; k: every k-th (a mesh of more than 50000 triangles, to keep the message small). */
  stride: number;
  /** Body index of each triangle (into bodyNames). */
  body: number[];
  /** Centroid (3 per triangle), m. */
  centroid: number[];
  /** Unit normal out of the body into the gas (3 per triangle). */
  normal: number[];
  /** Area, m^2. */
  area: number[];
  /** Pressure on the surface (Pa), |shear stress| (Pa, unsigned: noise adds to it), heat flux into the surface (W/m^2), incident number flux (1/(m^2 s)). */
  pressure: (number | null)[];
  shear: (number | null)[];
  heatFlux: (number | null)[];
  numberFlux: (number | null)[];
  /**
   * Pressure, skin-friction and heat-transfer coefficients; null without a moving free stream. Cf is signed: the
   * shear along the free stream's direction made tangent to the triangle, over q_inf (see surface-results.ts).
   */
  cp: (number | null)[] | null;
  cf: (number | null)[] | null;
  ch: (number | null)[] | null;
  /** The summary's loads per body (force, drag, lift, Cd, Cl, heat transfer) and mean loads per domain face. */
  loads: SurfaceLoads | null;
}

/** A case parameter (dot path) whose value differs across a set of runs: each run's value as text ('(absent)' where it has none). */
export interface RunParameter {
  path: string;
  values: string[];
}

/** Map of z = (first - second) / combined standard error on one slice, for the compare view. */
export interface FieldDifferenceSlice extends FieldSlice {
  runs: [number, number];
}

/** Compare view: the comparison model plus per-run curves to overlay. */
export interface RunComparison {
  comparison: Comparison;
  curves: { runId: number; steps: StepRecord[]; totals: TotalsRecord[] }[];
  /** The fields both of the first two runs hold (the difference map's choices; empty when either kept none). */
  fieldNames?: FieldName[];
}

/** An uploaded mesh: the path to write as a body's shape.file, and its triangle count. */
export interface UploadedMesh {
  file: string;
  triangles: number;
}

/** A launched run. */
export interface LaunchResult {
  runId: number;
}

/** Snapshot of a run's progress (live events, or rebuilt from the database). */
export interface RunProgress {
  runId: number;
  status: RunStatus;
  step: number;
  steps: number;
  particles: number;
  elapsedSeconds: number;
  particleStepsPerSecond: number;
  etaSeconds: number | null;
}

/** What the live view starts from when it opens: progress and the steps recorded so far. */
export interface LiveRunState {
  progress: RunProgress;
  steps: StepRecord[];
  /** Per-phase seconds so far (live from a one-rank run's child after every submit; from the summary once a run ends). */
  phases: { phase: string; seconds: number }[];
  reason: string | null;
  /** Ranks of the run (> 1: followed through the database). */
  ranks: number;
  /** Per-rank particles, UN and traffic from the recorded rank steps (null on one rank). */
  balance: RankBalance | null;
  /** The fields the run samples (its case's: caseFieldNames), which the live field map offers; absent: every run's. */
  fieldNames?: FieldName[];
}

/** Live events of a run, pushed by the host while it goes. */
export type RunEvent =
  | { kind: 'progress'; progress: RunProgress }
  | { kind: 'steps'; runId: number; steps: StepRecord[] }
  | { kind: 'field'; runId: number; slice: FieldSlice }
  | { kind: 'phases'; runId: number; phases: { phase: string; seconds: number }[] }
  | { kind: 'ended'; runId: number; status: RunStatus; reason: string | null };

/** A file made by an export: downloaded in browser mode, saved through a dialog in Electron. */
export interface ExportedFile {
  fileName: string;
  mimeType: string;
  /** File contents, base64 (empty when the host already saved it). */
  base64: string;
  /** Where the host saved it (Electron's save dialog), or null. */
  savedPath: string | null;
}

/** A scaling study (multi-GPU) as the scaling view lists it. */
export interface StudyInfo {
  id: number;
  name: string;
  kind: 'strong' | 'weak';
  project: string;
  caseName: string;
  /** GPU counts of its runs, ascending. */
  gpus: number[];
}

export type { CaseIssue, FieldName };
