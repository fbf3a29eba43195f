// @vitest-environment happy-dom
// Issue 27, item 6: the weak-scaling fit's s is the time each added GPU adds (a multiple of T1), not a serial
// fraction: the scaling view names it so and never shows an impossible percentage; a strong fit keeps its
// serial fraction as a share of T1.
import { flushPromises, mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import { buildScalingReport } from '../../src-main/common/reports/scaling-model.js';
import type { RunRecord, StudyKind } from '../../src-main/common/run-record.js';
import type { RunSummary } from '../../src-main/common/run-summary.js';
import { useTransport } from '../../src-renderer/api/index.js';
import ScalingView from '../../src-renderer/views/ScalingView.vue';
import { fakeTransport } from './fake-transport.js';

const HASH = 'cd'.repeat(32);

/** A completed run on `gpus` GPUs whose loop took `seconds` with `particles` particles. */
function run(id: number, gpus: number, seconds: number, particles: number): RunRecord {
  const summary = {
    case: 'box', steps: 100, particles, meanParticles: particles, particleSteps: particles * 100, seconds, particleStepsPerSecond: (particles * 100) / seconds,
    collisionsPerParticleStep: 0.07, candidatesPerParticleStep: 0.1, timing: 'wall-clock', phases: {}, otherSeconds: 0,
    host: { encodeSeconds: 0, waitSeconds: 0, readbackSeconds: 0, submits: 1 },
    conservation: { particlesStart: particles, particlesEnd: particles, momentumRelDrift: null, energyRelDrift: null },
    samples: 0, fieldsSha256: '', capacity: 0, bytesPerParticle: 0, adapter: { description: 'fake', backend: 'none' },
  } as RunSummary;
  return {
    id, project: 'p', caseId: 1, caseName: 'box', caseHash: HASH, status: 'completed', reason: null, startedAt: 't', endedAt: 't', seed: 1,
    ranks: gpus, gpus, adapter: { description: 'fake', backend: 'none' }, productVersion: '0', summary, lastStep: 100, tags: [], notes: '',
  };
}

/** Mounts the scaling view on a study of `kind` whose loop times on 1, 2, 4 GPUs are `seconds` (particles grow with GPUs when weak). */
async function mountStudy(kind: StudyKind, seconds: number[]) {
  const gpus = [1, 2, 4];
  const study = { id: 1, name: 's', kind, project: 'p', caseName: 'box', caseHash: HASH, createdAt: 't', notes: '' };
  const report = buildScalingReport({ study, runs: gpus.map((g, i) => ({ gpus: g, run: run(i + 1, g, seconds[i], kind === 'weak' ? 1e6 * g : 1e6), phases: [], rankSteps: [] })) });
  const fake = fakeTransport({
    listStudies: () => [{ ...study, gpus }],
    getScaling: () => JSON.parse(JSON.stringify(report)),
  });
  useTransport(fake.transport);
  const w = mount(ScalingView);
  await flushPromises();
  await flushPromises();
  return { w, fit: report.fit! };
}

beforeEach(() => setActivePinia(createPinia()));

describe('the scaling fit\'s coefficient s', () => {
  it('names a weak fit\'s s as the time added per extra GPU and never shows it as a percentage', async () => {
    // each doubling of the GPUs (and of the problem) more than doubles the loop time: s > 1
    const { w, fit } = await mountStudy('weak', [1, 2.2, 6.5]);
    expect(fit.serialFraction).toBeGreaterThan(1);
    const text = w.find('[data-test="scaling-fit"]').text();
    // both predictions, stated as the model's (a 4-GPU study: 8 and 16 GPUs)
    expect(text).toMatch(/predicted on \d+ GPUs: speedup [\d.]+, efficiency [\d.]+ %; +predicted on \d+ GPUs/);
    expect(text).toContain('(the model, not measured)');
    expect(text).toContain('time added per extra GPU');
    expect(text).not.toContain('serial fraction');
    expect(text).not.toMatch(/s = [\d.]+ %/);
  });

  it('keeps a strong fit\'s serial fraction as a share of T1 between 0 and 100 %', async () => {
    const { w, fit } = await mountStudy('strong', [1, 0.6, 0.4]);
    const text = w.find('[data-test="scaling-fit"]').text();
    const m = /serial fraction s = ([\d.]+) %/.exec(text);
    expect(m, text).not.toBeNull();
    expect(Number(m![1])).toBeCloseTo(100 * fit.serialFraction, 1);
    expect(Number(m![1])).toBeLessThanOrEqual(100);
  });
});
