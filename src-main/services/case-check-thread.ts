// The live case check of the app and browser mode run in a worker thread (case-check-worker.ts): meshing and placing
// large bodies takes seconds, and `dsmc serve` must answer other requests meanwhile. At most CHECK_THREADS checks run
// at once (others wait their turn); one that takes longer than CHECK_TIMEOUT_MS is stopped and reported as such.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { CaseCheck } from '../common/contract/types.js';
import { adapterFacts, checkCaseJson } from './gpu-info.js';

/** Checks running at once (each a thread; the machine's other cores stay free for runs). */
export const CHECK_THREADS = 2;
/** Longest a check may take before its thread is stopped (ms). */
export const CHECK_TIMEOUT_MS = 120_000;

let running = 0;
const waiting: (() => void)[] = [];

/** Waits for a free check thread. */
async function acquire(): Promise<void> {
  if (running < CHECK_THREADS) { running++; return; }
  await new Promise<void>((r) => waiting.push(r));
}

/** Frees a check thread for the next waiting check. */
function release(): void {
  const next = waiting.shift();
  if (next) next();
  else running--;
}

/** The compiled worker entry beside this module, or null under vitest (TypeScript sources: the check then runs in this thread). */
function workerEntry(): string | null {
  const path = fileURLToPath(new URL('./case-check-worker.js', import.meta.url));
  return existsSync(path) ? path : null;
}

/** Runs one check in a new worker thread. */
function inWorker(entry: string, caseJson: unknown, limits: { maxStorageBufferBindingSize: number; maxBufferSize: number }, adapter: string): Promise<CaseCheck> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(entry, { workerData: { caseJson, limits, adapter } });
    const timer = setTimeout(() => {
      void worker.terminate();
      reject(new Error(`the case check took longer than ${CHECK_TIMEOUT_MS / 1000} s and was stopped; coarsen the bodies' meshes (fewer triangles) or the grid`));
    }, CHECK_TIMEOUT_MS);
    worker.once('message', (m: { ok: true; check: CaseCheck } | { ok: false; message: string }) => {
      clearTimeout(timer);
      void worker.terminate();
      if (m.ok) resolve(m.check);
      else reject(new Error(m.message));
    });
    worker.once('error', (e) => { clearTimeout(timer); reject(e); });
    worker.once('exit', (code) => { clearTimeout(timer); if (code !== 0) reject(new Error(`the case check stopped (thread exit ${code}); try again with a smaller case`)); });
  });
}

/** Validates a case and runs the pre-launch check off the main thread (in it only where no compiled worker exists). */
export async function checkCaseOffThread(caseJson: unknown): Promise<CaseCheck> {
  const entry = workerEntry();
  if (!entry) return checkCaseJson(caseJson);
  const facts = await adapterFacts();
  await acquire();
  try {
    return await inWorker(entry, caseJson, facts.limits, `${facts.gpu.description} [${facts.gpu.backend}]`);
  } finally {
    release();
  }
}
