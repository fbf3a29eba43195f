// Mesh checks (open edges, inverted normals, degenerate triangles, non-manifold and inconsistent edges) and
// body placement checks (outside the box, on an inflow face, overlapping bodies, thinner than a cell).
import { describe, expect, it } from 'vitest';
import { shapeSchema } from '../../src-main/common/body-schema.js';
import { bodyPlacementIssues, meshIssues, tessellateShape } from '../../src-main/common/geometry/index.js';

const DOMAIN: [number, number, number] = [1, 1, 1];
const CELLS: [number, number, number] = [20, 20, 20];
const SIZE: [number, number, number] = [0.05, 0.05, 0.05];
const NO_INFLOW = [false, false, false, false, false, false];

// Mesh of a shape given as case JSON.
function mesh(json: unknown): Float64Array {
  return tessellateShape(shapeSchema.parse(json), DOMAIN);
}

// The mesh with every triangle's vertex order reversed.
function reversed(tris: Float64Array): Float64Array {
  const out = tris.slice();
  for (let p = 0; p < tris.length; p += 9) {
    out.set(tris.subarray(p + 6, p + 9), p + 3);
    out.set(tris.subarray(p + 3, p + 6), p + 6);
  }
  return out;
}

// A sphere mesh.
function sphere(center: number[], radius: number, subdivisions = 3): Float64Array {
  return mesh({ type: 'sphere', center, radius, subdivisions });
}

describe('meshIssues', () => {
  const cube = mesh({ type: 'box', min: [0.25, 0.25, 0.25], max: [0.75, 0.75, 0.75] });

  it('a cube with one triangle removed names an open edge and its triangle', () => {
    const open = Float64Array.from([...cube.subarray(0, 9 * 5), ...cube.subarray(9 * 6)]);
    const issues = meshIssues(open);
    expect(issues.length).toBeGreaterThan(0);
    expect(issues[0]).toMatch(/^open edge from \([\d., ]+\) to \([\d., ]+\) \(triangle \d+\): the surface is not closed \(watertight\); close it in your CAD tool$/);
    // the three edges of the removed triangle are open
    expect(issues.filter((s) => s.startsWith('open edge')).length).toBe(3);
  });

  it('a reversed cube reports inverted normals with its signed volume', () => {
    expect(meshIssues(reversed(cube))).toEqual(['the normals point inward (signed volume -1.3e-1 m^3); reverse the triangle order (write the STL with outward normals, counter-clockwise seen from outside)']);
  });

  it('one flipped triangle breaks the orientation consistency', () => {
    const one = cube.slice();
    one.set(reversed(cube.subarray(0, 9)), 0);
    const issues = meshIssues(one);
    expect(issues.some((s) => /^triangles \d+ and \d+ run along the edge .* in the same direction/.test(s))).toBe(true);
  });

  it('a degenerate triangle is named with its vertices', () => {
    const extra = Float64Array.from([...cube, 0.25, 0.25, 0.25, 0.5, 0.5, 0.5, 0.75, 0.75, 0.75]);
    const issues = meshIssues(extra);
    expect(issues[0]).toBe('triangle 12 is degenerate (area 0): its vertices (0.25, 0.25, 0.25), (0.5, 0.5, 0.5), (0.75, 0.75, 0.75) are (nearly) collinear or coincide; remove it or re-mesh the surface');
  });

  it('an edge shared by three triangles is non-manifold', () => {
    // a fin glued onto the cube's top face diagonal edge (two triangles, so the fin itself has an open rim)
    const top = cube.subarray(9 * 10, 9 * 12);
    expect(top.every((x, i) => i % 3 !== 2 || x === 0.75)).toBe(true);
    const a = top.subarray(0, 3), c = top.subarray(6, 9);
    const fin = Float64Array.from([...a, ...c, 0.5, 0.5, 1, ...c, ...a, 0.5, 0.5, 1]);
    const issues = meshIssues(Float64Array.from([...cube, ...fin]));
    expect(issues.some((s) => /shared by 4 triangles .* non-manifold/.test(s))).toBe(true);
  });

  it('caps repeated messages and handles bad arrays', () => {
    const sph = sphere([0.5, 0.5, 0.5], 0.2, 2);
    const holes = sph.filter((_, i) => Math.floor(i / 9) % 10 !== 0);
    const issues = meshIssues(holes);
    expect(issues.filter((s) => s.startsWith('open edge')).length).toBe(5);
    expect(issues).toContainEqual(expect.stringMatching(/^\.\.\. and \d+ more open edges: repair them the same way \(or remove the body\)$/));
    expect(meshIssues(new Float64Array(0))).toEqual(['the mesh has no triangles']);
    expect(meshIssues(Float64Array.from([...cube.subarray(0, 17), NaN]))).toEqual(['triangle 1 has a non-finite coordinate (NaN); remove that triangle or write the mesh again']);
  });

  it('is fast on a large sphere', () => {
    const t0 = performance.now();
    expect(meshIssues(sphere([0.5, 0.5, 0.5], 0.2, 6))).toEqual([]); // 81920 triangles
    expect(performance.now() - t0).toBeLessThan(3000);
  });
});

describe('meshIssues between the shells of one mesh (issue 25 item 3)', () => {
  const box = (min: number[], max: number[]) => mesh({ type: 'box', min, max });
  const join = (...parts: Float64Array[]) => Float64Array.from(parts.flatMap((p) => [...p]));

  it('refuses two overlapping closed cubes written into one mesh', () => {
    const issues = meshIssues(join(box([0.2, 0.2, 0.2], [0.5, 0.5, 0.5]), box([0.4, 0.4, 0.4], [0.7, 0.7, 0.7])));
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatch(/^two shells of the mesh \(1 and 2 of 2\) cross each other: the surfaces intersect or touch near \(.*\); merge them into one closed surface/);
  });

  it('refuses a cube inside a cube, both facing out, and accepts it as a cavity facing in', () => {
    const outer = box([0.2, 0.2, 0.2], [0.8, 0.8, 0.8]);
    const inner = box([0.4, 0.4, 0.4], [0.6, 0.6, 0.6]);
    for (const tris of [join(outer, inner), join(inner, outer)]) {
      const issues = meshIssues(tris);
      expect(issues).toHaveLength(1);
      expect(issues[0]).toMatch(/^the mesh has a shell inside another, both facing out \(shell \d of 2, 12 triangles, inside shell \d\): remove the inner shell/);
    }
    expect(meshIssues(join(outer, reversed(inner)))).toEqual([]);
  });

  it('refuses a single closed shell that passes through itself (a box corner pushed down through its bottom face)', () => {
    const tris = box([0.2, 0.2, 0.2], [0.6, 0.6, 0.6]);
    for (let p = 0; p < tris.length; p += 3) {
      if (tris[p] === 0.6 && tris[p + 1] === 0.6 && tris[p + 2] === 0.6) tris.set([0.4, 0.4, 0.05], p);
    }
    const issues = meshIssues(tris);
    expect(issues.some((m) => /^triangles \d+ and \d+ of the mesh cross each other near \(.*\) \(they share no vertex\): the surface passes through itself/.test(m)), issues.join('\n')).toBe(true);
  });

  it('accepts separate shells and a single sphere', () => {
    expect(meshIssues(join(box([0.1, 0.1, 0.1], [0.3, 0.3, 0.3]), box([0.5, 0.5, 0.5], [0.7, 0.7, 0.7]), sphere([0.2, 0.7, 0.2], 0.1)))).toEqual([]);
  });
});

describe('bodyPlacementIssues', () => {
  it('two overlapping spheres are named; separated and nested-apart ones are not', () => {
    const a = { name: 'left', tris: sphere([0.35, 0.5, 0.5], 0.2) };
    const b = { name: 'right', tris: sphere([0.6, 0.5, 0.5], 0.2) };
    const c = { name: 'far', tris: sphere([0.8, 0.8, 0.8], 0.1) };
    const res = bodyPlacementIssues([a, b, c], DOMAIN, CELLS, SIZE, NO_INFLOW);
    expect(res.errors).toHaveLength(1);
    expect(res.errors[0]).toMatch(/^bodies "left" and "right" overlap: their surfaces intersect or touch near \(.*\); move them apart: set their shapes' positions so they neither touch nor intersect$/);
    expect(res.warnings).toEqual([]);
    const sep = bodyPlacementIssues([a, c], DOMAIN, CELLS, SIZE, NO_INFLOW);
    expect(sep).toEqual({ errors: [], warnings: [] });
  });

  it('a body inside another is an overlap', () => {
    const big = { name: 'big', tris: sphere([0.5, 0.5, 0.5], 0.3) };
    const small = { name: 'small', tris: mesh({ type: 'box', min: [0.45, 0.45, 0.45], max: [0.55, 0.55, 0.55] }) };
    expect(bodyPlacementIssues([big, small], DOMAIN, CELLS, SIZE, NO_INFLOW).errors).toEqual([
      "bodies \"big\" and \"small\" overlap: the second lies inside the first; move them apart: set their shapes' positions so they neither touch nor intersect",
    ]);
    expect(bodyPlacementIssues([small, big], DOMAIN, CELLS, SIZE, NO_INFLOW).errors[0]).toMatch(/the first lies inside the second/);
  });

  it('boxes sharing a face touch, boxes a gap apart do not', () => {
    const a = { name: 'a', tris: mesh({ type: 'box', min: [0.2, 0.2, 0.2], max: [0.4, 0.4, 0.4] }) };
    const b = { name: 'b', tris: mesh({ type: 'box', min: [0.4, 0.25, 0.25], max: [0.6, 0.35, 0.35] }) };
    const c = { name: 'c', tris: mesh({ type: 'box', min: [0.41, 0.2, 0.2], max: [0.6, 0.4, 0.4] }) };
    expect(bodyPlacementIssues([a, b], DOMAIN, CELLS, SIZE, NO_INFLOW).errors[0]).toMatch(/"a" and "b" overlap: their surfaces intersect or touch/);
    expect(bodyPlacementIssues([a, c], DOMAIN, CELLS, SIZE, NO_INFLOW).errors).toEqual([]);
  });

  it('a body leaving the box is an error naming the axis', () => {
    const res = bodyPlacementIssues([{ name: 'ball', tris: sphere([0.5, 0.95, 0.5], 0.1) }], DOMAIN, CELLS, SIZE, NO_INFLOW);
    expect(res.errors).toHaveLength(1);
    expect(res.errors[0]).toMatch(/^body "ball" leaves the box: it spans y from 0.8\d* to 1.05\d* m, the box y from 0 to 1 m/);
  });

  it('a body touching or crossing an inflow face is an error; touching other faces is fine', () => {
    const ramp = { name: 'ramp', tris: mesh({ type: 'wedge', apex: [0.2, 0, 0], length: 0.5, angle: 20 }) };
    // the ramp lies on ymin and spans z from 0 to 1: fine unless those faces inject molecules
    expect(bodyPlacementIssues([ramp], DOMAIN, CELLS, SIZE, NO_INFLOW).errors).toEqual([]);
    const ymin = bodyPlacementIssues([ramp], DOMAIN, CELLS, SIZE, [true, false, true, false, false, true]);
    expect(ymin.errors).toHaveLength(2);
    expect(ymin.errors[0]).toMatch(/^body "ramp" touches the inflow face ymin .*molecules are injected there/);
    expect(ymin.errors[1]).toMatch(/^body "ramp" touches the inflow face zmax/);
    const out = bodyPlacementIssues([{ name: 'ball', tris: sphere([0.05, 0.5, 0.5], 0.1) }], DOMAIN, CELLS, SIZE, [true, false, false, false, false, false]);
    expect(out.errors).toEqual([expect.stringMatching(/^body "ball" crosses the inflow face xmin/)]);
  });

  it('a body thinner than a cell along an axis is a warning', () => {
    const plate = { name: 'plate', tris: mesh({ type: 'box', min: [0.4, 0.2, 0.2], max: [0.42, 0.8, 0.8] }) };
    const res = bodyPlacementIssues([plate], DOMAIN, CELLS, SIZE, NO_INFLOW);
    expect(res.errors).toEqual([]);
    expect(res.warnings).toHaveLength(1);
    expect(res.warnings[0]).toMatch(/^body "plate" is 0.02 m thick along x, thinner than a cell \(0.05 m/);
  });
});
