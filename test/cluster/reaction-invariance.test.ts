// Reactions on several ranks (in one process, on one device): a hot box of five-species air that dissociates and
// exchanges atoms while its particles cross between ranks must give bitwise the one-rank run: step statistics
// (reactions and products per step included), each reaction's count, the sampled fields, and every particle with its
// rotational and vibrational energy. The products of a dissociation are ordered by the cell they were made in and
// their rank there (move.wgsl, sort.wgsl), never by where a rank's buffers put them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCase, type Case } from '../../src-main/common/case-schema.js';
import type { Gpu } from '../../src-main/solver/gpu/device.js';
import { fieldsSha256 } from '../../src-main/solver/fields.js';
import type { StepStats } from '../../src-main/solver/loop-types.js';
import { gpuForTests, simulate } from '../physics/harness.js';
import { internalState, particleState, runInProcessRanks } from './in-process-ranks.js';

let gpu: Gpu;
beforeAll(async () => { gpu = await gpuForTests(); });
afterAll(() => gpu?.device.destroy());

/** A periodic 12 x 10 x 8 box of air at 20,000 K reacting by the air5 set, sampled from step 20. */
export function reactingBox(steps = 60): Case {
  const periodic = { type: 'periodic' };
  return parseCase({
    name: 'reacting air box',
    grid: { cells: [12, 10, 8], cellSize: [1e-5, 1e-5, 1e-5] },
    species: [{ use: 'O2' }, { use: 'N2' }, { use: 'NO' }, { use: 'O' }, { use: 'N' }],
    particles: { perCell: 12 },
    initial: { numberDensity: 1e23, temperature: 20000, fractions: { N2: 0.79, O2: 0.21 } },
    boundaries: { xmin: periodic, xmax: periodic, ymin: periodic, ymax: periodic, zmin: periodic, zmax: periodic },
    run: { steps, dt: 2e-9, stepsPerSubmit: 20 },
    reactions: { use: 'air5' },
    sampling: { start: 20, interval: 1 },
  });
}

/** The step statistics that must not depend on the decomposition. */
function invariantStats(steps: StepStats[]) {
  return steps.map((s) => [s.step, s.particlesBefore, s.particlesAfter, s.collisions, s.candidates, s.reactions, s.products]);
}

describe('reacting air on several ranks', () => {
  let reference: { stats: unknown[]; counts: number[]; sha: string; particles: string[]; internal: string[] };
  beforeAll(async () => {
    const { sim, result } = await simulate(gpu, reactingBox(), { timing: 'off' });
    reference = {
      stats: invariantStats(result.stepStats), counts: result.reactionCounts!, sha: fieldsSha256(result.fields),
      particles: await particleState([sim]), internal: await internalState([sim]),
    };
    // the run reacted: dissociations made particles, and an exchange happened
    const made = result.stepStats.reduce((s, x) => s + (x.products ?? 0), 0);
    expect(made).toBeGreaterThan(100);
    expect(result.end.particles).toBe(result.start.particles + made);
    expect(reference.counts.reduce((a, b) => a + b, 0)).toBeGreaterThan(made);
  });

  it.each([['slab', 2], ['rcb', 2], ['block', 4]] as const)('%s over %i ranks gives bitwise the one-rank run', async (method, ranks) => {
    const { assembler, sims, results } = await runInProcessRanks(gpu, reactingBox(), method, ranks);
    expect(invariantStats(assembler.stepStats)).toEqual(reference.stats);
    const counts = results.map((r) => r.reactionCounts!).reduce((a, b) => a.map((x, k) => x + b[k]));
    expect(counts).toEqual(reference.counts);
    expect(fieldsSha256(assembler.fields.fields())).toBe(reference.sha);
    expect(await particleState(sims)).toEqual(reference.particles);
    expect(await internalState(sims)).toEqual(reference.internal);
    expect(assembler.rankSteps.reduce((s, r) => s + r.sent, 0)).toBeGreaterThan(0);
    // the unsampled steps moved the next step's interior part early, dissociating as they went (products placed where
    // their parents collided: products.wgsl stage_parents)
    for (const s of sims) expect(s.splitStats()!.earlyMoves).toBeGreaterThan(10);
  });
});

/** Hot air flowing into an empty channel (inflow at xmin, outflow at xmax, specular walls): the gas fills the box
 * from one side, so a split by cells is unbalanced and a rebalance moves cells, products among their particles. */
function reactingInflow(): Case {
  const wall = { type: 'specular' };
  return parseCase({
    name: 'reacting air inflow',
    grid: { cells: [24, 6, 4], cellSize: [1e-5, 1e-5, 1e-5] },
    species: [{ use: 'O2' }, { use: 'N2' }, { use: 'NO' }, { use: 'O' }, { use: 'N' }],
    particles: { perCell: 12 },
    initial: { kind: 'empty' },
    boundaries: {
      xmin: { type: 'inflow', numberDensity: 1e23, temperature: 20000, velocity: [3000, 0, 0], fractions: { N2: 0.79, O2: 0.21 } },
      xmax: { type: 'outflow' }, ymin: wall, ymax: wall, zmin: wall, zmax: wall,
    },
    run: { steps: 80, dt: 1e-9, stepsPerSubmit: 10 },
    reactions: { use: 'air5' },
    sampling: { start: 40, interval: 1 },
  });
}

describe('reacting air rebalanced on several ranks', () => {
  it('rebalancing slabs of an inflow of hot air moves the products with the cells: bitwise the one-rank run', async () => {
    const { sim, result } = await simulate(gpu, reactingInflow(), { timing: 'off' });
    const particles = await particleState([sim]);
    expect(result.stepStats.reduce((s, x) => s + (x.products ?? 0), 0)).toBeGreaterThan(50);
    const { assembler, sims, results, events } = await runInProcessRanks(gpu, reactingInflow(), 'slab', 2, 5);
    expect(events.length).toBeGreaterThan(0);
    expect(invariantStats(assembler.stepStats)).toEqual(invariantStats(result.stepStats));
    expect(results.map((r) => r.reactionCounts!).reduce((a, b) => a.map((x, k) => x + b[k]))).toEqual(result.reactionCounts);
    expect(fieldsSha256(assembler.fields.fields())).toBe(fieldsSha256(result.fields));
    expect(await particleState(sims)).toEqual(particles);
  });
});
