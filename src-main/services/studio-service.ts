// The contract's implementation over the real services: the run database, the pre-launch check, the
// report writers and the run launcher. Hosts (dsmc serve, Electron main) validate requests, then call this.
import { resumableStep } from './resumable.js';
import { CaseError, domainLengths, parseCase, type Case } from '../common/case-schema.js';
import { caseFieldNames, fieldNamesOf, type FieldName } from '../common/field-names.js';
import { blankBodyCells, planeCellSize, sliceBodyOutline } from '../common/charts/slice-bodies.js';
import type { ContractResults, DsmcService, ValidRequest } from '../common/contract/contract.js';
import type { CaseCheck, FieldSlice, LiveRunState, RunEvent, SurfaceView } from '../common/contract/types.js';
import { tessellateShape, triangleAreas, triangleBudgetIssue, triangleCentroids, triangleNormals } from '../common/geometry/index.js';
import { surfaceLoadsOf } from '../common/reports/surface-loads.js';
import { freeStreamOf, surfaceResultsOf, surfaceSummaryOf } from '../common/surface/run-surface-results.js';
import { caseDifferences, showValue } from '../common/reports/case-fields.js';
import { buildComparison } from '../common/reports/compare-model.js';
import { buildProfileReport } from '../common/reports/profile-model.js';
import { rankBalance } from '../common/reports/rank-balance.js';
import { buildScalingReport } from '../common/reports/scaling-model.js';
import { loadCompareInput, loadProfileInput, requireFields, requireStandardErrors } from '../reports/run-source.js';
import { loadScalingInput } from '../reports/scaling-source.js';
import { RunStore } from '../store/run-store.js';
import { readStlFile } from '../solver/stl-file.js';
import { exportRunFile, exportStudyFile } from './exports.js';
import { differenceSlice, fieldSlice } from './field-slice.js';
import { lineProbe, pointProbe } from '../common/probes/field-probes.js';
import { checkCaseOffThread } from './case-check-thread.js';
import { confinementIssues } from './file-confinement.js';
import { listGpus } from './gpu-info.js';
import { saveUploadedMesh } from './mesh-upload.js';
import { listPresets } from './presets.js';
import { RunLauncher } from './run-launcher.js';
import { progressFromRecords } from './run-progress.js';

type Listener = (e: RunEvent) => void;

/** Bodies of a run as the field slices draw them: triangles (9 numbers each, m), cell kinds when the run kept them. */
interface SliceBodies {
  tris: Float64Array;
  cellSize: [number, number, number];
  cells: [number, number, number];
  cellKind: Uint8Array | null;
  volumeFraction: Float64Array | null;
}

/** Completed runs whose bodies the field slices keep in memory (the slider asks for plane after plane). */
const SLICE_BODIES_KEPT = 4;

/** x rounded to 6 significant digits; null for NaN and infinities (JSON has neither). */
function round6(x: number): number | null {
  return Number.isFinite(x) ? Number(x.toPrecision(6)) || 0 : null; // || 0: -0 as 0 (JSON has no -0)
}

/** Most triangles getSurface sends (larger meshes go as every k-th triangle). */
const MAX_SURFACE_TRIANGLES = 50_000;

/** All bodies of a case meshed into one array, as the solver meshes them; null when the case has none or one cannot be meshed. */
function caseBodyTriangles(c: Case): Float64Array | null {
  if (c.bodies.length === 0) return null;
  try {
    const domain = domainLengths(c);
    if (triangleBudgetIssue(c.bodies, domain, c.grid.cellSize)) return null; // too large to mesh: the check names the limit
    const parts = c.bodies.map((b) => tessellateShape(b.shape, domain, b.shape.type === 'stl' ? readStlFile(b.shape.file) : undefined, c.grid.cellSize));
    const tris = new Float64Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) { tris.set(p, at); at += p.length; }
    return tris;
  } catch {
    return null; // a shape that cannot be meshed (unreadable STL): the map goes without an outline
  }
}

export class StudioService implements DsmcService {
  readonly store: RunStore;
  private readonly launcher: RunLauncher;
  private readonly listeners = new Set<Listener>();
  /** Bodies of recently sliced completed runs, newest last. */
  private readonly sliceBodies = new Map<number, SliceBodies | null>();
  /** Bodies of running runs (meshed from their case) for the outline on their live slices. */
  private readonly liveBodies = new Map<number, { cellSize: [number, number, number]; bodies: SliceBodies | null }>();

  /** Folders the files a case names must lie in (browser mode: the data folder and the server's folder); null: any file. */
  private readonly fileRoots: string[] | null;

  /** Opens the run database in `dataDir` (else $DSMC_DATA_DIR, else the platform's data folder); `confineFiles`: STL files only inside it and `serverDir` (default: the working folder). */
  constructor(opts: { dataDir?: string; confineFiles?: boolean; serverDir?: string } = {}) {
    this.store = RunStore.open({ dataDir: opts.dataDir });
    this.launcher = new RunLauncher(this.store, (e) => this.emit(e));
    this.fileRoots = opts.confineFiles ? [this.store.dataDir, opts.serverDir ?? process.cwd()] : null;
  }

  /** Throws a CaseError naming each STL file outside the allowed folders (browser mode); returns the case JSON otherwise. */
  private confined(caseJson: unknown): unknown {
    const issues = this.fileRoots ? confinementIssues(caseJson, this.fileRoots) : [];
    if (issues.length > 0) throw new CaseError(issues);
    return caseJson;
  }

  /** True when this host may read every file the case names (always outside browser mode). */
  private readable(caseJson: unknown): boolean {
    return !this.fileRoots || confinementIssues(caseJson, this.fileRoots).length === 0;
  }

  /** Passes a live event on to the listeners, a live field slice with the outline of the run's bodies. */
  private emit(e: RunEvent): void {
    let out = e;
    if (e.kind === 'field') {
      try {
        const live = this.liveBodiesOf(e.runId);
        out = { ...e, slice: { ...this.withBodies(e.slice, live.bodies, false), cellSize: planeCellSize(live.cellSize, e.slice.axis) } };
      } catch {
        out = e; // the slice goes without an outline rather than not at all
      }
    }
    if (e.kind === 'ended') this.liveBodies.delete(e.runId);
    for (const l of this.listeners) l(out);
  }

  /** A running run's cell size and bodies meshed from its case (no cell kinds: classifying the cells is the solver's work). */
  private liveBodiesOf(runId: number): { cellSize: [number, number, number]; bodies: SliceBodies | null } {
    let live = this.liveBodies.get(runId);
    if (!live) {
      const c = parseCase(this.store.getCase(runId).json);
      const tris = this.readable(this.store.getCase(runId).json) ? caseBodyTriangles(c) : null;
      live = { cellSize: c.grid.cellSize, bodies: tris ? { tris, cellSize: c.grid.cellSize, cells: c.grid.cells, cellKind: null, volumeFraction: null } : null };
      this.liveBodies.set(runId, live);
    }
    return live;
  }

  /** A completed run's bodies: the triangles and cell kinds it kept, else meshed from its case (runs recorded before surfaces). */
  private storedBodiesOf(runId: number): SliceBodies | null {
    if (this.sliceBodies.has(runId)) {
      const kept = this.sliceBodies.get(runId)!;
      this.sliceBodies.delete(runId);
      this.sliceBodies.set(runId, kept);
      return kept;
    }
    const json = this.store.getCase(runId).json as { grid: { cells: [number, number, number]; cellSize: [number, number, number] } };
    const surface = this.store.getSurface(runId);
    let bodies: SliceBodies | null = null;
    if (surface && surface.triangles.length > 0) {
      bodies = { tris: surface.triangles, cellSize: json.grid.cellSize, cells: json.grid.cells, cellKind: surface.cellKind, volumeFraction: surface.volumeFraction };
    } else if (!surface) {
      let c: Case | null = null;
      try { c = parseCase(json); } catch { c = null; }
      const tris = c && this.readable(json) ? caseBodyTriangles(c) : null;
      if (c && tris) bodies = { tris, cellSize: c.grid.cellSize, cells: c.grid.cells, cellKind: null, volumeFraction: null };
    }
    this.sliceBodies.set(runId, bodies);
    while (this.sliceBodies.size > SLICE_BODIES_KEPT) this.sliceBodies.delete(this.sliceBodies.keys().next().value!);
    return bodies;
  }

  /** A slice with the outline of the bodies on its plane and, when `blank` and the cell kinds are known, the cells inside them blank. */
  private withBodies(slice: FieldSlice, bodies: SliceBodies | null, blank: boolean): FieldSlice {
    if (!bodies) return slice;
    const withCells = blank && bodies.cellKind ? blankBodyCells(slice, bodies.cellKind, bodies.cells, bodies.volumeFraction) : slice;
    return { ...withCells, outline: sliceBodyOutline(bodies.tris, bodies.cellSize, slice.axis, slice.index) };
  }

  /** Subscribes to live run events; returns the unsubscribe function. */
  onEvent(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Cancels the runs this host started (waiting for them to record it) and closes the database. */
  async close(): Promise<void> {
    await this.launcher.closeAll();
    this.store.close();
  }

  /** The project of that name, or an error naming it. */
  private project(name: string) {
    const p = this.store.listProjects({ includeArchived: true }).find((x) => x.name === name);
    if (!p) throw new Error(`project "${name}" not found; pick one from the project list`);
    return p;
  }

  /** Projects with their run counts (archived ones on request). */
  async listProjects(r: ValidRequest<'listProjects'>) { return this.store.listProjects({ includeArchived: r?.includeArchived }); }

  /** A new project; refuses a name in use. */
  async createProject(r: ValidRequest<'createProject'>) {
    if (this.store.listProjects({ includeArchived: true }).some((p) => p.name === r.name)) {
      throw new Error(`a project named "${r.name}" already exists; choose another name`);
    }
    return this.store.ensureProject(r.name);
  }

  /** Renames a project. */
  async renameProject(r: ValidRequest<'renameProject'>) {
    this.store.renameProject(r.name, r.newName);
    return this.project(r.newName);
  }

  /** Archives or restores a project. */
  async archiveProject(r: ValidRequest<'archiveProject'>) {
    this.store.setProjectArchived(r.name, r.archived);
    return this.project(r.name);
  }

  /** Runs, optionally of one project or status. */
  async listRuns(r: ValidRequest<'listRuns'>) { return this.store.listRuns({ project: r?.project, status: r?.status }); }

  /** A run with its case and profile (phase table, steps, totals). */
  async getRun(r: ValidRequest<'getRun'>): Promise<ContractResults['getRun']> {
    const profile = buildProfileReport(loadProfileInput(this.store, r.runId));
    const caseJson = this.store.getCase(r.runId).json as { grid: { cells: [number, number, number] } };
    const run = this.store.getRun(r.runId);
    const fields = this.store.getFields(r.runId);
    return {
      run, caseJson, profile, hasFields: fields !== null, fieldNames: fields ? fieldNamesOf(fields.values) : [], cells: caseJson.grid.cells, resumeFromStep: resumableStep(this.store.dataDir, run),
      bodies: run.summary?.surface?.bodies?.length ?? 0,
    };
  }

  /** The case parameters that differ across the runs (the runs table's columns), each run's value as text. */
  async runParameters(r: ValidRequest<'runParameters'>) {
    return caseDifferences(r.runIds.map((id) => this.store.getCase(id).json)).map((d) => ({ path: d.path, values: d.values.map(showValue) }));
  }

  /** One sampled field of a run on a plane, with the outline of its bodies there and the cells inside them blank. */
  async getFieldSlice(r: ValidRequest<'getFieldSlice'>) {
    const fields = requireFields(this.store, r.runId);
    const slice = { ...fieldSlice(fields, r.field, r.axis, r.index), cellSize: planeCellSize(fields.cellSize, r.axis) };
    return this.withBodies(slice, this.storedBodiesOf(r.runId), true);
  }

  /** Per-triangle surface results of a completed run with bodies, and its loads per body and per face. */
  async getSurface(r: ValidRequest<'getSurface'>): Promise<SurfaceView> {
    const run = this.store.getRun(r.runId);
    const surface = this.store.getSurface(r.runId);
    if (!surface) {
      const why = run.status === 'completed'
        ? 'it was recorded before runs kept their surfaces; run its case again to get them'
        : `it is ${run.status}: surface results are kept when a run completes or is stopped and kept`;
      throw new Error(`run ${r.runId} has no surface results: ${why}`);
    }
    const nTris = surface.triangleBody.length;
    if (nTris === 0) throw new Error(`run ${r.runId} has no body surfaces: its case has no bodies (add objects under "bodies" in the case to get surface results)`);
    const caseJson = this.store.getCase(r.runId).json;
    const c = parseCase(caseJson);
    const res = surfaceResultsOf(c, surface, surface.sums);
    const summary = run.summary?.surface ?? surfaceSummaryOf(c, surface, surface.sums);
    // a large mesh goes as every stride-th triangle (a chart of 5e4 points shows the same curves)
    const stride = Math.ceil(nTris / MAX_SURFACE_TRIANGLES);
    const ids = Array.from({ length: Math.ceil(nTris / stride) }, (_, i) => i * stride);
    const pick = (a: ArrayLike<number>, per = 1): (number | null)[] => (per === 1 ? ids.map((t) => round6(a[t])) : ids.flatMap((t) => Array.from({ length: per }, (_, j) => round6(a[per * t + j]))));
    const coefficient = (a: Float64Array | null) => (a ? pick(a) : null);
    const normals = triangleNormals(surface.triangles);
    return {
      runId: r.runId,
      bodyNames: surface.bodyNames,
      sampledTime: surface.sums.sampledTime,
      freeStreamVelocity: res.cp ? freeStreamOf(c)?.velocity ?? null : null,
      triangles: ids.length,
      stride,
      body: ids.map((t) => surface.triangleBody[t]),
      centroid: pick(triangleCentroids(surface.triangles), 3) as number[],
      normal: ids.flatMap((t) => [0, 1, 2].map((j) => Math.round(normals[3 * t + j] * 1e5) / 1e5 || 0)),
      area: pick(triangleAreas(surface.triangles)) as number[],
      pressure: pick(res.pressure),
      shear: pick(res.shearMagnitude),
      heatFlux: pick(res.heatFlux),
      numberFlux: pick(res.numberFlux),
      cp: coefficient(res.cp),
      cf: coefficient(res.cf),
      ch: coefficient(res.ch),
      loads: surfaceLoadsOf(summary, caseJson),
    };
  }

  /** Every field of a run along a segment: each crossed cell's value and standard error (cells inside its bodies blank). */
  async probeLine(r: ValidRequest<'probeLine'>) {
    return lineProbe(requireFields(this.store, r.runId), r.runId, r.from, r.to, this.probeBodies(r.runId));
  }

  /** Every field of a run at a point: the value and standard error of the cell holding it. */
  async probePoint(r: ValidRequest<'probePoint'>) {
    return pointProbe(requireFields(this.store, r.runId), r.runId, r.at, this.probeBodies(r.runId));
  }

  /** The cell kinds of a completed run's bodies, for blanking probe values inside them (null: none kept). */
  private probeBodies(runId: number) {
    const b = this.storedBodiesOf(runId);
    return b?.cellKind ? { cellKind: b.cellKind, volumeFraction: b.volumeFraction } : null;
  }

  /** Deletes a run and everything recorded about it. */
  async deleteRun(r: ValidRequest<'deleteRun'>) {
    this.store.deleteRun(r.runId);
    this.sliceBodies.delete(r.runId);
  }

  /** Adds or removes a tag of a run. */
  async tagRun(r: ValidRequest<'tagRun'>) {
    if (r.remove) this.store.untagRun(r.runId, r.tag); else this.store.tagRun(r.runId, r.tag);
    return this.store.getRun(r.runId);
  }

  /** Replaces the notes of a run. */
  async setNotes(r: ValidRequest<'setNotes'>) { this.store.setNotes(r.runId, r.notes); return this.store.getRun(r.runId); }

  /** The bundled case presets. */
  async listPresets() { return listPresets(); }

  /** Schema issues (bad body geometry included, with its body's path) or the pre-launch check of a case as edited. */
  async checkCase(r: ValidRequest<'checkCase'>): Promise<CaseCheck> {
    try {
      this.confined(r.caseJson);
    } catch (e) {
      if (e instanceof CaseError) return { ok: false, issues: e.issues, prelaunch: null, adapter: '' };
      throw e;
    }
    return checkCaseOffThread(r.caseJson);
  }

  /** Stores an uploaded STL mesh in the data folder's meshes/ folder (where browser mode may read it). */
  async uploadMesh(r: ValidRequest<'uploadMesh'>) {
    return saveUploadedMesh(this.store.dataDir, r.name, Buffer.from(r.contentBase64, 'base64'));
  }

  /** The GPUs a launch can choose. */
  async listGpus() { return listGpus(); }

  /** Launches a run in a child process; resolves once it is recorded. */
  async launchRun(r: ValidRequest<'launchRun'>) {
    this.confined(r.caseJson);
    this.store.ensureProject(r.project);
    // ranks are pinned only to GPUs with a PCI address; otherwise they share the default adapter
    const gpus = await listGpus();
    for (const i of r.gpus ?? []) {
      if (!gpus.some((g) => g.index === i)) throw new Error(`GPU ${i} does not exist; this machine lists ${gpus.map((g) => `${g.index} (${g.description})`).join(', ')}`);
    }
    const pinnable = (r.gpus ?? []).every((i) => gpus.find((g) => g.index === i)?.pci);
    if (r.cluster) {
      if (!this.store.getClusterProfile(r.cluster.profile)) throw new Error(`cluster.profile: there is no cluster profile "${r.cluster.profile}"; add one with dsmc cluster profile add`);
      // one rank per GPU of the job, placed by Slurm: this host's GPUs play no part
      return { runId: await this.launcher.launch({ ...r, ranks: r.cluster.nodes * r.cluster.gpusPerNode, gpus: undefined }) };
    }
    return { runId: await this.launcher.launch({ ...r, gpus: pinnable ? r.gpus : undefined }) };
  }

  /** The stored Slurm cluster profiles (dsmc cluster profile add), for the launch view. */
  async listClusterProfiles() {
    return this.store.listClusterProfiles().map((p) => ({
      name: p.name,
      summary: [p.partition && `partition ${p.partition}`, p.account && `account ${p.account}`, p.timeLimit && `time ${p.timeLimit}`,
        p.modules.length > 0 && `modules ${p.modules.join(' ')}`].filter(Boolean).join(', ') || 'the cluster\'s defaults',
      nodes: p.nodes, gpusPerNode: p.gpusPerNode,
    }));
  }

  /** Asks a run this host started to stop after its current submit and keep what it sampled (stop and keep; every rank after the same submit). */
  async cancelRun(r: ValidRequest<'cancelRun'>) { this.launcher.cancel(r.runId); }

  /** Continues a failed or cancelled run from its newest complete checkpoint. */
  async resumeRun(r: ValidRequest<'resumeRun'>) {
    const run = this.store.getRun(r.runId);
    this.confined(this.store.getCase(r.runId).json); // a run recorded by the CLI may name any file
    if (resumableStep(this.store.dataDir, run) === null) {
      throw new Error(`run ${r.runId} (${run.status}) has no checkpoint to resume from: only failed or cancelled runs of cases with run.checkpointEvery > 0 can be resumed`);
    }
    return { runId: await this.launcher.resume(r.runId) };
  }

  /** Chooses the field slice a running run sends with its live events. */
  async setLiveView(r: ValidRequest<'setLiveView'>) { this.launcher.setView(r.runId, { field: r.field, axis: r.axis, index: r.index }); }

  /** A run's progress, steps so far, phases (once ended) and per-rank balance. */
  async getLiveRun(r: ValidRequest<'getLiveRun'>): Promise<LiveRunState> {
    const run = this.store.getRun(r.runId);
    const steps = this.store.getSteps(r.runId);
    const caseJson = this.store.getCase(r.runId).json as { run: { steps: number }; species: { name: string; rotationalDof?: number }[] };
    const total = Number(caseJson.run.steps);
    const progress = this.launcher.progressOf(r.runId) ?? progressFromRecords(run, steps, total);
    const phases = Object.entries(run.summary?.phases ?? {}).map(([phase, p]) => ({ phase, seconds: p.totalSeconds }));
    const balance = run.ranks > 1 ? rankBalance(this.store.getRankSteps(r.runId), run.ranks) : null;
    return { progress, steps, phases, reason: run.reason, ranks: run.ranks, balance, fieldNames: [...caseFieldNames(caseJson)] };
  }

  /** The comparison of runs with the first, plus their step curves. */
  async compareRuns(r: ValidRequest<'compareRuns'>) {
    const comparison = buildComparison(r.runIds.map((id) => loadCompareInput(this.store, id)));
    const curves = r.runIds.map((runId) => ({ runId, steps: this.store.getSteps(runId), totals: this.store.getTotals(runId) }));
    return { comparison, curves, fieldNames: this.sharedFieldNames(r.runIds[0], r.runIds[1]) };
  }

  /** The fields both runs hold, in field order (empty when either kept none). */
  private sharedFieldNames(a: number, b: number): FieldName[] {
    const [fa, fb] = [this.store.getFields(a), this.store.getFields(b)];
    if (!fa || !fb) return [];
    const inB = new Set(fieldNamesOf(fb.values));
    return fieldNamesOf(fa.values).filter((f) => inB.has(f));
  }

  /** Two runs' field difference on a plane in units of their combined standard error, with the first run's bodies outlined. */
  async compareFieldSlice(r: ValidRequest<'compareFieldSlice'>) {
    const [a, b] = r.runIds;
    // a difference in standard errors needs both runs' errors (a run stopped early may have none yet)
    const slice = differenceSlice(requireStandardErrors(this.store, a), requireStandardErrors(this.store, b), [a, b], r.field, r.axis, r.index);
    return { ...this.withBodies(slice, this.storedBodiesOf(a), true), runs: slice.runs };
  }

  /** A run's report or fields as a file. */
  async exportRun(r: ValidRequest<'exportRun'>) { return exportRunFile(this.store, r.runId, r.format); }

  /** Scaling studies with the GPU counts of their runs. */
  async listStudies(r: ValidRequest<'listStudies'>) {
    return this.store.listStudies({ project: r?.project }).map((st) => ({
      id: st.id, name: st.name, kind: st.kind, project: st.project, caseName: st.caseName,
      gpus: [...new Set(st.runs.map((x) => x.gpus))].sort((a, b) => a - b),
    }));
  }

  /** The scaling report of a study. */
  async getScaling(r: ValidRequest<'getScaling'>) { return buildScalingReport(loadScalingInput(this.store, r.studyId)); }

  /** A study's scaling report as a file (HTML, PDF, zipped CSV tables, CSV, JSON), for a download or the save dialog. */
  async exportStudy(r: ValidRequest<'exportStudy'>) { return exportStudyFile(this.store, r.studyId, r.format); }
}
