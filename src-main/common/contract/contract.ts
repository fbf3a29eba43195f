// The one API between the renderer and the services (Electron IPC or the `dsmc serve` WebSocket carry it).
// Every method takes one request object and returns a promise; CONTRACT_REQUESTS holds the zod schema of
// each request, keyed by the interface's own method names, so the hosts need no separate list of channels.
import { z } from 'zod';
import { ALL_FIELD_NAMES, isFieldName, type FieldName } from '../field-names.js';
import type { ScalingReport } from '../reports/scaling-model.js';
import type { ClusterProfileInfo,
  CaseCheck, ExportedFile, FieldDifferenceSlice, FieldSlice, GpuInfo, LaunchResult, LiveRunState, PresetInfo,
  ProjectRecord, RunComparison, RunDetail, RunParameter, RunRecord, RunStatus, StudyInfo, SurfaceView, UploadedMesh,
} from './types.js';
import type { LineProbe, PointProbe } from '../probes/probe-types.js';

/** Export formats of a run: the profile report's five (zip: one CSV file per table), the fields as VTK ImageData and the body surfaces as VTK PolyData. */
export const EXPORT_FORMATS = ['html', 'csv', 'json', 'pdf', 'vtk', 'vtp', 'zip'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** Export formats of a scaling study's report (zip: one CSV file per table). */
export const STUDY_EXPORT_FORMATS = ['html', 'pdf', 'zip', 'csv', 'json'] as const;
export type StudyExportFormat = (typeof STUDY_EXPORT_FORMATS)[number];

/** Domain decompositions a multi-rank launch can ask for. */
export const DECOMPOSITIONS = ['slab', 'block', 'rcb'] as const;
export type Decomposition = (typeof DECOMPOSITIONS)[number];

const RUN_STATUSES = ['queued', 'running', 'completed', 'failed', 'cancelled'] as const satisfies readonly RunStatus[];

const runId = z.number({ error: 'runId: expected a run id (a positive integer)' }).int().positive();
const projectName = z.string({ error: 'project name: expected text' }).trim()
  .min(1, 'project name must not be empty: type a name such as "nozzle-study"')
  .max(100, 'project name: at most 100 characters');
const fieldError = `field: expected one of ${ALL_FIELD_NAMES.join(', ')} (Trot, Tvib and Tall only for a gas with internal modes), ` +
  'or n_<species> or x_<species> (a gas of two or more species)';
const field = z.custom<FieldName>((v) => typeof v === 'string' && isFieldName(v), { error: fieldError });
const axis = z.enum(['x', 'y', 'z'], { error: 'axis: expected "x", "y" or "z"' });
const sliceIndex = z.number().int().min(0).optional();
const empty = z.object({}).optional();
/** A point in the grid's coordinates, m (what a probe asks for). */
const point = (name: string) => {
  const e = `${name}: expected a point [x, y, z] of finite numbers in metres, e.g. [0.01, 0.02, 0]`;
  const c = z.number({ error: e }); // finite: zod 4 refuses infinities itself
  return z.tuple([c, c, c], { error: e });
};

/** Largest mesh uploadMesh takes: 2.5 MiB (about 52 000 binary STL triangles); its base64 fits dsmc serve's 4 MiB message limit. */
export const MAX_MESH_UPLOAD_BYTES = 2.5 * 1024 * 1024;
const meshName = z.string({ error: 'name: expected a file name such as "wing.stl"' })
  .regex(/^[A-Za-z0-9][A-Za-z0-9_-]*(\.[A-Za-z0-9_-]+)*\.stl$/i, 'name: a plain file name ending in .stl (letters, digits, "-", "_" and inner dots; no folders), such as "wing.stl"')
  .max(100, 'name: at most 100 characters');
const meshContent = z.base64({ error: 'contentBase64: expected the STL file\'s bytes as base64 text' })
  .max(4 * Math.ceil(MAX_MESH_UPLOAD_BYTES / 3), `contentBase64: a mesh of at most ${MAX_MESH_UPLOAD_BYTES} bytes (MAX_MESH_UPLOAD_BYTES) can be uploaded; coarsen it, or copy the file into the folder dsmc serve started in and give its path`);

/** Request schemas, one per contract method. */
export const CONTRACT_REQUESTS = {
  listProjects: z.object({ includeArchived: z.boolean().optional() }).optional(),
  createProject: z.object({ name: projectName }),
  renameProject: z.object({ name: projectName, newName: projectName }),
  archiveProject: z.object({ name: projectName, archived: z.boolean() }),
  listRuns: z.object({ project: projectName.optional(), status: z.enum(RUN_STATUSES).optional() }).optional(),
  getRun: z.object({ runId }),
  runParameters: z.object({ runIds: z.array(runId).max(5000, 'runParameters: at most 5000 runs at once') }),
  getFieldSlice: z.object({ runId, field, axis, index: sliceIndex }),
  getSurface: z.object({ runId }),
  /** Every field of a run along the segment from -> to (m): the value and standard error of each cell it crosses. */
  probeLine: z.object({ runId, from: point('from'), to: point('to') }),
  /** Every field of a run at a point (m): the value and standard error of the cell holding it. */
  probePoint: z.object({ runId, at: point('at') }),
  deleteRun: z.object({ runId }),
  tagRun: z.object({ runId, tag: z.string().trim().min(1, 'tag must not be empty').max(64), remove: z.boolean().optional() }),
  setNotes: z.object({ runId, notes: z.string().max(20_000, 'notes: at most 20000 characters') }),
  listPresets: empty,
  checkCase: z.object({ caseJson: z.unknown() }),
  /** Stores an STL mesh in the data folder's meshes/ folder; its path goes into a body's shape.file. */
  uploadMesh: z.object({ name: meshName, contentBase64: meshContent }),
  listGpus: empty,
  listClusterProfiles: empty,
  launchRun: z.object({
    project: projectName,
    caseJson: z.unknown(),
    ranks: z.number().int().min(1, 'ranks: at least 1').max(64, 'ranks: at most 64').default(1),
    gpus: z.array(z.number().int().min(0)).max(64).optional(),
    /** Absent: the case's default (rcb where bodies cut the box, slabs otherwise: balance-plan.ts). */
    decomposition: z.enum(DECOMPOSITIONS, { error: `decomposition: expected one of ${DECOMPOSITIONS.join(', ')}, or leave it out for the case's default` }).optional(),
    /**
     * Rebalancing of a multi-rank run: a threshold (UN, percent) above which the grid is re-split when that pays, or
     * 'off' to keep the first split; absent: the default (balance-plan.ts: 20 %, none where ranks share a GPU).
     */
    rebalance: z.union([
      z.number({ error: 'rebalance: expected a percentage (e.g. 20) or off' }).min(0, 'rebalance: a percentage of 0 or more, e.g. 20').max(1000, 'rebalance: at most 1000 %'),
      z.literal('off'),
    ], { error: 'rebalance: expected a percentage (e.g. 20) or off, or leave it out for the default' }).optional(),
    /** Run the ranks as a Slurm job with a stored cluster profile (ranks = nodes x gpusPerNode); absent: on this host. */
    cluster: z.object({
      profile: z.string().min(1, 'cluster.profile: choose a cluster profile (dsmc cluster profile add NAME ...)'),
      nodes: z.number().int().min(1, 'cluster.nodes: at least 1').max(4096),
      gpusPerNode: z.number().int().min(1, 'cluster.gpusPerNode: at least 1').max(64),
    }).optional(),
  }),
  cancelRun: z.object({ runId }),
  resumeRun: z.object({ runId }),
  setLiveView: z.object({ runId, field, axis, index: sliceIndex }),
  getLiveRun: z.object({ runId }),
  compareRuns: z.object({ runIds: z.array(runId).min(2, 'pick at least two runs to compare').max(8, 'compare at most 8 runs at once') }),
  compareFieldSlice: z.object({ runIds: z.tuple([runId, runId]), field, axis, index: sliceIndex }),
  exportRun: z.object({ runId, format: z.enum(EXPORT_FORMATS, { error: `format: expected one of ${EXPORT_FORMATS.join(', ')}` }) }),
  listStudies: z.object({ project: projectName.optional() }).optional(),
  getScaling: z.object({ studyId: z.number({ error: 'studyId: expected a study id (a positive integer)' }).int().positive() }),
  exportStudy: z.object({
    studyId: z.number({ error: 'studyId: expected a study id (a positive integer)' }).int().positive(),
    format: z.enum(STUDY_EXPORT_FORMATS, { error: `format: expected one of ${STUDY_EXPORT_FORMATS.join(', ')}` }),
  }),
};

/** The request type of each method (what the renderer passes). */
export type ContractRequest<K extends ContractMethod> = z.input<(typeof CONTRACT_REQUESTS)[K]>;
/** The request after validation (defaults applied), as implementations receive it. */
export type ValidRequest<K extends ContractMethod> = z.output<(typeof CONTRACT_REQUESTS)[K]>;

/** What each method resolves to. */
export interface ContractResults {
  listProjects: ProjectRecord[];
  createProject: ProjectRecord;
  renameProject: ProjectRecord;
  archiveProject: ProjectRecord;
  listRuns: RunRecord[];
  getRun: RunDetail;
  runParameters: RunParameter[];
  getFieldSlice: FieldSlice;
  getSurface: SurfaceView;
  probeLine: LineProbe;
  probePoint: PointProbe;
  deleteRun: void;
  tagRun: RunRecord;
  setNotes: RunRecord;
  listPresets: PresetInfo[];
  checkCase: CaseCheck;
  uploadMesh: UploadedMesh;
  listGpus: GpuInfo[];
  listClusterProfiles: ClusterProfileInfo[];
  launchRun: LaunchResult;
  cancelRun: void;
  resumeRun: LaunchResult;
  setLiveView: void;
  getLiveRun: LiveRunState;
  compareRuns: RunComparison;
  compareFieldSlice: FieldDifferenceSlice;
  exportRun: ExportedFile;
  listStudies: StudyInfo[];
  getScaling: ScalingReport;
  exportStudy: ExportedFile;
}

export type ContractMethod = keyof typeof CONTRACT_REQUESTS & keyof ContractResults;

/** The contract as the renderer calls it. */
export type DsmcApi = { [K in ContractMethod]: (request: ContractRequest<K>) => Promise<ContractResults[K]> };

/** The contract as the services implement it (requests already validated). */
export type DsmcService = { [K in ContractMethod]: (request: ValidRequest<K>) => Promise<ContractResults[K]> };

/** Every method name, taken from the request table. */
export const CONTRACT_METHODS = Object.keys(CONTRACT_REQUESTS) as ContractMethod[];

/** True when `name` is a method of the contract. */
export function isContractMethod(name: unknown): name is ContractMethod {
  return typeof name === 'string' && Object.hasOwn(CONTRACT_REQUESTS, name);
}

/** Thrown for a request that fails its schema; the message names each bad field and what it expects. */
export class ContractRequestError extends Error {
  constructor(method: string, issues: string[]) {
    super(`${method}: ${issues.join('; ')}`);
    this.name = 'ContractRequestError';
  }
}

/** Validates a request for `method` (applying defaults); throws ContractRequestError naming the fields. */
export function validateRequest<K extends ContractMethod>(method: K, request: unknown): ValidRequest<K> {
  const schema = CONTRACT_REQUESTS[method] as z.ZodType;
  const r = schema.safeParse(request);
  if (r.success) return r.data as ValidRequest<K>;
  throw new ContractRequestError(method, r.error.issues.map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message)));
}

/** Calls a service method after validating the request: what every host does for every call. */
export async function dispatch(service: DsmcService, method: string, request: unknown): Promise<unknown> {
  if (!isContractMethod(method)) throw new Error(`unknown contract method "${method}"; methods: ${CONTRACT_METHODS.join(', ')}`);
  const valid = validateRequest(method, request);
  return (service[method] as (r: unknown) => Promise<unknown>)(valid);
}
