// Pipelines are created once at setup and reused: stepping never compiles another one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gpu } from '../../src-main/solver/gpu/device.js';
import { Simulation } from '../../src-main/solver/loop.js';
import { gpuForTests, presetCase } from '../physics/harness.js';

let gpu: Gpu;
beforeAll(async () => { gpu = await gpuForTests(); });
afterAll(() => gpu?.device.destroy());

describe('pipeline cache', () => {
  it('stays the same size while the loop steps', async () => {
    const c = presetCase('free-stream', ['run.steps=10', 'run.stepsPerSubmit=3']);
    const sim = new Simulation(gpu, c);
    await sim.initialize();
    await sim.run({}, 4);
    const afterFirst = sim.cache.size;
    expect(afterFirst).toBeGreaterThan(5);
    await sim.run({}, 10);
    expect(sim.cache.size).toBe(afterFirst);
  });
});
