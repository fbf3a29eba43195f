// Writes a file so that a crash leaves either the old file or the whole new one: the bytes go to a
// temporary name in the same folder, are fsynced, renamed over the target, and the folder is fsynced.
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** Fsyncs a folder so that a rename inside it survives a power loss (best effort where folders cannot be opened). */
export function fsyncFolder(folder: string): void {
  let fd: number | null = null;
  try {
    fd = openSync(folder, 'r');
    fsyncSync(fd);
  } catch {
    // some platforms cannot fsync a folder; the rename is still atomic
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

/** Writes `bytes` to `path` atomically (temp name, fsync, rename, fsync of the folder). */
export function writeFileDurable(path: string, bytes: Uint8Array): void {
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  const fd = openSync(temp, 'w');
  try {
    let done = 0;
    while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done);
    fsyncSync(fd);
  } catch (e) {
    closeSync(fd);
    rmSync(temp, { force: true });
    throw e;
  }
  closeSync(fd);
  renameSync(temp, path);
  fsyncFolder(dirname(path));
}
