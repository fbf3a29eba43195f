// Folds sampled sums on several threads: the calling thread and worker threads each take a contiguous range
// of cells (field-fold-kernels.ts) over arrays in shared memory. The calls are synchronous: the caller posts
// the operation, does its own range, then blocks (Atomics.wait) until every worker is done, so the
// accumulator's API stays the same. Big grids only: a block of 6.3M cells is over a second on one thread.
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { MessageChannel, Worker, receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import { addRange, closeRange, type CloseParams, type FoldArrays } from './field-fold-kernels.js';

/** Control words in shared memory: workers finished with the current operation, whether one failed, workers started. */
export const CONTROL = { DONE: 0, FAILED: 1, READY: 2, WORDS: 3 } as const;

/** One operation as posted to a worker, on the arrays it was given at start (the input is in shared memory too). */
export type FoldOp =
  | { op: 'add'; input: Float32Array; from: number; to: number }
  | { op: 'close'; params: CloseParams; from: number; to: number }
  | { op: 'stop' };

/** What a worker starts with: its port, the control words and the shared arrays every operation works on. */
export interface FoldWorkerData {
  port: MessagePort;
  control: Int32Array;
  arrays: FoldArrays;
}

/** Cells per thread below which another thread does not pay off (posting and waking cost ~0.1 ms). */
const MIN_CELLS_PER_THREAD = 128 * 1024;

/** Most threads a fold uses (the calling thread included): a multi-rank run's ranks need cores too. */
const MAX_THREADS = 8;

/** Milliseconds the caller waits for the workers of one operation before it calls the fold broken. */
const WAIT_LIMIT_MS = 120_000;

/** Milliseconds the workers get to start (load their modules) before the fold goes on without them. */
const START_LIMIT_MS = 10_000;

/** Threads worth using for a grid of nCells (1: fold on the calling thread alone); DSMC_FOLD_THREADS=N forces N. */
export function foldThreads(nCells: number): number {
  const forced = process.env.DSMC_FOLD_THREADS;
  if (forced !== undefined && forced !== '') {
    const n = Number(forced);
    if (!Number.isInteger(n) || n < 1 || n > 64) throw new Error(`DSMC_FOLD_THREADS is ${JSON.stringify(forced)}: set a whole number of threads from 1 to 64, or unset it`);
    return Math.min(n, Math.max(1, nCells));
  }
  const cores = Math.max(1, Math.floor(availableParallelism() / 2));
  return Math.max(1, Math.min(MAX_THREADS, cores, Math.floor(nCells / MIN_CELLS_PER_THREAD)));
}

/** A shared-memory Float64Array of n values (zeroed). */
export function sharedF64(n: number): Float64Array {
  return new Float64Array(new SharedArrayBuffer(8 * n));
}

/** The compiled worker script (under vitest this module runs from src-main/*.ts, the worker from the build in out/). */
function workerScript(): string {
  const here = fileURLToPath(new URL('./field-fold-worker.js', import.meta.url));
  if (existsSync(here)) return here;
  const built = here.replace(/([\\/])src-main([\\/])/, '$1out$1src-main$2');
  if (existsSync(built)) return built;
  throw new Error(`the field fold worker ${here} is missing: build first (npm run build)`);
}

export class FoldPool {
  private readonly workers: { worker: Worker; port: MessagePort }[] = [];
  private readonly control = new Int32Array(new SharedArrayBuffer(4 * CONTROL.WORDS));
  /** A shared copy of add()'s input when the caller's array is not in shared memory. */
  private input: Float32Array | null = null;
  private failure: string | null = null;

  /**
   * Starts threads - 1 workers over `arrays` (all in shared memory) and waits until they are ready; null, with a
   * warning, when they cannot start (the caller then folds on its own thread: slower, the same result).
   */
  static start(arrays: FoldArrays, threads: number): FoldPool | null {
    let pool: FoldPool | null = null;
    try {
      pool = new FoldPool(arrays, threads);
      pool.awaitReady();
      return pool;
    } catch (e) {
      pool?.destroy();
      process.stderr.write(`warning: the sampled fields are folded on one thread: ${(e as Error).message}\n`);
      return null;
    }
  }

  /** threads: the calling thread plus threads - 1 workers. */
  private constructor(private readonly arrays: FoldArrays, readonly threads: number) {
    const script = workerScript();
    for (let w = 1; w < threads; w++) {
      const { port1, port2 } = new MessageChannel();
      const workerData: FoldWorkerData = { port: port2, control: this.control, arrays };
      const worker = new Worker(script, { workerData, transferList: [port2] });
      worker.on('error', (e) => { this.failure = `field fold worker ${w} failed: ${e.message}`; });
      worker.unref();
      port1.unref();
      this.workers.push({ worker, port: port1 });
    }
  }

  /** Blocks until every worker has loaded (each counts itself in READY), or throws after START_LIMIT_MS. */
  private awaitReady(): void {
    const deadline = Date.now() + START_LIMIT_MS;
    for (;;) {
      const ready = Atomics.load(this.control, CONTROL.READY);
      if (ready === this.workers.length) return;
      if (Date.now() > deadline) throw new Error(`${this.workers.length - ready} of ${this.workers.length} worker thread(s) did not start within ${START_LIMIT_MS / 1000} s`);
      Atomics.wait(this.control, CONTROL.READY, ready, 100);
    }
  }

  /** Adds one submit's f32 sums (layout of the arrays) on every thread. */
  add(input: Float32Array): void {
    let shared = input;
    if (!(input.buffer instanceof SharedArrayBuffer)) {
      if (this.input?.length !== input.length) this.input = new Float32Array(new SharedArrayBuffer(4 * input.length));
      this.input.set(input);
      shared = this.input;
    }
    this.run((from, to) => ({ op: 'add', input: shared, from, to }), (from, to) => addRange(this.arrays, shared, from, to));
  }

  /** Closes a batch-means block on every thread. */
  close(params: CloseParams): void {
    this.run((from, to) => ({ op: 'close', params, from, to }), (from, to) => closeRange(this.arrays, params, from, to));
  }

  /** Stops the workers. */
  destroy(): void {
    for (const { worker, port } of this.workers) {
      port.postMessage({ op: 'stop' } satisfies FoldOp);
      port.close();
      void worker.terminate();
    }
    this.workers.length = 0;
  }

  /** Posts each worker its range, does the first range here, and waits for the rest. */
  private run(opFor: (from: number, to: number) => FoldOp, here: (from: number, to: number) => void): void {
    if (this.failure) throw new Error(this.failure);
    const n = this.arrays.nCells;
    const bound = (t: number) => Math.floor((n * t) / this.threads);
    Atomics.store(this.control, CONTROL.DONE, 0);
    this.workers.forEach(({ port }, w) => port.postMessage(opFor(bound(w + 1), bound(w + 2))));
    here(0, bound(1));
    const deadline = Date.now() + WAIT_LIMIT_MS;
    for (;;) {
      const done = Atomics.load(this.control, CONTROL.DONE);
      if (done === this.workers.length) break;
      if (this.failure) throw new Error(this.failure);
      if (Date.now() > deadline) throw new Error(`field fold: ${this.workers.length - done} worker(s) gave no answer in ${WAIT_LIMIT_MS / 1000} s`);
      Atomics.wait(this.control, CONTROL.DONE, done, 100);
    }
    if (Atomics.load(this.control, CONTROL.FAILED) !== 0) {
      const reasons = this.workers.map(({ port }) => (receiveMessageOnPort(port)?.message as { error?: string } | undefined)?.error).filter(Boolean);
      this.failure = `a field fold worker failed: ${reasons.join('; ') || 'no reason given'}`;
      throw new Error(this.failure);
    }
  }
}
