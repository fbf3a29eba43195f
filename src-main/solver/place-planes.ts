// The orchestrator's placing of the ranks' field planes files (field-planes-file.ts) into the global planes: each
// file's planes go straight to their place where the rank's cells are one run of global ids (a box spanning x and y),
// through one scratch plane otherwise. With several files, worker threads (place-planes-worker.ts) each take some
// planes of some files, over the global planes in shared memory: the ranks own disjoint cells and the planes are
// distinct, so the threads never write the same value, and the wedge's 1.3 GB of planes from 4 ranks are read at once
// instead of one file after the other.
import { availableParallelism } from 'node:os';
import type { Int3 } from '../cluster/decomposition/types.js';
import { readFieldPlanes, removeFieldPlanes, type FieldPlanesFile } from '../cluster/transport/field-planes-file.js';
import { copyOwnedCells, isLocalDense, type Subdomain } from './subdomain.js';
import { onWorker, workerScript } from './worker-run.js';

/**
 * Reads one rank's file into its cells of the global planes (targets[k]: plane k), and removes the file; `which`: only
 * those planes, the file kept (a thread's share: placeFilesOnThreads removes it).
 */
export function placeFilePart(grid: Int3, sub: Subdomain, file: FieldPlanesFile, targets: readonly Float64Array[], which?: readonly number[]): void {
  const n = sub.nLocal;
  const dense = isLocalDense(sub, grid);
  let scratch: Float64Array | null = null;
  readFieldPlanes(
    file,
    (k) => (dense ? targets[k].subarray(sub.cellBase, sub.cellBase + n) : (scratch ??= new Float64Array(n))),
    (k, plane) => { if (!dense) copyOwnedCells(plane, sub, grid, targets[k]); },
    which, which !== undefined,
  );
}

/** One thread's share: some planes of one rank's file. */
export interface PlacingTask {
  sub: Subdomain;
  file: FieldPlanesFile;
  planes: number[];
}

/** Most threads reading files at once (the host's other ranks exit meanwhile). */
const MAX_THREADS = 8;

/**
 * Reads every part's file into the global planes (in shared memory) on `threads` worker threads (at most MAX_THREADS):
 * each file's planes are cut into as many runs as the threads allow, the runs dealt out in turn; the files are removed
 * once all are placed (or one failed).
 */
export async function placeFilesOnThreads(grid: Int3, parts: readonly { sub: Subdomain; file: FieldPlanesFile }[], targets: readonly Float64Array[], threads: number): Promise<void> {
  if (!targets.every((t) => t.buffer instanceof SharedArrayBuffer)) throw new Error('internal: the field planes files are read on threads into shared memory only');
  const t = Math.max(1, Math.min(threads, MAX_THREADS));
  const cuts = Math.max(1, Math.ceil(t / Math.max(1, parts.length)));
  const tasks: PlacingTask[] = parts.flatMap((p) => {
    const planes = p.file.bytes.length;
    return Array.from({ length: Math.min(cuts, planes) }, (_, c) => ({ ...p, planes: range(Math.floor((planes * c) / cuts), Math.floor((planes * (c + 1)) / cuts)) }));
  });
  const script = workerScript('place-planes-worker.js', import.meta.url);
  const shares = Array.from({ length: Math.min(t, tasks.length) }, (_, w) => tasks.filter((_, k) => k % t === w));
  try {
    await Promise.all(shares.map((share) => onWorker(script, { grid, tasks: share, targets }, 'a field planes reading thread')));
  } finally {
    for (const p of parts) removeFieldPlanes(p.file);
  }
}

/** The whole numbers from..to - 1. */
function range(from: number, to: number): number[] {
  return Array.from({ length: Math.max(0, to - from) }, (_, k) => from + k);
}

/** Threads worth using to place `files` files on this host: none for fewer than two files, else up to half its cores. */
export function placingThreads(files: number): number {
  return files < 2 ? 1 : Math.max(1, Math.min(MAX_THREADS, Math.floor(availableParallelism() / 2)));
}
