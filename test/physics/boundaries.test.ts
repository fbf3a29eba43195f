// PHYSICS.md: diffuse walls at T_w bring a gas started at T != T_w to T_w (within 1 %); a supersonic
// free stream through an inflow face into an empty box, with outflow on the far side, reaches the
// free-stream density (within 2 %). Specular walls are checked in collide-box.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOLTZMANN } from '../../src-main/common/physics.js';
import type { Gpu } from '../../src-main/solver/gpu/device.js';
import { gpuForTests, presetCase, simulate } from './harness.js';

let gpu: Gpu;
beforeAll(async () => { gpu = await gpuForTests(); });
afterAll(() => gpu?.device.destroy());

/** Temperature of all sampled molecules together (single species), from the raw moment sums. */
function sampledTemperature(sums: Float64Array, nCells: number, mass: number): number {
  const total = (m: number) => { let s = 0; for (let c = 0; c < nCells; c++) s += sums[m * nCells + c]; return s; };
  const N = total(0);
  const u = [total(1) / N, total(2) / N, total(3) / N];
  const v2 = (total(4) + total(5) + total(6)) / N;
  return (mass * (v2 - (u[0] ** 2 + u[1] ** 2 + u[2] ** 2))) / (3 * BOLTZMANN);
}

describe('boundaries', () => {
  it('diffuse walls bring a 500 K gas to the 300 K wall temperature', async () => {
    const wall = '{"type":"diffuse","temperature":300}';
    const faces = ['xmin', 'xmax', 'ymin', 'ymax', 'zmin', 'zmax'].map((f) => `boundaries.${f}=${wall}`);
    const c = presetCase('periodic-relaxation', [
      ...faces, 'initial.kind="maxwellian"', 'initial.temperature=500', 'grid.cells=[10,10,10]',
      'grid.cellSize=[2e-3,2e-3,2e-3]', 'particles.perCell=10', 'run.dt=1e-6', 'run.steps=1500', 'sampling.start=700',
    ]);
    const { sim, result } = await simulate(gpu, c);
    const T = sampledTemperature(sim.fieldAccumulator!.momentSums(), result.tables.nCells, c.species[0].mass);
    expect(result.start.particles).toBe(10000);
    expect(result.end.particles).toBe(10000);
    expect(Math.abs(T / 300 - 1)).toBeLessThan(0.01);
  });

  it('inflow into an empty box reaches the free-stream density', async () => {
    const c = presetCase('free-stream');
    const { result } = await simulate(gpu, c);
    const f = result.fields;
    const [nx, ny, nz] = c.grid.cells;
    const nInf = 1e20;
    let mean = 0;
    for (let k = 0; k < f.n.length; k++) mean += f.n[k] / f.n.length;
    expect(Math.abs(mean / nInf - 1)).toBeLessThan(0.02);
    // every slab along the flow is at the free-stream state too (noise ~0.3 % per slab)
    for (let i = 0; i < nx; i++) {
      let slab = 0, ux = 0, T = 0;
      for (let j = 0; j < ny; j++) for (let k = 0; k < nz; k++) {
        const cell = i + nx * (j + ny * k);
        slab += f.n[cell] / (ny * nz);
        ux += f.ux[cell] / (ny * nz);
        T += f.T[cell] / (ny * nz);
      }
      expect(Math.abs(slab / nInf - 1), `density in slab ${i}`).toBeLessThan(0.03);
      expect(Math.abs(ux / 1060.4 - 1), `velocity in slab ${i}`).toBeLessThan(0.01);
      expect(Math.abs(T / 300 - 1), `temperature in slab ${i}`).toBeLessThan(0.03);
    }
  });
});
