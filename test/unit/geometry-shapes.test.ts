// Built-in body shapes: every mesh is closed and outward (no mesh issues) with the analytic volume; rotation,
// defaults, mesh properties and plane outlines.
import { describe, expect, it } from 'vitest';
import type { BodyShape } from '../../src-main/common/body-schema.js';
import { shapeSchema } from '../../src-main/common/body-schema.js';
import { parseCase } from '../../src-main/common/case-schema.js';
import { presets } from './case-fixtures.js';
import {
  meshBounds,
  meshCentroid,
  meshIssues,
  meshVolume,
  projectedArea,
  sliceOutline,
  tessellateShape,
  triangleAreas,
  triangleCentroids,
  triangleNormals,
} from '../../src-main/common/geometry/index.js';

const DOMAIN: [number, number, number] = [1, 1, 1];

// A shape as the case schema parses it (defaults applied).
function shape(json: unknown): BodyShape {
  return shapeSchema.parse(json);
}

// Relative difference.
function rel(a: number, b: number): number {
  return Math.abs(a - b) / Math.abs(b);
}

describe('built-in shapes', () => {
  it('box: 12 triangles, closed, outward, exact volume, bounds and centroid', () => {
    const tris = tessellateShape(shape({ type: 'box', min: [0.1, 0.2, 0.3], max: [0.4, 0.6, 0.8] }), DOMAIN);
    expect(tris.length).toBe(12 * 9);
    expect(meshIssues(tris)).toEqual([]);
    expect(rel(meshVolume(tris), 0.3 * 0.4 * 0.5)).toBeLessThan(1e-14);
    expect(meshBounds(tris)).toEqual({ min: [0.1, 0.2, 0.3], max: [0.4, 0.6, 0.8] });
    const c = meshCentroid(tris);
    [0.25, 0.4, 0.55].forEach((x, a) => expect(c[a]).toBeCloseTo(x, 14));
    expect(projectedArea(tris, [1, 0, 0])).toBeCloseTo(0.4 * 0.5, 14);
    expect(projectedArea(tris, [0, 0, -3])).toBeCloseTo(0.3 * 0.4, 14);
  });

  it('box rotated about its center keeps volume and centroid', () => {
    const tris = tessellateShape(shape({ type: 'box', min: [0.2, 0.2, 0.2], max: [0.6, 0.5, 0.4], rotate: [30, 45, 60] }), DOMAIN);
    expect(meshIssues(tris)).toEqual([]);
    expect(rel(meshVolume(tris), 0.4 * 0.3 * 0.2)).toBeLessThan(1e-12);
    const c = meshCentroid(tris);
    [0.4, 0.35, 0.3].forEach((x, a) => expect(c[a]).toBeCloseTo(x, 12));
  });

  it('rotation is about x, then y, then z', () => {
    // a box long along x, rotated 90 deg about y (x -> -z) then 90 deg about z (stays along z)
    const tris = tessellateShape(shape({ type: 'box', min: [0, 0.45, 0.45], max: [1, 0.55, 0.55], rotate: [0, 90, 90] }), DOMAIN);
    const b = meshBounds(tris);
    expect(b.max[2] - b.min[2]).toBeCloseTo(1, 12);
    expect(b.max[0] - b.min[0]).toBeCloseTo(0.1, 12);
  });

  it('wedge (ramp): exact volume, flat face on y = apex.y, span to the top of the box by default', () => {
    const tris = tessellateShape(shape({ type: 'wedge', apex: [0.2, 0.1, 0.25], length: 0.5, angle: 20 }), DOMAIN);
    expect(meshIssues(tris)).toEqual([]);
    const h = 0.5 * Math.tan((20 * Math.PI) / 180);
    expect(rel(meshVolume(tris), 0.5 * 0.5 * h * 0.75)).toBeLessThan(1e-13);
    const b = meshBounds(tris);
    expect(b.min).toEqual([0.2, 0.1, 0.25]);
    expect(b.max[0]).toBeCloseTo(0.7, 15);
    expect(b.max[1]).toBeCloseTo(0.1 + h, 15);
    expect(b.max[2]).toBe(1);
    // the frontal area facing a flow along +x is the base height times the span
    expect(projectedArea(tris, [1, 0, 0])).toBeCloseTo(h * 0.75, 13);
  });

  it('wedge (symmetric, given span, rotated): closed, outward, exact volume', () => {
    const s = shape({ type: 'wedge', apex: [0.2, 0.5, 0.3], length: 0.4, angle: 30, span: 0.2, symmetric: true, rotate: [0, 0, 10] });
    const tris = tessellateShape(s, DOMAIN);
    expect(meshIssues(tris)).toEqual([]);
    const h = 2 * 0.4 * Math.tan((15 * Math.PI) / 180);
    expect(rel(meshVolume(tris), 0.5 * 0.4 * h * 0.2)).toBeLessThan(1e-13);
  });

  it('cylinder along z: length defaults to the box height, polygon area equals pi r^2', () => {
    const tris = tessellateShape(shape({ type: 'cylinder', center: [0.5, 0.5, 0.5], radius: 0.1, segments: 32 }), DOMAIN);
    expect(tris.length / 9).toBe(4 * 32);
    expect(meshIssues(tris)).toEqual([]);
    expect(rel(meshVolume(tris), Math.PI * 0.01 * 1)).toBeLessThan(1e-9);
    const b = meshBounds(tris);
    expect(b.min[2]).toBeCloseTo(0, 15);
    expect(b.max[2]).toBeCloseTo(1, 15);
  });

  it('cylinder along x, y and a vector: closed, outward, volume pi r^2 L', () => {
    for (const axis of ['x', 'y', [1, 2, 3]] as const) {
      const tris = tessellateShape(shape({ type: 'cylinder', center: [0.5, 0.5, 0.5], axis, radius: 0.05, length: 0.3, segments: 48 }), DOMAIN);
      expect(meshIssues(tris)).toEqual([]);
      expect(rel(meshVolume(tris), Math.PI * 0.0025 * 0.3)).toBeLessThan(1e-9);
      const c = meshCentroid(tris);
      c.forEach((x) => expect(x).toBeCloseTo(0.5, 12));
    }
    expect(() => tessellateShape(shape({ type: 'cylinder', center: [0.5, 0.5, 0.5], axis: 'x', radius: 0.1 }), DOMAIN)).toThrow(/length/);
  });

  it('sphere: closed, outward, mesh volume equals 4/3 pi r^3, centroid at the center', () => {
    for (const subdivisions of [0, 1, 3]) {
      const tris = tessellateShape(shape({ type: 'sphere', center: [0.4, 0.5, 0.6], radius: 0.2, subdivisions }), DOMAIN);
      expect(tris.length / 9).toBe(20 * 4 ** subdivisions);
      expect(meshIssues(tris)).toEqual([]);
      expect(rel(meshVolume(tris), (4 / 3) * Math.PI * 0.008)).toBeLessThan(1e-9);
      const c = meshCentroid(tris);
      [0.4, 0.5, 0.6].forEach((x, a) => expect(c[a]).toBeCloseTo(x, 12));
    }
    const tris = tessellateShape(shape({ type: 'sphere', center: [0.5, 0.5, 0.5], radius: 0.2 }), DOMAIN);
    expect(tris.length / 9).toBe(5120);
    // the frontal area of a fine sphere is close to pi r^2
    expect(rel(projectedArea(tris, [1, 0, 0]), Math.PI * 0.04)).toBeLessThan(2e-3);
  });

  it('triangle areas, unit normals pointing away from the center, centroids', () => {
    const tris = tessellateShape(shape({ type: 'sphere', center: [0.5, 0.5, 0.5], radius: 0.2, subdivisions: 2 }), DOMAIN);
    const areas = triangleAreas(tris);
    const normals = triangleNormals(tris);
    const cents = triangleCentroids(tris);
    let total = 0;
    for (let t = 0; t < areas.length; t++) {
      total += areas[t];
      const n = [normals[3 * t], normals[3 * t + 1], normals[3 * t + 2]];
      expect(Math.hypot(...n)).toBeCloseTo(1, 14);
      const r = [cents[3 * t] - 0.5, cents[3 * t + 1] - 0.5, cents[3 * t + 2] - 0.5];
      expect(n[0] * r[0] + n[1] * r[1] + n[2] * r[2]).toBeGreaterThan(0.9 * Math.hypot(...r));
    }
    expect(rel(total, 4 * Math.PI * 0.04)).toBeLessThan(0.02);
  });
});

describe('slice outlines', () => {
  it('a sphere sliced in each axis: points on the circle of the sliced radius, closed outline', () => {
    const r = 0.3;
    const c = [0.5, 0.5, 0.5];
    const tris = tessellateShape(shape({ type: 'sphere', center: c, radius: r }), DOMAIN);
    for (const axis of [0, 1, 2] as const) {
      const at = 0.5 + 0.1 * (axis - 1) + 0.0123;
      const seg = sliceOutline(tris, axis, at);
      expect(seg.length % 4).toBe(0);
      expect(seg.length / 4).toBeGreaterThan(50);
      const rc = Math.sqrt(r * r - (at - c[axis]) ** 2);
      const [u, v] = [0, 1, 2].filter((a) => a !== axis);
      let perimeter = 0;
      for (let s = 0; s < seg.length; s += 4) {
        for (const p of [s, s + 2]) expect(Math.abs(Math.hypot(seg[p] - c[u], seg[p + 1] - c[v]) - rc)).toBeLessThan(0.005 * r);
        perimeter += Math.hypot(seg[s + 2] - seg[s], seg[s + 3] - seg[s + 1]);
      }
      expect(rel(perimeter, 2 * Math.PI * rc)).toBeLessThan(0.01);
      // closed: every end point is shared by exactly two segments
      const ends = new Map<string, number>();
      for (let p = 0; p < seg.length; p += 2) {
        const key = `${seg[p].toFixed(12)},${seg[p + 1].toFixed(12)}`;
        ends.set(key, (ends.get(key) ?? 0) + 1);
      }
      for (const n of ends.values()) expect(n).toBe(2);
    }
  });

  it('a plane missing the body gives no segments; a box gives its rectangle', () => {
    const tris = tessellateShape(shape({ type: 'box', min: [0.2, 0.3, 0.4], max: [0.6, 0.7, 0.8] }), DOMAIN);
    expect(sliceOutline(tris, 2, 0.9).length).toBe(0);
    const seg = sliceOutline(tris, 2, 0.5);
    for (let p = 0; p < seg.length; p += 2) {
      const onX = Math.abs(seg[p] - 0.2) < 1e-15 || Math.abs(seg[p] - 0.6) < 1e-15;
      const onY = Math.abs(seg[p + 1] - 0.3) < 1e-15 || Math.abs(seg[p + 1] - 0.7) < 1e-15;
      expect(onX || onY).toBe(true);
    }
  });
});

// A run leaves the crossing search out for built-in shapes (body-tables.ts: one convex shell each); the presets' bodies,
// meshed at their cases' facet size (the full-size wedge: 55,146 triangles), show that it finds none there.
describe('the presets\' built-in bodies at their facet size', () => {
  for (const [file, json] of presets()) {
    const c = parseCase(json);
    c.bodies.forEach((b, i) => {
      if (b.shape.type === 'stl') return;
      it(`${file}: bodies[${i}] (${b.shape.type}) is closed and outward, and no two of its triangles cross`, () => {
        const domain = c.grid.cells.map((n, a) => n * c.grid.cellSize[a]) as [number, number, number];
        const tris = tessellateShape(b.shape, domain, undefined, c.grid.cellSize);
        expect(meshIssues(tris, true)).toEqual([]);
        expect(meshIssues(tris, false)).toEqual([]);
      });
    });
  }
});
