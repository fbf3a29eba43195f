// The orchestrator's placing of the ranks' field planes files (field-planes-file.ts) into the global planes: each
// file's planes go straight to their place where the rank's cells are one run of global ids (a box spanning x and y),
// through one scratch plane otherwise. With several files, one worker thread per file (place-planes-worker.ts) over
// the global planes in shared memory: the ranks own disjoint cells, so the threads never write the same value, and
// the wedge's 1.3 GB of planes from 4 ranks are read at once instead of one file after the other.
import { availableParallelism } from 'node:os';
import type { Int3 } from '../cluster/decomposition/types.js';
import { readFieldPlanes, type FieldPlanesFile } from '../cluster/transport/field-planes-file.js';
import { copyOwnedCells, isLocalDense, type Subdomain } from './subdomain.js';
import { onWorker, workerScript } from './worker-run.js';

/** Reads one rank's file into its cells of the global planes (targets[k]: plane k), and removes the file. */
export function placeFilePart(grid: Int3, sub: Subdomain, file: FieldPlanesFile, targets: readonly Float64Array[]): void {
  const n = sub.nLocal;
  const dense = isLocalDense(sub, grid);
  let scratch: Float64Array | null = null;
  readFieldPlanes(
    file,
    (k) => (dense ? targets[k].subarray(sub.cellBase, sub.cellBase + n) : (scratch ??= new Float64Array(n))),
    (k, plane) => { if (!dense) copyOwnedCells(plane, sub, grid, targets[k]); },
  );
}

/** Most threads reading files at once (the host's other ranks exit meanwhile). */
const MAX_THREADS = 8;

/**
 * Reads every part's file into the global planes (in shared memory) on up to `threads` worker threads, each taking
 * every threads-th part; resolves when all are placed.
 */
export async function placeFilesOnThreads(grid: Int3, parts: readonly { sub: Subdomain; file: FieldPlanesFile }[], targets: readonly Float64Array[], threads: number): Promise<void> {
  if (!targets.every((t) => t.buffer instanceof SharedArrayBuffer)) throw new Error('internal: the field planes files are read on threads into shared memory only');
  const t = Math.max(1, Math.min(threads, MAX_THREADS, parts.length));
  const script = workerScript('place-planes-worker.js', import.meta.url);
  const shares = Array.from({ length: t }, (_, w) => parts.filter((_, k) => k % t === w));
  await Promise.all(shares.map((share) => onWorker(script, { grid, parts: share, targets }, 'a field planes reading thread')));
}

/** Threads worth using to place `files` files on this host: one per file, at most half its cores. */
export function placingThreads(files: number): number {
  return Math.max(1, Math.min(files, MAX_THREADS, Math.floor(availableParallelism() / 2)));
}
