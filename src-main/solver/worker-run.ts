// One piece of host work on a worker thread of its own (the end of a sampled run: field-evaluation-threads.ts,
// place-planes.ts): the compiled worker script found beside its module (under vitest, whose modules run from
// src-main/*.ts, the one the build put in out/), started with its data, awaited until it says it is done.
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

/** The compiled worker script `fileName` beside the module at `moduleUrl` (import.meta.url), else its build in out/. */
export function workerScript(fileName: string, moduleUrl: string): string {
  const here = fileURLToPath(new URL(`./${fileName}`, moduleUrl));
  if (existsSync(here)) return here;
  const built = here.replace(/([\\/])src-main([\\/])/, '$1out$1src-main$2');
  if (existsSync(built)) return built;
  throw new Error(`the worker script ${here} is missing: build first (npm run build)`);
}

/** What a worker posts when it is done: ok, or the reason it failed. */
export type WorkerAnswer = { ok: true } | { ok: false; message: string };

/** Runs `script` on a new worker thread with `data`; resolves when it answers ok, rejects naming `what` otherwise. */
export async function onWorker(script: string, data: unknown, what: string): Promise<void> {
  await resultOnWorker<unknown>(script, data, what);
}

/** Runs `work` in a worker and posts its answer to the thread that started it. */
export function answerWhenDone(post: (a: WorkerAnswer) => void, work: () => void): void {
  try {
    work();
    post({ ok: true });
  } catch (e) {
    post({ ok: false, message: e instanceof Error ? e.message : String(e) });
  }
}

/** What a worker posts when it is done with a result: ok and the result, or the reason it failed (WorkerAnswer: no result). */
export type WorkerResult<T> = { ok: true; result: T } | { ok: false; message: string };

/**
 * Runs `script` on a new worker thread with `data`; resolves with the result it posts (undefined for a WorkerAnswer),
 * rejects naming `what` when it fails or exits before it answers.
 */
export function resultOnWorker<T>(script: string, data: unknown, what: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(script, { workerData: data });
    let settled = false;
    const end = (e: Error | null, result?: T) => {
      if (settled) return;
      settled = true;
      void worker.terminate();
      if (e) reject(e);
      else resolve(result as T);
    };
    worker.once('message', (m: WorkerResult<T> | WorkerAnswer) => (m.ok ? end(null, (m as { result?: T }).result) : end(new Error(`${what} failed: ${m.message}`))));
    worker.once('error', (e) => end(new Error(`${what} failed: ${e.message}`)));
    worker.once('exit', (code) => end(new Error(`${what} stopped (exit ${code}) before it was done`)));
  });
}

/**
 * Threads worth using for `items` on a host where `processes` do such work at once: the environment's `envName`
 * forces a number (1 to 64), else the host's cores shared by the processes, at most `most`, with `minPerThread` items a
 * thread at least (starting a thread costs 30-70 ms).
 */
export function threadsFor(items: number, processes: number, env: NodeJS.ProcessEnv, envName: string, minPerThread: number, most: number): number {
  const forced = env[envName];
  if (forced !== undefined && forced !== '') {
    const n = Number(forced);
    if (!Number.isInteger(n) || n < 1 || n > 64) throw new Error(`${envName} is ${JSON.stringify(forced)}: set a whole number of threads from 1 to 64, or unset it`);
    return n;
  }
  const cores = Math.max(1, Math.floor(availableParallelism() / Math.max(1, processes)));
  return Math.max(1, Math.min(most, cores, Math.floor(items / minPerThread)));
}
