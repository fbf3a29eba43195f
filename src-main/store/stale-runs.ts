// Runs left 'running' by a process that no longer exists (crash, SIGKILL, power loss) are marked failed, and the
// checkpoint folders of completed runs (left by a process killed between its final commit and their removal) go.
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { hostname } from 'node:os';
import type Database from 'better-sqlite3';

export const STALE_RUN_REASON = 'the process running it ended without finishing (crash or kill)';

/** True unless signalling the process says it does not exist (EPERM: it exists under another user). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/** Marks failed every running run of this host whose process is gone; returns their ids. */
export function failStaleRuns(db: Database.Database, now: string): number[] {
  const host = hostname();
  const candidates = db.prepare("SELECT id, pid FROM runs WHERE status = 'running' AND hostname = ? AND pid IS NOT NULL")
    .all(host) as { id: number; pid: number }[];
  const stale = candidates.filter((r) => r.pid !== process.pid && !processAlive(r.pid)).map((r) => r.id);
  if (stale.length === 0) return [];
  const mark = db.prepare("UPDATE runs SET status = 'failed', reason = ?, ended_at = ? WHERE id = ? AND status = 'running'");
  db.transaction(() => {
    for (const id of stale) mark.run(STALE_RUN_REASON, now, id);
  }).immediate();
  return stale;
}

/**
 * Removes the checkpoint folders (<dataDir>/checkpoints/run-<id>) of runs that completed: a completed run is never
 * resumed, and a process killed right after its final commit leaves its folder behind. Folders of failed, cancelled
 * and running runs stay (dsmc resume needs them), and so do folders whose run is not in the database. Returns the ids.
 */
export function removeStaleCheckpoints(db: Database.Database, dataDir: string): number[] {
  const root = join(dataDir, 'checkpoints');
  if (!existsSync(root)) return [];
  const ids = readdirSync(root).map((n) => /^run-([1-9][0-9]*)$/.exec(n)).filter((m): m is RegExpExecArray => m !== null).map((m) => Number(m[1]));
  const status = db.prepare('SELECT status FROM runs WHERE id = ?');
  const removed: number[] = [];
  for (const id of ids) {
    if ((status.get(id) as { status: string } | undefined)?.status !== 'completed') continue;
    rmSync(join(root, `run-${id}`), { recursive: true, force: true });
    removed.push(id);
  }
  return removed;
}
