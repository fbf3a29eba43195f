// The process ids of a resumed multi-rank run's new rank processes: `dsmc resume` launches fresh ranks, and the
// recorded pids must be theirs (a later resume waits for the recorded ranks to exit before it starts).
import type Database from 'better-sqlite3';

/** Sets the recorded pid of each listed rank of a run (ranks not recorded are left alone). */
export function updateRankPids(db: Database.Database, runId: number, ranks: { rank: number; pid: number | null }[]): void {
  const set = db.prepare('UPDATE run_ranks SET pid = ? WHERE run_id = ? AND rank = ?');
  db.transaction(() => {
    for (const r of ranks) set.run(r.pid, runId, r.rank);
  }).immediate();
}
