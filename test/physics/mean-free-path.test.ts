// PHYSICS.md: Ar VHS at n = 2e20 m^-3, T = 100...500 K: the measured mean free path (distance flown
// / collisions per particle) matches lambda(T) = 1/(sqrt(2) pi d^2 n (Tref/T)^(omega-1/2)) within 3 %.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { meanFreePath, meanSpeed } from '../../src-main/common/physics.js';
import type { Gpu } from '../../src-main/solver/gpu/device.js';
import { gpuForTests, presetCase, simulate } from './harness.js';

let gpu: Gpu;
beforeAll(async () => { gpu = await gpuForTests(); });
afterAll(() => gpu?.device.destroy());

const argonVhs = { name: 'Ar', mass: 6.63e-26, dRef: 4.17e-10, omega: 0.81, tRef: 273, alpha: 1 };
const n = 2e20;

describe('VHS mean free path', () => {
  for (const T of [100, 300, 500]) {
    it(`matches theory at ${T} K`, async () => {
      const lambda = meanFreePath(argonVhs, n, T);
      const tau = lambda / meanSpeed(T, argonVhs.mass);
      const dx = lambda / 3;
      const dt = 0.05 * tau;
      const steps = 400;
      const c = presetCase('periodic-relaxation', [
        `species=${JSON.stringify([argonVhs])}`, 'initial.kind="maxwellian"', `initial.numberDensity=${n}`,
        `initial.temperature=${T}`, 'grid.cells=[8,8,8]', `grid.cellSize=[${dx},${dx},${dx}]`,
        `run.dt=${dt}`, `run.steps=${steps}`, 'particles.perCell=20', `sampling.start=${steps + 1}`,
      ]);
      const { result } = await simulate(gpu, c);
      const events = result.stepStats.reduce((s, x) => s + x.collisions, 0);
      const N = result.start.particles;
      const speed = 0.5 * (result.start.meanSpeed + result.end.meanSpeed);
      // each event ends the free flight of two particles
      const measured = (speed * N * steps * dt) / (2 * events);
      expect(events).toBeGreaterThan(40000);
      expect(Math.abs(measured / lambda - 1)).toBeLessThan(0.03);
    });
  }
});
