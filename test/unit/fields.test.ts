// computeFields (src-main/solver/fields.ts) against a direct computation from explicit particles of a
// two-species mixture over several cells and sampling passes; fieldsSha256 stability and sensitivity.
import { describe, expect, it } from 'vitest';
import { BOLTZMANN } from '../../src-main/common/physics.js';
import { FIELD_NAMES, computeFields, emptyFields, fieldsSha256, fillFields, type Fields } from '../../src-main/solver/fields.js';
import { SAMPLE_MOMENTS } from '../../src-main/solver/gpu/struct-layouts.js';

const MASSES = [6.63e-26, 4.65e-26];
const N_CELLS = 6;
const PASSES = 3;
const FNUM = 2.5e9;
const VOLUME = 1e-9;

/** One sampled particle: cell, species and velocity. */
interface Particle { c: number; s: number; v: [number, number, number] }

// Deterministic uniform numbers in (0, 1) (mulberry32).
function uniform(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) + 0.5) / 4294967296;
  };
}

// Particles of all passes: per cell and species a different drift and spread, a skewed x component
// (so the heat flux is not zero); cell 3 holds species 1 only, cell 5 is empty.
function makeParticles(): Particle[] {
  const u = uniform(7);
  const gauss = () => Math.sqrt(-2 * Math.log(u())) * Math.cos(2 * Math.PI * u());
  const out: Particle[] = [];
  for (let pass = 0; pass < PASSES; pass++) {
    for (let c = 0; c < N_CELLS - 1; c++) {
      for (let s = 0; s < MASSES.length; s++) {
        if (c === 3 && s === 0) continue;
        const n = 20 + Math.floor(40 * u());
        const drift = [100 * c - 150 + 80 * s, 40 * s - 30, 25 * c];
        const spread = 250 + 60 * s + 20 * c;
        for (let k = 0; k < n; k++) {
          const skew = -200 * Math.log(u()) - 200; // exponential with zero mean
          out.push({ c, s, v: [drift[0] + spread * gauss() + skew, drift[1] + spread * gauss(), drift[2] + spread * gauss()] });
        }
      }
    }
  }
  return out;
}

// Moment sums in the sample.wgsl layout [moment][species][cell].
function momentSums(particles: Particle[]): Float64Array {
  const S = MASSES.length;
  const sums = new Float64Array(SAMPLE_MOMENTS * S * N_CELLS);
  const add = (m: number, p: Particle, value: number) => { sums[(m * S + p.s) * N_CELLS + p.c] += value; };
  for (const p of particles) {
    const [x, y, z] = p.v;
    const v2 = x * x + y * y + z * z;
    [1, x, y, z, x * x, y * y, z * z, x * y, x * z, y * z, v2 * x, v2 * y, v2 * z].forEach((value, m) => add(m, p, value));
  }
  return sums;
}

/** Fields of one cell computed straight from its particles. */
interface Direct { n: number; u: number[]; T: number; pii: number[]; p: number; q: number[]; perSample: number; qScale: number }

// Direct definitions: n, mass-averaged u, p_ii = sum m c_i^2, q_i = sum 1/2 m c^2 c_i, all times fnum/(V passes).
function direct(particles: Particle[], c: number): Direct {
  const mine = particles.filter((p) => p.c === c);
  const scale = FNUM / (VOLUME * PASSES);
  let mass = 0;
  const mom = [0, 0, 0];
  for (const p of mine) {
    const m = MASSES[p.s];
    mass += m;
    for (let i = 0; i < 3; i++) mom[i] += m * p.v[i];
  }
  const u = mom.map((x) => x / mass);
  const pii = [0, 0, 0];
  const q = [0, 0, 0];
  let qScale = 0;
  for (const p of mine) {
    const m = MASSES[p.s];
    const cc = p.v.map((x, i) => x - u[i]);
    const c2 = cc[0] ** 2 + cc[1] ** 2 + cc[2] ** 2;
    for (let i = 0; i < 3; i++) {
      pii[i] += m * cc[i] * cc[i] * scale;
      q[i] += 0.5 * m * c2 * cc[i] * scale;
    }
    qScale += 0.5 * m * Math.hypot(...p.v) ** 3 * scale;
  }
  const n = mine.length * scale;
  const pressure = (pii[0] + pii[1] + pii[2]) / 3;
  return { n, u, T: pressure / (n * BOLTZMANN), pii, p: pressure, q, perSample: mine.length / PASSES, qScale };
}

// Expects a close to b within rel relative to scale.
function near(a: number, b: number, scale: number, what: string, rel = 1e-9): void {
  expect(Math.abs(a - b), `${what}: ${a} vs ${b}`).toBeLessThanOrEqual(rel * Math.abs(scale));
}

describe('computeFields', () => {
  const particles = makeParticles();
  const fields = computeFields(momentSums(particles), PASSES, MASSES, N_CELLS, FNUM, VOLUME);

  it('matches n, u, T, p_ii, p and q computed directly from the particles', () => {
    for (let c = 0; c < N_CELLS - 1; c++) {
      const d = direct(particles, c);
      const vScale = Math.max(...d.u.map(Math.abs), Math.sqrt(d.T * BOLTZMANN / MASSES[1]));
      near(fields.n[c], d.n, d.n, `n[${c}]`);
      near(fields.particlesPerSample[c], d.perSample, d.perSample, `particlesPerSample[${c}]`);
      near(fields.ux[c], d.u[0], vScale, `ux[${c}]`);
      near(fields.uy[c], d.u[1], vScale, `uy[${c}]`);
      near(fields.uz[c], d.u[2], vScale, `uz[${c}]`);
      near(fields.T[c], d.T, d.T, `T[${c}]`);
      near(fields.pxx[c], d.pii[0], d.p, `pxx[${c}]`);
      near(fields.pyy[c], d.pii[1], d.p, `pyy[${c}]`);
      near(fields.pzz[c], d.pii[2], d.p, `pzz[${c}]`);
      near(fields.p[c], d.p, d.p, `p[${c}]`);
      near(fields.qx[c], d.q[0], d.qScale, `qx[${c}]`);
      near(fields.qy[c], d.q[1], d.qScale, `qy[${c}]`);
      near(fields.qz[c], d.q[2], d.qScale, `qz[${c}]`);
    }
    // the skewed x velocities give a clearly non-zero heat flux, so q is really tested
    expect(Math.abs(fields.qx[0])).toBeGreaterThan(1e-3 * direct(particles, 0).qScale);
  });

  it('gives zeros in an empty cell and everywhere after zero passes', () => {
    for (const k of FIELD_NAMES) expect(fields[k][N_CELLS - 1], k).toBe(0);
    const none = computeFields(momentSums(particles), 0, MASSES, N_CELLS, FNUM, VOLUME);
    for (const k of FIELD_NAMES) expect(Array.from(none[k]), k).toEqual(new Array(N_CELLS).fill(0));
  });
});

describe('fillFields', () => {
  const sums = momentSums(makeParticles());
  const whole = computeFields(sums, PASSES, MASSES, N_CELLS, FNUM, VOLUME);

  it('into arrays that held other values gives bitwise what computeFields gives (arrays reused block after block)', () => {
    const out = emptyFields(N_CELLS);
    for (const k of FIELD_NAMES) out[k].fill(-7.5);
    fillFields(out, sums, PASSES, MASSES, N_CELLS, FNUM, VOLUME);
    for (const k of FIELD_NAMES) expect(Array.from(out[k]), k).toEqual(Array.from(whole[k]));
  });

  it('on chosen cells gives bitwise those cells of the whole grid, in the order asked (the empty cell included)', () => {
    const ids = [N_CELLS - 1, 2, 0];
    const out = emptyFields(ids.length);
    for (const k of FIELD_NAMES) out[k].fill(3);
    fillFields(out, sums, PASSES, MASSES, N_CELLS, FNUM, VOLUME, ids);
    for (const k of FIELD_NAMES) expect(Array.from(out[k]), k).toEqual(ids.map((c) => whole[k][c]));
  });
});

describe('fieldsSha256', () => {
  const sums = momentSums(makeParticles());
  const compute = (): Fields => computeFields(sums, PASSES, MASSES, N_CELLS, FNUM, VOLUME);

  it('is stable for the same fields and changes when any one value changes', () => {
    const base = fieldsSha256(compute());
    expect(base).toMatch(/^[0-9a-f]{64}$/);
    expect(fieldsSha256(compute())).toBe(base);
    for (const k of FIELD_NAMES) {
      const f = compute();
      const c = 2;
      f[k][c] = f[k][c] === 0 ? 1e-300 : f[k][c] * (1 + 2 ** -52);
      expect(fieldsSha256(f), `${k}[${c}]`).not.toBe(base);
    }
  });

  it('changes when the fields of two cells are swapped', () => {
    const f = compute();
    const base = fieldsSha256(f);
    for (const k of FIELD_NAMES) [f[k][0], f[k][1]] = [f[k][1], f[k][0]];
    expect(fieldsSha256(f)).not.toBe(base);
  });
});
