// Decomposition invariance of the solver itself (ranks in one process, on one device): the fields and
// step statistics (and the surface sums of walls and bodies) of 2 and 4 ranks must be bitwise those of 1 rank, for a
// periodic box, for a walled channel with inflow and outflow, for that channel with a block in the flow and with
// vibrating N2, with every decomposition method (fields and their batch-means errors; for vibrating N2 also every
// particle's rotational and vibrational energy).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Case } from '../../src-main/common/case-schema.js';
import type { Gpu } from '../../src-main/solver/gpu/device.js';
import { fieldsSha256 } from '../../src-main/solver/fields.js';
import type { StepStats } from '../../src-main/solver/loop-types.js';
import { gpuForTests, presetCase, simulate } from '../physics/harness.js';
import { internalState, runInProcessRanks } from './in-process-ranks.js';

let gpu: Gpu;
beforeAll(async () => { gpu = await gpuForTests(); });
afterAll(() => gpu?.device.destroy());

/** The step statistics that must not depend on the decomposition. */
function invariantStats(steps: StepStats[]) {
  return steps.map((s) => [s.step, s.particlesBefore, s.injected, s.particlesAfter, s.collisions, s.candidates]);
}

/** A small periodic box (collide-box physics) sampled every step from step 10. */
const periodic = (): Case => presetCase('collide-box', [
  'grid.cells=[12,10,8]', 'run.steps=40', 'sampling.enabled=true', 'sampling.start=10', 'sampling.interval=1',
  'boundaries.xmin={"type":"periodic"}', 'boundaries.xmax={"type":"periodic"}',
  'boundaries.ymin={"type":"periodic"}', 'boundaries.ymax={"type":"periodic"}',
  'boundaries.zmin={"type":"periodic"}', 'boundaries.zmax={"type":"periodic"}',
]);

/** A channel: inflow at xmin, outflow at xmax, diffuse walls at y, periodic z, starting from an empty box. */
const channel = (): Case => presetCase('free-stream', [
  'grid.cells=[16,6,4]', 'run.steps=120', 'sampling.start=60', 'sampling.interval=1',
  'boundaries.ymin={"type":"diffuse","temperature":500}', 'boundaries.ymax={"type":"diffuse","temperature":300,"velocity":[200,0,0]}',
]);

/** The channel with a diffuse block in the flow (cut cells, reflections on the block, its surface sums). */
const channelWithBody = (): Case => presetCase('free-stream', [
  'grid.cells=[16,6,4]', 'run.steps=120', 'sampling.start=60', 'sampling.interval=1',
  'boundaries.ymin={"type":"diffuse","temperature":500}', 'boundaries.ymax={"type":"diffuse","temperature":300,"velocity":[200,0,0]}',
  'bodies=[{"name":"block","shape":{"type":"box","min":[0.021,0.0061,0.0041],"max":[0.033,0.017,0.0119]},"surface":{"model":"diffuse","temperature":400}}]',
]);

/**
 * The channel with vibrating N2 (Zvib 5) from a 300 K reservoir between walls at 1500 K and 300 K: rotation and
 * vibration exchanged in collisions, renewed at the walls, brought by the inflow, carried by the migrants.
 */
const molecularChannel = (): Case => presetCase('free-stream', [
  'species=[{"use":"N2","vibration":{"characteristicTemperature":3371,"relaxation":5,"millikanWhite":false}}]',
  'grid.cells=[16,6,4]', 'run.steps=120', 'sampling.start=60', 'sampling.interval=1',
  'boundaries.ymin={"type":"diffuse","temperature":1500}', 'boundaries.ymax={"type":"diffuse","temperature":300,"velocity":[200,0,0]}',
]);

/** The exact integer surface sums of all ranks added up, as text. */
function surfaceTotals(sims: { surface: { totals: BigInt64Array } }[]): string {
  const sum = new BigInt64Array(sims[0].surface.totals.length);
  for (const s of sims) s.surface.totals.forEach((v, i) => { sum[i] += v; });
  return sum.join(',');
}

// the vibrating N2 channel also compares the particles' internal energies, particle by particle (migrants carry them)
describe.each([
  ['periodic box', periodic, false],
  ['walled inflow/outflow channel', channel, false],
  ['channel with a diffuse block in the flow', channelWithBody, false],
  ['channel of vibrating N2', molecularChannel, true],
])('%s', (_name, makeCase, internal) => {
  let reference: { sha: string; errors: string; stats: unknown[]; samples: number; blocks: number; surface: string; internal: string[] | null };
  beforeAll(async () => {
    const { sim, result } = await simulate(gpu, makeCase(), { timing: 'off' });
    reference = {
      sha: fieldsSha256(result.fields), errors: fieldsSha256(result.fieldErrors), stats: invariantStats(result.stepStats),
      samples: result.samples, blocks: result.fieldBlocks, surface: surfaceTotals([sim]), internal: internal ? await internalState([sim]) : null,
    };
    expect(result.samples).toBeGreaterThan(0);
    expect(result.fieldBlocks).toBeGreaterThanOrEqual(2);
    // vibration was exchanged: some molecules hold quanta
    if (internal) expect(reference.internal!.filter((r) => !r.endsWith(':0')).length).toBeGreaterThan(100);
  });

  it.each([
    ['slab', 2], ['block', 2], ['rcb', 2], ['slab', 4], ['block', 4], ['rcb', 4],
  ] as const)('%s over %i ranks gives bitwise the one-rank fields and step statistics', async (method, ranks) => {
    const { assembler, sims } = await runInProcessRanks(gpu, makeCase(), method, ranks);
    expect(invariantStats(assembler.stepStats)).toEqual(reference.stats);
    expect(assembler.fields.samples).toBe(reference.samples);
    expect(assembler.fields.blocks).toBe(reference.blocks);
    expect(fieldsSha256(assembler.fields.fields())).toBe(reference.sha);
    // the batch means (computed on each rank's GPU) too
    expect(fieldsSha256(assembler.fields.errors())).toBe(reference.errors);
    expect(surfaceTotals(sims)).toBe(reference.surface);
    if (reference.internal) expect(await internalState(sims)).toEqual(reference.internal);
    // particles did cross between ranks, so the test exercised migration
    const sent = assembler.rankSteps.reduce((s, r) => s + r.sent, 0);
    expect(sent).toBeGreaterThan(0);
  });
});

// the injection's write and the collect of injected migrants run grid-stride loops over a host-sized grid: one
// workgroup here, so a step's several hundred injected particles take them several rounds (a dense inflow, split
// across its face by the blocks)
describe('dense inflow written and collected by one workgroup', () => {
  const dense = (): Case => presetCase('free-stream', [
    'grid.cells=[8,8,4]', 'run.steps=40', 'particles.perCell=200', 'sampling.start=20', 'sampling.interval=1',
    'boundaries.xmin={"type":"inflow","numberDensity":1e20,"temperature":300,"velocity":[1060.4,300,0]}',
  ]);

  it('block over 4 ranks gives bitwise the one-rank fields and step statistics', async () => {
    const { result } = await simulate(gpu, dense(), { timing: 'off' });
    expect(Math.min(...result.stepStats.map((s) => s.injected))).toBeGreaterThan(2 * 256);
    const { assembler } = await runInProcessRanks(gpu, dense(), 'block', 4, undefined, { injectThreads: 1 });
    expect(invariantStats(assembler.stepStats)).toEqual(invariantStats(result.stepStats));
    expect(fieldsSha256(assembler.fields.fields())).toBe(fieldsSha256(result.fields));
  });
});
