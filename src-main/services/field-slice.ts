// 2-D slices of a run's sampled fields for the heatmaps: one field on a plane normal to x, y or z, and the
// difference of two runs on such a plane in units of their combined standard error.
import type { FieldDifferenceSlice, FieldSlice, SliceAxis } from '../common/contract/types.js';
import { fieldInfo, missingFieldMessage, type FieldName } from '../common/field-names.js';
import { isMasked, MIN_CELL_SAMPLES } from '../common/field-mask.js';
import type { FieldSet } from '../common/run-record.js';

/** In-plane axes (horizontal, vertical) for each normal axis. */
const PLANES: Record<SliceAxis, { normal: number; u: number; v: number; names: [string, string] }> = {
  x: { normal: 0, u: 1, v: 2, names: ['y', 'z'] },
  y: { normal: 1, u: 0, v: 2, names: ['x', 'z'] },
  z: { normal: 2, u: 0, v: 1, names: ['x', 'y'] },
};

/** Flat cell index of (i, j, k) with x fastest, then y, then z. */
function cellIndex(cells: [number, number, number], ijk: number[]): number {
  return ijk[0] + cells[0] * (ijk[1] + cells[1] * ijk[2]);
}

/** The slice index to use: the given one (checked) or the middle of the axis. */
function planeIndex(cells: [number, number, number], axis: SliceAxis, index: number | undefined): number {
  const depth = cells[PLANES[axis].normal];
  if (index === undefined) return Math.floor(depth / 2);
  if (index >= depth) throw new Error(`slice index ${index} is outside the grid: the ${axis} axis has ${depth} cells (use 0 to ${depth - 1})`);
  return index;
}

/** The cell ids of the plane `axis` = index (a checked index), row-major: position k = v * width + u. */
function cellsOfPlane(cells: [number, number, number], axis: SliceAxis, index: number): Uint32Array {
  const p = PLANES[axis];
  const width = cells[p.u];
  const ids = new Uint32Array(width * cells[p.v]);
  const ijk = [0, 0, 0];
  ijk[p.normal] = index;
  for (let k = 0; k < ids.length; k++) {
    ijk[p.u] = k % width;
    ijk[p.v] = Math.floor(k / width);
    ids[k] = cellIndex(cells, ijk);
  }
  return ids;
}

/**
 * Applies `valueAt(cell, k)` over a plane (k: the position in cellsOfPlane's order); returns the values, their finite
 * range and, with `errorAt`, the standard error of each cell with a value (null where unknown).
 */
function mapPlane(cells: [number, number, number], axis: SliceAxis, index: number, valueAt: (cell: number, k: number) => number,
  errorAt?: (cell: number, k: number) => number) {
  const p = PLANES[axis];
  const ids = cellsOfPlane(cells, axis, index);
  const values: (number | null)[] = new Array(ids.length);
  const errors: (number | null)[] | undefined = errorAt ? new Array(ids.length) : undefined;
  let min = Infinity;
  let max = -Infinity;
  for (let k = 0; k < ids.length; k++) {
    const x = valueAt(ids[k], k);
    const ok = Number.isFinite(x);
    values[k] = ok ? x : null;
    if (errors) { const e = ok ? errorAt!(ids[k], k) : NaN; errors[k] = Number.isFinite(e) ? e : null; }
    if (ok) { min = Math.min(min, x); max = Math.max(max, x); }
  }
  if (min > max) { min = 0; max = 0; }
  return { width: cells[p.u], height: cells[p.v], values, min, max, depth: cells[p.normal], axes: p.names, ...(errors ? { errors } : {}) };
}

/** Where a plane's cells come from: the value, and optionally the particle samples (for the mask) and standard error of each. */
export interface PlaneSource {
  valueAt: (cell: number, k: number) => number;
  /** Particles per sampling pass times the passes; absent: no cell is masked for its samples. */
  samplesAt?: (cell: number, k: number) => number;
  errorAt?: (cell: number, k: number) => number;
}

/** `valueAt` with the cells that have too few samples (or an impossible negative value) turned into NaN, counting them. */
function masked(field: FieldName, src: PlaneSource, count: { n: number }): (cell: number, k: number) => number {
  return (cell, k) => {
    const v = src.valueAt(cell, k);
    if (!src.samplesAt || !Number.isFinite(v) || !isMasked(field, v, src.samplesAt(cell, k))) return v;
    count.n++;
    return NaN;
  };
}

/** One field of a run on the plane `axis` = index (middle when omitted). */
export function fieldSlice(f: FieldSet, field: FieldName, axis: SliceAxis, index?: number): FieldSlice {
  const data = f.values[field];
  if (!data) throw new Error(missingFieldMessage(field));
  const [err, pps] = [f.errors[field], f.values.particlesPerSample];
  return planeSlice(f.cells, f.samples, field, axis, index, {
    valueAt: (c) => data[c], samplesAt: (c) => pps[c] * f.samples, errorAt: err ? (c) => err[c] : undefined,
  });
}

/** The cell ids of the plane `axis` = index (middle when omitted), row-major as the slices' values. */
export function planeCells(cells: [number, number, number], axis: SliceAxis, index?: number): Uint32Array {
  return cellsOfPlane(cells, axis, planeIndex(cells, axis, index));
}

/**
 * A field slice from values known per cell or plane position k (planeCells order): live fields, computed on the plane
 * alone, or a run's stored ones; cells with too few samples are blank and counted in `maskedCells`.
 */
export function planeSlice(cells: [number, number, number], samples: number, field: FieldName, axis: SliceAxis, index: number | undefined,
  src: PlaneSource): FieldSlice {
  const at = planeIndex(cells, axis, index);
  const count = { n: 0 };
  const plane = mapPlane(cells, axis, at, masked(field, src, count), src.errorAt);
  const mask = src.samplesAt ? { maskedCells: count.n, minCellSamples: MIN_CELL_SAMPLES } : {};
  return { field, label: fieldInfo(field).label, unit: fieldInfo(field).unit, axis, index: at, samples, ...plane, ...mask };
}

/** z = (a - b) / sqrt(se_a^2 + se_b^2) of one field on a plane; null where the error is missing. */
export function differenceSlice(a: FieldSet, b: FieldSet, runs: [number, number], field: FieldName, axis: SliceAxis, index?: number): FieldDifferenceSlice {
  if (a.cells.join('x') !== b.cells.join('x')) {
    throw new Error(`runs ${runs[0]} and ${runs[1]} have different grids (${a.cells.join('x')} and ${b.cells.join('x')} cells); a difference map needs runs of the same grid`);
  }
  const at = planeIndex(a.cells, axis, index);
  const [va, ea, vb, eb] = [a.values[field], a.errors[field], b.values[field], b.errors[field]];
  if (!va || !ea) throw new Error(`run ${runs[0]}: ${missingFieldMessage(field)}`);
  if (!vb || !eb) throw new Error(`run ${runs[1]}: ${missingFieldMessage(field)}`);
  const [pa, pb] = [a.values.particlesPerSample, b.values.particlesPerSample];
  let maskedCells = 0;
  const plane = mapPlane(a.cells, axis, at, (c) => {
    // a cell either run leaves blank for its samples is blank in the difference too
    if (isMasked(field, va[c], pa[c] * a.samples) || isMasked(field, vb[c], pb[c] * b.samples)) { maskedCells++; return NaN; }
    const se = Math.hypot(ea[c], eb[c]);
    return se > 0 ? (va[c] - vb[c]) / se : NaN;
  });
  return {
    field, label: `${fieldInfo(field).label}: difference / standard error`, unit: 'z', axis, index: at, samples: Math.min(a.samples, b.samples), runs, ...plane,
    cellSize: [a.cellSize[PLANES[axis].u], a.cellSize[PLANES[axis].v]], maskedCells, minCellSamples: MIN_CELL_SAMPLES,
  };
}
