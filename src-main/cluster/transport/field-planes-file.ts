// The end of a sampled run on one host: each rank writes its field and error planes (its cells in local order) into a
// file of the run's peer folder (under /dev/shm where it can) instead of sending them to the orchestrator as message
// frames, and the orchestrator reads every plane straight into its place in the global planes. Frames cost a copy on
// send, zeromq's buffers and fresh memory on receipt, then the placing copy (1.3 GB for the hypersonic wedge's 6.4M
// cells); the file costs one write and one read. Written to a temporary name and renamed, so the orchestrator never
// reads half a file; a rank that cannot write it sends frames as before.
import { closeSync, openSync, readSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/** Where a rank's planes lie: the file and the bytes of each plane, in order. */
export interface FieldPlanesFile {
  path: string;
  bytes: number[];
}

/** Writes the planes into `folder` (rank `rank`'s file); null when it could not (the caller then sends frames). */
export function writeFieldPlanes(folder: string, rank: number, planes: readonly Float64Array[]): FieldPlanesFile | null {
  const path = join(folder, `fields-${rank}.f64`);
  const temporary = `${path}.partial`;
  let fd: number | null = null;
  try {
    fd = openSync(temporary, 'w', 0o600);
    for (const p of planes) {
      const bytes = new Uint8Array(p.buffer, p.byteOffset, p.byteLength);
      for (let at = 0; at < bytes.length;) at += writeSync(fd, bytes, at, bytes.length - at);
    }
    closeSync(fd);
    fd = null;
    renameSync(temporary, path);
    return { path, bytes: planes.map((p) => p.byteLength) };
  } catch {
    if (fd !== null) closeSync(fd);
    rmSync(temporary, { force: true });
    return null;
  }
}

/**
 * Reads the planes of a rank's file in order (`which`: only those planes, default all; threads read parts of one file
 * at once): plane k is handed to `into(k)`, which returns where its bytes go (a place in the global planes, or a
 * scratch plane), then `placed(k, plane)` is called with it. The file is removed after unless `keep` (the caller
 * removes it once every part is read: removeFieldPlanes); an error names the file.
 */
export function readFieldPlanes(file: FieldPlanesFile, into: (k: number) => Float64Array, placed: (k: number, plane: Float64Array) => void,
  which: readonly number[] = file.bytes.map((_, k) => k), keep = false): void {
  const fd = openSync(file.path, 'r');
  try {
    for (const k of which) {
      const n = file.bytes[k];
      const position = file.bytes.slice(0, k).reduce((s, b) => s + b, 0);
      const plane = into(k);
      if (plane.byteLength !== n) throw new Error(`internal: plane ${k} of ${file.path} holds ${n} bytes, its place ${plane.byteLength}`);
      const bytes = new Uint8Array(plane.buffer, plane.byteOffset, n);
      for (let at = 0; at < n;) {
        const got = readSync(fd, bytes, at, n - at, position + at);
        if (got === 0) throw new Error(`the field planes file ${file.path} ends after ${position + at} bytes; ${file.bytes.reduce((s, b) => s + b, 0)} were written`);
        at += got;
      }
      placed(k, plane);
    }
  } finally {
    closeSync(fd);
    if (!keep) removeFieldPlanes(file);
  }
}

/** Removes a rank's planes file (read whole, or given up). */
export function removeFieldPlanes(file: FieldPlanesFile): void {
  rmSync(file.path, { force: true });
}
