// @vitest-environment happy-dom
// The compare view with a fake transport: per-body surface loads side by side ("absent" where a run lacks the
// body, ratios to the first run), and no surface section for runs without surface results.
import { flushPromises, mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import { buildComparison, type CompareInput } from '../../src-main/common/reports/compare-model.js';
import CompareView from '../../src-renderer/views/CompareView.vue';
import { useTransport } from '../../src-renderer/api/index.js';
import { useCompareStore } from '../../src-renderer/stores/compare.js';
import { NASTY_BODY, sampleCase, samplePhases, sampleRun, sampleSurface } from '../reports/fixtures.js';
import { fakeTransport } from './fake-transport.js';

/** A compare input: surface results with the wedge's loads times `scale` (only the wedge when `wedgeOnly`), or none. */
function compareInput(id: number, scale: number | null, wedgeOnly = false): CompareInput {
  const run = sampleRun({ id });
  if (scale !== null) {
    const surface = sampleSurface(scale);
    if (wedgeOnly) surface.bodies = surface.bodies.filter((b) => b.name === 'wedge');
    run.summary = { ...run.summary!, surface };
  }
  return { run, caseRecord: sampleCase(), phases: samplePhases(), fields: null };
}

/** Mounts the view over a fake transport that answers with the comparison of `inputs`, and compares runs 1 and 2. */
async function mountCompared(inputs: CompareInput[]) {
  const comparison = buildComparison(inputs);
  const fake = fakeTransport({
    listRuns: () => inputs.map((x) => x.run),
    compareRuns: () => JSON.parse(JSON.stringify({ comparison, curves: inputs.map((x) => ({ runId: x.run.id, steps: [], totals: [] })) })),
    compareFieldSlice: () => { throw new Error('run 1 has no sampled fields'); },
  });
  useTransport(fake.transport);
  const w = mount(CompareView);
  await flushPromises();
  for (const x of inputs) await w.find(`[data-test="pick-${x.run.id}"]`).setValue(true);
  await w.find('[data-test="compare"]').trigger('click');
  await flushPromises();
  expect(useCompareStore().result).not.toBeNull();
  return w;
}

beforeEach(() => setActivePinia(createPinia()));

describe('CompareView surface loads', () => {
  it('shows each body\'s Cd, Cl, drag, lift and heat transfer per run with ratios, "absent" where a run lacks it', async () => {
    const w = await mountCompared([compareInput(1, 1), compareInput(2, 1.1, true), compareInput(3, null)]);
    const table = w.find('[data-test="compare-surface"]');
    expect(table.exists()).toBe(true);
    const cells = (id: string) => w.find(`[data-test="surface-${id}"]`).findAll('td').map((td) => td.text());
    expect(cells('0-cd')).toEqual(['wedge', 'Cd', '2.05 (x1.000)', '2.255 (x1.100)', 'absent']);
    expect(cells('0-drag')).toEqual(['wedge', 'drag (N)', '2.500e-6 (x1.000)', '2.750e-6 (x1.100)', 'absent']);
    expect(cells('0-heatTransfer')[1]).toBe('heat transfer (W)');
    expect(cells('0-lift')[3]).toBe('1.375e-6 (x1.100)');
    expect(cells('1-cd')).toEqual([NASTY_BODY, 'Cd', '1.1 (x1.000)', 'absent', 'absent']);
    expect(cells('1-cl')[2]).toBe('n/a (n/a)');
    expect(table.findAll('tbody tr')).toHaveLength(10);
    expect(w.find('[data-test="compare-unsampled"]').text()).toContain('run 3');
    w.unmount();
  });

  it('shows no surface section for runs without surface results', async () => {
    const w = await mountCompared([compareInput(1, null), compareInput(2, null)]);
    expect(w.find('[data-test="compare-throughput"]').exists()).toBe(true);
    expect(w.find('[data-test="compare-surface"]').exists()).toBe(false);
    expect(w.text()).not.toContain('Surface loads');
    w.unmount();
  });
});
