// Issue 27 item 9: the built-in box, wedge and cylinder are faceted finely (facets no longer than the shape's
// `resolution`, else the grid's smallest cell size), stay closed with outward normals, keep their analytic area and
// volume, count their triangles before meshing exactly as meshed, and give a surface distribution (Cp along the ramp)
// many points instead of the two of a 12-triangle wedge.
import { describe, expect, it } from 'vitest';
import { shapeSchema, type BodyShape } from '../../src-main/common/body-schema.js';
import { surfacePoints } from '../../src-main/common/charts/surface-chart.js';
import { trianglesIntersect } from '../../src-main/common/geometry/triangle-intersect.js';
import type { SurfaceView } from '../../src-main/common/contract/types.js';
import {
  meshIssues, meshVolume, shapeTriangleCount, tessellateShape, triangleAreas, triangleBudgetIssue, triangleCentroids, triangleNormals,
} from '../../src-main/common/geometry/index.js';

const DOMAIN: [number, number, number] = [0.2, 0.1, 0.01];
const CELL: [number, number, number] = [2.5e-3, 2.5e-3, 2.5e-3];
/** Relative tolerance on areas and volumes of meshes whose facets tile the faces exactly (round-off only). */
const EXACT = 1e-12;

/** A shape as the case schema parses it. */
const shape = (json: unknown): BodyShape => shapeSchema.parse(json);

/** Sum of the triangle areas. */
const area = (tris: Float64Array): number => triangleAreas(tris).reduce((s, a) => s + a, 0);

/** Longest triangle edge of a mesh. */
function longestEdge(tris: Float64Array, skip: (t: number) => boolean = () => false): number {
  let m = 0;
  for (let t = 0; t < tris.length / 9; t++) {
    if (skip(t)) continue;
    for (let e = 0; e < 3; e++) {
      const a = 9 * t + 3 * e, b = 9 * t + 3 * ((e + 1) % 3);
      m = Math.max(m, Math.hypot(tris[a] - tris[b], tris[a + 1] - tris[b + 1], tris[a + 2] - tris[b + 2]));
    }
  }
  return m;
}

/** Checks what every faceted shape must be: closed, outward, counted as meshed. */
function expectSound(s: BodyShape, tris: Float64Array, cellSize?: number[]): void {
  expect(meshIssues(tris)).toEqual([]);
  expect(meshVolume(tris)).toBeGreaterThan(0); // outward: a mesh facing in has a negative volume
  expect(shapeTriangleCount(s, DOMAIN, cellSize)).toBe(tris.length / 9);
}

describe('faceted built-in shapes (issue 27 item 9)', () => {
  it('box: faces cut into cell-sized quads, closed and outward, exact area and volume', () => {
    const s = shape({ type: 'box', min: [0.05, 0.02, 0], max: [0.07, 0.045, 0.01] });
    const tris = tessellateShape(s, DOMAIN, undefined, CELL);
    expectSound(s, tris, CELL);
    // 8 x 10 x 4 pieces: 4 (80 + 40 + 32) triangles
    expect(tris.length / 9).toBe(608);
    expect(longestEdge(tris)).toBeLessThanOrEqual(Math.SQRT2 * 2.5e-3 * (1 + 1e-9));
    expect(Math.abs(area(tris) / (2 * (0.02 * 0.025 + 0.025 * 0.01 + 0.01 * 0.02)) - 1)).toBeLessThan(EXACT);
    expect(Math.abs(meshVolume(tris) / (0.02 * 0.025 * 0.01) - 1)).toBeLessThan(EXACT);
    // without a grid or a resolution: one facet per face, as before
    expect(tessellateShape(s, DOMAIN).length / 9).toBe(12);
  });

  it('wedge: the ramp in about one facet per cell, closed and outward, exact area and volume, rotated too', () => {
    for (const json of [
      { type: 'wedge', apex: [0.03, 0, 0], length: 0.12, angle: 30 },
      { type: 'wedge', apex: [0.03, 0.05, 0.002], length: 0.1, angle: 20, span: 0.006, symmetric: true, rotate: [0, 0, 5] },
    ]) {
      const s = shape(json);
      const tris = tessellateShape(s, DOMAIN, undefined, CELL);
      expectSound(s, tris, CELL);
      const L = json.length, span = json.span ?? DOMAIN[2];
      const deg = Math.PI / 180;
      const [lo, hi] = json.symmetric ? [-Math.tan((json.angle / 2) * deg), Math.tan((json.angle / 2) * deg)] : [0, Math.tan(json.angle * deg)];
      const section = (L * L * (hi - lo)) / 2;
      const perimeter = Math.hypot(L, L * lo) + Math.hypot(L, L * hi) + L * (hi - lo);
      expect(Math.abs(meshVolume(tris) / (section * span) - 1)).toBeLessThan(EXACT);
      expect(Math.abs(area(tris) / (perimeter * span + 2 * section) - 1)).toBeLessThan(EXACT);
      // the side faces' facets are no longer than a cell along and across (the caps are fans from the centroid)
      const normals = triangleNormals(tris);
      expect(longestEdge(tris, (t) => Math.abs(normals[3 * t + 2]) > 0.5)).toBeLessThanOrEqual(Math.SQRT2 * 2.5e-3 * (1 + 1e-9));
    }
  });

  it('cylinder: cut along its axis by the facet size; faceted area exact, within 0.1 % of the smooth one at 64 segments', () => {
    const s = shape({ type: 'cylinder', center: [0.1, 0.05, 0.005], radius: 0.02, axis: 'x', length: 0.03 });
    const tris = tessellateShape(s, DOMAIN, undefined, CELL);
    expectSound(s, tris, CELL);
    expect(tris.length / 9).toBe(2 * 64 * 12 + 2 * 64); // 0.03 m in 12 pieces of 2.5 mm
    const R = 0.02 * Math.sqrt((2 * Math.PI) / (64 * Math.sin((2 * Math.PI) / 64)));
    const faceted = 64 * 2 * R * Math.sin(Math.PI / 64) * 0.03 + 2 * Math.PI * 0.02 ** 2;
    expect(Math.abs(area(tris) / faceted - 1)).toBeLessThan(EXACT);
    expect(Math.abs(area(tris) / (2 * Math.PI * 0.02 * 0.03 + 2 * Math.PI * 0.02 ** 2) - 1)).toBeLessThan(1e-3);
    expect(Math.abs(meshVolume(tris) / (Math.PI * 0.02 ** 2 * 0.03) - 1)).toBeLessThan(1e-12);
  });

  it('takes the shape\'s own resolution over the cell size; refuses a bad one naming the field and a mesh too fine naming the fix', () => {
    const s = shape({ type: 'box', min: [0.05, 0.02, 0], max: [0.07, 0.045, 0.01], resolution: 0.005 });
    const tris = tessellateShape(s, DOMAIN, undefined, CELL);
    expectSound(s, tris, CELL);
    expect(tris.length / 9).toBe(4 * (4 * 5 + 5 * 2 + 2 * 4));
    const bad = shapeSchema.safeParse({ type: 'wedge', apex: [0, 0, 0], length: 0.1, angle: 30, resolution: 0 });
    expect(bad.success).toBe(false);
    expect(bad.error!.issues[0].path).toEqual(['resolution']);
    expect(bad.error!.issues[0].message).toMatch(/> 0/);
    const fine = shape({ type: 'wedge', apex: [0.03, 0, 0], length: 0.12, angle: 30, resolution: 1e-5 });
    expect(triangleBudgetIssue([{ name: 'ramp', shape: fine }], DOMAIN, CELL)).toMatch(/"ramp" \d+.*larger shape\.resolution/);
    expect(triangleBudgetIssue([{ name: 'ramp', shape: fine }], DOMAIN, CELL)).not.toBeNull();
    expect(triangleBudgetIssue([{ name: 'ramp', shape: shape({ ...fine, resolution: undefined }) }], DOMAIN, CELL)).toBeNull();
  });

  it('gives the Cp distribution along the ramp a point per facet: 48 distances on a 0.12 m ramp of 2.5 mm cells, not 2', () => {
    const s = shape({ type: 'wedge', apex: [0.03, 0, 0], length: 0.12, angle: 30 });
    /** The surface points a chart of Cp along the stream shows for the wedge meshed this way (every triangle a made-up Cp of 1). */
    const rampDistances = (tris: Float64Array): number => {
      const n = tris.length / 9;
      const view: SurfaceView = {
        runId: 1, bodyNames: ['wedge'], sampledTime: 1, freeStreamVelocity: [1000, 0, 0], triangles: n, stride: 1,
        body: new Array(n).fill(0), centroid: [...triangleCentroids(tris)], normal: [...triangleNormals(tris)], area: [...triangleAreas(tris)],
        pressure: new Array(n).fill(1), shear: new Array(n).fill(0), heatFlux: new Array(n).fill(0), numberFlux: new Array(n).fill(0),
        cp: new Array(n).fill(1), cf: new Array(n).fill(0), ch: new Array(n).fill(0), loads: null,
      };
      const facing = surfacePoints(view, 0, 'cp', 'streamwise').filter((p) => p.group === 0);
      return new Set(facing.map((p) => p.x.toPrecision(6))).size;
    };
    expect(rampDistances(tessellateShape(s, DOMAIN))).toBe(2);
    // the ramp is 0.12 / cos 30 = 0.1386 m: 56 facets along it, centroids at 2 distances each (2 triangles per quad)
    expect(rampDistances(tessellateShape(s, DOMAIN, undefined, CELL))).toBeGreaterThanOrEqual(0.12 / 2.5e-3);
  });
});

describe('triangles meeting along a slanted line (the check that refused the first faceted wedge)', () => {
  it('edges on the same slanted line meet only where they overlap, whatever the round-off of their points (failed before)', () => {
    // the ramp edge of the wedge above cut into 56 pieces as subdividePolygon cuts it: from (0.15, hi) back to the apex (0.03, 0)
    const hi = 0.12 * Math.tan(Math.PI / 6);
    const on = (j: number): number[] => [0.15 + ((0.03 - 0.15) * j) / 56, hi + ((0 - hi) * j) / 56, 0];
    const out = new Float64Array(3);
    // a cap triangle fanned from the centroid to pieces 47-48, a side triangle on piece 41-42 (both edges on the ramp line)
    const cap = Float64Array.from([0.11, hi / 3, 0, ...on(48), ...on(47)]);
    const side = Float64Array.from([...on(41), ...on(42), ...on(42).slice(0, 2), 0.0025]);
    expect(trianglesIntersect(cap, 0, side, 0, 1e-14, out)).toBe(false);
    expect(trianglesIntersect(side, 0, cap, 0, 1e-14, out)).toBe(false);
    // slid along the line onto the other, the vertical one does meet it
    const over = Float64Array.from([...on(47.2), ...on(47.7), ...on(47.7).slice(0, 2), 0.0025]);
    expect(trianglesIntersect(cap, 0, over, 0, 1e-14, out)).toBe(true);
    expect(out[0]).toBeGreaterThan(on(47.7)[0] - 1e-9);
    expect(out[0]).toBeLessThan(on(47.2)[0] + 1e-9);
  });
});
