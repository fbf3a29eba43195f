// Bodies on a field slice: the outline where the slice's plane cuts the bodies' triangles, in the cell units
// the heatmap's axes use, and the slice with the cells inside a body (and cut cells that are almost all body)
// left without a value (blank on the map).
import type { FieldSlice, SliceAxis } from '../contract/types.js';
import { CELL_CUT, CELL_INSIDE, sliceOutline } from '../geometry/index.js';

/** Normal and in-plane axes (horizontal u, vertical v) of each slice axis, as the field slices order them. */
const PLANES: Record<SliceAxis, { normal: 0 | 1 | 2; u: number; v: number }> = {
  x: { normal: 0, u: 1, v: 2 },
  y: { normal: 1, u: 0, v: 2 },
  z: { normal: 2, u: 0, v: 1 },
};

/** The in-plane cell sizes (horizontal, vertical) of a slice normal to `axis`. */
export function planeCellSize(cellSize: readonly [number, number, number], axis: SliceAxis): [number, number] {
  const p = PLANES[axis];
  return [cellSize[p.u], cellSize[p.v]];
}

/**
 * Segments where the plane through the centres of the cell layer `index` normal to `axis` cuts the triangles
 * (9 numbers each, metres): 4 numbers per segment (u0, v0, u1, v1) in cell units of the plane's axes, so
 * cell column u spans [u, u + 1] like the heatmap's. Rounded to 1e-4 cell.
 */
export function sliceBodyOutline(tris: Float64Array, cellSize: readonly [number, number, number], axis: SliceAxis, index: number): number[] {
  if (tris.length === 0) return [];
  const p = PLANES[axis];
  const seg = sliceOutline(tris, p.normal, (index + 0.5) * cellSize[p.normal]);
  const out: number[] = new Array(seg.length);
  const round = (x: number) => Math.round(x * 1e4) / 1e4;
  for (let i = 0; i + 1 < seg.length; i += 2) {
    out[i] = round(seg[i] / cellSize[p.u]);
    out[i + 1] = round(seg[i + 1] / cellSize[p.v]);
  }
  return out;
}

/** Gas volume fraction below which a cut cell is left blank like a cell inside a body (its values rest on a sliver). */
export const MIN_GAS_FRACTION = 0.01;

/**
 * The slice with every cell inside a body (cellKind 2, per global cell, x fastest) and every cut cell with less
 * than MIN_GAS_FRACTION of its volume in the gas (a sliver whose few samples, divided by a tiny volume, give
 * meaningless extremes) set to null; its range taken over the remaining values, and `bodyCells` their count (cells the
 * sample mask had blanked already leave its `maskedCells`).
 */
export function blankBodyCells(slice: FieldSlice, cellKind: Uint8Array, cells: readonly [number, number, number], volumeFraction: Float64Array | null = null): FieldSlice {
  const p = PLANES[slice.axis];
  const ijk = [0, 0, 0];
  ijk[p.normal] = slice.index;
  const values = slice.values.slice();
  let bodyCells = 0;
  let alreadyBlank = 0;
  let min = Infinity;
  let max = -Infinity;
  for (let k = 0; k < values.length; k++) {
    ijk[p.u] = k % slice.width;
    ijk[p.v] = Math.floor(k / slice.width);
    const cell = ijk[0] + cells[0] * (ijk[1] + cells[1] * ijk[2]);
    if (cellKind[cell] === CELL_INSIDE || (cellKind[cell] === CELL_CUT && volumeFraction !== null && volumeFraction[cell] < MIN_GAS_FRACTION)) {
      if (values[k] === null) alreadyBlank++;
      values[k] = null;
      bodyCells++;
      continue;
    }
    const x = values[k];
    if (x !== null) { min = Math.min(min, x); max = Math.max(max, x); }
  }
  if (min > max) { min = 0; max = 0; }
  // a body cell the sample mask had already blanked counts as a body cell, not as a sparse cell of the gas
  const masked = slice.maskedCells === undefined ? {} : { maskedCells: Math.max(0, slice.maskedCells - alreadyBlank) };
  return { ...slice, values, min, max, bodyCells, ...masked };
}
