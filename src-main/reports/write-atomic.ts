// Writing an output file so that readers never see half of it: write a temporary file in the same
// folder, then rename it over the target (atomic on one file system).
import { randomBytes } from 'node:crypto';
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

/** A temporary name next to `path` (hidden, unique). */
export function tempPathFor(path: string): string {
  const abs = resolve(path);
  return join(dirname(abs), `.${basename(abs)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
}

/** Lets `write` fill a temporary file next to `path`, then renames it to `path`; the temporary file never stays behind. */
export async function writeViaTemp(path: string, write: (tmp: string) => Promise<void> | void): Promise<void> {
  const tmp = tempPathFor(path);
  try {
    await write(tmp);
    renameSync(tmp, resolve(path));
  } catch (e) {
    rmSync(tmp, { force: true });
    const err = e as NodeJS.ErrnoException;
    if (err.code === 'ENOENT' || err.code === 'EACCES' || err.code === 'EROFS') {
      throw new Error(`cannot write ${path}: ${err.message}; check that the folder ${dirname(resolve(path))} exists and is writable`);
    }
    throw e;
  }
}

/** Writes text or bytes to `path` through a temporary file. */
export async function writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
  await writeViaTemp(path, (tmp) => writeFileSync(tmp, data));
}
