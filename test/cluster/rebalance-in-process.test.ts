// Dynamic load balancing on the supersonic lid-driven cavity (the seeds' imbalanced case), 4 ranks in one
// process: a static slab split drifts far above 10 % load non-uniformity, rebalancing whenever UN > 10 %
// keeps it under 10 % on average and at the end, and the rebalanced run's fields and step statistics stay
// bitwise those of one rank.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gpu } from '../../src-main/solver/gpu/device.js';
import { fieldsSha256 } from '../../src-main/solver/fields.js';
import { gpuForTests, presetCase, simulate } from '../physics/harness.js';
import { internalState, runInProcessRanks } from './in-process-ranks.js';

let gpu: Gpu;
beforeAll(async () => { gpu = await gpuForTests(); });
afterAll(() => gpu?.device.destroy());

const cavity = () => presetCase('supersonic-cavity', ['run.steps=600', 'run.stepsPerSubmit=20', 'sampling.start=400']);

/** Mean and last UN (percent) over steps after the first 100 (the imbalance builds up over ~100 steps). */
function unStats(series: { step: number; percent: number }[]) {
  const late = series.filter((s) => s.step > 100).map((s) => s.percent);
  return { mean: late.reduce((a, b) => a + b, 0) / late.length, last: late[late.length - 1], max: Math.max(...late) };
}

describe('supersonic lid-driven cavity on 4 ranks', () => {
  it('a static slab split is unbalanced; rebalancing at UN > 10 % keeps UN under 10 % with the one-rank fields', async () => {
    const one = await simulate(gpu, cavity(), { timing: 'off' });
    const fixed = await runInProcessRanks(gpu, cavity(), 'slab', 4);
    const balanced = await runInProcessRanks(gpu, cavity(), 'slab', 4, 10);
    const s = unStats(fixed.assembler.loadNonUniformity);
    const b = unStats(balanced.assembler.loadNonUniformity);
    console.log(`static slab: UN mean ${s.mean.toFixed(1)} %, last ${s.last.toFixed(1)} %, max ${s.max.toFixed(1)} %; ` +
      `rebalanced (${balanced.events.length} times): mean ${b.mean.toFixed(1)} %, last ${b.last.toFixed(1)} %, max ${b.max.toFixed(1)} %`);
    expect(s.mean).toBeGreaterThan(15);
    expect(balanced.events.length).toBeGreaterThan(0);
    // each relayout in one round: what any rank sends another (known from the counts) fits a round's records
    for (const sim of balanced.sims) expect(sim.relayoutRounds).toBe(balanced.events.length);
    expect(b.mean).toBeLessThan(10);
    expect(b.last).toBeLessThan(10);
    const sha = fieldsSha256(one.result.fields);
    expect(fieldsSha256(fixed.assembler.fields.fields())).toBe(sha);
    expect(fieldsSha256(balanced.assembler.fields.fields())).toBe(sha);
    const stats = (steps: typeof one.result.stepStats) => steps.map((x) => [x.step, x.particlesBefore, x.particlesAfter, x.collisions, x.candidates]);
    expect(stats(balanced.assembler.stepStats)).toEqual(stats(one.result.stepStats));
  });

  it('rcb rebalanced through relayouts of many small rounds (no round outgrows its segment): bitwise the one-rank fields', async () => {
    const c = () => presetCase('supersonic-cavity', ['run.steps=400', 'run.stepsPerSubmit=20', 'sampling.start=250']);
    const one = await simulate(gpu, c(), { timing: 'off' });
    // 4 KB of records per round: 256 particles of each rank per round (relayout-rounds.ts), so every relayout takes many
    const balanced = await runInProcessRanks(gpu, c(), 'rcb', 4, 10, { relayoutRoundBytes: 4096 });
    const rounds = balanced.sims.reduce((n, s) => n + s.relayoutRounds, 0) / 4;
    console.log(`rcb: ${balanced.events.length} rebalances in ${rounds} relayout rounds per rank`);
    expect(balanced.events.length).toBeGreaterThan(0);
    expect(rounds).toBeGreaterThan(3 * balanced.events.length);
    expect(balanced.sims.every((s) => s.relayoutRounds === balanced.sims[0].relayoutRounds)).toBe(true);
    expect(fieldsSha256(balanced.assembler.fields.fields())).toBe(fieldsSha256(one.result.fields));
    const stats = (steps: typeof one.result.stepStats) => steps.map((x) => [x.step, x.particlesBefore, x.particlesAfter, x.collisions, x.candidates]);
    expect(stats(balanced.assembler.stepStats)).toEqual(stats(one.result.stepStats));
  });

  it('per-cell buffers kept through every re-split (room for any layout) or made anew each time (no room): bitwise the one-rank fields', async () => {
    const c = () => presetCase('supersonic-cavity', ['run.steps=300', 'run.stepsPerSubmit=20', 'sampling.start=150']);
    const one = await simulate(gpu, c(), { timing: 'off' });
    for (const cellRoom of [4, 1]) {
      const balanced = await runInProcessRanks(gpu, c(), 'rcb', 4, 10, { cellRoom });
      expect(balanced.events.length).toBeGreaterThan(0);
      expect(fieldsSha256(balanced.assembler.fields.fields())).toBe(fieldsSha256(one.result.fields));
      const stats = (steps: typeof one.result.stepStats) => steps.map((x) => [x.step, x.particlesBefore, x.particlesAfter, x.collisions, x.candidates]);
      expect(stats(balanced.assembler.stepStats)).toEqual(stats(one.result.stepStats));
    }
  });

  it('with vibrating N2, the rebalanced run moves the internal energies with the particles: bitwise the one-rank ones', async () => {
    const n2 = () => presetCase('supersonic-cavity', [
      'species=[{"use":"N2","vibration":{"characteristicTemperature":3371,"relaxation":5,"millikanWhite":false}}]',
      'run.steps=300', 'run.stepsPerSubmit=20', 'sampling.start=200',
    ]);
    const one = await simulate(gpu, n2(), { timing: 'off' });
    const balanced = await runInProcessRanks(gpu, n2(), 'slab', 4, 10);
    expect(balanced.events.length).toBeGreaterThan(0);
    expect(fieldsSha256(balanced.assembler.fields.fields())).toBe(fieldsSha256(one.result.fields));
    expect(await internalState(balanced.sims)).toEqual(await internalState([one.sim]));
  });
});
