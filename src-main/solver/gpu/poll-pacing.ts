// Paces Dawn's polling for finished GPU work in a process whose event loop must stay responsive (a rank of a
// multi-rank run). The `webgpu` binding (AsyncRunner.cpp, crbug.com/dawn/1127) polls from a setImmediate callback
// re-armed every event-loop turn while any map or onSubmittedWorkDone is pending, and creates a new native function
// for each turn: a busy loop that allocated ~300 MB per rank in a 200-step lavapipe run (heap sampling), short-lived
// objects held by weak handles that survive scavenges and end in 5-25 ms mark-compact pauses; one rank's pause stalls
// every rank waiting for its migrants. The binding looks the global setImmediate up at every poll, so this wraps
// it: each poll first sleeps `pauseMicros` (Atomics.wait), which cuts the turns, and the garbage, about tenfold at
// 50 µs, for at most that much more latency per map. Only the binding uses the global here (Node's internals hold
// their own reference; zeromq does not use it).

/** Default pause before each poll, in microseconds (DSMC_POLL_PAUSE_US overrides; 0 turns pacing off). */
export const DEFAULT_POLL_PAUSE_US = 50;

let installed = false;

/** Wraps the global setImmediate so that each callback first sleeps `pauseMicros` (once per process; 0: no change). */
export function paceGpuPolling(pauseMicros = pollPauseFromEnvironment()): void {
  if (installed || pauseMicros <= 0) return;
  installed = true;
  const original = globalThis.setImmediate;
  const cell = new Int32Array(new SharedArrayBuffer(4));
  const pauseMs = pauseMicros / 1000;
  const paced = ((callback: (...args: unknown[]) => void, ...args: unknown[]) =>
    original(() => {
      Atomics.wait(cell, 0, 0, pauseMs);
      callback(...args);
    })) as typeof setImmediate;
  globalThis.setImmediate = Object.assign(paced, { __promisify__: original.__promisify__ });
}

/** The pause from DSMC_POLL_PAUSE_US (microseconds), or the default; a clear error for a bad value. */
export function pollPauseFromEnvironment(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.DSMC_POLL_PAUSE_US;
  if (raw === undefined || raw === '') return DEFAULT_POLL_PAUSE_US;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0 || n > 10_000) {
    throw new Error(`DSMC_POLL_PAUSE_US is ${JSON.stringify(raw)}: give microseconds from 0 (no pacing) to 10000, or leave it unset for ${DEFAULT_POLL_PAUSE_US}`);
  }
  return n;
}
