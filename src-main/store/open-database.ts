// Opens (creating if needed) the run database file: refuses files that are not ours, folders it cannot
// write and files it cannot use without touching them, then sets WAL mode, foreign keys and the busy
// timeout and runs pending migrations. explainDatabaseError turns SQLite failures into clear messages.
import { accessSync, closeSync, constants, existsSync, lstatSync, mkdirSync, openSync, readSync, realpathSync, rmSync, statSync, type Stats } from 'node:fs';
import Database from 'better-sqlite3';
import { APPLICATION_ID, LATEST_VERSION, migrate, schemaVersion } from './migrations.js';
import { fileKindOf } from './file-kind.js';

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

/** The advice for a run database with damaged pages: see the damage, copy the readable runs out, swap the files. */
export function damagedFix(path: string): string {
  return 'Move it aside after saving its readable runs: `dsmc db check` shows what is damaged and which runs can still be read, ' +
    '`dsmc db recover NEW.sqlite` copies every readable run into a new database file (both with the same --data-dir); then ' +
    `\`mv "${path}" "${path}.damaged" && mv NEW.sqlite "${path}"\`. Or use another data folder with --data-dir DIR or the DSMC_DATA_DIR environment variable.`;
}

/** The advice for a file that is not a usable run database. */
function moveAsideFix(path: string): string {
  return `Move it aside (e.g. \`mv "${path}" "${path}.bad"\`) to start a new database there, ` +
    'or use another data folder with --data-dir DIR or the DSMC_DATA_DIR environment variable.';
}


/**
 * Refuses, before anything opens it (opening a FIFO would block for ever), a database path that exists and is not a
 * regular file: a folder, FIFO, device or socket, or a link to one (e.g. to /dev/null), or a dangling link.
 */
export function checkDatabaseFileType(path: string): void {
  let st: Stats;
  try {
    st = statSync(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw explainDatabaseError(path, e);
    let link: Stats | undefined;
    try { link = lstatSync(path); } catch { link = undefined; }
    if (link?.isSymbolicLink()) throw new StoreOpenError(path, 'is a link to a file that does not exist', moveAsideFix(path));
    return;
  }
  if (st.isFile()) return;
  const via = lstatSync(path).isSymbolicLink() ? `a link to ${realpathSync(path)}, which is ` : '';
  throw new StoreOpenError(path, `is ${via}${fileKindOf(st)}, not a regular file, so it cannot hold the run database`, moveAsideFix(path));
}

/** The error for better-sqlite3's native module missing or built for another Node.js, with the commands that fix it; null for other errors. */
export function nativeModuleError(e: unknown): Error | null {
  const text = (e as Error)?.message ?? String(e);
  if (!/Could not locate the bindings file|better_sqlite3\.node|NODE_MODULE_VERSION|compiled against a different Node\.js|invalid ELF header|wrong ELF class|cannot open shared object file/.test(text)) return null;
  return new Error(`the SQLite module (better-sqlite3) cannot be loaded: its native part is missing or built for another Node.js (${process.version}) ` +
    `(${text.split('\n')[0].slice(0, 300)}). Run \`npm rebuild better-sqlite3\` in the dsmc folder (it compiles the module for this Node.js), ` +
    'or add --no-save to `dsmc run` to run without the run database');
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
  if (existsSync(dir) && !statSync(dir).isDirectory()) {
    throw new Error(`the data folder ${dir} is a file, not a folder. ` +
      'Give a folder with --data-dir DIR or the DSMC_DATA_DIR environment variable.');
  }
  try {
    mkdirSync(dir, { recursive: true });
  } catch (e) {
    throw new Error(`cannot create the data folder ${dir}: ${(e as Error).message}. ` +
      'Use a writable folder with --data-dir DIR or the DSMC_DATA_DIR environment variable.');
  }
}

/** True when this process may do `mode` (fs.constants) on path. */
function allowed(path: string, mode: number): boolean {
  try {
    accessSync(path, mode);
    return true;
  } catch {
    return false;
  }
}

/** Refuses, before SQLite touches anything, a folder or database file this user cannot write (WAL needs both). */
function checkWritable(dir: string, path: string): void {
  const other = 'or use another data folder with --data-dir DIR or the DSMC_DATA_DIR environment variable.';
  if (!allowed(dir, constants.W_OK | constants.X_OK)) {
    throw new StoreOpenError(path, `is in the folder ${dir}, which this user cannot write to (dsmc writes the database and its -wal and -shm files there)`,
      `Make the folder writable (e.g. \`chmod u+w "${dir}"\`), ${other}`);
  }
  if (existsSync(path) && !allowed(path, constants.R_OK | constants.W_OK)) {
    throw new StoreOpenError(path, 'is not readable and writable by this user',
      `Make it writable (e.g. \`chmod u+rw "${path}"\`), ${other}`);
  }
}

/** SQLite result codes (better-sqlite3's `code`) grouped by what the user can do about them. */
const DAMAGED = /^SQLITE_(NOTADB|CORRUPT)/;
/** Damage inside a database whose header is sound: dsmc db recover can save the readable runs. */
const RECOVERABLE = /^SQLITE_CORRUPT/;
const NO_SPACE = /^SQLITE_(FULL|IOERR)/;
const NO_PERMISSION = /^SQLITE_(READONLY|CANTOPEN|PERM|AUTH)/;
const IN_USE = /^SQLITE_(BUSY|LOCKED)/;

/**
 * A clear error for a SQLite failure on the database at `path`: what happened and what to do. Callers that
 * write to an open database (run-store) can pass their errors through it too; other errors come back as they are.
 */
export function explainDatabaseError(path: string, e: unknown): Error {
  if (e instanceof StoreOpenError) return e;
  const native = nativeModuleError(e);
  if (native) return native;
  const code = (e as { code?: unknown })?.code;
  const text = (e as Error)?.message ?? String(e);
  if (typeof code !== 'string') return e instanceof Error ? e : new Error(text);
  const other = 'use another data folder with --data-dir DIR or the DSMC_DATA_DIR environment variable';
  if (DAMAGED.test(code)) return new StoreOpenError(path, `is damaged (${text})`, RECOVERABLE.test(code) ? damagedFix(path) : moveAsideFix(path));
  if (NO_SPACE.test(code)) {
    return new StoreOpenError(path, `could not be written (${text}): the disk is full, over quota or over a file size limit, or failing`,
      `Free some space (or raise the limit) and retry, or ${other}. SQLite rolled back the unfinished change; what was saved before is intact.`);
  }
  if (NO_PERMISSION.test(code)) {
    return new StoreOpenError(path, `cannot be opened for writing (${text})`,
      `Check that this user can write the file and its folder, or ${other}.`);
  }
  if (IN_USE.test(code)) {
    return new StoreOpenError(path, `is locked by another process (${text})`, `Retry when the other dsmc process has finished, or ${other}.`);
  }
  return new StoreOpenError(path, `could not be opened: ${text}`,
    'If another dsmc process holds it, retry when it has finished; otherwise ' + moveAsideFix(path).replace(/^M/, 'm'));
}

/** Size of a file in bytes, 0 when it does not exist. */
function sizeOf(path: string): number {
  return existsSync(path) ? statSync(path).size : 0;
}

/**
 * After a failed first open (disk full, no permission), removes the empty database file this call created and its
 * empty journal files, so a failed start leaves nothing behind. Never touches a file with content (another process's).
 */
function removeCreated(path: string, e: unknown): void {
  const code = String((e as { code?: unknown })?.code ?? '');
  if (!NO_SPACE.test(code) && !NO_PERMISSION.test(code)) return;
  if (sizeOf(path) !== 0 || sizeOf(`${path}-wal`) !== 0) return;
  for (const p of [path, `${path}-wal`, `${path}-shm`, `${path}-journal`]) rmSync(p, { force: true });
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

/** How to open: `verify` runs SQLite's quick_check first (before writing runs); `mustExist` refuses to create the file. */
export interface OpenOptions {
  verify?: boolean;
  mustExist?: boolean;
}

/**
 * Throws a StoreOpenError when PRAGMA quick_check finds damage. quick_check reads every page but skips the
 * index-versus-table comparison of integrity_check (measured in docs/RELIABILITY.md: about 0.1 s per 100 MB).
 */
export function verifyDatabase(db: Database.Database, path: string): void {
  let rows: string[];
  try {
    rows = (db.pragma('quick_check(20)') as { quick_check: string }[]).map((r) => r.quick_check);
  } catch (e) {
    // damage that stops the check itself (a damaged b-tree page it must walk through)
    if (!DAMAGED.test(String((e as { code?: unknown })?.code ?? ''))) throw e;
    rows = [(e as Error).message];
  }
  if (rows.length === 1 && rows[0] === 'ok') return;
  throw new StoreOpenError(path, `is damaged (SQLite's quick_check found ${rows.length >= 20 ? '20 or more problems' : `${rows.length} problem${rows.length === 1 ? '' : 's'}`}, ` +
    `first: ${rows[0]}), so no run is written into it`, damagedFix(path));
}

/** The error for a database that must exist and does not (commands over saved runs never create one). */
export function missingDatabaseError(path: string): Error {
  return new Error(`there is no run database at ${path} (nothing was saved in that data folder); ` +
    'check --data-dir DIR or DSMC_DATA_DIR, or save a run first with dsmc run CASE');
}

/** True when path is a symbolic link (dangling or not). */
function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

/** Opens the run database at `path` in `dir`, migrated to the latest schema. */
export function openDatabase(dir: string, path: string, opts: OpenOptions = {}): Database.Database {
  if (opts.mustExist && !existsSync(path) && !isLink(path)) throw missingDatabaseError(path);
  ensureFolder(dir);
  checkDatabaseFileType(path);
  checkWritable(dir, path);
  if (!looksLikeSqlite(path)) throw new StoreOpenError(path, 'is not an SQLite database (the file header is wrong)', moveAsideFix(path));
  const existed = existsSync(path);
  let db: Database.Database;
  try {
    db = new Database(path, { timeout: BUSY_TIMEOUT_MS });
  } catch (e) {
    if (!existed) removeCreated(path, e);
    throw explainDatabaseError(path, e);
  }
  try {
    checkOwnership(db, path);
    if (opts.verify && existed) verifyDatabase(db, path);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    if (schemaVersion(db) < LATEST_VERSION) migrate(db);
    return db;
  } catch (e) {
    db.close();
    if (!existed) removeCreated(path, e);
    throw explainDatabaseError(path, e);
  }
}
