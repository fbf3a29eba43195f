// Worker thread of field-evaluation-threads.ts: evaluates one range of cells over arrays in shared memory and says so.
import { parentPort, workerData } from 'node:worker_threads';
import { evaluateRange, type EvaluationArrays, type EvaluationSpec } from './field-evaluation.js';
import { answerWhenDone } from './worker-run.js';

const { spec, arrays, from, to } = workerData as { spec: EvaluationSpec; arrays: EvaluationArrays; from: number; to: number };
answerWhenDone((a) => parentPort!.postMessage(a), () => evaluateRange(spec, arrays, from, to));
