// Memory that the end of a sampled run fills (the sampling state read back from the GPU, the fields and their errors,
// the orchestrator's planes in global order) is taken from an arena allocated when the run is set up, whose pages a
// worker thread touches while the rest is set up: at the end, filling it costs a copy instead of a page fault every
// 4 KiB (1.3 GB of fresh f64 planes took 1.3-2.9 s to fill on a 2-core machine against 0.2 s pre-touched). The loop
// waits for `touched` before its clock starts: touching pages while the GPUs ran slowed the 4-rank box's exchange by a
// quarter (docs/PERFORMANCE.md, twelfth session). The worker adds 0 atomically to one word a page, so it never changes
// what the caller wrote; an arena whose worker cannot start still works, its pages fault when first written. The arena
// never runs out: past its end, take() gives fresh arrays. DSMC_PREFAULT=0 turns arenas off (fresh arrays, as before),
// and the read-back's staging buffers are then made at the end (sample-buffers.ts prepareRead).

import { Worker } from 'node:worker_threads';

/** Bytes between the words the worker touches (the smallest page size of the platforms the app runs on). */
const PAGE_BYTES = 4096;

/** The worker's code (eval'd: no script file to find in a build or a packaged app). */
const TOUCH_PAGES = `
const { parentPort, workerData } = require('node:worker_threads');
const words = new Int32Array(workerData.buffer);
for (let i = 0; i < words.length; i += ${PAGE_BYTES / 4}) Atomics.add(words, i, 0);
parentPort.postMessage('touched');
`;

/** False when DSMC_PREFAULT is 0 (benchmarks: the end of a run into fresh memory and through staging buffers made then, as before arenas). */
export function prefaultEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  const v = env.DSMC_PREFAULT;
  if (v === undefined || v === '' || v === '1') return true;
  if (v === '0') return false;
  throw new Error(`DSMC_PREFAULT is ${JSON.stringify(v)}: give 1 (the end of a sampled run fills memory prefaulted during the set-up, the default) or 0 (fresh memory), or leave it unset`);
}

/** `a` where it lives in shared memory, else a zeroed shared array of its length (for arrays worker threads fill). */
export function sharedOr(a: Float64Array): Float64Array {
  return a.buffer instanceof SharedArrayBuffer ? a : new Float64Array(new SharedArrayBuffer(8 * a.length));
}

/** Typed arrays an arena hands out. */
type ArenaArray = Float64Array | Float32Array | Uint32Array;
type ArenaCtor<T extends ArenaArray> = { new (buffer: SharedArrayBuffer, byteOffset: number, length: number): T; new (length: number): T; BYTES_PER_ELEMENT: number };

export class PrefaultedArena {
  private readonly buffer: SharedArrayBuffer;
  private offset = 0;
  /** Resolves once every page was touched (or the worker could not run: the pages then fault when used). */
  readonly touched: Promise<void>;

  /** An arena of `bytes` (rounded up to 8) whose pages a worker thread starts touching at once (none with DSMC_PREFAULT=0). */
  constructor(bytes: number) {
    this.buffer = new SharedArrayBuffer(prefaultEnabled() ? Math.max(8, Math.ceil(bytes / 8) * 8) : 8);
    this.touched = new Promise<void>((resolve) => {
      let worker: Worker;
      try {
        worker = new Worker(TOUCH_PAGES, { eval: true, workerData: { buffer: this.buffer } });
      } catch {
        resolve();
        return;
      }
      worker.unref();
      const end = () => {
        resolve();
        void worker.terminate();
      };
      worker.once('message', end);
      worker.once('error', end);
      worker.once('exit', () => resolve());
    });
  }

  /** n values of type ctor from the arena (8-byte aligned), or a fresh array once the arena is used up. */
  take<T extends ArenaArray>(ctor: ArenaCtor<T>, n: number): T {
    const bytes = n * ctor.BYTES_PER_ELEMENT;
    if (this.offset + bytes > this.buffer.byteLength) return new ctor(n);
    const a = new ctor(this.buffer, this.offset, n);
    this.offset += Math.ceil(bytes / 8) * 8;
    return a;
  }

  /** A zeroed-f64 allocator over the arena (the fields' `alloc` parameters). */
  f64(): (n: number) => Float64Array {
    return (n) => this.take(Float64Array, n);
  }
}
