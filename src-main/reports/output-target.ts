// Where an output may be written (every report, export and `db recover` goes through checkOutputTarget): a regular
// file or a new name in an existing folder, never a run database, its -wal/-shm/-journal, a checkpoint, a device,
// FIFO or socket, nor a folder. The checks run before anything is written; the writers then write a temporary file
// beside the target and rename it (write-atomic.ts), so a refused target is left exactly as it was.
import { closeSync, constants, lstatSync, openSync, readSync, realpathSync, statSync, type Stats } from 'node:fs';
import { basename, dirname, extname, join, resolve, sep } from 'node:path';
import { fileKindOf } from '../store/file-kind.js';

/** What the caller protects beyond what the checks find by themselves: the data folder of the run database in use. */
export interface OutputGuard {
  /** Data folders whose runs.sqlite (and its companions) and checkpoints/ must never be written. */
  dataDirs?: string[];
  /** How the target is named in errors: '--out' (default) or e.g. 'OUT'. */
  label?: string;
  /** A file name to suggest inside a folder given as the target (default out.html, or out + the first allowed extension). */
  example?: string;
}

/** File name of the run database inside a data folder (store/data-dir.ts has the same; reports do not import the store). */
const DATABASE_FILE = 'runs.sqlite';
const SQLITE_HEADER = 'SQLite format 3\0';
/** The files SQLite keeps beside a database. */
const COMPANION = /^(.*)-(wal|shm|journal)$/;


/** lstat that gives undefined for a path that does not exist. */
function lstatOrNull(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}

/** True when the regular file at path starts with SQLite's header (opened without blocking, read 16 bytes). */
function isSqliteFile(path: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return false;
  }
  try {
    const head = Buffer.alloc(16);
    return readSync(fd, head, 0, 16, 0) === 16 && head.toString('latin1') === SQLITE_HEADER;
  } finally {
    closeSync(fd);
  }
}

/** The real path of a path that may not exist yet: its folder's real path plus its name. */
function realTarget(path: string): string {
  const abs = resolve(path);
  try {
    return realpathSync(abs);
  } catch {
    try {
      return join(realpathSync(dirname(abs)), basename(abs));
    } catch {
      return abs;
    }
  }
}

/** True when `inner` is `outer` or inside it. */
function isInside(inner: string, outer: string): boolean {
  return inner === outer || inner.startsWith(outer.endsWith(sep) ? outer : outer + sep);
}

/** Throws when `real` is a run database, its companion file or inside a checkpoints folder (guarded or found). */
function checkNotRunData(shown: string, real: string, guard: OutputGuard): void {
  const refuse = (what: string) => {
    throw new Error(`${shown}: ${what}; dsmc never writes an output over it (that would lose runs). Give a new file name outside the data folder`);
  };
  for (const dir of guard.dataDirs ?? []) {
    const d = realTarget(dir);
    for (const suffix of ['', '-wal', '-shm', '-journal']) {
      if (real === join(d, DATABASE_FILE + suffix)) refuse(`this is the run database${suffix ? `'s ${suffix.slice(1)} file` : ''} of the data folder ${dir}`);
    }
    if (isInside(real, join(d, 'checkpoints'))) refuse(`this is inside the checkpoints folder of the data folder ${dir}`);
  }
  if (isSqliteFile(real)) refuse('this file is an SQLite database (perhaps a run database)');
  const companion = COMPANION.exec(basename(real));
  if (companion && isSqliteFile(join(dirname(real), companion[1]))) refuse(`this is the ${companion[2]} file of the SQLite database ${companion[1]} beside it`);
  // any folder named checkpoints beside a run database: a data folder that was not named
  for (let dir = dirname(real); dir !== dirname(dir); dir = dirname(dir)) {
    if (basename(dir) === 'checkpoints' && lstatOrNull(join(dirname(dir), DATABASE_FILE))) refuse(`this is inside ${dir}, the checkpoints folder of a run database`);
  }
}

/** Throws unless the folder that will hold the output exists and is a folder. */
function checkFolder(shown: string, abs: string): void {
  const folder = dirname(abs);
  let st: Stats;
  try {
    st = statSync(folder);
  } catch {
    throw new Error(`${shown}: the folder ${folder} does not exist; create it first (mkdir -p "${folder}") or give a file in an existing folder`);
  }
  if (!st.isDirectory()) throw new Error(`${shown}: ${folder} is ${fileKindOf(st) === 'not a regular file' ? 'a file' : fileKindOf(st)}, not a folder; give a file inside an existing folder`);
}

/**
 * Checks an output target before anything is written and returns the path to write (a symlink to a regular file is
 * followed, so the link stays a link). Refuses, naming the target and the fix: an empty name, a folder (or a name
 * ending in /), a missing folder, a device, FIFO or socket (or a link to one), a run database, its -wal/-shm/-journal,
 * anything in a checkpoints folder; `extensions` (lower case, with the dot) limits the file's extension.
 */
export function checkOutputTarget(path: string, guard: OutputGuard = {}, extensions?: string[]): string {
  const label = guard.label ?? '--out';
  if (typeof path !== 'string' || path.trim() === '') throw new Error(`${label}: the file name is empty; give a file name, e.g. ${label === '--out' ? '--out ./report.html' : './recovered.sqlite'}`);
  const shown = `${label} ${path}`;
  if (/[\\/]$/.test(path) || basename(path) === '.' || basename(path) === '..') {
    const missing = lstatOrNull(resolve(path)) === undefined ? ` (it does not exist: create it first, mkdir -p "${resolve(path)}")` : '';
    throw new Error(`${shown}: this names a folder${missing}; give a file name inside it, e.g. ${label} ${join(path, guard.example ?? `out${extensions?.[0] ?? '.html'}`)}`);
  }
  const abs = resolve(path);
  checkFolder(shown, abs);
  const st = lstatOrNull(abs);
  let target = abs;
  if (st?.isSymbolicLink()) {
    let to: Stats;
    try {
      to = statSync(abs);
    } catch {
      throw new Error(`${shown}: this is a link to something that does not exist; remove the link or give another file name`);
    }
    if (!to.isFile()) throw new Error(`${shown}: this is a link to ${fileKindOf(to)}, not a regular file; give the name of a regular file`);
    target = realpathSync(abs);
  } else if (st && !st.isFile()) {
    throw new Error(`${shown}: this is ${fileKindOf(st)}, not a regular file; ${st.isDirectory() ? `give a file name inside it, e.g. ${label} ${join(path, guard.example ?? `out${extensions?.[0] ?? '.html'}`)}` : 'give the name of a regular file'}`);
  }
  if (extensions && !extensions.includes(extname(target).toLowerCase())) {
    throw new Error(`${shown}: expected a file ending in ${extensions.join(' or ')}; got ${extname(path) || 'no extension'}`);
  }
  checkNotRunData(shown, realTarget(target), guard);
  return target;
}

/** File extensions that name a report format (lower case, with the dot). */
const FORMAT_EXTENSIONS: Record<string, string> = { '.html': 'html', '.htm': 'html', '.csv': 'csv', '.zip': 'zip', '.json': 'json', '.pdf': 'pdf' };

/**
 * The format of a report written to `out`: `given` (--format, already validated) when there is one, else the one
 * `out`'s extension names, else `fallback`. A --format that contradicts the extension (html into x.csv) is refused.
 */
export function reportFormat<F extends string>(out: string, given: F | undefined, formats: readonly F[], fallback: F): F {
  const ext = extname(out).toLowerCase();
  const named = Object.hasOwn(FORMAT_EXTENSIONS, ext) ? FORMAT_EXTENSIONS[ext] as F : undefined;
  const byExt = named !== undefined && formats.includes(named) ? named : undefined;
  if (given !== undefined && byExt !== undefined && given !== byExt) {
    throw new Error(`--out ${out} ends in ${ext}, but --format is ${given}: a ${given} report in a ${ext} file would mislead; ` +
      `give --out ${out.slice(0, out.length - ext.length)}.${given} or --format ${byExt} (or leave --format out: the extension chooses it)`);
  }
  return given ?? byExt ?? fallback;
}

/** The .vti and .vtp names of a VTK export to `out`: FILE.vti (FILE alone gets .vti added) and FILE.vtp beside it; another extension is refused. */
export function vtkPair(out: string): { vti: string; vtp: string } {
  if (/[\\/]$/.test(out)) return { vti: out, vtp: out }; // checkOutputTarget names the folder
  const ext = extname(out);
  if (ext === '') return { vti: `${out}.vti`, vtp: `${out}.vtp` };
  if (ext.toLowerCase() !== '.vti') {
    throw new Error(`--out ${out}: the fields are VTK ImageData, written to a .vti file (a case with bodies also gets the .vtp of its surfaces beside it); ` +
      `give --out ${out.slice(0, out.length - ext.length)}.vti`);
  }
  return { vti: out, vtp: out.slice(0, out.length - ext.length) + '.vtp' };
}
