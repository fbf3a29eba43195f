// PHYSICS.md, periodic box: particle count exact; momentum and energy relative drift < 1e-5 over
// 1000 steps in f32.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gpu } from '../../src-main/solver/gpu/device.js';
import { summarize } from '../../src-main/solver/summary.js';
import { gpuForTests, presetCase, simulate } from './harness.js';

let gpu: Gpu;
beforeAll(async () => { gpu = await gpuForTests(); });
afterAll(() => gpu?.device.destroy());

describe('periodic box conservation', () => {
  it('keeps N exactly and drifts < 1e-5 in momentum and energy over 1000 steps', async () => {
    // a drifting Maxwellian so that total momentum is far from zero
    const c = presetCase('periodic-relaxation', [
      'initial.kind="maxwellian"', 'initial.velocity=[120,-40,15]', 'run.steps=1000', 'sampling.start=1000',
    ]);
    const { result } = await simulate(gpu, c);
    const s = summarize(c.name, result, gpu.adapter, 0);
    expect(result.stepStats).toHaveLength(1000);
    for (const st of result.stepStats) expect(st.particlesAfter).toBe(result.start.particles);
    expect(s.conservation.particlesEnd).toBe(s.conservation.particlesStart);
    expect(s.conservation.particlesStart).toBe(20000);
    // collisions really happened (otherwise conservation is trivial)
    expect(s.collisionsPerParticleStep).toBeGreaterThan(0.02);
    expect(s.conservation.momentumRelDrift).toBeLessThan(1e-5);
    expect(s.conservation.energyRelDrift).toBeLessThan(1e-5);
  });
});
