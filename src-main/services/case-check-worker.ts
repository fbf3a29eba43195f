// Worker-thread entry of the live case check (case-check-thread.ts): parses the case, meshes and places its bodies
// and runs the pre-launch rules off the main thread, so a heavy geometry check never blocks `dsmc serve`'s event loop.
import { parentPort, workerData } from 'node:worker_threads';
import { checkCaseWithLimits, type AdapterFacts } from './gpu-info.js';

/** What the main thread sends: the case JSON, the adapter's limits and its name. */
interface CheckJob {
  caseJson: unknown;
  limits: AdapterFacts['limits'];
  adapter: string;
}

const job = workerData as CheckJob;
try {
  parentPort!.postMessage({ ok: true, check: checkCaseWithLimits(job.caseJson, job.limits, job.adapter) });
} catch (e) {
  parentPort!.postMessage({ ok: false, message: (e as Error)?.message ?? String(e) });
}
