// Composition of a run's gas (composition-summary.ts) and the particles of each species over time (species-count.wgsl
// through the totals):
// - a closed Ar + He box keeps its counts at every step of the totals, they add up to the particles and match the
//   species counted from the particles themselves; the summary's mean mole fractions (from the sampled fields) are
//   the counted fractions; without sampling they come from the particles;
// - helium flowing into an argon box through xmin (outflow at xmax): no helium at the start, more at the end, argon
//   never more than at the start, every entry's counts adding up to the particles of the totals.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compositionSummary } from '../../src-main/solver/composition-summary.js';
import type { Gpu } from '../../src-main/solver/gpu/device.js';
import { CELL_WORD } from '../../src-main/solver/gpu/struct-layouts.js';
import type { Simulation } from '../../src-main/solver/loop.js';
import { gpuForTests, presetCase, simulate } from './harness.js';

let gpu: Gpu;
beforeAll(async () => { gpu = await gpuForTests(); });
afterAll(() => gpu?.device.destroy());

const AR_HE = JSON.stringify([{ use: 'Ar' }, { use: 'He' }]);

/** The collide box of Ar and He in 64 cells with the given set lines. */
function box(sets: string[]): ReturnType<typeof presetCase> {
  return presetCase('collide-box', [`species=${AR_HE}`, 'grid.cells=[4,4,4]', 'grid.cellSize=[5e-5,5e-5,5e-5]', 'particles.perCell=100', ...sets]);
}

/** Particles of each species (Ar, He) counted from the particles' cell words. */
async function countedSpecies(sim: Simulation): Promise<number[]> {
  const cells = new Uint32Array((await sim.readParticles(['cell'])).cell);
  const out = [0, 0];
  for (const w of cells) out[w >>> CELL_WORD.BITS] += 1;
  return out;
}

describe('composition over time', () => {
  it('a closed Ar + He box: constant counts that match the particles; the summary from the fields, else from the particles', async () => {
    const c = box(['run.steps=40', 'sampling.start=10', 'initial.fractions={"Ar":0.6,"He":0.4}']);
    const { sim, result } = await simulate(gpu, c, { timing: 'off' });
    const counted = await countedSpecies(sim);
    expect(result.end.speciesCounts).toEqual(counted);
    expect(result.start.speciesCounts).toEqual(counted);
    expect(result.totalsOverTime.length).toBeGreaterThan(0);
    for (const t of result.totalsOverTime) expect(t.totals.speciesCounts, `step ${t.step}`).toEqual(counted);
    const s = compositionSummary(c, result);
    expect(s.species).toEqual(['Ar', 'He']);
    expect(s.from).toBe('fields');
    const total = counted[0] + counted[1];
    console.log(`closed box: counted ${counted.join(' + ')}, summary ${JSON.stringify(s.moleFractions)}, ${s.overTime.length} entries over time`);
    expect(s.moleFractions[0]).toBeCloseTo(counted[0] / total, 12);
    expect(s.moleFractions[1]).toBeCloseTo(counted[1] / total, 12);
    expect(s.overTime[0]).toEqual({ step: 0, speciesCounts: counted });
    expect(s.overTime.at(-1)).toEqual({ step: 40, speciesCounts: counted });

    const off = box(['run.steps=5', 'sampling.enabled=false', 'initial.fractions={"Ar":0.6,"He":0.4}']);
    const r2 = await simulate(gpu, off, { timing: 'off' });
    const counted2 = await countedSpecies(r2.sim);
    const s2 = compositionSummary(off, r2.result);
    expect(s2.from).toBe('particles');
    expect(s2.moleFractions).toEqual(counted2.map((k) => k / (counted2[0] + counted2[1])));
  });

  it('helium flowing into an argon box: none at the start, some at the end, argon never more than at the start', async () => {
    const inflow = JSON.stringify({ type: 'inflow', numberDensity: 7.07043e22, temperature: 273.15, velocity: [2000, 0, 0], fractions: { He: 1 } });
    const c = box(['run.steps=60', 'sampling.enabled=false', 'initial.fractions={"Ar":1}', `boundaries.xmin=${inflow}`, 'boundaries.xmax={"type":"outflow"}']);
    const { sim, result } = await simulate(gpu, c, { timing: 'off' });
    const s = compositionSummary(c, result);
    console.log(`He into Ar: ${JSON.stringify(s.overTime)}`);
    expect(s.overTime.length).toBeGreaterThanOrEqual(2);
    const [first, last] = [s.overTime[0].speciesCounts, s.overTime.at(-1)!.speciesCounts];
    expect(first[1]).toBe(0);
    expect(first[0]).toBe(result.start.particles);
    expect(last[1]).toBeGreaterThan(0);
    for (const e of s.overTime) expect(e.speciesCounts[0], `Ar at step ${e.step}`).toBeLessThanOrEqual(first[0]);
    for (const t of [result.start, ...result.totalsOverTime.map((x) => x.totals)]) expect(t.speciesCounts![0] + t.speciesCounts![1]).toBe(t.particles);
    expect(last).toEqual(await countedSpecies(sim));
    expect(s.moleFractions[1]).toBeCloseTo(last[1] / (last[0] + last[1]), 12);
  });
});
