// SQL of scaling studies (studies, study_runs) and of the per-rank step series (run_rank_steps).
// Callers (RunStore) validate inputs and wrap writes in transactions; these functions only run SQL.
import type Database from 'better-sqlite3';
import type { RankStepRecord, RunRecord, StudyKind, StudyRecord } from '../common/run-record.js';

/** One row of the studies query. */
interface StudyRow {
  id: number;
  name: string;
  kind: StudyKind;
  project: string;
  case_name: string;
  case_hash: string;
  created_at: string;
  notes: string;
}

const STUDY_SELECT = `
  SELECT s.id, s.name, s.kind, p.name AS project, s.case_name, s.case_hash, s.created_at, s.notes
  FROM studies s JOIN projects p ON p.id = s.project_id`;

/** Inserts a study row; returns its id. */
export function insertStudy(db: Database.Database, row: {
  projectId: number; name: string; kind: StudyKind; caseName: string; caseHash: string; createdAt: string; notes: string;
}): number {
  const r = db.prepare('INSERT INTO studies (project_id, name, kind, case_name, case_hash, created_at, notes) VALUES (?, ?, ?, ?, ?, ?, ?)')
    .run(row.projectId, row.name, row.kind, row.caseName, row.caseHash, row.createdAt, row.notes);
  return Number(r.lastInsertRowid);
}

/** The study rows (without runs), optionally of one project, oldest first. */
export function selectStudies(db: Database.Database, filter: { id?: number; project?: string }): StudyRow[] {
  const where: string[] = [];
  const args: unknown[] = [];
  if (filter.id !== undefined) { where.push('s.id = ?'); args.push(filter.id); }
  if (filter.project !== undefined) { where.push('p.name = ?'); args.push(filter.project); }
  return db.prepare(`${STUDY_SELECT} ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY s.id`).all(...args) as StudyRow[];
}

/** A StudyRecord from its row and its runs (getRun reads one run). */
export function studyFromRow(db: Database.Database, row: StudyRow, getRun: (id: number) => RunRecord): StudyRecord {
  const links = db.prepare('SELECT run_id, gpus, position FROM study_runs WHERE study_id = ? ORDER BY gpus, position')
    .all(row.id) as { run_id: number; gpus: number; position: number }[];
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    project: row.project,
    caseName: row.case_name,
    caseHash: row.case_hash,
    createdAt: row.created_at,
    notes: row.notes,
    runs: links.map((l) => ({ runId: l.run_id, gpus: l.gpus, position: l.position, run: getRun(l.run_id) })),
  };
}

/** The GPU count `runId` has in the study, or null when it is not in it (for a clear error before inserting). */
export function studyRunGpus(db: Database.Database, studyId: number, runId: number): number | null {
  const row = db.prepare('SELECT gpus FROM study_runs WHERE study_id = ? AND run_id = ?').get(studyId, runId) as { gpus: number } | undefined;
  return row?.gpus ?? null;
}

/** Links a run to a study at the next position. */
export function insertStudyRun(db: Database.Database, studyId: number, runId: number, gpus: number): void {
  const { next } = db.prepare('SELECT coalesce(max(position) + 1, 0) AS next FROM study_runs WHERE study_id = ?').get(studyId) as { next: number };
  db.prepare('INSERT INTO study_runs (study_id, run_id, gpus, position) VALUES (?, ?, ?, ?)').run(studyId, runId, gpus, next);
}

/** Inserts per-rank step rows (inside the caller's transaction). */
export function insertRankSteps(db: Database.Database, runId: number, rows: RankStepRecord[]): void {
  const add = db.prepare('INSERT INTO run_rank_steps (run_id, step, rank, particles, sent, received, wait_seconds) VALUES (?, ?, ?, ?, ?, ?, ?)');
  for (const r of rows) add.run(runId, r.step, r.rank, r.particles, r.sent, r.received, r.waitSeconds);
}

/** The per-rank step rows of a run, by step then rank. */
export function selectRankSteps(db: Database.Database, runId: number): RankStepRecord[] {
  return db.prepare(`SELECT rank, step, particles, sent, received, wait_seconds AS waitSeconds
                     FROM run_rank_steps WHERE run_id = ? ORDER BY step, rank`).all(runId) as RankStepRecord[];
}
