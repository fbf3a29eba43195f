// Worker thread of place-planes.ts: reads its share of planes of the ranks' field planes files into the global planes (shared memory).
import { parentPort, workerData } from 'node:worker_threads';
import type { Int3 } from '../cluster/decomposition/types.js';
import { placeFilePart, type PlacingTask } from './place-planes.js';
import { answerWhenDone } from './worker-run.js';

const { grid, tasks, targets } = workerData as { grid: Int3; tasks: PlacingTask[]; targets: Float64Array[] };
answerWhenDone((a) => parentPort!.postMessage(a), () => {
  for (const t of tasks) placeFilePart(grid, t.sub, t.file, targets, t.planes);
});
