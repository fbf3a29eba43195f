// The cells a straight segment crosses in the grid, with the distances along the segment where it enters and
// leaves each: the geometry of a line probe (plot over a line). The grid spans [0, n_a h_a] on each axis a; cell
// (i, j, k) has the id i + nx (j + ny k).

export type Vec3 = [number, number, number];

/** The grid a probe runs through: cells per axis and the cell size, m. */
export interface ProbeGrid {
  cells: readonly [number, number, number];
  cellSize: readonly [number, number, number];
}

/** One cell on the line: its indices and id, and where the line enters and leaves it (m from the line's start). */
export interface LineCell {
  ijk: [number, number, number];
  cell: number;
  s0: number;
  s1: number;
}

/** Pieces shorter than this fraction of the smallest cell (a line grazing an edge or corner) are dropped. */
const SLIVER = 1e-9;

/** The box's length along each axis (m). */
function boxLengths(g: ProbeGrid): Vec3 {
  return [0, 1, 2].map((a) => g.cells[a] * g.cellSize[a]) as Vec3;
}

/** The part [t0, t1] (fractions of the segment) of `from` -> `to` inside the box, or null when it misses the box (Liang-Barsky). */
function clipToBox(from: Vec3, to: Vec3, L: Vec3): [number, number] | null {
  let t0 = 0, t1 = 1;
  for (let a = 0; a < 3; a++) {
    const d = to[a] - from[a];
    if (d === 0) {
      if (from[a] < 0 || from[a] > L[a]) return null;
      continue;
    }
    let ta = (0 - from[a]) / d, tb = (L[a] - from[a]) / d;
    if (ta > tb) [ta, tb] = [tb, ta];
    t0 = Math.max(t0, ta);
    t1 = Math.min(t1, tb);
    if (t0 >= t1) return null;
  }
  return [t0, t1];
}

/** Cell index along axis a holding the coordinate x (a point on the top face belongs to the last cell). */
function indexAt(x: number, a: number, g: ProbeGrid): number {
  return Math.min(g.cells[a] - 1, Math.max(0, Math.floor(x / g.cellSize[a])));
}

/** The cell holding a point inside the box (on a face between cells: the upper one; on the box's top face: the last). */
export function cellAt(g: ProbeGrid, p: Vec3): { ijk: [number, number, number]; cell: number } {
  const ijk = [0, 1, 2].map((a) => indexAt(p[a], a, g)) as [number, number, number];
  return { ijk, cell: ijk[0] + g.cells[0] * (ijk[1] + g.cells[1] * ijk[2]) };
}

/** `what` when the point lies outside the box, naming the axis and the box's extent; null inside. */
export function outsideBox(g: ProbeGrid, p: Vec3, what: string): string | null {
  const L = boxLengths(g);
  for (let a = 0; a < 3; a++) {
    if (!Number.isFinite(p[a]) || p[a] < 0 || p[a] > L[a]) {
      return `${what} [${p.join(', ')}] is outside the box along ${'xyz'[a]}: give ${'xyz'[a]} from 0 to ${Number(L[a].toPrecision(12))} m`;
    }
  }
  return null;
}

/**
 * The cells the segment `from` -> `to` (m) crosses, in order from `from`, with entry and exit distances along it. The
 * parts outside the box are left out (distances still count from `from`). Throws naming the fix when the two points
 * are the same or the segment misses the box.
 */
export function cellsAlongLine(g: ProbeGrid, from: Vec3, to: Vec3): LineCell[] {
  const length = Math.hypot(to[0] - from[0], to[1] - from[1], to[2] - from[2]);
  if (!(length > 0)) throw new Error('line probe: the two points are the same; give two different points (for one point use the point probe)');
  const L = boxLengths(g);
  const clip = clipToBox(from, to, L);
  if (!clip) throw new Error(`line probe: the line from [${from.join(', ')}] to [${to.join(', ')}] misses the box (0 to ${L.map((x) => Number(x.toPrecision(12))).join(', ')} m along x, y, z); give points inside it`);
  // every fraction t where the segment crosses a plane between cells, then the pieces between consecutive ones
  const ts = [clip[0], clip[1]];
  for (let a = 0; a < 3; a++) {
    const d = to[a] - from[a];
    if (d === 0) continue;
    for (let k = 1; k < g.cells[a]; k++) {
      const t = (k * g.cellSize[a] - from[a]) / d;
      if (t > clip[0] && t < clip[1]) ts.push(t);
    }
  }
  ts.sort((x, y) => x - y);
  const minPiece = SLIVER * Math.min(...g.cellSize);
  const out: LineCell[] = [];
  for (let n = 0; n + 1 < ts.length; n++) {
    const [s0, s1] = [ts[n] * length, ts[n + 1] * length];
    if (s1 - s0 <= minPiece) continue;
    const tm = (ts[n] + ts[n + 1]) / 2;
    const mid: Vec3 = [0, 1, 2].map((a) => from[a] + tm * (to[a] - from[a])) as Vec3;
    const { ijk, cell } = cellAt(g, mid);
    out.push({ ijk, cell, s0, s1 });
  }
  return out;
}
