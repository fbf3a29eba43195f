// PHYSICS.md: a periodic box started with v_i = +-sqrt(kT/m) relaxes to Maxwell-Boltzmann at the
// same T after ~50 collision times (KS test on one component and on the speed, p > 0.01), with T
// unchanged within 0.1 %.
import kstest from '@stdlib/stats-kstest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOLTZMANN, collisionRate, erfc } from '../../src-main/common/physics.js';
import type { Gpu } from '../../src-main/solver/gpu/device.js';
import { Simulation } from '../../src-main/solver/loop.js';
import { gpuForTests, presetCase, temperatureOf, velocities } from './harness.js';

let gpu: Gpu;
beforeAll(async () => { gpu = await gpuForTests(); });
afterAll(() => gpu?.device.destroy());

/** Normal CDF with mean mu and standard deviation sigma. */
function normalCdf(x: number, mu: number, sigma: number): number {
  return 0.5 * erfc(-(x - mu) / (sigma * Math.SQRT2));
}

/** Maxwell-Boltzmann speed CDF with a = sqrt(kT/m). */
function speedCdf(v: number, a: number): number {
  const x = v / a;
  return 1 - erfc(x / Math.SQRT2) - Math.sqrt(2 / Math.PI) * x * Math.exp(-0.5 * x * x);
}

/** KS p-values of vx against N(<vx>, a) and of the peculiar speed against MB(a). */
function fit(v: { vx: Float32Array; vy: Float32Array; vz: Float32Array }, a: number): { component: number; speed: number } {
  const n = v.vx.length;
  const mean = [0, 0, 0];
  for (let i = 0; i < n; i++) { mean[0] += v.vx[i] / n; mean[1] += v.vy[i] / n; mean[2] += v.vz[i] / n; }
  const speeds = new Float64Array(n);
  for (let i = 0; i < n; i++) speeds[i] = Math.hypot(v.vx[i] - mean[0], v.vy[i] - mean[1], v.vz[i] - mean[2]);
  return {
    component: kstest(Array.from(v.vx), normalCdf, mean[0], a).pValue,
    speed: kstest(Array.from(speeds), speedCdf, a).pValue,
  };
}

describe('relaxation from the +-sqrt(kT/m) start', () => {
  it('becomes Maxwell-Boltzmann at the same temperature', async () => {
    const c = presetCase('periodic-relaxation');
    const g = c.species[0];
    const sim = new Simulation(gpu, c);
    await sim.initialize();
    const v0 = await velocities(sim);
    const t0 = temperatureOf(v0, g.mass);
    const a = Math.sqrt((BOLTZMANN * t0) / g.mass);
    // the start is far from Maxwellian: the same test must reject it
    const before = fit(v0, a);
    expect(before.component).toBeLessThan(1e-6);
    expect(before.speed).toBeLessThan(1e-6);

    const result = await sim.run();
    const collisionTimes = c.run.steps * c.run.dt * collisionRate(g, c.initial.numberDensity, c.initial.temperature);
    expect(collisionTimes).toBeGreaterThan(50);
    expect(result.stepStats.reduce((s, x) => s + x.collisions, 0)).toBeGreaterThan(0);
    const v1 = await velocities(sim);
    const after = fit(v1, a);
    expect(after.component).toBeGreaterThan(0.01);
    expect(after.speed).toBeGreaterThan(0.01);
    expect(Math.abs(temperatureOf(v1, g.mass) / t0 - 1)).toBeLessThan(1e-3);
  });
});
