// The contract's implementation over the real services: the run database, the pre-launch check, the
// report writers and the run launcher. Hosts (dsmc serve, Electron main) validate requests, then call this.
import { resumableStep } from './resumable.js';
import type { ContractResults, DsmcService, ValidRequest } from '../common/contract/contract.js';
import type { LiveRunState, RunEvent } from '../common/contract/types.js';
import { buildComparison } from '../common/reports/compare-model.js';
import { buildProfileReport } from '../common/reports/profile-model.js';
import { rankBalance } from '../common/reports/rank-balance.js';
import { buildScalingReport } from '../common/reports/scaling-model.js';
import { loadCompareInput, loadProfileInput, requireFields } from '../reports/run-source.js';
import { loadScalingInput } from '../reports/scaling-source.js';
import { RunStore } from '../store/run-store.js';
import { exportRunFile } from './exports.js';
import { differenceSlice, fieldSlice } from './field-slice.js';
import { checkCaseJson, listGpus } from './gpu-info.js';
import { listPresets } from './presets.js';
import { RunLauncher } from './run-launcher.js';
import { progressFromRecords } from './run-progress.js';

type Listener = (e: RunEvent) => void;

export class StudioService implements DsmcService {
  readonly store: RunStore;
  private readonly launcher: RunLauncher;
  private readonly listeners = new Set<Listener>();

  /** Opens the run database in `dataDir` (else $DSMC_DATA_DIR, else the platform's data folder). */
  constructor(opts: { dataDir?: string } = {}) {
    this.store = RunStore.open({ dataDir: opts.dataDir });
    this.launcher = new RunLauncher(this.store, (e) => { for (const l of this.listeners) l(e); });
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
    return { run, caseJson, profile, hasFields: this.store.getFields(r.runId) !== null, cells: caseJson.grid.cells, resumeFromStep: resumableStep(this.store.dataDir, run) };
  }

  /** One sampled field of a run on a plane. */
  async getFieldSlice(r: ValidRequest<'getFieldSlice'>) { return fieldSlice(requireFields(this.store, r.runId), r.field, r.axis, r.index); }

  /** Deletes a run and everything recorded about it. */
  async deleteRun(r: ValidRequest<'deleteRun'>) { this.store.deleteRun(r.runId); }

  /** Adds or removes a tag of a run. */
  async tagRun(r: ValidRequest<'tagRun'>) {
    if (r.remove) this.store.untagRun(r.runId, r.tag); else this.store.tagRun(r.runId, r.tag);
    return this.store.getRun(r.runId);
  }

  /** Replaces the notes of a run. */
  async setNotes(r: ValidRequest<'setNotes'>) { this.store.setNotes(r.runId, r.notes); return this.store.getRun(r.runId); }

  /** The bundled case presets. */
  async listPresets() { return listPresets(); }

  /** Schema issues or the pre-launch check of a case as edited. */
  async checkCase(r: ValidRequest<'checkCase'>) { return checkCaseJson(r.caseJson); }

  /** The GPUs a launch can choose. */
  async listGpus() { return listGpus(); }

  /** Launches a run in a child process; resolves once it is recorded. */
  async launchRun(r: ValidRequest<'launchRun'>) {
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

  /** Asks a run this host started to stop after its current submit. */
  async cancelRun(r: ValidRequest<'cancelRun'>) { this.launcher.cancel(r.runId); }

  /** Continues a failed or cancelled run from its newest complete checkpoint. */
  async resumeRun(r: ValidRequest<'resumeRun'>) {
    const run = this.store.getRun(r.runId);
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
    const total = Number((this.store.getCase(r.runId).json as { run: { steps: number } }).run.steps);
    const progress = this.launcher.progressOf(r.runId) ?? progressFromRecords(run, steps, total);
    const phases = Object.entries(run.summary?.phases ?? {}).map(([phase, p]) => ({ phase, seconds: p.totalSeconds }));
    const balance = run.ranks > 1 ? rankBalance(this.store.getRankSteps(r.runId), run.ranks) : null;
    return { progress, steps, phases, reason: run.reason, ranks: run.ranks, balance };
  }

  /** The comparison of runs with the first, plus their step curves. */
  async compareRuns(r: ValidRequest<'compareRuns'>) {
    const comparison = buildComparison(r.runIds.map((id) => loadCompareInput(this.store, id)));
    const curves = r.runIds.map((runId) => ({ runId, steps: this.store.getSteps(runId), totals: this.store.getTotals(runId) }));
    return { comparison, curves };
  }

  /** Two runs' field difference on a plane in units of their combined standard error. */
  async compareFieldSlice(r: ValidRequest<'compareFieldSlice'>) {
    const [a, b] = r.runIds;
    return differenceSlice(requireFields(this.store, a), requireFields(this.store, b), [a, b], r.field, r.axis, r.index);
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
}
