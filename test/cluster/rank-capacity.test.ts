// A rank's particle count changes from step to step within a submit (injection, arrivals), while the host checks
// the capacity against the count it read after the last submit: every step's exchange keeps room for the next
// step's injection, growing the buffers when needed, so a rank filling up never stops with injected particles that
// did not fit (found on the hypersonic wedge at full size, rcb on 4 ranks: "1319 injected particles did not fit").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gpu } from '../../src-main/solver/gpu/device.js';
import type { StepStats } from '../../src-main/solver/loop-types.js';
import { gpuForTests, presetCase, simulate } from '../physics/harness.js';
import { particleState, runInProcessRanks } from './in-process-ranks.js';

let gpu: Gpu;
beforeAll(async () => { gpu = await gpuForTests(); });
afterAll(() => gpu?.device.destroy());

/** The step statistics that must not depend on the decomposition. */
function invariantStats(steps: StepStats[]) {
  return steps.map((s) => [s.step, s.particlesBefore, s.injected, s.particlesAfter, s.collisions, s.candidates]);
}

describe('a rank filling up within one submit', () => {
  it('grows its buffers at the exchange before the next injection would overflow them, bitwise one rank', async () => {
    // an empty channel filling from its inflow face: rank 0 (the inflow end) gains about 80 particles a step, all
    // 60 steps in one submit, from a capacity of 1500 (room for about 5 steps at the submit's start)
    const c = presetCase('free-stream', ['grid.cells=[16,6,4]', 'run.steps=60', 'run.stepsPerSubmit=60', 'sampling.enabled=false']);
    const { sim, result } = await simulate(gpu, c, { timing: 'off' });
    expect(result.stepStats.at(-1)!.particlesAfter).toBeGreaterThan(4000);
    const { assembler, sims } = await runInProcessRanks(gpu, c, 'slab', 2, undefined, { capacity: 1500 });
    expect(invariantStats(assembler.stepStats)).toEqual(invariantStats(result.stepStats));
    expect(await particleState(sims)).toEqual(await particleState([sim]));
    expect(sims[0].state.capacity).toBeGreaterThan(1500);
  });
});
