// The move's count by runs of equal cells in a subgroup (count-subgroup.wgsl) against one atomic per particle
// (count-atomic.wgsl, DSMC_SUBGROUPS=0): each hands every cell's particles the slots 0..n-1, so the sorted particles
// and the fields are the same. A run whose base or places went wrong would give two particles one slot: the sort's
// scatter would then drop one of them and the fields would differ.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Case } from '../../src-main/common/case-schema.js';
import { openGpu, type Gpu } from '../../src-main/solver/gpu/device.js';
import { moveModules } from '../../src-main/solver/phases/move.js';
import { runCase } from '../../src-main/solver/run-case.js';
import { presetCase } from '../physics/harness.js';

let grouped: Gpu;
let atomic: Gpu;

beforeAll(async () => {
  grouped = await openGpu();
  const before = process.env.DSMC_SUBGROUPS;
  process.env.DSMC_SUBGROUPS = '0';
  try {
    atomic = await openGpu();
  } finally {
    if (before === undefined) delete process.env.DSMC_SUBGROUPS;
    else process.env.DSMC_SUBGROUPS = before;
  }
});
afterAll(() => { grouped?.device.destroy(); atomic?.device.destroy(); });

/** The fields' digest, the particle count and the collisions of a case run on `gpu`. */
async function outcome(gpu: Gpu, c: Case) {
  const { summary } = await runCase(c, { gpu, timing: 'off' });
  return { fields: summary.fieldsSha256, particles: summary.particles, collisions: summary.collisionsPerParticleStep };
}

describe('the move counts its particles by runs of equal cells in a subgroup', () => {
  it('is taken where the adapter has subgroups (lavapipe has), and DSMC_SUBGROUPS=0 turns it off', async () => {
    const adapter = await grouped.instance.requestAdapter({ powerPreference: 'high-performance' });
    expect(grouped.device.features.has('subgroups')).toBe(adapter!.features.has('subgroups'));
    expect(moveModules(grouped.device)).toContain(grouped.device.features.has('subgroups') ? 'count-subgroup.wgsl' : 'count-atomic.wgsl');
    expect(atomic.device.features.has('subgroups')).toBe(false);
    expect(moveModules(atomic.device)).toContain('count-atomic.wgsl');
  });

  const boxes: [string, string[]][] = [
    ['a closed box of 30 a cell', []],
    ['vibrating N2 (move_rotating), flowing between specular walls', [
      'species=[{"use":"N2","vibration":{"characteristicTemperature":3371,"relaxation":5,"millikanWhite":false}}]',
      'initial.vibrationalTemperature=3000', 'initial.velocity=[0,0,600]']],
  ];
  it.each(boxes)('gives the fields of one atomic a particle: %s', async (_, sets) => {
    const c = presetCase('collide-box', ['grid.cells=[16,16,16]', 'particles.perCell=30', 'run.steps=20', ...sets]);
    const a = await outcome(grouped, c);
    expect(a.particles).toBeGreaterThan(100_000);
    expect(a.fields).toMatch(/^[0-9a-f]{64}$/);
    expect(a).toEqual(await outcome(atomic, c));
  });

  it('gives the fields of one atomic a particle: inflow, outflow and a wedge (particles leaving inside runs)', async () => {
    const c = presetCase('hypersonic-wedge', ['grid.cells=[80,40,2]', 'grid.cellSize=[2.5e-3,2.5e-3,2.5e-3]', 'particles.perCell=6',
      'run.dt=3e-7', 'run.steps=40', 'sampling.start=20']);
    const a = await outcome(grouped, c);
    expect(a.particles).toBeGreaterThan(20_000);
    expect(a.fields).toMatch(/^[0-9a-f]{64}$/);
    expect(a).toEqual(await outcome(atomic, c));
  });
});
