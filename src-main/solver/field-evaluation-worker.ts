// Worker thread of field-evaluation-threads.ts: evaluates one range of cells over arrays in shared memory and says so.
import { parentPort, workerData } from 'node:worker_threads';
import { evaluateRange, type EvaluationArrays, type EvaluationSpec } from './field-evaluation.js';

const { spec, arrays, from, to } = workerData as { spec: EvaluationSpec; arrays: EvaluationArrays; from: number; to: number };
try {
  evaluateRange(spec, arrays, from, to);
  parentPort!.postMessage({ ok: true });
} catch (e) {
  parentPort!.postMessage({ ok: false, message: e instanceof Error ? e.message : String(e) });
}
