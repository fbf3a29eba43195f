// The end of a sampled run evaluates every cell's fields and standard errors once: about 0.5 µs a cell on one thread,
// 3 s for the wedge's 6.4M cells on one GPU (docs/PERFORMANCE.md). Here the cells are split into contiguous ranges,
// the calling thread takes the first and worker threads (field-evaluation-worker.ts) the others, all over the same
// arrays in shared memory (the end-of-run arenas of rank-fields.ts). Each value depends on its own cell only, so the
// planes are bitwise those of one thread. Threads: DSMC_EVAL_THREADS, else at most 8 and the host's cores shared by
// its ranks, with 256K cells a thread at least (starting a thread costs 30-70 ms).
import { evaluateRange, type EvaluationArrays, type EvaluationSpec } from './field-evaluation.js';
import { fieldNamesOf } from './fields.js';
import { onWorker, threadsFor, workerScript } from './worker-run.js';

/** Cells per thread below which another thread does not pay for its start. */
const MIN_CELLS_PER_THREAD = 256 * 1024;
/** Most threads one evaluation uses (the calling thread included). */
const MAX_THREADS = 8;

/** Threads worth using for nCells cells on a host shared by `ranksOnHost` ranks; DSMC_EVAL_THREADS=N forces N (at most one a cell). */
export function evaluationThreads(nCells: number, ranksOnHost = 1, env: NodeJS.ProcessEnv = process.env): number {
  return Math.max(1, Math.min(nCells, threadsFor(nCells, ranksOnHost, env, 'DSMC_EVAL_THREADS', MIN_CELLS_PER_THREAD, MAX_THREADS)));
}

/** True when every array of the evaluation lives in shared memory (threads can fill it). */
export function sharesMemory(a: EvaluationArrays): boolean {
  const arrays = [...Object.values(a.state), a.sums, ...fieldNamesOf(a.fields).map((k) => a.fields[k]!), ...fieldNamesOf(a.errors).map((k) => a.errors[k]!)];
  return arrays.every((x) => x.length === 0 || x.buffer instanceof SharedArrayBuffer);
}

/**
 * Evaluates every cell of `arrays` (in shared memory where threads > 1) on `threads` threads: the calling thread takes
 * the first range while the workers do theirs. One thread, or arrays not all shared: on the calling thread alone.
 * Returns the threads it used.
 */
export async function evaluateOnThreads(spec: EvaluationSpec, arrays: EvaluationArrays, threads: number): Promise<number> {
  const n = spec.nCells;
  const t = Math.max(1, Math.min(threads, n));
  if (t === 1 || !sharesMemory(arrays)) {
    evaluateRange(spec, arrays, 0, n);
    return 1;
  }
  const script = workerScript('field-evaluation-worker.js', import.meta.url);
  const bound = (k: number) => Math.floor((n * k) / t);
  const workers = Array.from({ length: t - 1 }, (_, w) => onWorker(script, { spec, arrays, from: bound(w + 1), to: bound(w + 2) }, 'a field evaluation thread'));
  // the workers' failures are awaited below, after this thread's own range
  for (const w of workers) w.catch(() => undefined);
  evaluateRange(spec, arrays, 0, bound(1));
  await Promise.all(workers);
  return t;
}
