// Opens (creating if needed) the run database file: refuses files that are not ours without touching
// them, then sets WAL mode, foreign keys and the busy timeout and runs pending migrations.
import { closeSync, existsSync, mkdirSync, openSync, readSync, statSync } from 'node:fs';
import Database from 'better-sqlite3';
import { APPLICATION_ID, LATEST_VERSION, migrate, schemaVersion } from './migrations.js';

/** How long a write waits for another process's transaction before failing (ms). */
export const BUSY_TIMEOUT_MS = 10_000;
const SQLITE_HEADER = 'SQLite format 3\0';

/** The database file cannot be used; the message names the file and what to do. */
export class StoreOpenError extends Error {
  override name = 'StoreOpenError';
  constructor(readonly path: string, problem: string, fix: string) {
    super(`the run database ${path} ${problem}. It was left untouched. ${fix}`);
  }
}

/** The advice for a file that is not a usable run database. */
function moveAsideFix(path: string): string {
  return `Move it aside (e.g. \`mv "${path}" "${path}.bad"\`) to start a new database there, ` +
    'or use another data folder with --data-dir DIR or the DSMC_DATA_DIR environment variable.';
}

/** True when the file at path is empty or starts with the SQLite header. */
function looksLikeSqlite(path: string): boolean {
  if (!existsSync(path) || statSync(path).size === 0) return true;
  const fd = openSync(path, 'r');
  try {
    const head = Buffer.alloc(16);
    const n = readSync(fd, head, 0, 16, 0);
    return n === 16 && head.toString('latin1') === SQLITE_HEADER;
  } finally {
    closeSync(fd);
  }
}

/** Creates the data folder, with an error that says how to pick another. */
function ensureFolder(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true });
  } catch (e) {
    throw new Error(`cannot create the data folder ${dir}: ${(e as Error).message}. ` +
      'Use a writable folder with --data-dir DIR or the DSMC_DATA_DIR environment variable.');
  }
}

/** Throws unless the open file is empty or a dsmc run database this code can read (reads only). */
function checkOwnership(db: Database.Database, path: string): void {
  const appId = db.pragma('application_id', { simple: true }) as number;
  const version = schemaVersion(db);
  const tables = (db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table'").get() as { n: number }).n;
  const fresh = appId === 0 && version === 0 && tables === 0;
  if (!fresh && appId !== APPLICATION_ID) {
    throw new StoreOpenError(path, 'is an SQLite database of some other program, not a dsmc run database', moveAsideFix(path));
  }
  if (version > LATEST_VERSION) {
    throw new StoreOpenError(path, `has schema version ${version}, written by a newer dsmc (this one knows up to ${LATEST_VERSION})`,
      'Upgrade dsmc, or use another data folder with --data-dir DIR or DSMC_DATA_DIR.');
  }
}

/** Opens the run database at `path` in `dir`, migrated to the latest schema. */
export function openDatabase(dir: string, path: string): Database.Database {
  ensureFolder(dir);
  if (!looksLikeSqlite(path)) throw new StoreOpenError(path, 'is not an SQLite database (the file header is wrong)', moveAsideFix(path));
  let db: Database.Database;
  try {
    db = new Database(path, { timeout: BUSY_TIMEOUT_MS });
  } catch (e) {
    throw new StoreOpenError(path, `cannot be opened: ${(e as Error).message}`, 'Check the permissions of the file and its folder. ' + moveAsideFix(path));
  }
  try {
    checkOwnership(db, path);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    if (schemaVersion(db) < LATEST_VERSION) migrate(db);
    return db;
  } catch (e) {
    db.close();
    if (e instanceof StoreOpenError) throw e;
    const code = (e as { code?: string }).code ?? '';
    if (code === 'SQLITE_NOTADB' || code.startsWith('SQLITE_CORRUPT')) {
      throw new StoreOpenError(path, `is damaged (${(e as Error).message})`, moveAsideFix(path));
    }
    throw new StoreOpenError(path, `could not be opened: ${(e as Error).message}`,
      'If another dsmc process holds it, retry when it has finished; otherwise ' + moveAsideFix(path).replace(/^M/, 'm'));
  }
}
