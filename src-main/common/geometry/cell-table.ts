// Which grid cells the bodies' triangles cut, which cells lie inside a body, and the gas volume fraction
// of every cell, for the solver's particle-surface tests and cell volumes. The grid spans [0, n d] on each
// axis; global cell id = i + nx (j + ny k). The triangles may be several closed bodies put together
// (inside = an odd number of surfaces crossed from outside, so the bodies must not overlap).
import { lineBins, lineCrossings, sortCrossings } from './line-crossings.js';

/** The grid the table is built for. */
export interface CellGrid {
  cells: readonly [number, number, number];
  cellSize: readonly [number, number, number];
}

/** Options of buildCellTable. */
export interface CellTableOptions {
  /** Lines per cell side cast along x through cut cells to measure their gas volume (default 16: 256 lines). */
  subLines?: number;
}

/** Cell kinds of CellTable.kind. */
export const CELL_GAS = 0;
export const CELL_CUT = 1;
export const CELL_INSIDE = 2;

/** Triangles per cell and the gas volume of every cell. */
export interface CellTable {
  /** nCells + 1 CSR offsets into triList. */
  triStart: Uint32Array;
  /** Ids of the triangles overlapping each cell (exact triangle-box test, boxes closed, grown by 1e-9 of a cell). */
  triList: Uint32Array;
  /**
   * Per cell: 0 gas (no triangle, outside), 1 cut (some triangle overlaps, some gas), 2 inside a body (no gas;
   * such a cell still lists the triangles that touch it, e.g. those of a body face lying on its cell face).
   */
  kind: Uint8Array;
  /** Per cell: gas volume / cell volume; 1 for gas cells, 0 inside, (0, 1] for cut cells. */
  volumeFraction: Float64Array;
  /** 3 per cell: for cut cells a point of the cell in the gas, away from the triangles; NaN for the others. */
  refPoint: Float64Array;
}

/** Point-in-bodies test for arbitrary points (same column bins and crossing rule as the table). */
export interface InsideTester {
  isInside(x: number, y: number, z: number): boolean;
}

/**
 * Candidate reference points of a cut cell: the midpoint of the longest gas interval of every line of an
 * up to CANDIDATE_LINES x CANDIDATE_LINES subset of its lines, plus that of the longest gas interval of all
 * its lines; the candidate farthest from the cell's triangles wins.
 */
const CANDIDATE_LINES = 8;
/** Boxes and bins are grown by this fraction of a cell so faces lying on cell faces count on both sides. */
export const GROW = 1e-9;
/** Fractions within this of 0 or 1 are snapped to 0 or 1. */
const SNAP = 1e-12;

// Checks the mesh length and the grid; throws Error naming the problem.
function checkInput(tris: Float64Array, grid: CellGrid): void {
  if (tris.length % 9 !== 0) throw new Error(`cell table: ${tris.length} mesh numbers is not a multiple of 9`);
  for (let a = 0; a < 3; a++) {
    if (!(Number.isInteger(grid.cells[a]) && grid.cells[a] >= 1)) throw new Error(`cell table: cells[${a}] = ${grid.cells[a]} is not a positive integer`);
    if (!(grid.cellSize[a] > 0 && Number.isFinite(grid.cellSize[a]))) throw new Error(`cell table: cellSize[${a}] = ${grid.cellSize[a]} is not a positive number`);
  }
}

// A growable list of u32.
class U32List {
  data = new Uint32Array(1024);
  length = 0;
  // Appends one value.
  push(v: number): void {
    if (this.length === this.data.length) {
      const d = new Uint32Array(this.data.length * 2);
      d.set(this.data);
      this.data = d;
    }
    this.data[this.length++] = v;
  }
}

// Triangles of each (j, k) column of cells (CSR), binned by their y-z bounds grown by GROW of a cell.
interface Columns {
  start: Uint32Array;
  list: Uint32Array;
}

// Bins every triangle into the columns its y-z bounds overlap.
function binColumns(tris: Float64Array, grid: CellGrid): Columns {
  const [, ny, nz] = grid.cells;
  const [, dy, dz] = grid.cellSize;
  const nt = tris.length / 9;
  const cols = new U32List();
  const ids = new U32List();
  for (let t = 0; t < nt; t++) {
    const p = 9 * t;
    const ylo = Math.min(tris[p + 1], tris[p + 4], tris[p + 7]), yhi = Math.max(tris[p + 1], tris[p + 4], tris[p + 7]);
    const zlo = Math.min(tris[p + 2], tris[p + 5], tris[p + 8]), zhi = Math.max(tris[p + 2], tris[p + 5], tris[p + 8]);
    const j0 = Math.max(0, Math.floor(ylo / dy - GROW)), j1 = Math.min(ny - 1, Math.floor(yhi / dy + GROW));
    const k0 = Math.max(0, Math.floor(zlo / dz - GROW)), k1 = Math.min(nz - 1, Math.floor(zhi / dz + GROW));
    for (let k = k0; k <= k1; k++) for (let j = j0; j <= j1; j++) { cols.push(j + ny * k); ids.push(t); }
  }
  return csr(ny * nz, cols, ids);
}

// CSR arrays of (key, value) pairs with keys below n, values in the order pushed.
function csr(n: number, keys: U32List, values: U32List): { start: Uint32Array; list: Uint32Array } {
  const start = new Uint32Array(n + 1);
  for (let e = 0; e < keys.length; e++) start[keys.data[e] + 1]++;
  for (let c = 0; c < n; c++) start[c + 1] += start[c];
  const fill = start.slice(0, n);
  const list = new Uint32Array(keys.length);
  for (let e = 0; e < keys.length; e++) list[fill[keys.data[e]]++] = values.data[e];
  return { start, list };
}

// True when the triangle at p overlaps the closed box of center c and half sizes h (separating axis theorem:
// the 3 box axes, the triangle's normal and the 9 cross products of box axes and triangle edges).
export function triangleBoxOverlap(tris: Float64Array, p: number, c: readonly number[], h: readonly number[]): boolean {
  const v0x = tris[p] - c[0], v0y = tris[p + 1] - c[1], v0z = tris[p + 2] - c[2];
  const v1x = tris[p + 3] - c[0], v1y = tris[p + 4] - c[1], v1z = tris[p + 5] - c[2];
  const v2x = tris[p + 6] - c[0], v2y = tris[p + 7] - c[1], v2z = tris[p + 8] - c[2];
  // box axes
  if (Math.min(v0x, v1x, v2x) > h[0] || Math.max(v0x, v1x, v2x) < -h[0]) return false;
  if (Math.min(v0y, v1y, v2y) > h[1] || Math.max(v0y, v1y, v2y) < -h[1]) return false;
  if (Math.min(v0z, v1z, v2z) > h[2] || Math.max(v0z, v1z, v2z) < -h[2]) return false;
  // edge cross products
  const edges = [
    [v1x - v0x, v1y - v0y, v1z - v0z],
    [v2x - v1x, v2y - v1y, v2z - v1z],
    [v0x - v2x, v0y - v2y, v0z - v2z],
  ];
  for (const [ex, ey, ez] of edges) {
    // axis x cross e = (0, -ez, ey)
    let p0 = -ez * v0y + ey * v0z, p1 = -ez * v1y + ey * v1z, p2 = -ez * v2y + ey * v2z;
    let r = h[1] * Math.abs(ez) + h[2] * Math.abs(ey);
    if (Math.min(p0, p1, p2) > r || Math.max(p0, p1, p2) < -r) return false;
    // axis y cross e = (ez, 0, -ex)
    p0 = ez * v0x - ex * v0z; p1 = ez * v1x - ex * v1z; p2 = ez * v2x - ex * v2z;
    r = h[0] * Math.abs(ez) + h[2] * Math.abs(ex);
    if (Math.min(p0, p1, p2) > r || Math.max(p0, p1, p2) < -r) return false;
    // axis z cross e = (-ey, ex, 0)
    p0 = -ey * v0x + ex * v0y; p1 = -ey * v1x + ex * v1y; p2 = -ey * v2x + ex * v2y;
    r = h[0] * Math.abs(ey) + h[1] * Math.abs(ex);
    if (Math.min(p0, p1, p2) > r || Math.max(p0, p1, p2) < -r) return false;
  }
  // triangle plane
  const [ax, ay, az] = edges[0];
  const bx = v2x - v0x, by = v2y - v0y, bz = v2z - v0z;
  const nx = ay * bz - az * by, ny = az * bx - ax * bz, nz = ax * by - ay * bx;
  const r = h[0] * Math.abs(nx) + h[1] * Math.abs(ny) + h[2] * Math.abs(nz);
  return Math.abs(nx * v0x + ny * v0y + nz * v0z) <= r;
}

/** Scratch polygons of slabXRange (a triangle clipped by four planes has at most 7 vertices). */
const clipA = new Float64Array(3 * 8);
const clipB = new Float64Array(3 * 8);
/** Scratch polygons of clippedArea (by six planes: at most 9 vertices). */
const areaA = new Float64Array(3 * 10);
const areaB = new Float64Array(3 * 10);

// Clips the polygon of m vertices in `from` by the half space sign * (x[a] - bound) >= 0 into `to` (Sutherland-Hodgman);
// returns the vertices kept.
function clipPlane(from: Float64Array, m: number, to: Float64Array, a: number, bound: number, sign: number): number {
  let out = 0;
  for (let v = 0; v < m; v++) {
    const w = v + 1 === m ? 0 : v + 1;
    const dp = sign * (from[3 * v + a] - bound), dq = sign * (from[3 * w + a] - bound);
    if (dp >= 0) { to[3 * out] = from[3 * v]; to[3 * out + 1] = from[3 * v + 1]; to[3 * out + 2] = from[3 * v + 2]; out++; }
    if ((dp >= 0) !== (dq >= 0)) {
      const f = dp / (dp - dq);
      for (let e = 0; e < 3; e++) to[3 * out + e] = from[3 * v + e] + f * (from[3 * w + e] - from[3 * v + e]);
      out++;
    }
  }
  return out;
}

/**
 * The x extent of the part of the triangle at p within the slab |y - yc| <= hy, |z - zc| <= hz (a row of cells along x),
 * into range[0..1]; false when that part is empty. A large triangle lying along the row (a body's face on the plane
 * of a row of cell faces) overlaps only the cells its clipped part spans, not all of its bounds'.
 */
function slabXRange(tris: Float64Array, p: number, yc: number, hy: number, zc: number, hz: number, range: Float64Array): boolean {
  for (let e = 0; e < 9; e++) clipA[e] = tris[p + e];
  let m = clipPlane(clipA, 3, clipB, 1, yc - hy, 1);
  m = clipPlane(clipB, m, clipA, 1, yc + hy, -1);
  m = clipPlane(clipA, m, clipB, 2, zc - hz, 1);
  m = clipPlane(clipB, m, clipA, 2, zc + hz, -1);
  if (m === 0) return false;
  let lo = Infinity, hi = -Infinity;
  for (let v = 0; v < m; v++) { lo = Math.min(lo, clipA[3 * v]); hi = Math.max(hi, clipA[3 * v]); }
  range[0] = lo;
  range[1] = hi;
  return true;
}

// CSR lists of the triangles overlapping each cell of the layers [k0, k1) (cell ids from the slab's first).
function cellTriangles(tris: Float64Array, grid: CellGrid, k0: number, k1: number): { start: Uint32Array; list: Uint32Array } {
  const [nx, ny, nz] = grid.cells;
  const d = grid.cellSize;
  const h = [d[0] / 2 + GROW * d[0], d[1] / 2 + GROW * d[1], d[2] / 2 + GROW * d[2]];
  const n = [nx, ny, nz];
  const cellsOut = new U32List();
  const ids = new U32List();
  const lo = [0, 0, 0], hi = [0, 0, 0], c = [0, 0, 0];
  const xRange = new Float64Array(2);
  // the rows' slabs for the clip, a little wider than the grown cells (a superset: the exact test decides)
  const sy = h[1] * (1 + 1e-6), sz = h[2] * (1 + 1e-6);
  for (let t = 0; t < tris.length / 9; t++) {
    const p = 9 * t;
    let empty = false;
    for (let a = 0; a < 3; a++) {
      const mn = Math.min(tris[p + a], tris[p + 3 + a], tris[p + 6 + a]), mx = Math.max(tris[p + a], tris[p + 3 + a], tris[p + 6 + a]);
      lo[a] = Math.max(0, Math.floor(mn / d[a] - 2 * GROW));
      hi[a] = Math.min(n[a] - 1, Math.floor(mx / d[a] + 2 * GROW));
    }
    lo[2] = Math.max(lo[2], k0);
    hi[2] = Math.min(hi[2], k1 - 1);
    for (let a = 0; a < 3; a++) if (lo[a] > hi[a]) empty = true;
    if (empty) continue;
    // only cells whose center lies within h.|n| of the triangle's plane can overlap: per row of cells along x
    // that is an interval of i (widened by a cell for rounding), the rest is left to the exact test
    const ax = tris[p + 3] - tris[p], ay = tris[p + 4] - tris[p + 1], az = tris[p + 5] - tris[p + 2];
    const bx = tris[p + 6] - tris[p], by = tris[p + 7] - tris[p + 1], bz = tris[p + 8] - tris[p + 2];
    const nX = ay * bz - az * by, nY = az * bx - ax * bz, nZ = ax * by - ay * bx;
    const r = (h[0] * Math.abs(nX) + h[1] * Math.abs(nY) + h[2] * Math.abs(nZ)) * (1 + 1e-9);
    for (let k = lo[2]; k <= hi[2]; k++) {
      c[2] = (k + 0.5) * d[2];
      for (let j = lo[1]; j <= hi[1]; j++) {
        c[1] = (j + 0.5) * d[1];
        const G = nY * (c[1] - tris[p + 1]) + nZ * (c[2] - tris[p + 2]);
        let i0 = lo[0], i1 = hi[0];
        if (nX !== 0) {
          const xa = tris[p] + (-r - G) / nX, xb = tris[p] + (r - G) / nX;
          i0 = Math.max(i0, Math.ceil(Math.min(xa, xb) / d[0] - 0.5) - 1);
          i1 = Math.min(i1, Math.floor(Math.max(xa, xb) / d[0] - 0.5) + 1);
        } else if (Math.abs(G) > r) continue;
        // and only those the triangle's part within the row's slab spans (widened by a cell for rounding)
        if (i1 - i0 > 2) {
          if (!slabXRange(tris, p, c[1], sy, c[2], sz, xRange)) continue;
          i0 = Math.max(i0, Math.floor((xRange[0] - h[0]) / d[0]) - 1);
          i1 = Math.min(i1, Math.floor((xRange[1] + h[0]) / d[0]) + 1);
        }
        for (let i = i0; i <= i1; i++) {
          c[0] = (i + 0.5) * d[0];
          if (triangleBoxOverlap(tris, p, c, h)) { cellsOut.push(i + nx * (j + ny * (k - k0))); ids.push(t); }
        }
      }
    }
  }
  return csr(nx * ny * (k1 - k0), cellsOut, ids);
}

// Squared distance from (px, py, pz) to the triangle at p (closest point on a triangle, Ericson 5.1.5).
function pointTriangleDistance2(tris: Float64Array, p: number, px: number, py: number, pz: number): number {
  const ax = tris[p], ay = tris[p + 1], az = tris[p + 2];
  const abx = tris[p + 3] - ax, aby = tris[p + 4] - ay, abz = tris[p + 5] - az;
  const acx = tris[p + 6] - ax, acy = tris[p + 7] - ay, acz = tris[p + 8] - az;
  const apx = px - ax, apy = py - ay, apz = pz - az;
  const d1 = abx * apx + aby * apy + abz * apz, d2 = acx * apx + acy * apy + acz * apz;
  let u = 0, v = 0; // closest point = a + u ab + v ac
  if (d1 <= 0 && d2 <= 0) { u = 0; v = 0; } else {
    const bpx = px - tris[p + 3], bpy = py - tris[p + 4], bpz = pz - tris[p + 5];
    const d3 = abx * bpx + aby * bpy + abz * bpz, d4 = acx * bpx + acy * bpy + acz * bpz;
    const cpx = px - tris[p + 6], cpy = py - tris[p + 7], cpz = pz - tris[p + 8];
    const d5 = abx * cpx + aby * cpy + abz * cpz, d6 = acx * cpx + acy * cpy + acz * cpz;
    const vc = d1 * d4 - d3 * d2, vb = d5 * d2 - d1 * d6, va = d3 * d6 - d5 * d4;
    if (d3 >= 0 && d4 <= d3) { u = 1; v = 0; }
    else if (vc <= 0 && d1 >= 0 && d3 <= 0) { u = d1 / (d1 - d3); v = 0; }
    else if (d6 >= 0 && d5 <= d6) { u = 0; v = 1; }
    else if (vb <= 0 && d2 >= 0 && d6 <= 0) { u = 0; v = d2 / (d2 - d6); }
    else if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) { const w = (d4 - d3) / (d4 - d3 + (d5 - d6)); u = 1 - w; v = w; }
    else { const den = 1 / (va + vb + vc); u = vb * den; v = vc * den; }
  }
  const qx = ax + u * abx + v * acx - px, qy = ay + u * aby + v * acy - py, qz = az + u * abz + v * acz - pz;
  return qx * qx + qy * qy + qz * qz;
}

// Stores a candidate reference point (x, y, z) with its gas interval length in `slot`.
function setCandidate(len: Float64Array, pt: Float64Array, slot: number, l: number, x: number, y: number, z: number): void {
  len[slot] = l;
  pt[3 * slot] = x;
  pt[3 * slot + 1] = y;
  pt[3 * slot + 2] = z;
}


/**
 * The cell table of a mesh on a grid. Each cut cell's gas volume is integrated along the axis its surface
 * faces most inside the cell (dominantAxes): exact along that axis and
 * sampled by subLines x subLines lines across it, so a thin sliver of gas between a cell face and a body face
 * parallel to it is measured exactly, not missed between lines. One table along x (cellTableAlongX), and one
 * along y and along z (on the mesh and grid with their axes turned cyclically) when some cut cell faces them.
 */
export function buildCellTable(tris: Float64Array, grid: CellGrid, opts: CellTableOptions = {}): CellTable {
  const t = cellTableAlongX(tris, grid, opts);
  const axis = dominantAxes(tris, t, grid);
  for (const a of [1, 2] as const) {
    if (!axis.includes(a)) continue;
    const turn = turnedFor(tris, grid, axis, a);
    takeTurned(t, cellTableAlongX(turn.tris, turn.grid, opts, turn.wanted), axis, a, turn.id);
  }
  return t;
}

/** buildCellTable with each table along an axis made by `alongX` (solver/cell-table-threads.ts: slabs on threads); the same table. */
export async function buildCellTableWith(tris: Float64Array, grid: CellGrid, opts: CellTableOptions, alongX: (tris: Float64Array, grid: CellGrid, opts: CellTableOptions, wanted?: Uint8Array) => Promise<CellTable>): Promise<CellTable> {
  const t = await alongX(tris, grid, opts);
  const axis = dominantAxes(tris, t, grid);
  for (const a of [1, 2] as const) {
    if (!axis.includes(a)) continue;
    const turn = turnedFor(tris, grid, axis, a);
    takeTurned(t, await alongX(turn.tris, turn.grid, opts, turn.wanted), axis, a, turn.id);
  }
  return t;
}

/**
 * The mesh and grid turned so that axis a (1 or 2) is along x (a cyclic turn: new axis m is old axis perm[m], which
 * keeps the triangles' orientation), the turned id of each cell, and the cells to measure there: those whose surface
 * faces axis a (the ramp of a wedge: some thousand of millions).
 */
function turnedFor(tris: Float64Array, grid: CellGrid, axis: Uint8Array, a: 1 | 2): { tris: Float64Array; grid: CellGrid; wanted: Uint8Array; id: (g: number) => [number, number[]] } {
  const perm = a === 1 ? [1, 2, 0] : [2, 0, 1];
  const n = grid.cells;
  const turned = new Float64Array(tris.length);
  for (let v = 0; v < tris.length; v += 3) for (let m = 0; m < 3; m++) turned[v + m] = tris[v + perm[m]];
  const pick = <T>(x: readonly T[]): [T, T, T] => [x[perm[0]], x[perm[1]], x[perm[2]]];
  const np = pick(n);
  const id = (g: number): [number, number[]] => {
    const i = [g % n[0], Math.floor(g / n[0]) % n[1], Math.floor(g / (n[0] * n[1]))];
    return [i[perm[0]] + np[0] * (i[perm[1]] + np[1] * i[perm[2]]), perm];
  };
  const wanted = new Uint8Array(axis.length);
  for (let g = 0; g < axis.length; g++) if (axis[g] === a) wanted[id(g)[0]] = 1;
  return { tris: turned, grid: { cells: np, cellSize: pick(grid.cellSize) }, wanted, id };
}

/** Takes the turned table's values of the cells facing axis a into t. */
function takeTurned(t: CellTable, tp: CellTable, axis: Uint8Array, a: 1 | 2, id: (g: number) => [number, number[]]): void {
  for (let g = 0; g < axis.length; g++) {
    if (axis[g] !== a) continue;
    const [gp, perm] = id(g);
    t.volumeFraction[g] = tp.volumeFraction[gp];
    t.kind[g] = tp.kind[gp];
    for (let m = 0; m < 3; m++) t.refPoint[3 * g + perm[m]] = tp.refPoint[3 * gp + m];
  }
}

/** A cell table's values of every cell (cellTableAlongXSlab's `out`: the slabs of several threads write their parts). */
export type CellValues = Pick<CellTable, 'kind' | 'volumeFraction' | 'refPoint'>;

/**
 * The triangle lists of consecutive slabs (cellTableAlongXSlab, in order of their layers; each slab's lists only) put
 * together with the whole grid's values `values` (the slabs wrote them there): the whole grid's table.
 */
export function joinSlabs(parts: readonly Pick<CellTable, 'triStart' | 'triList'>[], values: CellValues): CellTable {
  const nCells = values.kind.length;
  const nList = parts.reduce((n, p) => n + p.triList.length, 0);
  const triStart = new Uint32Array(nCells + 1);
  const triList = new Uint32Array(nList);
  let c = 0, l = 0;
  for (const p of parts) {
    const n = p.triStart.length - 1;
    for (let g = 0; g < n; g++) triStart[c + g] = p.triStart[g] + l;
    triList.set(p.triList, l);
    c += n;
    l += p.triList.length;
  }
  if (c !== nCells) throw new Error(`internal: the slabs hold ${c} cells, the grid ${nCells}`);
  triStart[nCells] = l;
  return { triStart, triList, ...values };
}

/**
 * Per cell: the axis (0, 1, 2) its triangles face most inside the cell (sum over its triangles of the area of
 * the part inside the cell x |normal component|; a triangle lying on one of the cell's faces counts for none,
 * it does not cut the cell); 255 for cells without triangles.
 */
function dominantAxes(tris: Float64Array, t: CellTable, grid: CellGrid): Uint8Array {
  const [nx, ny] = grid.cells;
  const d = grid.cellSize;
  const out = new Uint8Array(t.kind.length).fill(255);
  const lo = [0, 0, 0], hi = [0, 0, 0];
  for (let g = 0; g < out.length; g++) {
    if (t.triStart[g + 1] === t.triStart[g]) continue;
    const c = [g % nx, Math.floor(g / nx) % ny, Math.floor(g / (nx * ny))];
    for (let a = 0; a < 3; a++) { lo[a] = c[a] * d[a]; hi[a] = lo[a] + d[a]; }
    const w = [0, 0, 0];
    for (let k = t.triStart[g]; k < t.triStart[g + 1]; k++) {
      const p = 9 * t.triList[k];
      const ux = tris[p + 3] - tris[p], uy = tris[p + 4] - tris[p + 1], uz = tris[p + 5] - tris[p + 2];
      const vx = tris[p + 6] - tris[p], vy = tris[p + 7] - tris[p + 1], vz = tris[p + 8] - tris[p + 2];
      const n = [uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx];
      const len = Math.hypot(n[0], n[1], n[2]);
      if (!(len > 0)) continue;
      const area = clippedArea(tris, p, lo, hi, d);
      for (let a = 0; a < 3; a++) w[a] += (area * Math.abs(n[a])) / len;
    }
    out[g] = w[0] >= w[1] && w[0] >= w[2] ? 0 : w[1] >= w[2] ? 1 : 2;
  }
  return out;
}

/** Area of the part of the triangle at p inside the box [lo, hi]; 0 when the triangle lies on one of the box's faces. */
function clippedArea(tris: Float64Array, p: number, lo: number[], hi: number[], d: readonly number[]): number {
  for (let a = 0; a < 3; a++) {
    for (const plane of [lo[a], hi[a]]) {
      const tol = 1e-9 * d[a];
      if (Math.abs(tris[p + a] - plane) <= tol && Math.abs(tris[p + 3 + a] - plane) <= tol && Math.abs(tris[p + 6 + a] - plane) <= tol) return 0;
    }
  }
  // Sutherland-Hodgman against the six planes of the box (clipPlane, between two scratch polygons)
  let from = areaA, to = areaB;
  for (let e = 0; e < 9; e++) from[e] = tris[p + e];
  let m = 3;
  for (let a = 0; a < 3 && m > 0; a++) {
    for (const [bound, sign] of [[lo[a], 1], [hi[a], -1]] as const) {
      m = clipPlane(from, m, to, a, bound, sign);
      [from, to] = [to, from];
      if (m === 0) break;
    }
  }
  if (m < 3) return 0;
  let sx = 0, sy = 0, sz = 0;
  for (let i = 1; i + 1 < m; i++) {
    const ux = from[3 * i] - from[0], uy = from[3 * i + 1] - from[1], uz = from[3 * i + 2] - from[2];
    const vx = from[3 * i + 3] - from[0], vy = from[3 * i + 4] - from[1], vz = from[3 * i + 5] - from[2];
    sx += uy * vz - uz * vy; sy += uz * vx - ux * vz; sz += ux * vy - uy * vx;
  }
  return 0.5 * Math.hypot(sx, sy, sz);
}

/**
 * The cell table with every cut cell's gas volume measured along x: subLines x subLines lines along x
 * (at (a + 0.5)/N of the cell plus a tiny irrational offset so they miss edges), integrating the exact inside
 * length between odd and even crossings; columns of cells without cut cells are decided by one line. The
 * resolution across x is that of the lines: a sliver of gas between two lines is not seen (such a cell
 * comes out inside, kind 2, though it keeps its triangles). Cost ~ cut cells x N^2 x triangles per column.
 * `wanted` (per cell): only those cells' values are measured (columns without one are skipped; the others' values are
 * left as for gas).
 */
function cellTableAlongX(tris: Float64Array, grid: CellGrid, opts: CellTableOptions = {}, wanted?: Uint8Array): CellTable {
  return cellTableAlongXSlab(tris, grid, opts, wanted, 0, grid.cells[2]);
}

/**
 * cellTableAlongX for the layers of cells [k0, k1) along z: its arrays hold those layers' cells only (cell ids from the
 * slab's first); with `out` (the whole grid's values, shared by the threads of one table) its values are views of its
 * part of those. Every cell's values depend on its own column alone, so slabs put together give cellTableAlongX's table
 * bit for bit (solver/cell-table-threads.ts, joinSlabs). `wanted` is indexed by the whole grid's cell ids.
 */
export function cellTableAlongXSlab(tris: Float64Array, grid: CellGrid, opts: CellTableOptions, wanted: Uint8Array | undefined, k0: number, k1: number, out?: CellValues): CellTable {
  checkInput(tris, grid);
  const N = opts.subLines ?? 16;
  if (!(Number.isInteger(N) && N >= 1 && N <= 1024)) throw new Error(`cell table: subLines = ${N} is not an integer from 1 to 1024`);
  const [nx, ny, nz] = grid.cells;
  if (!(Number.isInteger(k0) && Number.isInteger(k1) && 0 <= k0 && k0 <= k1 && k1 <= nz)) throw new Error(`cell table: layers [${k0}, ${k1}) are not within the grid's ${nz}`);
  const [dx, dy, dz] = grid.cellSize;
  const nCells = nx * ny * (k1 - k0);
  const base0 = nx * ny * k0;
  const { start: triStart, list: triList } = cellTriangles(tris, grid, k0, k1);
  const cols = binColumns(tris, grid);
  // the slab's values: arrays of its own, or its part of the whole grid's (`out`, shared by the threads of a table)
  const kind = out ? out.kind.subarray(base0, base0 + nCells).fill(0) : new Uint8Array(nCells);
  const volumeFraction = (out ? out.volumeFraction.subarray(base0, base0 + nCells) : new Float64Array(nCells)).fill(1);
  const refPoint = (out ? out.refPoint.subarray(3 * base0, 3 * (base0 + nCells)) : new Float64Array(3 * nCells)).fill(NaN);
  let maxCol = 0;
  for (let c = 0; c < ny * nz; c++) maxCol = Math.max(maxCol, cols.start[c + 1] - cols.start[c]);
  const xs = new Float64Array(maxCol);
  const cutI = new Int32Array(nx);
  const inside = new Float64Array(nx);
  const S = Math.min(N, CANDIDATE_LINES);
  const slots = 1 + S * S;
  const sub = new Int32Array(N).fill(-1); // line index -> candidate row (or -1)
  for (let s = 0; s < S; s++) sub[Math.floor(((s + 0.5) * N) / S)] = s;
  const candLen = new Float64Array(slots * nx);
  const candPt = new Float64Array(3 * slots * nx);
  const jy = 1e-7 * Math.SQRT2 * dy, jz = 1e-7 * Math.sqrt(3) * dz;

  for (let k = k0; k < k1; k++) {
    for (let j = 0; j < ny; j++) {
      const col = j + ny * k;
      const from = cols.start[col], to = cols.start[col + 1];
      if (from === to) continue; // no triangle near: all gas
      // `wanted`: only some cells' values are taken (the others of this table stay unmeasured)
      if (wanted && !columnWanted(wanted, nx * col, nx)) continue;
      // the column's first cell in the slab's arrays
      const base = nx * col - base0;
      // one line at the column's center decides the cells no triangle touches
      let m = sortCrossings(xs, lineCrossings(tris, cols.list, from, to, (j + 0.5) * dy + jy, (k + 0.5) * dz + jz, xs));
      let nc = 0;
      for (let i = 0, q = 0; i < nx; i++) {
        const g = base + i;
        if (triStart[g + 1] > triStart[g]) {
          if (!wanted || wanted[base0 + g]) cutI[nc++] = i;
          continue;
        }
        const xc = (i + 0.5) * dx;
        while (q < m && xs[q] < xc) q++;
        if (q % 2 === 1) { kind[g] = CELL_INSIDE; volumeFraction[g] = 0; }
      }
      if (nc === 0) continue;
      const bins = lineBins(tris, cols.list, from, to, N, j * dy + jy, k * dz + jz, dy, dz);
      inside.fill(0, 0, nc);
      candLen.fill(-1, 0, slots * nc);
      for (let a = 0; a < N; a++) {
        const y = j * dy + ((a + 0.5) / N) * dy + jy;
        for (let b = 0; b < N; b++) {
          const z = k * dz + ((b + 0.5) / N) * dz + jz;
          m = sortCrossings(xs, lineCrossings(tris, bins.list, bins.start[a * N + b], bins.start[a * N + b + 1], y, z, xs));
          let q = 0;
          for (let ci = 0; ci < nc; ci++) {
            const x0 = cutI[ci] * dx, x1 = x0 + dx;
            while (q < m && xs[q + 1] <= x0) q += 2;
            let gasFrom = x0, best = -1, bestMid = 0;
            for (let r = q; r < m && xs[r] < x1; r += 2) {
              const s = Math.max(xs[r], x0), e = Math.min(xs[r + 1], x1);
              if (e <= s) continue;
              inside[ci] += e - s;
              if (s - gasFrom > best) { best = s - gasFrom; bestMid = (s + gasFrom) / 2; }
              gasFrom = e;
            }
            if (x1 - gasFrom > best) { best = x1 - gasFrom; bestMid = (x1 + gasFrom) / 2; }
            if (best <= 0) continue;
            // slot 0: the longest gas interval of all lines; then one slot per line of the subset
            if (best > candLen[slots * ci]) setCandidate(candLen, candPt, slots * ci, best, bestMid, y, z);
            if (sub[a] >= 0 && sub[b] >= 0) setCandidate(candLen, candPt, slots * ci + 1 + sub[a] * S + sub[b], best, bestMid, y, z);
          }
        }
      }
      for (let ci = 0; ci < nc; ci++) {
        const g = base + cutI[ci];
        let f = 1 - inside[ci] / (N * N * dx);
        if (f < SNAP) f = 0;
        else if (f > 1 - SNAP) f = 1;
        volumeFraction[g] = f;
        if (f === 0) { kind[g] = CELL_INSIDE; continue; }
        kind[g] = CELL_CUT;
        // of the candidates, the one farthest from the cell's triangles
        let bestSlot = -1, bestD = -1;
        for (let s = slots * ci; s < slots * (ci + 1); s++) {
          if (candLen[s] <= 0) continue;
          let d2 = Infinity;
          for (let e = triStart[g]; e < triStart[g + 1] && d2 > bestD; e++) d2 = Math.min(d2, pointTriangleDistance2(tris, 9 * triList[e], candPt[3 * s], candPt[3 * s + 1], candPt[3 * s + 2]));
          if (d2 > bestD) { bestD = d2; bestSlot = s; }
        }
        if (bestSlot >= 0) refPoint.set(candPt.subarray(3 * bestSlot, 3 * bestSlot + 3), 3 * g);
      }
    }
  }
  return { triStart, triList, kind, volumeFraction, refPoint };
}

// Whether any of the nx cells from `base` on is wanted.
function columnWanted(wanted: Uint8Array, base: number, nx: number): boolean {
  for (let i = 0; i < nx; i++) if (wanted[base + i]) return true;
  return false;
}

/**
 * Inside test for points: the parity of the crossings of the ray from the point along +x with the triangles
 * of its column. Points outside the grid's y-z range are outside. Points on the surface may go either way.
 */
export function insideTester(tris: Float64Array, grid: CellGrid): InsideTester {
  checkInput(tris, grid);
  const cols = binColumns(tris, grid);
  const [, ny, nz] = grid.cells;
  const [, dy, dz] = grid.cellSize;
  let maxCol = 0;
  for (let c = 0; c < ny * nz; c++) maxCol = Math.max(maxCol, cols.start[c + 1] - cols.start[c]);
  const xs = new Float64Array(maxCol);
  return {
    isInside(x: number, y: number, z: number): boolean {
      const j = Math.floor(y / dy), k = Math.floor(z / dz);
      if (!(j >= 0 && j < ny && k >= 0 && k < nz)) return false;
      const col = j + ny * k;
      const m = lineCrossings(tris, cols.list, cols.start[col], cols.start[col + 1], y, z, xs);
      let count = 0;
      for (let e = 0; e < m; e++) if (xs[e] > x) count++;
      return count % 2 === 1;
    },
  };
}
