// Surface results from hand-built sums: every per-element formula with its sign convention (a molecule
// bouncing off a wall pushes on it with positive pressure; the gas drags the wall along its motion; heat
// counts into the wall), the free-stream coefficients, and the body sums of force, moment, drag/lift/side.
import { describe, expect, it } from 'vitest';
import { BOLTZMANN } from '../../src-main/common/physics.js';
import { SURFACE_Q, emptySurfaceSums, type SurfaceSums } from '../../src-main/common/surface-layout.js';
import {
  computeBodyForces,
  computeSurfaceResults,
  flowTangents,
  windAxes,
  type FreeStream,
  type SurfaceElementGeometry,
} from '../../src-main/common/surface/surface-results.js';

const M = 6.63e-26; // argon, kg

/** Adds `count` simulated molecules of mass m arriving with vIn and leaving with vOut at element e. */
function hit(sums: SurfaceSums, e: number, vIn: number[], vOut: number[], count = 1, m = M): void {
  const o = e * SURFACE_Q;
  const v = sums.values;
  v[o] += count;
  v[o + 5] += count;
  for (let k = 0; k < 3; k++) {
    v[o + 1 + k] += count * m * vIn[k];
    v[o + 6 + k] += count * m * vOut[k];
  }
  v[o + 4] += count * 0.5 * m * (vIn[0] ** 2 + vIn[1] ** 2 + vIn[2] ** 2);
  v[o + 9] += count * 0.5 * m * (vOut[0] ** 2 + vOut[1] ** 2 + vOut[2] ** 2);
}

/** Geometry of elements given as [area, normal, centroid, body]. */
function geometry(elems: [number, number[], number[], number][]): SurfaceElementGeometry {
  return {
    area: Float64Array.from(elems.map((e) => e[0])),
    normal: Float64Array.from(elems.flatMap((e) => e[1])),
    centroid: Float64Array.from(elems.flatMap((e) => e[2])),
    body: Int32Array.from(elems.map((e) => e[3])),
  };
}

function close(actual: number, expected: number, rel = 1e-12) {
  expect(Math.abs(actual - expected), `${actual} vs ${expected}`).toBeLessThanOrEqual(rel * Math.max(Math.abs(expected), 1e-300));
}

const FNUM = 1e12;
const T_SAMPLE = 2e-3;

describe('computeSurfaceResults', () => {
  it('a molecule hitting a +x wall along -x and reflected specularly pushes with positive pressure, no shear, no heat', () => {
    const sums = emptySurfaceSums(1);
    sums.sampledTime = T_SAMPLE;
    const v = 500, w = 120;
    hit(sums, 0, [-v, w, 0], [v, w, 0], 3);
    const A = 0.25;
    const r = computeSurfaceResults(sums, geometry([[A, [1, 0, 0], [0, 0, 0], 0]]), FNUM, null);
    close(r.pressure[0], (FNUM * 3 * 2 * M * v) / (T_SAMPLE * A));
    expect(r.pressure[0]).toBeGreaterThan(0);
    expect([...r.shear]).toEqual([0, 0, 0]);
    expect(r.shearMagnitude[0]).toBe(0);
    expect(r.heatFlux[0]).toBe(0);
    close(r.numberFlux[0], (FNUM * 3) / (T_SAMPLE * A));
    close(r.incidentRate[0], (FNUM * 3) / T_SAMPLE);
    // The force on the wall points into it (-x).
    close(r.force[0], -(FNUM * 3 * 2 * M * v) / T_SAMPLE);
    expect(r.force[1]).toBe(0);
    expect(r.cp).toBeNull();
    expect(r.cf).toBeNull();
    expect(r.ch).toBeNull();
  });

  it('a molecule that loses its tangential velocity and energy drags the wall along its motion and heats it', () => {
    const sums = emptySurfaceSums(1);
    sums.sampledTime = T_SAMPLE;
    const vIn = [0, 300, -800], vOut = [0, 0, 200]; // wall normal +z
    hit(sums, 0, vIn, vOut, 2);
    const A = 3;
    const r = computeSurfaceResults(sums, geometry([[A, [0, 0, 1], [0, 0, 0], -1]]), FNUM, null);
    const k = FNUM / (T_SAMPLE * A);
    close(r.pressure[0], k * 2 * M * (800 + 200));
    close(r.shear[1], k * 2 * M * 300);
    expect(r.shear[0]).toBe(0);
    expect(r.shear[2]).toBe(0);
    close(r.shearMagnitude[0], k * 2 * M * 300);
    const eIn = 0.5 * M * (300 ** 2 + 800 ** 2), eOut = 0.5 * M * 200 ** 2;
    close(r.heatFlux[0], k * 2 * (eIn - eOut));
    close(r.heatRate[0], k * A * 2 * (eIn - eOut));
    expect(r.heatFlux[0]).toBeGreaterThan(0);
  });

  it('splits the force on an inclined element into pressure along -n and a tangential shear', () => {
    const sums = emptySurfaceSums(1);
    sums.sampledTime = 1;
    const n = [0.6, 0.8, 0];
    hit(sums, 0, [-400, -100, 50], [250, 30, -70], 1);
    const A = 2;
    const r = computeSurfaceResults(sums, geometry([[A, n, [0, 0, 0], 0]]), 1, null);
    const F = [M * (-400 - 250), M * (-100 - 30), M * (50 + 70)];
    for (let k = 0; k < 3; k++) close(r.force[k], F[k]);
    const fn = F[0] * n[0] + F[1] * n[1];
    close(r.pressure[0], -fn / A);
    // shear . n = 0 and -p n A + shear A = F
    expect(Math.abs(r.shear[0] * n[0] + r.shear[1] * n[1] + r.shear[2] * n[2])).toBeLessThan(1e-12 * r.shearMagnitude[0]);
    for (let k = 0; k < 3; k++) close((-r.pressure[0] * n[k] + r.shear[k]) * A, F[k], 1e-12);
    close(r.shearMagnitude[0], Math.hypot(r.shear[0], r.shear[1], r.shear[2]));
  });

  it('gives coefficients over the free stream: cp = (p - n k T)/q, cf = (tau . t)/q signed, ch = q_w/(rho U^3 / 2)', () => {
    const sums = emptySurfaceSums(2);
    sums.sampledTime = T_SAMPLE;
    hit(sums, 0, [-1000, 200, 0], [300, 0, 0], 5);
    // the stream runs along -y, against the shear (+y): the gas drags the wall upstream, Cf < 0
    const fs: FreeStream = { density: 1e-5, numberDensity: 1e-5 / M, temperature: 200, velocity: [0, -1500, 0] };
    const U = 1500;
    const r = computeSurfaceResults(sums, geometry([[0.5, [1, 0, 0], [0, 0, 0], 0], [0.5, [-1, 0, 0], [0, 0, 0], 0]]), FNUM, fs);
    const q = 0.5 * fs.density * U * U;
    const pInf = fs.numberDensity * BOLTZMANN * fs.temperature;
    close(r.cp![0], (r.pressure[0] - pInf) / q);
    expect(r.shear[1]).toBeGreaterThan(0);
    close(r.cf![0], -r.shearMagnitude[0] / q);
    close(r.ch![0], r.heatFlux[0] / (q * U));
    // An element without hits: zero fluxes, the free-stream pressure deficit as cp.
    expect(r.pressure[1]).toBe(0);
    expect(r.numberFlux[1]).toBe(0);
    expect(r.heatFlux[1]).toBe(0);
    expect(r.shearMagnitude[1]).toBe(0);
    close(r.cp![1], -pInf / q);
    expect(r.cf![1]).toBe(0);
    // A gas at rest has no dynamic pressure: no coefficients.
    expect(computeSurfaceResults(sums, geometry([[1, [1, 0, 0], [0, 0, 0], 0], [1, [1, 0, 0], [0, 0, 0], 0]]), FNUM, { ...fs, velocity: [0, 0, 0] }).cp).toBeNull();
  });

  /** Sums of one hit per element whose momentum change is D = -P n + S per unit time and area (F = D, p = P, tau = S). */
  function loaded(elements: { n: number[]; P: number; S: number[] }[]): SurfaceSums {
    const sums = emptySurfaceSums(elements.length);
    sums.sampledTime = 1;
    elements.forEach(({ n, P, S }, e) => hit(sums, e, [0, 1, 2].map((k) => -P * n[k] + S[k]), [0, 0, 0], 1, 1));
    return sums;
  }

  it('Cf is the signed shear along the stream\'s tangential direction on an inclined face (a 30 degree ramp)', () => {
    const th = Math.PI / 6;
    const n = [-Math.sin(th), Math.cos(th), 0]; // the ramp's face looks up and into a stream along +x
    const up = [Math.cos(th), Math.sin(th), 0]; // the stream's direction along the ramp
    const fs: FreeStream = { density: 2, numberDensity: 2 / M, temperature: 300, velocity: [10, 0, 0] }; // q = 100
    // downstream shear with a cross-flow part (along z, not counted), the same reversed, and cross-flow only
    const els = [
      { n, P: 40, S: [3 * up[0], 3 * up[1], 5] },
      { n, P: 40, S: [-3 * up[0], -3 * up[1], 5] },
      { n, P: 40, S: [0, 0, 7] },
    ];
    const g = geometry(els.map(({ n: nn }) => [1, nn, [0, 0, 0], 0]));
    const r = computeSurfaceResults(loaded(els), g, 1, fs);
    close(r.pressure[0], 40);
    close(r.cf![0], 3 / 100);
    close(r.cf![1], -3 / 100);
    expect(Math.abs(r.cf![2])).toBeLessThan(1e-15);
    // |tau| keeps its own array, unsigned and with the cross-flow part
    close(r.shearMagnitude[1], Math.hypot(3, 5));
    // the tangent is the stream made tangent, whatever the stream's speed
    const t = flowTangents(g.normal, [0.5, 0, 0])!;
    for (let k = 0; k < 3; k++) expect(Math.abs(t[k] - up[k])).toBeLessThan(1e-15);
  });

  it('Cf where the stream is along the normal: the shear along the lift direction (+y for a stream along x)', () => {
    const fs: FreeStream = { density: 2, numberDensity: 2 / M, temperature: 300, velocity: [10, 0, 0] };
    const els = [
      { n: [-1, 0, 0], P: 50, S: [0, 4, 0] }, // front face of a block, shear outward above the centre
      { n: [-1, 0, 0], P: 50, S: [0, -4, 0] }, // and below
      { n: [1, 0, 0], P: 5, S: [0, 0, 6] }, // base: shear along z is not along the lift
    ];
    const g = geometry(els.map(({ n }) => [1, n, [0, 0, 0], 0]));
    const r = computeSurfaceResults(loaded(els), g, 1, fs);
    close(r.cf![0], 4 / 100);
    close(r.cf![1], -4 / 100);
    expect(Math.abs(r.cf![2])).toBeLessThan(1e-15);
    // a stream along y: the lift direction is +z
    const ty = flowTangents(Float64Array.from([0, 1, 0]), [0, -3, 0])!;
    expect([...ty]).toEqual([0, 0, 1]);
    expect(flowTangents(Float64Array.from([0, 1, 0]), [0, 0, 0])).toBeNull();
  });

  it('a field of zero-mean noisy shear gives a mean Cf near 0 (the mean of |tau|/q does not)', () => {
    // 4000 elements of a flat plate (normal +z) in a stream along +x, each with a random shear of zero mean and
    // standard deviation 5 Pa per component: the noise of cell-sized facets
    let seed = 12345;
    const uniform = () => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) + 0.5) / 2 ** 32;
    const gauss = () => Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform());
    const N = 4000, sigma = 5;
    const els = Array.from({ length: N }, () => ({ n: [0, 0, 1], P: 30, S: [sigma * gauss(), sigma * gauss(), 0] }));
    const fs: FreeStream = { density: 2, numberDensity: 2 / M, temperature: 300, velocity: [10, 0, 0] }; // q = 100
    const r = computeSurfaceResults(loaded(els), geometry(els.map(({ n }) => [1, n, [0, 0, 0], 0])), 1, fs);
    const mean = (a: ArrayLike<number>) => Array.prototype.reduce.call(a, (s: number, x: number) => s + x, 0) as number / a.length;
    const stdErr = sigma / 100 / Math.sqrt(N); // of the mean Cf
    const cf = mean(r.cf!);
    const magnitude = mean(r.shearMagnitude) / 100; // the old Cf: ~ sigma sqrt(pi/2) / q = 0.063
    console.log(`noisy shear: mean Cf ${cf.toExponential(2)} (standard error ${stdErr.toExponential(2)}), mean |tau|/q ${magnitude.toFixed(4)}`);
    expect(Math.abs(cf)).toBeLessThan(4 * stdErr);
    expect(magnitude).toBeGreaterThan(10 * 4 * stdErr);
    // and the signed Cf really carries the noise (it is not 0 everywhere)
    expect(Math.max(...r.cf!.map(Math.abs))).toBeGreaterThan(sigma / 100);
  });

  it('gives NaN when the sums cover no time, and NaN per-area values on elements of zero area', () => {
    const sums = emptySurfaceSums(2);
    const g = geometry([[1, [1, 0, 0], [0, 0, 0], 0], [0, [1, 0, 0], [0, 0, 0], 0]]);
    const r = computeSurfaceResults(sums, g, FNUM, null);
    for (const a of [r.numberFlux, r.pressure, r.shear, r.shearMagnitude, r.heatFlux, r.force]) expect(a.every(Number.isNaN)).toBe(true);
    sums.sampledTime = 1;
    const r2 = computeSurfaceResults(sums, g, FNUM, null);
    expect(r2.pressure[0]).toBe(0);
    expect(Number.isNaN(r2.pressure[1])).toBe(true);
    expect(r2.force[3]).toBe(0);
  });

  it('refuses geometry that does not match the sums, naming the array', () => {
    const sums = emptySurfaceSums(2);
    const g = geometry([[1, [1, 0, 0], [0, 0, 0], 0], [1, [1, 0, 0], [0, 0, 0], 0]]);
    expect(() => computeSurfaceResults(sums, { ...g, normal: new Float64Array(3) }, 1, null)).toThrow(/normal has 3 values, expected 6/);
    expect(() => computeSurfaceResults({ ...sums, values: new Float64Array(5) }, g, 1, null)).toThrow(/5 values for 2 elements/);
  });
});

describe('windAxes', () => {
  it('drag along U, lift from +y (or +z when U is along y), side = drag x lift', () => {
    expect(windAxes([10, 0, 0])).toEqual({ drag: [1, 0, 0], lift: [0, 1, 0], side: [0, 0, 1] });
    const y = windAxes([0, -3, 0])!;
    expect(y.drag).toEqual([0, -1, 0]);
    expect(y.lift).toEqual([0, 0, 1]);
    expect(y.side).toEqual([-1, 0, 0]);
    const a = Math.PI / 6;
    const o = windAxes([Math.cos(a), Math.sin(a), 0])!;
    for (const [got, want] of [[o.lift, [-Math.sin(a), Math.cos(a), 0]], [o.side, [0, 0, 1]]]) {
      for (let k = 0; k < 3; k++) expect(Math.abs(got[k] - want[k])).toBeLessThan(1e-15);
    }
    expect(windAxes([0, 0, 0])).toBeNull();
  });
});

describe('computeBodyForces', () => {
  // Body 0: two elements; body 1: one element; then a domain face (-1) that counts for no body.
  const g = geometry([
    [1, [1, 0, 0], [1, 0, 0], 0],
    [2, [0, 1, 0], [0, 2, 0], 0],
    [1, [0, 0, 1], [5, 5, 1], 1],
    [4, [-1, 0, 0], [0, 0, 0], -1],
  ]);
  const sums = emptySurfaceSums(4);
  sums.sampledTime = 1;
  hit(sums, 0, [-100, 0, 0], [100, 0, 0], 1, 1); // force (-200, 0, 0) at (1, 0, 0)
  hit(sums, 1, [0, -50, 30], [0, 50, 0], 1, 1); // force (0, -100, 30) at (0, 2, 0)
  hit(sums, 2, [0, 0, -10], [0, 0, 10], 1, 1); // force (0, 0, -20) at (5, 5, 1)
  hit(sums, 3, [7, 0, 0], [-7, 0, 0], 1, 1); // domain face
  const bodies = [
    { name: 'a', referenceArea: 0.5, momentCenter: [0, 0, 0] as [number, number, number] },
    { name: 'b', referenceArea: 2, momentCenter: [5, 4, 1] as [number, number, number] },
  ];
  const fs: FreeStream = { density: 2, numberDensity: 2 / M, temperature: 300, velocity: [10, 0, 0] };

  it('sums the force, the moment about the moment center, heat and incident rate per body', () => {
    const r = computeSurfaceResults(sums, g, 1, fs);
    const [a, b] = computeBodyForces(r, g, bodies, fs);
    expect(a.name).toBe('a');
    expect(a.force).toEqual([-200, -100, 30]);
    // (1,0,0) x (-200,0,0) = 0; (0,2,0) x (0,-100,30) = (2*30 - 0, 0, 0) = (60, 0, 0)
    expect(a.moment).toEqual([60, 0, 0]);
    expect(b.force).toEqual([0, 0, -20]);
    // (0,1,0) x (0,0,-20) = (-20, 0, 0)
    expect(b.moment).toEqual([-20, 0, 0]);
    expect(a.incidentRate).toBe(2);
    expect(b.incidentRate).toBe(1);
    // Body a's second molecule leaves with less energy: 0.5 (50^2 + 30^2) - 0.5 50^2 = 450 J into the wall.
    expect(a.heatTransfer).toBe(450);
    expect(b.heatTransfer).toBe(0);
    // Flow along +x: drag = Fx, lift = Fy, side = Fz; coefficients over q * referenceArea (q = 100).
    expect([a.drag, a.lift, a.side]).toEqual([-200, -100, 30]);
    expect(a.cd).toBeCloseTo(-200 / 50, 14);
    expect(a.cl).toBeCloseTo(-100 / 50, 14);
    expect(a.cs).toBeCloseTo(30 / 50, 14);
    expect(b.cd).toBeCloseTo(0, 14);
    expect(b.cs).toBeCloseTo(-20 / 200, 14);
  });

  it('projects on the axes of an oblique stream and has no coefficients without a free stream', () => {
    const a30 = Math.PI / 6;
    const oblique: FreeStream = { ...fs, velocity: [10 * Math.cos(a30), 10 * Math.sin(a30), 0] };
    const r = computeSurfaceResults(sums, g, 1, oblique);
    const [a] = computeBodyForces(r, g, bodies, oblique);
    close(a.drag, -200 * Math.cos(a30) - 100 * Math.sin(a30));
    close(a.lift, 200 * Math.sin(a30) - 100 * Math.cos(a30));
    close(a.side, 30);
    close(a.cd!, a.drag / 50);
    const rn = computeSurfaceResults(sums, g, 1, null);
    const [an] = computeBodyForces(rn, g, bodies, null);
    expect(an.force).toEqual([-200, -100, 30]);
    expect(Number.isNaN(an.drag)).toBe(true);
    expect(an.cd).toBeNull();
    expect(an.cl).toBeNull();
    expect(an.cs).toBeNull();
  });

  it('refuses elements of a body that was not given', () => {
    const r = computeSurfaceResults(sums, g, 1, null);
    expect(() => computeBodyForces(r, g, bodies.slice(0, 1), null)).toThrow(/element 2 belongs to body 1, but only 1 bodies/);
  });
});
