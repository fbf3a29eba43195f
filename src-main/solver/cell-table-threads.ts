// The cell table of a case's bodies on threads (meshing and cutting the full-size wedge's body on 6.4M cells takes
// seconds on one thread): each table along an axis is split into slabs of layers along its z, the calling thread takes
// the first and worker threads (cell-table-worker.ts) the others, and the slabs are put together. Every cell's values
// depend on its own column alone, so the table is bitwise the one-thread table (test/unit/cell-table-threads.test.ts).
// Threads: DSMC_TABLE_THREADS, else the host's cores shared by the processes building tables at once (a multi-rank
// run's ranks and orchestrator), at most 8, with a million cells a thread at least (a thread costs 30-70 ms to start).
import {
  buildCellTable, buildCellTableWith, cellTableAlongXSlab, joinSlabs, type CellGrid, type CellTable, type CellTableOptions, type CellValues,
} from '../common/geometry/cell-table.js';
import { resultOnWorker, threadsFor, workerScript } from './worker-run.js';

/** Cells per thread below which another thread does not pay for its start. */
const MIN_CELLS_PER_THREAD = 1 << 20;
/** Most threads one table uses (the calling thread included). */
const MAX_THREADS = 8;

/** Threads worth using for a grid of nCells cells on a host where `processes` build tables at once; DSMC_TABLE_THREADS=N forces N. */
export function tableThreads(nCells: number, processes = 1, env: NodeJS.ProcessEnv = process.env): number {
  return threadsFor(nCells, processes, env, 'DSMC_TABLE_THREADS', MIN_CELLS_PER_THREAD, MAX_THREADS);
}

/**
 * buildCellTable on `threads` threads (one: buildCellTable itself); bitwise the same table, its kinds and gas fractions
 * copied out of shared memory (the solver keeps and uploads them as any other array).
 */
export async function buildCellTableOnThreads(tris: Float64Array, grid: CellGrid, threads: number, opts: CellTableOptions = {}): Promise<CellTable> {
  if (threads <= 1 || grid.cells[2] < 2) return buildCellTable(tris, grid, opts);
  const t = await buildCellTableWith(tris, grid, opts, (m, g, o, wanted) => alongXOnThreads(m, g, o, wanted, threads));
  return { ...t, kind: t.kind.slice(), volumeFraction: t.volumeFraction.slice() };
}

/**
 * The table along x in slabs of layers, one a thread (the calling thread's the first), every slab writing its cells'
 * values into the whole grid's arrays in shared memory (nothing to copy together but the triangle lists).
 */
async function alongXOnThreads(tris: Float64Array, grid: CellGrid, opts: CellTableOptions, wanted: Uint8Array | undefined, threads: number): Promise<CellTable> {
  const bounds = slabBounds(tris, grid, Math.min(threads, grid.cells[2]));
  const n = grid.cells[0] * grid.cells[1] * grid.cells[2];
  const values: CellValues = {
    kind: new Uint8Array(new SharedArrayBuffer(n)),
    volumeFraction: new Float64Array(new SharedArrayBuffer(8 * n)),
    refPoint: new Float64Array(new SharedArrayBuffer(24 * n)),
  };
  const script = workerScript('cell-table-worker.js', import.meta.url);
  const workers = bounds.slice(1).map(([k0, k1]) =>
    resultOnWorker<Pick<CellTable, 'triStart' | 'triList'>>(script, { tris, grid, opts, wanted: wanted ?? null, k0, k1, values }, 'a cell table thread'));
  // the workers' failures are awaited below, after this thread's own slab
  for (const w of workers) w.catch(() => undefined);
  const first = cellTableAlongXSlab(tris, grid, opts, wanted, bounds[0][0], bounds[0][1], values);
  return joinSlabs([first, ...(await Promise.all(workers))], values);
}

/**
 * `parts` slabs of consecutive layers along z, each with about as much work: a layer weighs its cells plus, much more,
 * the triangles reaching into it (a body in the middle of the box makes its layers the costly ones).
 */
export function slabBounds(tris: Float64Array, grid: CellGrid, parts: number): [number, number][] {
  const [nx, ny, nz] = grid.cells;
  const dz = grid.cellSize[2];
  const weight = new Float64Array(nz).fill(nx * ny / 64);
  for (let p = 0; p < tris.length; p += 9) {
    const lo = Math.max(0, Math.floor(Math.min(tris[p + 2], tris[p + 5], tris[p + 8]) / dz));
    const hi = Math.min(nz - 1, Math.floor(Math.max(tris[p + 2], tris[p + 5], tris[p + 8]) / dz));
    for (let k = lo; k <= hi; k++) weight[k] += 256;
  }
  const total = weight.reduce((a, b) => a + b, 0);
  const bounds: [number, number][] = [];
  let k0 = 0, acc = 0;
  for (let k = 0; k < nz && bounds.length < parts - 1; k++) {
    acc += weight[k];
    // close a slab once it holds its share (leaving at least a layer for each slab still to come)
    if (acc >= (total * (bounds.length + 1)) / parts && nz - (k + 1) >= parts - bounds.length - 1) {
      bounds.push([k0, k + 1]);
      k0 = k + 1;
    }
  }
  bounds.push([k0, nz]);
  return bounds;
}
