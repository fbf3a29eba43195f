// The domain's walls are sampled like bodies (issue 16): a Couette flow's two walls carry equal and opposite
// shear, and a Fourier flow's wall heat fluxes balance each other and agree with the heat flux sampled in the
// gas between them (the gas's is taken after each step's collisions, the walls' as molecules hit them).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gpu } from '../../src-main/solver/gpu/device.js';
import { surfaceSummary } from '../../src-main/solver/surface-summary.js';
import { gpuForTests, presetCase, simulate } from './harness.js';

let gpu: Gpu;
beforeAll(async () => { gpu = await gpuForTests(); });
afterAll(() => gpu?.device.destroy());

/** The couette preset shrunk along x, with more particles per cell for quieter wall sums. */
const base = ['grid.cells=[4,50,1]', 'particles.perCell=100', 'run.steps=6000', 'sampling.start=2000'];

describe('walls sampled as surfaces', () => {
  it('a gas at rest in a closed box presses on every wall with n k T, without shear or net heat', async () => {
    const c = presetCase('collide-box', ['run.steps=300']);
    const { sim, result } = await simulate(gpu, c, { timing: 'off' });
    const s = surfaceSummary(c, sim.tables, result.surface);
    const nkT = c.initial.numberDensity * 1.380649e-23 * c.initial.temperature;
    for (const f of s.faces) {
      expect(Math.abs(f.pressure / nkT - 1), `${f.face}: ${f.pressure} Pa against n k T = ${nkT} Pa`).toBeLessThan(0.01);
      expect(Math.hypot(...f.shear)).toBe(0);
      expect(f.heatFlux).toBe(0);
    }
  });

  it('Couette: the two moving walls carry equal and opposite shear, and equal pressures', async () => {
    const c = presetCase('couette', base);
    const { sim, result } = await simulate(gpu, c, { timing: 'off' });
    const s = surfaceSummary(c, sim.tables, result.surface);
    const lo = s.faces.find((f) => f.face === 'ymin')!, hi = s.faces.find((f) => f.face === 'ymax')!;
    console.log(`couette: shear x ymin ${lo.shear[0].toExponential(4)} ymax ${hi.shear[0].toExponential(4)} Pa; pressure ${lo.pressure.toExponential(4)} ${hi.pressure.toExponential(4)} Pa`);
    // the gas drags the lower wall (moving -x) along +x and the upper one along -x
    expect(lo.shear[0]).toBeGreaterThan(0);
    expect(hi.shear[0]).toBeLessThan(0);
    expect(Math.abs(lo.shear[0] + hi.shear[0]) / Math.abs(lo.shear[0])).toBeLessThan(0.05);
    expect(Math.abs(lo.pressure / hi.pressure - 1)).toBeLessThan(0.01);
  });

  it("Fourier: the walls' heat fluxes balance and match the gas heat flux between them", async () => {
    // a 25-cell channel (heat diffuses across it in ~3000 steps) started at the mean temperature, sampled once steady
    const c = presetCase('couette', [...base, 'grid.cells=[4,25,1]', 'initial.temperature=323', 'run.steps=9000', 'sampling.start=4000',
      'boundaries.ymin={"type":"diffuse","temperature":373}', 'boundaries.ymax={"type":"diffuse","temperature":273}']);
    const { sim, result } = await simulate(gpu, c, { timing: 'off' });
    const s = surfaceSummary(c, sim.tables, result.surface);
    const qHot = s.faces.find((f) => f.face === 'ymin')!.heatFlux, qCold = s.faces.find((f) => f.face === 'ymax')!.heatFlux;
    // the gas's heat flux along y over the middle half of the channel
    const [nx, ny] = c.grid.cells;
    let sum = 0, count = 0;
    for (let j = Math.floor(ny / 4); j < Math.ceil((3 * ny) / 4); j++) for (let i = 0; i < nx; i++) { sum += result.fields.qy[i + nx * j]; count++; }
    const qGas = sum / count;
    console.log(`fourier: heat flux into the hot wall ${qHot.toExponential(4)}, into the cold wall ${qCold.toExponential(4)}, gas q_y ${qGas.toExponential(4)} W/m^2`);
    // heat leaves the hot wall (negative into it), enters the cold one, and flows along +y in the gas
    expect(qHot).toBeLessThan(0);
    expect(qCold).toBeGreaterThan(0);
    expect(Math.abs(qHot + qCold) / qCold).toBeLessThan(0.05);
    expect(Math.abs(qGas / qCold - 1)).toBeLessThan(0.05);
  });
});
