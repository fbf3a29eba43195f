// The migrants' stream compaction (emit_migrants) in its two forms: subgroup operations where the device has them
// (emit-subgroup.wgsl), workgroup barriers otherwise (emit-workgroup.wgsl). Either gives the ranks one rank's
// particles bit for bit: the order of records in a segment never matters, the receiving rank orders arrivals by key.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Case } from '../../src-main/common/case-schema.js';
import { openGpu, type Gpu } from '../../src-main/solver/gpu/device.js';
import { shaderSource } from '../../src-main/solver/gpu/shader-source.js';
import { presetCase, simulate } from '../physics/harness.js';
import { internalState, particleState, runInProcessRanks } from './in-process-ranks.js';

let withSubgroups: Gpu;
let withBarriers: Gpu;
beforeAll(async () => {
  withSubgroups = await openGpu();
  withBarriers = await openGpu({ subgroups: false });
});
afterAll(() => {
  withSubgroups?.device.destroy();
  withBarriers?.device.destroy();
});

/** A closed periodic box of vibrating N2 streaming along z (many migrants a step), on few cells. */
function streaming(): Case {
  return presetCase('collide-box', [
    'grid.cells=[6,6,40]', 'run.steps=16', 'run.stepsPerSubmit=8', 'sampling.enabled=false', 'initial.velocity=[0,0,600]',
    'species=[{"use":"N2","vibration":{"characteristicTemperature":3371,"relaxation":5,"millikanWhite":false}}]', 'initial.vibrationalTemperature=3000',
    'boundaries.xmin={"type":"periodic"}', 'boundaries.xmax={"type":"periodic"}', 'boundaries.ymin={"type":"periodic"}',
    'boundaries.ymax={"type":"periodic"}', 'boundaries.zmin={"type":"periodic"}', 'boundaries.zmax={"type":"periodic"}',
  ]);
}

describe('the migrants\' stream compaction', () => {
  it('uses subgroup operations where the device has them, and the barrier form when asked not to', () => {
    // lavapipe (CI) and the GPUs we measure on have subgroups: the first form is the one tested and run
    expect(withSubgroups.subgroups).toBe(true);
    expect(withBarriers.subgroups).toBe(false);
    expect(shaderSource('move.wgsl', ['emit.wgsl'], { subgroups: true })).toMatch(/^enable subgroups;/);
    expect(shaderSource('move.wgsl', ['emit.wgsl'], { subgroups: true })).toContain('subgroupExclusiveAdd');
    const barriers = shaderSource('move.wgsl', ['emit.wgsl'], { subgroups: false });
    expect(barriers).not.toContain('enable subgroups');
    expect(barriers).not.toContain('subgroupMin');
    expect(barriers).toContain('workgroupBarrier');
  });

  it.each([['subgroups', () => withSubgroups], ['workgroup barriers', () => withBarriers]] as const)('with %s: 4 rcb ranks give one rank\'s particles and internal energies bit for bit', async (_, gpuOf) => {
    const gpu = gpuOf();
    const c = streaming();
    const { sim } = await simulate(gpu, c, { timing: 'off' });
    // small segments: they overflow, grow and every migrant is collected again (collect_all) too
    const { sims } = await runInProcessRanks(gpu, c, 'rcb', 4, undefined, { segmentCapacity: 16, particleThreads: 64 });
    expect(await particleState(sims)).toEqual(await particleState([sim]));
    expect(await internalState(sims)).toEqual(await internalState([sim]));
    for (const s of sims) expect(s.state.segCap).toBeGreaterThan(16);
  });
});
