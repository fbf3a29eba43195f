// How finely the built-in box, wedge and cylinder are faceted: every face is cut into facets whose edges are no
// longer than the facet size, the shape's `resolution` (m) or, by default, the grid's smallest cell size, so a
// surface distribution (Cp, Cf, Ch along a ramp) has about one point per cell it crosses. Without either (a mesh
// asked for with no grid) each face stays one facet, as the shapes were meshed before (box 12 triangles, wedge 12).
import type { BodyShape } from '../body-schema.js';

/** Built-in shapes whose faces are subdivided by a facet size (a sphere has its subdivisions, an STL its own mesh). */
export type FacetedShape = Extract<BodyShape, { type: 'box' | 'wedge' | 'cylinder' }>;

/** The facet size of a shape (m): its `resolution`, else the smallest cell size of the grid; null: one facet per face. */
export function facetSize(shape: FacetedShape, cellSize?: readonly number[]): number | null {
  if (shape.resolution !== undefined) return shape.resolution;
  if (!cellSize || cellSize.length === 0) return null;
  const h = Math.min(...cellSize);
  return h > 0 && Number.isFinite(h) ? h : null;
}

/** Pieces an edge of `length` m is cut into so that none is longer than `h` (1 when h is null); 1e-9 slack for round-off. */
export function divisions(length: number, h: number | null): number {
  if (h === null || !(length > 0)) return 1;
  return Math.max(1, Math.ceil(length / h - 1e-9));
}

/**
 * The boundary points of a closed polygon (x, y pairs, counter-clockwise) with every edge cut into pieces no longer
 * than `h`: the corners stay, points are added between them (all of them, in order, as one polygon).
 */
export function subdividePolygon(poly: readonly number[], h: number | null): number[] {
  const n = poly.length / 2;
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const [x0, y0, x1, y1] = [poly[2 * i], poly[2 * i + 1], poly[2 * ((i + 1) % n)], poly[2 * ((i + 1) % n) + 1]];
    const e = divisions(Math.hypot(x1 - x0, y1 - y0), h);
    for (let j = 0; j < e; j++) out.push(x0 + ((x1 - x0) * j) / e, y0 + ((y1 - y0) * j) / e);
  }
  return out;
}

/** Triangles of a prism with `boundary` points around its caps and `rings` divisions along its extrusion: sides 2 per quad, caps 1 per point. */
export function prismTriangles(boundary: number, rings: number): number {
  return 2 * boundary * rings + 2 * boundary;
}

/** Triangles of a box cut into n[0] x n[1] x n[2] pieces along its axes: 2 per quad on each of the 6 faces. */
export function boxTriangles(n: readonly [number, number, number]): number {
  return 4 * (n[0] * n[1] + n[1] * n[2] + n[2] * n[0]);
}
