// Worker thread of cell-table-threads.ts: the cell table along x of one slab of layers, posted back with its arrays.
import { parentPort, workerData } from 'node:worker_threads';
import { cellTableAlongXSlab, type CellGrid, type CellTableOptions } from '../common/geometry/cell-table.js';
import type { WorkerResult } from './worker-run.js';

const { tris, grid, opts, wanted, k0, k1 } = workerData as {
  tris: Float64Array; grid: CellGrid; opts: CellTableOptions; wanted: Uint8Array | null; k0: number; k1: number;
};
let answer: WorkerResult<unknown>;
let transfer: ArrayBuffer[] = [];
try {
  const t = cellTableAlongXSlab(tris, grid, opts, wanted ?? undefined, k0, k1);
  answer = { ok: true, result: t };
  transfer = [t.triStart.buffer, t.triList.buffer, t.kind.buffer, t.volumeFraction.buffer, t.refPoint.buffer] as ArrayBuffer[];
} catch (e) {
  answer = { ok: false, message: e instanceof Error ? e.message : String(e) };
}
parentPort!.postMessage(answer, transfer);
