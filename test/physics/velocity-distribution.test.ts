// The velocity distribution a run reports (summary.velocityDistribution) against Maxwell-Boltzmann: the
// collide-box gas at 273.15 K after 100 steps (about 14 collisions per molecule). Each bin's count is compared
// with the expected count from the Maxwell-Boltzmann density at the sample's temperature, within 5 standard
// deviations of the binomial count plus 0.2 % of the sample (the bins' finite width).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maxwellComponentPdf, maxwellSpeedPdf } from '../../src-main/common/velocity-distribution.js';
import type { Gpu } from '../../src-main/solver/gpu/device.js';
import { runCase } from '../../src-main/solver/run-case.js';
import { gpuForTests, presetCase } from './harness.js';

let gpu: Gpu;
beforeAll(async () => { gpu = await gpuForTests(); });
afterAll(() => gpu?.device.destroy());

describe('velocity distribution of the collide-box gas', () => {
  it('matches Maxwell-Boltzmann in every bin of v_x and of the speed, at the gas temperature', async () => {
    const c = presetCase('collide-box', ['grid.cells=[30,30,30]', 'run.steps=100']);
    const { summary } = await runCase(c, { gpu, timing: 'off' });
    const d = summary.velocityDistribution!;
    expect(d.species).toBe('Ar');
    expect(d.sampled).toBe(270_000);
    expect(Math.abs(d.temperature - 273.15) / 273.15).toBeLessThan(0.01);
    const check = (counts: number[], pdfAt: (v: number) => number, lo: number, width: number) => {
      counts.forEach((k, b) => {
        const p = pdfAt(lo + (b + 0.5) * width) * width;
        const expected = p * d.sampled;
        const tolerance = 5 * Math.sqrt(expected * (1 - p)) + 0.002 * d.sampled;
        expect(Math.abs(k - expected), `bin ${b}: ${k} vs ${expected.toFixed(0)}`).toBeLessThan(tolerance);
      });
    };
    check(d.component.counts, (v) => maxwellComponentPdf(v, d.mass, d.temperature), d.component.lo, d.component.binWidth);
    check(d.speed.counts, (v) => maxwellSpeedPdf(v, d.mass, d.temperature), 0, d.speed.binWidth);
    // the sample is close to Maxwellian but not by construction: a ±sqrt(kT/m) start fails the same check
    const bimodal = presetCase('periodic-relaxation', ['run.steps=1', 'grid.cells=[30,30,30]']);
    const early = (await runCase(bimodal, { gpu, timing: 'off' })).summary.velocityDistribution!;
    const peak = Math.max(...early.component.counts);
    const centre = early.component.counts[early.component.counts.length / 2];
    expect(centre).toBeLessThan(peak / 4);
  });
});
