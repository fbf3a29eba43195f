// Reopening an interrupted run for `dsmc resume`: the rows an interrupted process recorded after the
// checkpoint's step are deleted and the run is marked running again under this process, all in one
// transaction, so the resumed run appends exactly the steps an uninterrupted one would have.
import { hostname } from 'node:os';
import type Database from 'better-sqlite3';

/** Deletes the run's step and per-rank rows after `step`, its totals and any completion rows (phases, fields, surfaces); marks it running by this process. */
export function reopenRunRows(db: Database.Database, runId: number, step: number): void {
  db.prepare('DELETE FROM run_steps WHERE run_id = ? AND step > ?').run(runId, step);
  // totals are written once, at the end of a loop, from its whole history (a resumed loop carries the checkpoint's):
  // a run stopped and kept wrote them, the resumed run writes them again
  db.prepare('DELETE FROM run_totals WHERE run_id = ?').run(runId);
  db.prepare('DELETE FROM run_rank_steps WHERE run_id = ? AND step > ?').run(runId, step);
  db.prepare('DELETE FROM run_phases WHERE run_id = ?').run(runId);
  // a run stopped and kept (stop and keep) kept its fields and surfaces so far: the resumed run records them anew
  db.prepare('DELETE FROM run_fields WHERE run_id = ?').run(runId);
  db.prepare('DELETE FROM run_surfaces WHERE run_id = ?').run(runId);
  db.prepare("UPDATE runs SET status = 'running', reason = NULL, ended_at = NULL, summary = NULL, pid = ?, hostname = ? WHERE id = ?")
    .run(process.pid, hostname(), runId);
}
