// The run database's API: every run the product makes, its case, timings, step statistics and fields.
// One SQLite file (better-sqlite3, synchronous); every multi-row write is one transaction.
import { hostname } from 'node:os';
import type Database from 'better-sqlite3';
import type {
  CaseRecord, FieldSet, RunSurface, PhaseRecord, ProjectRecord, RankStepRecord, RunRecord, RunStatus, StepRecord, StudyRecord, TotalsRecord,
} from '../common/run-record.js';
import type { RunSummary } from '../common/run-summary.js';
import { canonicalJson, sha256Hex } from './canonical-json.js';
import { databasePath, resolveDataDir } from './data-dir.js';
import type { ClusterProfile } from '../cluster/slurm/profile.js';
import * as clusterRows from './cluster-rows.js';
import type { LaunchRecord, RankRecord } from './cluster-rows.js';
import { insertFields, readFields } from './field-rows.js';
import { insertSurface, readSurface } from './surface-rows.js';
import {
  checkInput, createRunSchema, fieldSetSchema, notesSchema, phaseSchema, projectNameSchema, runIdSchema,
  runStatusSchema, runSurfaceSchema, stepSchema, summarySchema, tagSchema, totalsSchema,
} from './input-schemas.js';
import { openDatabase, type OpenOptions } from './open-database.js';
import { RUN_SELECT, runFromRow, type RunRow } from './run-rows.js';
import { failStaleRuns, removeStaleCheckpoints } from './stale-runs.js';
import { reopenRunRows } from './run-reopen.js';
import { updateRankPids } from './rank-pids.js';
import { StudyStore, type CreateStudyInput } from './study-store.js';

/** What createRun records about a new run. */
export interface CreateRunInput {
  project: string;
  caseName: string;
  caseJson: unknown;
  seed: number;
  ranks: number;
  gpus: number;
  adapter: { description: string; backend: string };
  productVersion: string;
}

/** The current time as stored (ISO 8601, UTC). */
function now(): string {
  return new Date().toISOString();
}

export class RunStore {
  private readonly studies: StudyStore;

  private constructor(private readonly db: Database.Database, readonly path: string, readonly dataDir: string) {
    this.studies = new StudyStore({ db, path, now, getRun: (id) => this.getRun(id), ensureProject: (name) => this.ensureProject(name) });
  }

  /**
   * Opens (creating and migrating) the database in the data folder; marks runs of dead processes failed.
   * `verify`: refuse a damaged file (SQLite's quick_check) before runs are written; `mustExist`: never create one.
   */
  static open(opts: { dataDir?: string } & OpenOptions = {}): RunStore {
    const dataDir = resolveDataDir(opts.dataDir);
    const path = databasePath(dataDir);
    const store = new RunStore(openDatabase(dataDir, path, { verify: opts.verify, mustExist: opts.mustExist }), path, dataDir);
    failStaleRuns(store.db, now());
    try {
      removeStaleCheckpoints(store.db, dataDir);
    } catch {
      // housekeeping only: a folder that cannot be listed or removed now is tried again at the next open
    }
    return store;
  }

  /** Closes the database (checkpoints the WAL). */
  close(): void {
    this.db.close();
  }

  /** Projects with their run counts, by name. */
  listProjects(opts: { includeArchived?: boolean } = {}): ProjectRecord[] {
    const rows = this.db.prepare(`
      SELECT p.id, p.name, p.created_at, p.archived, (SELECT count(*) FROM runs r WHERE r.project_id = p.id) AS run_count
      FROM projects p ${opts.includeArchived ? '' : 'WHERE p.archived = 0'} ORDER BY p.name`)
      .all() as { id: number; name: string; created_at: string; archived: number; run_count: number }[];
    return rows.map((r) => ({ id: r.id, name: r.name, createdAt: r.created_at, archived: r.archived === 1, runCount: r.run_count }));
  }

  /** The project of that name, created when missing. */
  ensureProject(name: string): ProjectRecord {
    const n = checkInput(projectNameSchema, name, 'project name');
    this.db.prepare('INSERT INTO projects (name, created_at) VALUES (?, ?) ON CONFLICT(name) DO NOTHING').run(n, now());
    return this.listProjects({ includeArchived: true }).find((p) => p.name === n)!;
  }

  /** Renames a project (one transaction); errors name a missing project or a taken name. */
  renameProject(name: string, newName: string): void {
    const n = checkInput(projectNameSchema, newName, 'new project name');
    this.db.transaction(() => {
      if (!this.db.prepare('SELECT 1 FROM projects WHERE name = ?').get(name)) throw new Error(`project "${name}" not found; pick one from the project list`);
      if (name !== n && this.db.prepare('SELECT 1 FROM projects WHERE name = ?').get(n)) {
        throw new Error(`a project named "${n}" already exists; choose another name`);
      }
      this.db.prepare('UPDATE projects SET name = ? WHERE name = ?').run(n, name);
    })();
  }

  /** Archives a project (hidden from the default list, its runs kept) or restores it. */
  setProjectArchived(name: string, archived: boolean): void {
    const r = this.db.prepare('UPDATE projects SET archived = ? WHERE name = ?').run(archived ? 1 : 0, name);
    if (r.changes === 0) throw new Error(`project "${name}" not found; pick one from the project list`);
  }

  /** Records a new run (status running, this process's pid and host) with its project and case; returns its id. */
  createRun(input: CreateRunInput): number {
    const i = checkInput(createRunSchema, input, 'createRun');
    const json = canonicalJson(i.caseJson);
    const hash = sha256Hex(json);
    return this.db.transaction(() => {
      const t = now();
      const project = this.ensureProject(i.project);
      this.db.prepare('INSERT INTO cases (name, hash, json, created_at) VALUES (?, ?, ?, ?) ON CONFLICT(hash) DO NOTHING')
        .run(i.caseName, hash, json, t);
      const caseId = (this.db.prepare('SELECT id FROM cases WHERE hash = ?').get(hash) as { id: number }).id;
      const r = this.db.prepare(`
        INSERT INTO runs (project_id, case_id, status, started_at, seed, ranks, gpus, adapter_description, backend,
                          product_version, pid, hostname)
        VALUES (?, ?, 'running', ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
        .run(project.id, caseId, t, i.seed, i.ranks, i.gpus, i.adapter.description, i.adapter.backend, i.productVersion,
          process.pid, hostname());
      return Number(r.lastInsertRowid);
    }).immediate();
  }

  /** Adds or replaces a cluster profile (validated: every bad field is named). */
  saveClusterProfile(input: unknown): ClusterProfile {
    return clusterRows.saveProfile(this.db, input, now());
  }

  /** Every cluster profile, by name. */
  listClusterProfiles(): ClusterProfile[] {
    return clusterRows.listProfiles(this.db);
  }

  /** The cluster profile of that name, or null. */
  getClusterProfile(name: string): ClusterProfile | null {
    return clusterRows.getProfile(this.db, name);
  }

  /** Removes a cluster profile; false when there was none of that name. */
  removeClusterProfile(name: string): boolean {
    return clusterRows.removeProfile(this.db, name);
  }

  /** Records the ranks of a multi-rank run with their hosts, and how it was launched, all or none. */
  recordRanks(runId: number, ranks: RankRecord[], launch: LaunchRecord | null = null): void {
    clusterRows.recordRanks(this.db, runId, ranks, launch);
  }

  /** The recorded ranks of a run, by rank. */
  getRanks(runId: number): RankRecord[] {
    return clusterRows.getRanks(this.db, runId);
  }

  /** How a run was launched (launcher, Slurm job id, profile), or null. */
  getLaunch(runId: number): LaunchRecord | null {
    return clusterRows.getLaunch(this.db, runId);
  }

  /** Adds step statistics and particle totals of a running run, all or none. */
  appendSteps(runId: number, steps: StepRecord[], totals: TotalsRecord[]): void {
    const s = checkInput(stepSchema.array(), steps, `appendSteps(run ${runId}) steps`);
    const t = checkInput(totalsSchema.array(), totals, `appendSteps(run ${runId}) totals`);
    const addStep = this.db.prepare('INSERT INTO run_steps (run_id, step, particles, injected, collisions, candidates) VALUES (?, ?, ?, ?, ?, ?)');
    const addTotals = this.db.prepare(`INSERT INTO run_totals (run_id, step, particles, kinetic_energy, momentum_x, momentum_y, momentum_z)
                                       VALUES (?, ?, ?, ?, ?, ?, ?)`);
    this.db.transaction(() => {
      this.requireStatus(runId, ['running'], 'add steps to it');
      this.uniqueSteps(runId, () => {
        for (const x of s) addStep.run(runId, x.step, x.particles, x.injected, x.collisions, x.candidates);
        for (const x of t) addTotals.run(runId, x.step, x.particles, x.kineticEnergy, ...x.momentum);
      });
    }).immediate();
  }

  /**
   * Marks a running run completed with its summary, phase timings, fields and surfaces, all or none; with `stopped`
   * (stop and keep: the user stopped it) it is marked cancelled with that reason, keeping the same results.
   */
  completeRun(runId: number, data: { summary: RunSummary; phases: PhaseRecord[]; fields: FieldSet | null; surface?: RunSurface | null; stopped?: string }): void {
    const summary = checkInput(summarySchema, data.summary, `completeRun(run ${runId}) summary`);
    const phases = checkInput(phaseSchema.array(), data.phases, `completeRun(run ${runId}) phases`);
    const fields = data.fields === null ? null : checkInput(fieldSetSchema, data.fields, `completeRun(run ${runId}) fields`);
    const surface = data.surface ? checkInput(runSurfaceSchema, data.surface, `completeRun(run ${runId}) surface`) : null;
    const addPhase = this.db.prepare('INSERT INTO run_phases (run_id, rank, phase, calls, total, min, max) VALUES (?, ?, ?, ?, ?, ?, ?)');
    this.db.transaction(() => {
      this.requireStatus(runId, ['running'], data.stopped ? 'keep what it sampled' : 'complete it');
      this.db.prepare('UPDATE runs SET status = ?, reason = ?, ended_at = ?, summary = ? WHERE id = ?')
        .run(data.stopped ? 'cancelled' : 'completed', data.stopped ?? null, now(), JSON.stringify(summary), runId);
      for (const p of phases) addPhase.run(runId, p.rank, p.phase, p.calls, p.totalSeconds, p.minSeconds, p.maxSeconds);
      if (fields) insertFields(this.db, runId, fields);
      if (surface) insertSurface(this.db, runId, surface);
    }).immediate();
  }

  /** Marks a queued or running run failed or cancelled, with the reason. */
  finishRun(runId: number, status: 'failed' | 'cancelled', reason: string): void {
    if (status !== 'failed' && status !== 'cancelled') throw new Error(`finishRun: status must be failed or cancelled, got "${status}"`);
    const why = reason.trim() === '' ? '(no reason given)' : reason;
    this.db.transaction(() => {
      this.requireStatus(runId, ['queued', 'running'], `mark it ${status}`);
      this.db.prepare('UPDATE runs SET status = ?, reason = ?, ended_at = ? WHERE id = ?').run(status, why, now(), runId);
    }).immediate();
  }

  /**
   * Reopens a failed or cancelled run to resume it from the checkpoint after `step`: deletes what was recorded
   * after that step, marks it running by this process; all or none.
   */
  reopenRun(runId: number, step: number): void {
    if (!(Number.isInteger(step) && step >= 0)) throw new Error(`reopenRun(run ${runId}): step must be a whole number >= 0, got ${step}`);
    this.db.transaction(() => {
      this.requireStatus(runId, ['failed', 'cancelled'], 'resume it (a running run must stop first; a completed one is done)');
      reopenRunRows(this.db, runId, step);
    }).immediate();
  }

  /** Records the pids of a resumed run's new rank processes, all or none. */
  updateRankPids(runId: number, ranks: { rank: number; pid: number | null }[]): void {
    this.checkId(runId);
    updateRankPids(this.db, runId, ranks);
  }

  /** Runs, oldest first, optionally only of one project, status or tag. */
  listRuns(filter: { project?: string; status?: RunStatus; tag?: string } = {}): RunRecord[] {
    const where: string[] = [];
    const args: unknown[] = [];
    if (filter.project !== undefined) { where.push('p.name = ?'); args.push(filter.project); }
    if (filter.status !== undefined) {
      where.push('r.status = ?');
      args.push(checkInput(runStatusSchema, filter.status, 'run status filter (queued, running, completed, failed or cancelled)'));
    }
    if (filter.tag !== undefined) { where.push('EXISTS (SELECT 1 FROM run_tags t WHERE t.run_id = r.id AND t.tag = ?)'); args.push(filter.tag); }
    const sql = `${RUN_SELECT} ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY r.id`;
    return (this.db.prepare(sql).all(...args) as RunRow[]).map(runFromRow);
  }

  /** One run; throws naming the id when it does not exist. */
  getRun(id: number): RunRecord {
    const row = this.db.prepare(`${RUN_SELECT} WHERE r.id = ?`).get(this.checkId(id)) as RunRow | undefined;
    if (!row) throw this.notFound(id);
    return runFromRow(row);
  }

  /** The case a run ran (as validated, defaults applied). */
  getCase(runId: number): CaseRecord {
    const row = this.db.prepare('SELECT c.id, c.name, c.hash, c.json FROM runs r JOIN cases c ON c.id = r.case_id WHERE r.id = ?')
      .get(this.checkId(runId)) as { id: number; name: string; hash: string; json: string } | undefined;
    if (!row) throw this.notFound(runId);
    return { id: row.id, name: row.name, hash: row.hash, json: JSON.parse(row.json) };
  }

  /** Phase timings of a run by rank, then phase in the order they were recorded. */
  getPhases(runId: number): PhaseRecord[] {
    this.getRun(runId);
    return this.db.prepare(`SELECT rank, phase, calls, total AS totalSeconds, min AS minSeconds, max AS maxSeconds
                            FROM run_phases WHERE run_id = ? ORDER BY rank, rowid`).all(runId) as PhaseRecord[];
  }

  /** Step statistics of a run, by step. */
  getSteps(runId: number): StepRecord[] {
    this.getRun(runId);
    return this.db.prepare('SELECT step, particles, injected, collisions, candidates FROM run_steps WHERE run_id = ? ORDER BY step')
      .all(runId) as StepRecord[];
  }

  /** Particle totals of a run after each submit (step 0: the start), by step. */
  getTotals(runId: number): TotalsRecord[] {
    this.getRun(runId);
    const rows = this.db.prepare(`SELECT step, particles, kinetic_energy, momentum_x, momentum_y, momentum_z
                                  FROM run_totals WHERE run_id = ? ORDER BY step`).all(runId) as
      { step: number; particles: number; kinetic_energy: number; momentum_x: number; momentum_y: number; momentum_z: number }[];
    return rows.map((r) => ({ step: r.step, particles: r.particles, kineticEnergy: r.kinetic_energy, momentum: [r.momentum_x, r.momentum_y, r.momentum_z] }));
  }

  /** The sampled fields of a run, or null when it kept none. */
  getFields(runId: number): FieldSet | null {
    this.getRun(runId);
    return readFields(this.db, runId);
  }

  /** The surfaces of a run (surface sums, the bodies' triangles, cell marks), or null when it kept none. */
  getSurface(runId: number): RunSurface | null {
    this.getRun(runId);
    return readSurface(this.db, runId);
  }

  /** Deletes a run and everything recorded about it (and its case, when no other run uses it). */
  deleteRun(id: number): void {
    this.db.transaction(() => {
      const run = this.getRun(id);
      if (run.status === 'running') {
        const { pid, hostname: host } = this.db.prepare('SELECT pid, hostname FROM runs WHERE id = ?').get(id) as { pid: number; hostname: string };
        throw new Error(`run ${id} is still running (pid ${pid} on ${host}); stop it first (Ctrl-C in its terminal), then delete it`);
      }
      this.db.prepare('DELETE FROM runs WHERE id = ?').run(id);
      this.db.prepare('DELETE FROM cases WHERE id = ? AND NOT EXISTS (SELECT 1 FROM runs WHERE case_id = ?)').run(run.caseId, run.caseId);
    }).immediate();
  }

  /** Adds a tag to a run (no-op when it has it). */
  tagRun(id: number, tag: string): void {
    const t = checkInput(tagSchema, tag, 'tag');
    this.getRun(id);
    this.db.prepare('INSERT INTO run_tags (run_id, tag) VALUES (?, ?) ON CONFLICT DO NOTHING').run(id, t);
  }

  /** Removes a tag from a run; throws when the run does not have it. */
  untagRun(id: number, tag: string): void {
    const run = this.getRun(id);
    const r = this.db.prepare('DELETE FROM run_tags WHERE run_id = ? AND tag = ?').run(id, tag.trim());
    if (r.changes === 0) {
      throw new Error(`run ${id} has no tag "${tag}"; its tags: ${run.tags.length ? run.tags.join(', ') : '(none)'}`);
    }
  }

  /** Replaces the notes of a run ('' clears them). */
  setNotes(id: number, notes: string): void {
    const n = checkInput(notesSchema, notes, 'notes');
    this.getRun(id);
    this.db.prepare('UPDATE runs SET notes = ? WHERE id = ?').run(n, id);
  }

  /** Records a new, empty scaling study (strong or weak) of a case in a project. */
  createStudy(input: CreateStudyInput): StudyRecord {
    return this.studies.createStudy(input);
  }

  /** Adds a run to a study as a run on `gpus` GPUs (several on one count are repeats). */
  addStudyRun(studyId: number, runId: number, gpus: number): void {
    this.studies.addStudyRun(studyId, runId, gpus);
  }

  /** Takes a run out of a study; the run stays. */
  removeStudyRun(studyId: number, runId: number): void {
    this.studies.removeStudyRun(studyId, runId);
  }

  /** Studies with their runs, oldest first, optionally of one project. */
  listStudies(filter: { project?: string } = {}): StudyRecord[] {
    return this.studies.listStudies(filter);
  }

  /** One study with its runs ordered by GPU count. */
  getStudy(id: number): StudyRecord {
    return this.studies.getStudy(id);
  }

  /** Deletes a study (its runs stay). */
  deleteStudy(id: number): void {
    this.studies.deleteStudy(id);
  }

  /** Replaces the notes of a study. */
  setStudyNotes(id: number, notes: string): void {
    this.studies.setStudyNotes(id, notes);
  }

  /** Adds per-rank step rows (particles, sent, received, wait) of a running multi-rank run, all or none. */
  appendRankSteps(runId: number, rows: RankStepRecord[]): void {
    this.studies.appendRankSteps(runId, rows);
  }

  /** Per-rank step rows of a run, by step then rank. */
  getRankSteps(runId: number): RankStepRecord[] {
    return this.studies.getRankSteps(runId);
  }

  /** A run id, checked. */
  private checkId(id: number): number {
    return checkInput(runIdSchema, id, `run id ${String(id)} (expected a positive integer)`);
  }

  /** The error for a missing run. */
  private notFound(id: number): Error {
    return new Error(`run ${id} not found in ${this.path}; list runs with \`dsmc runs\``);
  }

  /** Throws unless the run exists and has one of the statuses (`action` says what was refused). */
  private requireStatus(runId: number, allowed: RunStatus[], action: string): void {
    const row = this.db.prepare('SELECT status, reason FROM runs WHERE id = ?').get(this.checkId(runId)) as
      { status: RunStatus; reason: string | null } | undefined;
    if (!row) throw this.notFound(runId);
    if (!allowed.includes(row.status)) {
      throw new Error(`run ${runId} is ${row.status}${row.reason ? ` (${row.reason})` : ''}; cannot ${action}, only a ${allowed.join(' or ')} run`);
    }
  }

  /** Runs inserts of steps/totals, turning a duplicate-step constraint error into a clear message. */
  private uniqueSteps(runId: number, insert: () => void): void {
    try {
      insert();
    } catch (e) {
      if ((e as { code?: string }).code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
        throw new Error(`appendSteps(run ${runId}): a step is recorded twice (steps and totals are keyed by step number): ${(e as Error).message}`);
      }
      throw e;
    }
  }
}
