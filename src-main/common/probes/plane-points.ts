// Between a field map's plane and the grid: a point clicked on the map (metres along the plane's horizontal and
// vertical axes) as a point of the grid on the plane's cell centres, and a probe line as drawn on the map.
import type { Vec3 } from './line-cells.js';

/** Normal and in-plane axes (horizontal u, vertical v) of each slice axis, as the field slices order them. */
const PLANES = { x: { normal: 0, u: 1, v: 2 }, y: { normal: 1, u: 0, v: 2 }, z: { normal: 2, u: 0, v: 1 } } as const;
export type PlaneAxis = keyof typeof PLANES;

/** The grid point of map position (u, v) (m) on the plane of cells `index` normal to `axis`: the normal coordinate at the cells' centres. */
export function planePointToGrid(axis: PlaneAxis, index: number, u: number, v: number, cellSize: readonly number[]): Vec3 {
  const p = PLANES[axis];
  const out: Vec3 = [0, 0, 0];
  out[p.normal] = Number(((index + 0.5) * cellSize[p.normal]).toPrecision(12));
  out[p.u] = Number(u.toPrecision(6));
  out[p.v] = Number(v.toPrecision(6));
  return out;
}

/** The segment from -> to as seen on a map normal to `axis` (its projection): [[u0, v0], [u1, v1]] in metres. */
export function lineOnPlane(axis: PlaneAxis, from: Vec3, to: Vec3): [[number, number], [number, number]] {
  const p = PLANES[axis];
  return [[from[p.u], from[p.v]], [to[p.u], to[p.v]]];
}
