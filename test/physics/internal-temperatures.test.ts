// Sampled temperatures of the internal modes (Trot, Tvib, Tall; sample.wgsl, internal-fields.ts) in a closed specular
// N2 box (the collide-box at 64 cells of 1250 particles, so each cell's sums hold many molecules):
// - in equilibrium at 3000 K (rotation and vibration started there, Zvib 5) the translational T, Trot, Tvib and Tall
//   all read the box temperature within 1.5 %;
// - with rotation and vibration frozen (Zrot 1e6, Zvib 1e12) at 100 K and 2000 K under a 500 K translation, each
//   field reads its own mode's temperature, computed from the particles themselves (readInternalEnergy), and Tall
//   the degrees-of-freedom weighted value (3 T + 2 Trot + zeta_v Tvib) / (3 + 2 + zeta_v), zeta_v = 2x / (e^x - 1);
// - the batch means (sample_close, f32 on the GPU) agree with the run's fields, and their standard errors are finite;
// - a monatomic case has none of the internal fields.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOLTZMANN } from '../../src-main/common/physics.js';
import type { Fields } from '../../src-main/common/field-names.js';
import type { Gpu } from '../../src-main/solver/gpu/device.js';
import { sampleLayout } from '../../src-main/solver/sample-buffers.js';
import { gpuForTests, presetCase, simulate } from './harness.js';

let gpu: Gpu;
beforeAll(async () => { gpu = await gpuForTests(); });
afterAll(() => gpu?.device.destroy());

const THETA = 3371;

/**
 * The collide box with species s, 64 cells of 1250 particles (80,000 as the preset), run `steps` steps and sampled
 * from step `start`. On lavapipe a step of these big cells costs about 0.11 s (the sort of 1250 particles a cell), so
 * the sampled steps are the test's cost: each case samples 100 steps (200 before; the numbers below are the measured
 * ones of one run of each).
 */
function box(s: object, steps: number, start: number, sets: string[]): ReturnType<typeof presetCase> {
  return presetCase('collide-box', [
    `species=${JSON.stringify([s])}`, 'grid.cells=[4,4,4]', 'grid.cellSize=[5e-5,5e-5,5e-5]', 'particles.perCell=1250',
    `run.steps=${steps}`, `sampling.start=${start}`, ...sets,
  ]);
}

/** Mean over cells of a field, weighted by the cell's sampled particles. */
function cellMean(f: Fields, values: Float64Array | undefined): number {
  if (!values) throw new Error('field missing');
  let s = 0, w = 0;
  for (let c = 0; c < values.length; c++) {
    s += values[c] * f.particlesPerSample[c];
    w += f.particlesPerSample[c];
  }
  return s / w;
}

/** Effective vibrational degrees of freedom of a harmonic oscillator at T (the test's own formula). */
function zetaV(theta: number, t: number): number {
  const x = theta / t;
  return (2 * x) / (Math.exp(x) - 1);
}

/** Checks the GPU's batch means of Trot, Tvib and Tall against the run's fields (cell means) and the errors' finiteness. */
function expectBatchMeansAgree(fields: Fields, errors: Fields, welford: Float32Array, nCells: number, label: string): void {
  // welford: [mean | M2][field][cell], the internal temperatures are fields 13, 14, 15
  for (const [name, f] of [['Trot', 13], ['Tvib', 14], ['Tall', 15]] as const) {
    let batch = 0;
    for (let c = 0; c < nCells; c++) batch += welford[f * nCells + c] / nCells;
    let whole = 0;
    for (let c = 0; c < nCells; c++) whole += fields[name]![c] / nCells;
    expect(Math.abs(batch / whole - 1), `${label} ${name} batch mean ${batch} against ${whole}`).toBeLessThan(0.005);
    const e = errors[name]!;
    for (let c = 0; c < nCells; c++) {
      expect(Number.isFinite(e[c]) && e[c] > 0, `${label} ${name} error of cell ${c}: ${e[c]}`).toBe(true);
      expect(e[c] / fields[name]![c], `${label} ${name} relative error of cell ${c}`).toBeLessThan(0.05);
    }
  }
}

describe('sampled internal temperatures (N2 box)', () => {
  it('in equilibrium at 3000 K: T, Trot, Tvib and Tall read the box temperature within 1.5 %', async () => {
    // 50 steps of collisions (about 15 per molecule, three Zvib-5 vibrational relaxations) before the 100 sampled.
    // The box means' error is the 80,000 loaded molecules' own (about 0.3 %, the energy is conserved: T read 2991.8 K
    // with 200 samples and 2993.2 K with 100) against 1.5 %. Per cell, Tvib spread 0.59 % (largest 1.49 %) over the
    // cells with 200 samples, 0.72 % (largest 1.76 %) with 100, against 5 %; the batch-means relative errors at most
    // 0.79 % and 1.00 %, against 5 %; the batch means against the whole run 0.007 % and 0.027 %, against 0.5 %
    const c = box({ use: 'N2', vibration: { characteristicTemperature: THETA, relaxation: 5, millikanWhite: false } }, 150, 50,
      ['initial.temperature=3000', 'initial.vibrationalTemperature=3000']);
    const { sim, result } = await simulate(gpu, c, { timing: 'off' });
    const f = result.fields;
    const got = { T: cellMean(f, f.T), Trot: cellMean(f, f.Trot), Tvib: cellMean(f, f.Tvib), Tall: cellMean(f, f.Tall) };
    console.log(`equilibrium box: ${JSON.stringify(got)}`);
    for (const [name, t] of Object.entries(got)) expect(Math.abs(t / 3000 - 1), `${name} = ${t} K`).toBeLessThan(0.015);
    // every cell, not only the mean
    for (let k = 0; k < f.T.length; k++) expect(Math.abs(f.Tvib![k] / 3000 - 1), `Tvib of cell ${k}`).toBeLessThan(0.05);
    const layout = sampleLayout(sim.tables);
    expect(layout.moments).toBe(15);
    const state = await sim.readSampleState();
    expectBatchMeansAgree(f, result.fieldErrors, state.welford, sim.tables.nCells, 'equilibrium');
  });

  it('frozen rotation (100 K) and vibration (2000 K) under a 500 K translation: each field reads its mode, Tall the DOF-weighted value', async () => {
    // nothing to wait for: the translation is loaded in its equilibrium and the modes cannot change, so sampling starts
    // at step 10. The checks against the particles' own energies do not depend on the samples' number (they are the
    // same molecules: Tvib 0.002 % from them with 200 samples, 0.005 % with 100, against 0.5 %); the batch-means relative errors were at most 1.16 % with 200
    // and 1.16 % with 100, against 5 %; the batch means against the whole run at most 0.008 % and 0.017 %, against 0.5 %
    const c = box({ use: 'N2', rotationalRelaxation: 1e6, vibration: { characteristicTemperature: THETA, relaxation: 1e12, millikanWhite: false } }, 110, 10,
      ['initial.temperature=500', 'initial.rotationalTemperature=100', 'initial.vibrationalTemperature=2000']);
    const { sim, result } = await simulate(gpu, c, { timing: 'off' });
    const f = result.fields;
    // the modes' temperatures of the particles themselves (frozen: the same at every sampled step)
    const e = await sim.readInternalEnergy();
    let rot = 0, vib = 0;
    for (let i = 0; i < e.rotational.length; i++) { rot += e.rotational[i]; vib += e.vibrational[i]; }
    const n = e.rotational.length;
    const trotParticles = rot / (n * BOLTZMANN); // 2 degrees of freedom: <E_rot> = k Trot
    const tvibParticles = THETA / Math.log(1 + (BOLTZMANN * THETA * n) / vib);
    const got = { T: cellMean(f, f.T), Trot: cellMean(f, f.Trot), Tvib: cellMean(f, f.Tvib), Tall: cellMean(f, f.Tall) };
    const z = zetaV(THETA, got.Tvib);
    const weighted = (3 * got.T + 2 * got.Trot + z * got.Tvib) / (3 + 2 + z);
    console.log(`frozen modes: ${JSON.stringify(got)}; particles Trot ${trotParticles.toFixed(2)} K, Tvib ${tvibParticles.toFixed(2)} K; zeta_v ${z.toFixed(4)}, weighted ${weighted.toFixed(2)} K`);
    expect(Math.abs(got.T / 500 - 1)).toBeLessThan(0.015);
    expect(Math.abs(got.Trot / trotParticles - 1)).toBeLessThan(0.005);
    expect(Math.abs(got.Trot / 100 - 1)).toBeLessThan(0.02);
    expect(Math.abs(got.Tvib / tvibParticles - 1)).toBeLessThan(0.005);
    expect(Math.abs(got.Tvib / 2000 - 1)).toBeLessThan(0.02);
    expect(Math.abs(got.Tall / weighted - 1)).toBeLessThan(0.003);
    // about (1500 + 200 + 0.767 * 2000) / 5.767 = 561 K: far from the unweighted means (867 K, or 340 K without vibration)
    expect(Math.abs(got.Tall / 560.8 - 1)).toBeLessThan(0.02);
    const state = await sim.readSampleState();
    expectBatchMeansAgree(f, result.fieldErrors, state.welford, sim.tables.nCells, 'frozen');
    // the live view's cells, gathered on the GPU, read the run's internal temperatures bitwise
    const ids = [0, 5, 21, 63];
    const live = await sim.fieldsOfCells(ids);
    for (const name of ['Trot', 'Tvib', 'Tall'] as const) expect(Array.from(live[name]!), name).toEqual(ids.map((i) => f[name]![i]));
  });

  it('a monatomic gas has no internal fields and keeps 13 moments', async () => {
    const c = presetCase('collide-box', ['grid.cells=[4,4,4]', 'grid.cellSize=[5e-5,5e-5,5e-5]', 'particles.perCell=100', 'run.steps=20', 'sampling.start=10']);
    const { sim, result } = await simulate(gpu, c, { timing: 'off' });
    expect(Object.keys(result.fields)).not.toContain('Trot');
    expect(Object.keys(result.fieldErrors)).not.toContain('Tall');
    expect(sampleLayout(sim.tables)).toEqual({ species: 1, moments: 13, fields: 13 });
  });
});
