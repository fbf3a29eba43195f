// Worker thread of place-planes.ts: reads its share of the ranks' field planes files into the global planes (shared memory).
import { parentPort, workerData } from 'node:worker_threads';
import type { Int3 } from '../cluster/decomposition/types.js';
import type { FieldPlanesFile } from '../cluster/transport/field-planes-file.js';
import { placeFilePart } from './place-planes.js';
import type { Subdomain } from './subdomain.js';
import { answerWhenDone } from './worker-run.js';

const { grid, parts, targets } = workerData as { grid: Int3; parts: { sub: Subdomain; file: FieldPlanesFile }[]; targets: Float64Array[] };
answerWhenDone((a) => parentPort!.postMessage(a), () => {
  for (const p of parts) placeFilePart(grid, p.sub, p.file, targets);
});
