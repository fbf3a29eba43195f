// Writing an output file so that readers never see half of it: write a temporary file in the same
// folder, flush it to disk, then rename it over the target (atomic on one file system). On any failure
// (disk full, file size limit, no permission) the temporary file is removed and the target is left as it was.
// Every target is checked first by checkOutputTarget (output-target.ts): never a run database, device or folder.
import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { checkOutputTarget, type OutputGuard } from './output-target.js';

/** A temporary name next to `path` (hidden, unique). */
export function tempPathFor(path: string): string {
  const abs = resolve(path);
  return join(dirname(abs), `.${basename(abs)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
}

/** What to tell the user for a failed write, by errno code: the problem and the fix. */
const WRITE_ERRORS: Record<string, (path: string, folder: string) => string> = {
  ENOENT: (_p, folder) => `check that the folder ${folder} exists and is writable`,
  ENOTDIR: (_p, folder) => `check that the folder ${folder} exists and is writable`,
  EACCES: (_p, folder) => `check that the folder ${folder} exists and is writable`,
  EPERM: (_p, folder) => `check that the folder ${folder} exists and is writable`,
  EROFS: (_p, folder) => `the folder ${folder} is on a read-only file system: write to another folder`,
  EISDIR: (path) => `${path} is a folder: give a file name`,
  ENOSPC: (_p, folder) => `the disk holding ${folder} is full: free some space or write to another disk`,
  EDQUOT: (_p, folder) => `the disk quota for ${folder} is used up: free some space or write to another disk`,
  EFBIG: () => 'the file is larger than this system allows (file size limit, e.g. ulimit -f): raise the limit or write a smaller output',
};

/** The error for a failed write, with the fix by errno code; other errors come back as they are. */
function explainWriteError(path: string, e: unknown): unknown {
  const err = e as NodeJS.ErrnoException;
  const fix = err.code === undefined ? undefined : WRITE_ERRORS[err.code];
  if (fix) return new Error(`cannot write ${path}: ${err.message}; ${fix(path, dirname(resolve(path)))} (any earlier ${basename(path)} was left as it was)`);
  return e;
}

/**
 * Writes several outputs all or nothing as far as the file system allows: every target is checked before any is
 * written, each is filled through a temporary file beside it, and the renames come last (re-checking each target).
 */
export async function writeOutputs(files: { path: string; write: (tmp: string) => Promise<void> | void; extensions?: string[] }[], guard: OutputGuard = {}): Promise<void> {
  const targets = files.map((f) => checkOutputTarget(f.path, guard, f.extensions));
  const temps: string[] = [];
  try {
    for (let i = 0; i < files.length; i++) {
      temps.push(tempPathFor(targets[i]));
      try {
        await files[i].write(temps[i]);
        flushToDisk(temps[i]);
      } catch (e) {
        throw explainWriteError(files[i].path, e);
      }
    }
    for (let i = 0; i < files.length; i++) {
      checkOutputTarget(targets[i], guard, files[i].extensions);
      try {
        renameSync(temps[i], targets[i]);
      } catch (e) {
        throw explainWriteError(files[i].path, e);
      }
    }
  } finally {
    for (const t of temps) rmSync(t, { force: true });
  }
}

/** Lets `write` fill a temporary file next to `path` (checked first), flushes it, then renames it to `path`; the temporary file never stays behind. */
export async function writeViaTemp(path: string, write: (tmp: string) => Promise<void> | void, guard: OutputGuard = {}): Promise<void> {
  await writeOutputs([{ path, write }], guard);
}

/** fsync of a written file, so a crash after the rename cannot leave an empty or partial file under the final name. */
function flushToDisk(path: string): void {
  const fd = openSync(path, 'r+');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Writes text or bytes to `path` through a temporary file. */
export async function writeFileAtomic(path: string, data: string | Uint8Array, guard: OutputGuard = {}): Promise<void> {
  await writeViaTemp(path, (tmp) => writeFileSync(tmp, data), guard);
}
