// Worker thread of cell-table-threads.ts: the cell table along x of one slab of layers; its values written into the
// whole grid's arrays in shared memory, its triangle lists posted back.
import { parentPort, workerData } from 'node:worker_threads';
import { cellTableAlongXSlab, type CellGrid, type CellTableOptions, type CellValues } from '../common/geometry/cell-table.js';
import type { WorkerResult } from './worker-run.js';

const { tris, grid, opts, wanted, k0, k1, values } = workerData as {
  tris: Float64Array; grid: CellGrid; opts: CellTableOptions; wanted: Uint8Array | null; k0: number; k1: number; values: CellValues;
};
let answer: WorkerResult<unknown>;
let transfer: ArrayBuffer[] = [];
try {
  // the slab's values go into the whole grid's arrays in shared memory; its triangle lists come back
  const t = cellTableAlongXSlab(tris, grid, opts, wanted ?? undefined, k0, k1, values);
  answer = { ok: true, result: { triStart: t.triStart, triList: t.triList } };
  transfer = [t.triStart.buffer, t.triList.buffer] as ArrayBuffer[];
} catch (e) {
  answer = { ok: false, message: e instanceof Error ? e.message : String(e) };
}
parentPort!.postMessage(answer, transfer);
