// Per-species sampled fields (species-fields.ts, sample.wgsl's sample_close) in a closed specular box of argon and
// helium, 70 % and 30 % by mole at the start, 64 cells of 200 particles:
// - n_Ar + n_He is n and x_Ar + x_He is 1 in every cell (the same counts behind them);
// - the box's count-weighted mean of x_Ar is the loaded argon fraction exactly (a closed box keeps its particles,
//   counted from the particles themselves), within binomial noise of the 0.7 asked for, and the cells' x_Ar spread
//   about it as the fill's binomial noise (no separation in an equilibrium box);
// - the GPU's batch means of n_Ar and x_Ar agree with the run's fields, x_Ar and x_He have the same standard errors
//   (x_He = 1 - x_Ar block by block), and the live view's cells read the run's species fields bitwise;
// - a one-species gas has exactly the fields of every run (FIELD_NAMES), its hash theirs alone.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIELD_NAMES, fieldNamesOf } from '../../src-main/common/field-names.js';
import { fieldsSha256 } from '../../src-main/solver/fields.js';
import type { Gpu } from '../../src-main/solver/gpu/device.js';
import { sampleLayout } from '../../src-main/solver/sample-buffers.js';
import { CELL_WORD } from '../../src-main/solver/gpu/struct-layouts.js';
import { gpuForTests, presetCase, simulate } from './harness.js';

let gpu: Gpu;
beforeAll(async () => { gpu = await gpuForTests(); });
afterAll(() => gpu?.device.destroy());

/** The collide box in 64 cells of `perCell` particles with the given species and set lines, `steps` steps sampled from step 10. */
function box(species: object[], perCell: number, steps: number, sets: string[] = []): ReturnType<typeof presetCase> {
  return presetCase('collide-box', [
    `species=${JSON.stringify(species)}`, 'grid.cells=[4,4,4]', 'grid.cellSize=[5e-5,5e-5,5e-5]', `particles.perCell=${perCell}`,
    `run.steps=${steps}`, 'sampling.start=10', ...sets,
  ]);
}

describe('per-species fields (Ar + He box)', () => {
  it('n_s sum to n, x_s to 1 per cell; the box mean is the loaded fraction; errors and batch means agree', async () => {
    const c = box([{ use: 'Ar' }, { use: 'He' }], 200, 70, ['initial.fractions={"Ar":0.7,"He":0.3}']);
    const { sim, result } = await simulate(gpu, c, { timing: 'off' });
    const f = result.fields, e = result.fieldErrors;
    expect(fieldNamesOf(f)).toEqual([...FIELD_NAMES, 'n_Ar', 'n_He', 'x_Ar', 'x_He']);
    expect(fieldNamesOf(e)).toEqual(fieldNamesOf(f));
    const N = sim.tables.nCells;
    const [nAr, nHe, xAr, xHe] = [f.n_Ar!, f.n_He!, f.x_Ar!, f.x_He!];
    for (let k = 0; k < N; k++) {
      expect(f.particlesPerSample[k], `cell ${k} holds particles`).toBeGreaterThan(100);
      expect(Math.abs((nAr[k] + nHe[k]) / f.n[k] - 1), `n_Ar + n_He against n in cell ${k}`).toBeLessThan(1e-12);
      expect(Math.abs(xAr[k] + xHe[k] - 1), `x_Ar + x_He in cell ${k}`).toBeLessThan(1e-12);
    }
    // the particles' own species: species 0 is Ar
    const cells = new Uint32Array((await sim.readParticles(['cell'])).cell);
    let ar = 0;
    for (const w of cells) if (w >>> CELL_WORD.BITS === 0) ar += 1;
    const loaded = ar / cells.length;
    let wAr = 0, w = 0;
    for (let k = 0; k < N; k++) { wAr += xAr[k] * f.particlesPerSample[k]; w += f.particlesPerSample[k]; }
    const boxAr = wAr / w;
    console.log(`Ar + He box: ${cells.length} particles, loaded x_Ar ${loaded.toFixed(5)}, sampled box mean ${boxAr.toFixed(5)}`);
    expect(Math.abs(boxAr - loaded)).toBeLessThan(1e-9);
    // binomial noise of the fill: sqrt(0.7 0.3 / 12 800) = 0.004
    expect(Math.abs(loaded - 0.7)).toBeLessThan(5 * Math.sqrt(0.21 / cells.length));
    // each cell's composition: the fill's own binomial spread, sqrt(0.21 / 200) = 0.032, which 70 steps of diffusion
    // mix away only in part (the rms read 0.018), so it is no noise of the sampling window that the batch means measure;
    // the cells' rms about the box mean is at most that spread (it would be 0.4 with the species swapped)
    const spread = Math.sqrt((loaded * (1 - loaded)) / (cells.length / N));
    let ss = 0;
    for (let k = 0; k < N; k++) ss += (xAr[k] - boxAr) ** 2;
    const rms = Math.sqrt(ss / N);
    console.log(`cells' x_Ar rms about the box mean ${rms.toFixed(4)}, the fill's binomial spread ${spread.toFixed(4)}`);
    expect(rms).toBeLessThan(1.5 * spread);
    for (let k = 0; k < N; k++) {
      const se = e.x_Ar![k];
      expect(Number.isFinite(se) && se > 0, `x_Ar error of cell ${k}: ${se}`).toBe(true);
      expect(Math.abs(xAr[k] - boxAr), `x_Ar of cell ${k}: ${xAr[k]}`).toBeLessThan(5 * spread);
      expect(Math.abs(e.x_He![k] / se - 1), `x_He and x_Ar errors of cell ${k}`).toBeLessThan(1e-3);
      expect(Number.isFinite(e.n_He![k]) && e.n_He![k] > 0, `n_He error of cell ${k}`).toBe(true);
    }
    // the batch means on the GPU: welford [mean | M2][field][cell], the species fields after the 13 (n_Ar, n_He, x_Ar, x_He)
    const layout = sampleLayout(sim.tables);
    expect(layout).toEqual({ species: 2, moments: 13, fields: 17 });
    const { welford } = await sim.readSampleState();
    const perParticle = sim.tables.fnum / (5e-5) ** 3;
    let batchN = 0, wholeN = 0, batchX = 0, wholeX = 0;
    for (let k = 0; k < N; k++) {
      batchN += welford[13 * N + k] * perParticle; wholeN += nAr[k];
      batchX += welford[15 * N + k]; wholeX += xAr[k];
    }
    expect(Math.abs(batchN / wholeN - 1), `n_Ar batch mean ${batchN} against ${wholeN}`).toBeLessThan(0.005);
    expect(Math.abs(batchX / wholeX - 1), `x_Ar batch mean ${batchX} against ${wholeX}`).toBeLessThan(0.005);
    const ids = [0, 5, 21, 63];
    const live = await sim.fieldsOfCells(ids);
    for (const name of ['n_Ar', 'n_He', 'x_Ar', 'x_He'] as const) expect(Array.from(live[name]!), name).toEqual(ids.map((i) => f[name]![i]));
  });

  it('a one-species gas keeps exactly the fields of every run and their hash', async () => {
    const c = box([{ use: 'Ar' }], 50, 20);
    const { sim, result } = await simulate(gpu, c, { timing: 'off' });
    expect(Object.keys(result.fields).sort()).toEqual([...FIELD_NAMES].sort());
    expect(Object.keys(result.fieldErrors).sort()).toEqual([...FIELD_NAMES].sort());
    expect(sampleLayout(sim.tables)).toEqual({ species: 1, moments: 13, fields: 13 });
    // the hash of FIELD_NAMES' arrays in order, nothing else
    const h = createHash('sha256');
    for (const name of FIELD_NAMES) h.update(new Uint8Array(result.fields[name].buffer, result.fields[name].byteOffset, result.fields[name].byteLength));
    expect(fieldsSha256(result.fields)).toBe(h.digest('hex'));
  });
});
