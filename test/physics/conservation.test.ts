// PHYSICS.md, periodic box: particle count exact; momentum and energy relative drift < 1e-5 over
// 1000 steps in f32.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gpu } from '../../src-main/solver/gpu/device.js';
import { CELL_WORD } from '../../src-main/solver/gpu/struct-layouts.js';
import { summarize } from '../../src-main/solver/summary.js';
import { gpuForTests, presetCase, simulate, velocities } from './harness.js';

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

  it('totals taken while more steps are queued are those of the moment they were asked for (the loop reads its periodic totals during the next submit)', async () => {
    // an empty box filling from an inflow face: the count, momentum and energy change every step
    const c = presetCase('free-stream', ['run.steps=6', 'run.stepsPerSubmit=3']);
    const { sim } = await simulate(gpu, c);
    const now = await sim.totals();
    expect(now.particles).toBeGreaterThan(0);
    // asked for, then 6 more steps queued (and run) before it is read
    const early = sim.totals();
    const later = await sim.run({ timing: 'off' }, 6);
    const taken = await early;
    expect(taken).toEqual(now);
    expect(later.end.particles).toBeGreaterThan(taken.particles);
    // the run's own totals over time: one per submit on a run this small, each that of its step (a fresh run of as
    // many steps gives the same at the same steps)
    expect(later.totalsOverTime.map((t) => t.step)).toEqual([9, 12]);
    const again = await simulate(gpu, presetCase('free-stream', ['run.steps=9', 'run.stepsPerSubmit=3']));
    expect(again.result.end).toEqual(later.totalsOverTime[0].totals);
  }, 120_000);

  it('totals summed on the GPU in two levels of 256 agree with the particles summed on the host in f64', async () => {
    // 140,000 particles: 547 workgroup partials, summed into 3 records on the GPU
    const c = presetCase('periodic-relaxation', [
      'grid.cells=[20,20,25]', 'particles.perCell=14', 'initial.kind="maxwellian"', 'initial.velocity=[120,-40,15]', 'run.steps=5', 'sampling.start=5',
    ]);
    const { sim } = await simulate(gpu, c);
    const t = await sim.totals();
    const { vx, vy, vz } = await velocities(sim);
    expect(t.particles).toBe(vx.length);
    expect(vx.length).toBe(140000);
    const w = sim.tables.fnum * c.species[0].mass;
    let px = 0, py = 0, pz = 0, e = 0, mv = 0;
    for (let i = 0; i < vx.length; i++) {
      px += vx[i]; py += vy[i]; pz += vz[i];
      const v2 = vx[i] * vx[i] + vy[i] * vy[i] + vz[i] * vz[i];
      e += 0.5 * v2;
      mv += Math.sqrt(v2);
    }
    // f32 trees of 256 on the GPU: a few parts in 1e7 of the scale
    expect(Math.abs(t.kineticEnergy / (w * e) - 1)).toBeLessThan(1e-6);
    expect(Math.abs(t.momentumMagnitudeSum / (w * mv) - 1)).toBeLessThan(1e-6);
    for (const [got, want] of [[t.momentum[0], px], [t.momentum[1], py], [t.momentum[2], pz]]) expect(Math.abs(got - w * want)).toBeLessThan(1e-6 * w * mv);
    expect(Math.abs(t.meanSpeed / (mv / vx.length) - 1)).toBeLessThan(1e-6);
  }, 120_000);

  it('conserves momentum and energy in a two-species mixture (unequal masses, VSS with VHS)', async () => {
    const species = [
      { name: 'Ar', mass: 6.63e-26, dRef: 4.11e-10, omega: 0.81, tRef: 273.15, alpha: 1.4 },
      { name: 'He', mass: 6.65e-27, dRef: 2.33e-10, omega: 0.66, tRef: 273, alpha: 1 },
    ];
    const c = presetCase('periodic-relaxation', [
      `species=${JSON.stringify(species)}`, 'initial.fractions={"Ar":0.6,"He":0.4}', 'initial.kind="maxwellian"',
      'initial.velocity=[60,30,-90]', 'run.steps=300', 'sampling.start=301',
    ]);
    const { sim, result } = await simulate(gpu, c);
    const s = summarize(c.name, result, gpu.adapter, 0);
    expect(s.collisionsPerParticleStep).toBeGreaterThan(0.01);
    expect(s.conservation.particlesEnd).toBe(s.conservation.particlesStart);
    expect(s.conservation.momentumRelDrift).toBeLessThan(1e-5);
    expect(s.conservation.energyRelDrift).toBeLessThan(1e-5);
    const words = new Uint32Array((await sim.readParticles(['cell'])).cell);
    const he = words.reduce((n, w) => n + (w >>> CELL_WORD.BITS), 0) / words.length;
    expect(Math.abs(he - 0.4)).toBeLessThan(0.02);
  });
});
