// `dsmc db check`: SQLite's full integrity_check of the run database (read-only), and which runs can still be
// read whole, so the user knows what `dsmc db recover` would save before running it.
import { closeSalvage, openForSalvage, readRunRows, readableIds, reasonOf, tablesOf } from './salvage-read.js';

/** Most problems integrity_check lists. */
const MAX_PROBLEMS = 50;

/** The result of checking a run database. */
export interface CheckReport {
  path: string;
  ok: boolean;
  /** integrity_check's lines ('ok' alone when sound), at most MAX_PROBLEMS. */
  problems: string[];
  runs: { readable: number[]; unreadable: { id: number; reason: string }[] };
  runScanError: string | null;
}

/** Checks the database at `path` without changing it. */
export function checkDatabase(path: string): CheckReport {
  const db = openForSalvage(path);
  try {
    let problems: string[];
    try {
      problems = (db.pragma(`integrity_check(${MAX_PROBLEMS})`) as { integrity_check: string }[]).map((r) => r.integrity_check);
    } catch (e) {
      problems = [reasonOf(e)];
    }
    const tables = tablesOf(db);
    const { ids, scanError } = readableIds(db, 'runs');
    const runs: CheckReport['runs'] = { readable: [], unreadable: [] };
    for (const id of ids) {
      try {
        readRunRows(db, tables, id);
        runs.readable.push(id);
      } catch (e) {
        runs.unreadable.push({ id, reason: reasonOf(e) });
      }
    }
    const ok = problems.length === 1 && problems[0] === 'ok' && runs.unreadable.length === 0 && scanError === null;
    return { path, ok, problems: ok ? [] : problems.filter((p) => p !== 'ok'), runs, runScanError: scanError };
  } finally {
    closeSalvage(db);
  }
}
