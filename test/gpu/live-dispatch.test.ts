// Passes over the live particles (move, sort, the rotating move) are dispatched for the host's bound on the live
// count (SimState.liveBound), not the buffers' capacity, and loop over any more: one rank gives bit for bit the same
// particles whether they run for the bound or for one workgroup, and the bound holds every particle.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gpu } from '../../src-main/solver/gpu/device.js';
import { Simulation } from '../../src-main/solver/loop.js';
import type { Case } from '../../src-main/common/case-schema.js';
import { gpuForTests, presetCase } from '../physics/harness.js';
import { internalState, particleState } from '../cluster/in-process-ranks.js';

let gpu: Gpu;
beforeAll(async () => { gpu = await gpuForTests(); });
afterAll(() => gpu?.device.destroy());

/** Runs `c` on one rank (every pass over the live particles for `threads` invocations, or for the bound). */
async function run(c: Case, threads?: number): Promise<Simulation> {
  const sim = new Simulation(gpu, c, threads === undefined ? undefined : { particleThreads: threads });
  await sim.initialize();
  await sim.run({ timing: 'off' });
  return sim;
}

describe('passes dispatched for the live bound', () => {
  it('an inflow filling the box: the bound holds every particle, the idle slots are left out, one workgroup gives the same particles', async () => {
    const c = presetCase('free-stream', ['grid.cells=[16,6,4]', 'run.steps=40', 'run.stepsPerSubmit=10', 'sampling.enabled=false']);
    const bound = await run(c);
    expect(bound.state.liveBound).toBeGreaterThanOrEqual(bound.liveParticles);
    expect(bound.state.particleThreads()).toBeLessThan(bound.state.capacity);
    const one = await run(c, 64);
    expect(one.liveParticles).toBeGreaterThan(64 * 4);
    expect(await particleState([one])).toEqual(await particleState([bound]));
  });

  it('a rotating and vibrating species (move_rotating): one workgroup gives the same particles and internal energies', async () => {
    const c = presetCase('collide-box', [
      'grid.cells=[6,6,8]', 'run.steps=12', 'run.stepsPerSubmit=4', 'sampling.enabled=false',
      'species=[{"use":"N2","vibration":{"characteristicTemperature":3371,"relaxation":5,"millikanWhite":false}}]', 'initial.vibrationalTemperature=3000',
    ]);
    const bound = await run(c);
    const one = await run(c, 64);
    expect(one.liveParticles).toBeGreaterThan(64 * 4);
    expect(await particleState([one])).toEqual(await particleState([bound]));
    expect(await internalState([one])).toEqual(await internalState([bound]));
  });
});
