// Reads what can still be read from a run database with damaged pages, one run at a time: a run whose rows
// (its project, case, steps, fields, ...) all read without an SQLite error is readable as a whole, any error
// makes it unreadable with the reason. Used by `dsmc db check` (which runs are lost) and `dsmc db recover`.
import Database from 'better-sqlite3';
import { existsSync, rmSync, statSync } from 'node:fs';
import { APPLICATION_ID, LATEST_VERSION } from './migrations.js';
import { checkDatabaseFileType, nativeModuleError, StoreOpenError } from './open-database.js';

/** One table row as SQLite returns it. */
export type Row = Record<string, unknown>;

/** Tables keyed by run, in an order that satisfies their foreign keys (run_fields before run_field_arrays). */
export const RUN_TABLES = [
  'run_phases', 'run_steps', 'run_totals', 'run_fields', 'run_field_arrays', 'run_tags', 'run_surfaces',
  'run_rank_steps', 'run_ranks', 'run_launches',
] as const;

/** Everything recorded about one run, as rows of each table. */
export interface RunRows {
  id: number;
  project: Row;
  case: Row;
  run: Row;
  children: { table: string; rows: Row[] }[];
}

/** Gives up probing ids after this many in a row that are absent or unreadable. */
const PROBE_GAP = 2000;

/**
 * Closes a database opened by openForSalvage and removes the empty -wal and -shm files that a read-only
 * connection to a WAL database creates and cannot remove itself, when they were not there before.
 */
export function closeSalvage(db: Database.Database): void {
  const path = db.name;
  const had = SIDE_FILES.get(db) ?? [];
  db.close();
  const wal = `${path}-wal`;
  if (had.includes(wal) || !existsSync(wal) || statSync(wal).size !== 0) return;
  for (const p of [wal, `${path}-shm`]) if (!had.includes(p)) rmSync(p, { force: true });
}

/** The -wal and -shm files that existed before each salvage connection opened. */
const SIDE_FILES = new WeakMap<Database.Database, string[]>();

/** Opens a possibly damaged run database read-only (nothing is written to it); refuses other programs' files. Close with closeSalvage. */
export function openForSalvage(path: string): Database.Database {
  checkDatabaseFileType(path);
  if (!existsSync(path)) throw new Error(`there is no run database at ${path}; check --data-dir DIR or DSMC_DATA_DIR`);
  const had = [`${path}-wal`, `${path}-shm`].filter((p) => existsSync(p));
  let db: Database.Database;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
  } catch (e) {
    const native = nativeModuleError(e);
    if (native) throw native;
    throw new StoreOpenError(path, `cannot be opened at all (${(e as Error).message})`, 'Nothing can be recovered from it with dsmc; restore it from a backup.');
  }
  SIDE_FILES.set(db, had);
  try {
    const appId = db.pragma('application_id', { simple: true }) as number;
    const version = db.pragma('user_version', { simple: true }) as number;
    if (appId !== APPLICATION_ID) throw new StoreOpenError(path, 'is not a dsmc run database (its application id is not DSMC)', 'Give the data folder of a run database with --data-dir DIR.');
    if (version > LATEST_VERSION) throw new StoreOpenError(path, `has schema version ${version}, written by a newer dsmc`, 'Use that newer dsmc to check or recover it.');
  } catch (e) {
    closeSalvage(db);
    if (e instanceof StoreOpenError) throw e;
    throw new StoreOpenError(path, `is damaged where its header and schema are kept (${(e as Error).message})`, 'Nothing can be recovered from it with dsmc; restore it from a backup.');
  }
  return db;
}

/** Names of the tables the database has (its schema may be older than this dsmc's). */
export function tablesOf(db: Database.Database): Set<string> {
  return new Set((db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((r) => r.name));
}

/**
 * The ids of a table's rows that can be found: a full scan, and where the scan fails on a damaged page, lookups
 * of each id from 1 on (the b-tree pages above a damaged leaf usually still lead to the others).
 */
export function readableIds(db: Database.Database, table: 'runs' | 'studies' | 'projects'): { ids: number[]; scanError: string | null } {
  try {
    return { ids: (db.prepare(`SELECT id FROM ${table} ORDER BY id`).all() as { id: number }[]).map((r) => r.id), scanError: null };
  } catch (e) {
    const found = new Set<number>();
    const one = db.prepare(`SELECT id FROM ${table} WHERE id = ?`);
    for (let id = 1, gap = 0; gap < PROBE_GAP; id++) {
      try {
        if (one.get(id)) { found.add(id); gap = 0; } else gap++;
      } catch {
        gap++;
      }
    }
    return { ids: [...found].sort((a, b) => a - b), scanError: (e as Error).message };
  }
}

/** All rows of one run (throws the SQLite error when any of them is on a damaged page). */
export function readRunRows(db: Database.Database, tables: Set<string>, id: number): RunRows {
  const run = db.prepare('SELECT * FROM runs WHERE id = ?').get(id) as Row | undefined;
  if (!run) throw new Error('its row is gone');
  const project = db.prepare('SELECT * FROM projects WHERE id = ?').get(run.project_id) as Row | undefined;
  if (!project) throw new Error(`its project (id ${String(run.project_id)}) is gone`);
  const kase = db.prepare('SELECT * FROM cases WHERE id = ?').get(run.case_id) as Row | undefined;
  if (!kase) throw new Error(`its case (id ${String(run.case_id)}) is gone`);
  // text that must be JSON: damage inside a cell can leave it unreadable without an SQLite error
  JSON.parse(String(kase.json));
  if (run.summary !== null && run.summary !== undefined) JSON.parse(String(run.summary));
  // run_phases keeps the loop order of the phases in its rowids: read (and so insert) them in that order
  const order = (table: string) => (table === 'run_phases' ? ' ORDER BY rowid' : '');
  const children = RUN_TABLES.filter((t) => tables.has(t))
    .map((table) => ({ table, rows: db.prepare(`SELECT * FROM ${table} WHERE run_id = ?${order(table)}`).all(id) as Row[] }));
  return { id, project, case: kase, run, children };
}

/** The reason a read failed, for a report. */
export function reasonOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
