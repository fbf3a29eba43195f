// Decomposition invariance of a mixture's per-species fields (issue 28): an Ar + He channel with inflow (70 % Ar)
// and outflow, ranks in one process on one device. On 2 and 4 ranks the fields, the per-species ones among them,
// and their batch-means errors are bitwise those of 1 rank, and the ranks' particles per species (their totals'
// speciesCounts, species-count.wgsl on each rank's GPU) add up to the one-rank run's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Case } from '../../src-main/common/case-schema.js';
import { fieldNamesOf } from '../../src-main/common/field-names.js';
import { fieldsSha256 } from '../../src-main/solver/fields.js';
import type { Gpu } from '../../src-main/solver/gpu/device.js';
import { gpuForTests, presetCase, simulate } from '../physics/harness.js';
import { runInProcessRanks } from './in-process-ranks.js';

let gpu: Gpu;
beforeAll(async () => { gpu = await gpuForTests(); });
afterAll(() => gpu?.device.destroy());

/** The walled channel of the invariance test with an Ar + He inflow. */
const mixtureChannel = (): Case => presetCase('free-stream', [
  'species=[{"use":"Ar"},{"use":"He"}]', 'grid.cells=[16,6,4]', 'run.steps=100', 'sampling.start=50', 'sampling.interval=1',
  'boundaries.xmin={"type":"inflow","numberDensity":1e20,"temperature":300,"velocity":[1060.4,0,0],"fractions":{"Ar":0.7,"He":0.3}}',
  'boundaries.ymin={"type":"diffuse","temperature":500}', 'boundaries.ymax={"type":"diffuse","temperature":300,"velocity":[200,0,0]}',
]);

describe('per-species fields over ranks (Ar + He channel)', () => {
  let reference: { sha: string; errors: string; counts: number[] };
  beforeAll(async () => {
    const { result } = await simulate(gpu, mixtureChannel(), { timing: 'off' });
    expect(fieldNamesOf(result.fields).slice(-4)).toEqual(['n_Ar', 'n_He', 'x_Ar', 'x_He']);
    expect(result.fieldBlocks).toBeGreaterThanOrEqual(2);
    reference = { sha: fieldsSha256(result.fields), errors: fieldsSha256(result.fieldErrors), counts: result.end.speciesCounts! };
    expect(reference.counts[1]).toBeGreaterThan(0);
  });

  it.each([['slab', 2], ['rcb', 4]] as const)('%s over %i ranks gives bitwise the one-rank fields and errors, and the same particles per species', async (method, ranks) => {
    const { assembler, sims } = await runInProcessRanks(gpu, mixtureChannel(), method, ranks);
    expect(fieldsSha256(assembler.fields.fields())).toBe(reference.sha);
    expect(fieldsSha256(assembler.fields.errors())).toBe(reference.errors);
    const counts = [0, 0];
    for (const s of sims) (await s.totals()).speciesCounts!.forEach((k, i) => { counts[i] += k; });
    expect(counts).toEqual(reference.counts);
  });
});
