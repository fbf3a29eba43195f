// The scaling-study half of the run database's API (RunStore delegates to it): studies, the runs in them,
// and the per-rank step series of multi-rank runs. Every multi-row write is one immediate transaction.
import type Database from 'better-sqlite3';
import type { ProjectRecord, RankStepRecord, RunRecord, StudyKind, StudyRecord } from '../common/run-record.js';
import { checkInput, createStudySchema, notesSchema, projectNameSchema, rankStepSchema, studyIdSchema, studyRunSchema } from './input-schemas.js';
import {
  insertRankSteps, insertStudy, insertStudyRun, selectRankSteps, selectStudies, studyFromRow, studyRunGpus,
} from './study-rows.js';

/** What createStudy records about a new study. */
export interface CreateStudyInput {
  name: string;
  kind: StudyKind;
  project: string;
  caseName: string;
  caseHash: string;
  notes?: string;
}

/** What the study API needs from RunStore. */
export interface StudyStoreHost {
  db: Database.Database;
  path: string;
  now(): string;
  getRun(id: number): RunRecord;
  ensureProject(name: string): ProjectRecord;
}

export class StudyStore {
  constructor(private readonly host: StudyStoreHost) {}

  /** Records a new, empty study in its project (created when missing). */
  createStudy(input: CreateStudyInput): StudyRecord {
    const i = checkInput(createStudySchema, input, 'createStudy');
    const db = this.host.db;
    const id = db.transaction(() => {
      const project = this.host.ensureProject(i.project);
      return insertStudy(db, { projectId: project.id, name: i.name, kind: i.kind, caseName: i.caseName, caseHash: i.caseHash,
        createdAt: this.host.now(), notes: i.notes ?? '' });
    }).immediate();
    return this.getStudy(id);
  }

  /** Adds a run (any status) to a study as a run on `gpus` GPUs; several on one count are repeats (the report takes the median). */
  addStudyRun(studyId: number, runId: number, gpus: number): void {
    const i = checkInput(studyRunSchema, { studyId, runId, gpus }, `addStudyRun(study ${studyId}, run ${runId}, gpus ${gpus})`);
    const db = this.host.db;
    db.transaction(() => {
      this.requireStudy(i.studyId);
      this.host.getRun(i.runId);
      const sameRun = studyRunGpus(db, i.studyId, i.runId);
      if (sameRun !== null) {
        throw new Error(`addStudyRun: run ${i.runId} is already in study ${i.studyId} (on ${sameRun} GPUs); a run counts once per study`);
      }
      insertStudyRun(db, i.studyId, i.runId, i.gpus);
    }).immediate();
  }

  /** Takes a run out of a study (the run stays); throws when it is not in it. */
  removeStudyRun(studyId: number, runId: number): void {
    const study = this.getStudy(studyId);
    const r = this.host.db.prepare('DELETE FROM study_runs WHERE study_id = ? AND run_id = ?').run(study.id, runId);
    if (r.changes === 0) {
      throw new Error(`run ${runId} is not in study ${studyId}; its runs: ${study.runs.length ? study.runs.map((x) => x.runId).join(', ') : '(none)'}`);
    }
  }

  /** Studies with their runs, oldest first, optionally only of one project. */
  listStudies(filter: { project?: string } = {}): StudyRecord[] {
    const project = filter.project === undefined ? undefined : checkInput(projectNameSchema, filter.project, 'listStudies project filter');
    const rows = selectStudies(this.host.db, { project });
    return rows.map((r) => studyFromRow(this.host.db, r, (id) => this.host.getRun(id)));
  }

  /** One study with its runs by GPU count; throws naming the id when it does not exist. */
  getStudy(id: number): StudyRecord {
    const row = selectStudies(this.host.db, { id: this.checkStudyId(id) })[0];
    if (!row) throw this.notFound(id);
    return studyFromRow(this.host.db, row, (runId) => this.host.getRun(runId));
  }

  /** Deletes a study; its runs stay in the database. */
  deleteStudy(id: number): void {
    const db = this.host.db;
    db.transaction(() => {
      this.requireStudy(id);
      db.prepare('DELETE FROM studies WHERE id = ?').run(id);
    }).immediate();
  }

  /** Replaces the notes of a study ('' clears them). */
  setStudyNotes(id: number, notes: string): void {
    const n = checkInput(notesSchema, notes, 'study notes');
    this.requireStudy(id);
    this.host.db.prepare('UPDATE studies SET notes = ? WHERE id = ?').run(n, id);
  }

  /** Adds per-rank step rows of a running run, all or none; each (step, rank) once, rank < the run's ranks. */
  appendRankSteps(runId: number, rows: RankStepRecord[]): void {
    const what = `appendRankSteps(run ${runId})`;
    const r = checkInput(rankStepSchema.array(), rows, what);
    const db = this.host.db;
    db.transaction(() => {
      const run = this.host.getRun(runId);
      if (run.status !== 'running') {
        throw new Error(`${what}: run ${runId} is ${run.status}; per-rank steps are recorded while it runs (before completeRun or finishRun)`);
      }
      const bad = r.findIndex((x) => x.rank >= run.ranks);
      if (bad >= 0) throw new Error(`${what}: rows[${bad}].rank is ${r[bad].rank}, but the run has ${run.ranks} rank(s) (0..${run.ranks - 1})`);
      try {
        insertRankSteps(db, runId, r);
      } catch (e) {
        if ((e as { code?: string }).code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
          throw new Error(`${what}: a (step, rank) pair is recorded twice; send each rank's step once: ${(e as Error).message}`);
        }
        throw e;
      }
    }).immediate();
  }

  /** The per-rank step rows of a run, by step then rank (empty for runs that kept none). */
  getRankSteps(runId: number): RankStepRecord[] {
    this.host.getRun(runId);
    return selectRankSteps(this.host.db, runId);
  }

  /** A study id, checked. */
  private checkStudyId(id: number): number {
    return checkInput(studyIdSchema, id, `study id ${String(id)} (expected a positive integer)`);
  }

  /** Throws unless the study exists. */
  private requireStudy(id: number): void {
    const row = this.host.db.prepare('SELECT 1 FROM studies WHERE id = ?').get(this.checkStudyId(id));
    if (!row) throw this.notFound(id);
  }

  /** The error for a missing study. */
  private notFound(id: number): Error {
    return new Error(`study ${id} not found in ${this.host.path}; list studies with \`dsmc studies\``);
  }
}
