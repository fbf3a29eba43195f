// @vitest-environment happy-dom
// Issue 27, item 3: the field picked on one run does not leak into the next. Run detail: Tvib picked on an N2 run,
// then an argon run opens on a field it has (no error banner, a map); compare offers only the fields both runs hold
// and falls back to one of them. The fake transport refuses a field a run lacks, as the service does. A mixture's
// per-species fields (issue 28): the live view offers the fields of the run's case, with their labels.
import { flushPromises, mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import type { FieldSlice, RunDetail } from '../../src-main/common/contract/types.js';
import { ALL_FIELD_NAMES, FIELD_NAMES, caseFieldNames, type FieldName } from '../../src-main/common/field-names.js';
import { buildComparison } from '../../src-main/common/reports/compare-model.js';
import { useTransport } from '../../src-renderer/api/index.js';
import { useLiveRunStore } from '../../src-renderer/stores/live-run.js';
import { useRunDetailStore } from '../../src-renderer/stores/run-detail.js';
import FieldSlicePanel from '../../src-renderer/components/FieldSlicePanel.vue';
import CompareView from '../../src-renderer/views/CompareView.vue';
import { sampleCase, samplePhases, sampleRun } from '../reports/fixtures.js';
import { fakeTransport } from './fake-transport.js';

/** Run 1 is N2 (internal modes: Trot, Tvib, Tall), run 2 argon (monatomic). */
const NAMES: Record<number, readonly FieldName[]> = { 1: ALL_FIELD_NAMES, 2: FIELD_NAMES };

/** A 2 x 2 slice of `field`, or the service's error when the run lacks that field. */
function sliceOf(request: unknown): FieldSlice {
  const r = request as { runId: number; field: FieldName };
  if (!NAMES[r.runId].includes(r.field)) throw new Error(`run ${r.runId} has no field ${r.field}`);
  return { field: r.field, label: r.field, unit: 'K', axis: 'z', index: 0, depth: 1, axes: ['x', 'y'], width: 2, height: 2, values: [1, 2, 3, 4], min: 1, max: 4 } as FieldSlice;
}

/** The run detail the fake answers for `runId`. */
function detailOf(request: unknown): RunDetail {
  const runId = (request as { runId: number }).runId;
  return { run: sampleRun({ id: runId }), caseJson: {}, profile: { steps: [], totals: [] }, hasFields: true, fieldNames: [...NAMES[runId]], cells: [2, 2, 1], resumeFromStep: null, bodies: 0 } as unknown as RunDetail;
}

beforeEach(() => setActivePinia(createPinia()));

describe('the field choice between runs', () => {
  it('opens the next run on a field it has after Tvib was picked on an N2 run', async () => {
    const fake = fakeTransport({ getRun: detailOf, getFieldSlice: sliceOf });
    useTransport(fake.transport);
    const store = useRunDetailStore();
    await store.load(1);
    await store.choose({ field: 'Tvib' });
    expect(store.error).toBeNull();
    expect(store.slice?.field).toBe('Tvib');
    await store.load(2);
    expect(store.error).toBeNull();
    expect(store.slice).not.toBeNull();
    expect(NAMES[2]).toContain(store.choice.field);
    // back on the N2 run, the choice it now holds is still valid there
    await store.load(1);
    expect(store.error).toBeNull();
  });

  it('offers in compare only the fields both runs hold, and falls back to one of them', async () => {
    const inputs = [1, 2].map((id) => ({ run: sampleRun({ id }), caseRecord: sampleCase(), phases: samplePhases(), fields: null }));
    const comparison = buildComparison(inputs);
    const shared = ALL_FIELD_NAMES.filter((f) => NAMES[1].includes(f) && NAMES[2].includes(f));
    const fake = fakeTransport({
      listRuns: () => inputs.map((x) => x.run),
      compareRuns: () => JSON.parse(JSON.stringify({ comparison, curves: [], fieldNames: shared })),
      compareFieldSlice: (request) => {
        const r = request as { runIds: number[]; field: FieldName };
        for (const id of r.runIds) sliceOf({ runId: id, field: r.field });
        return { ...sliceOf({ runId: 1, field: r.field }), runIds: r.runIds };
      },
    });
    useTransport(fake.transport);
    const w = mount(CompareView);
    await flushPromises();
    for (const x of inputs) await w.find(`[data-test="pick-${x.run.id}"]`).setValue(true);
    // a field picked before (e.g. on an earlier comparison of two N2 runs)
    const { useCompareStore } = await import('../../src-renderer/stores/compare.js');
    useCompareStore().choice = { field: 'Tvib', axis: 'z', index: null };
    await w.find('[data-test="compare"]').trigger('click');
    await flushPromises();
    const offered = w.find('[data-test="slice-field"]').findAll('option').map((o) => o.element.value);
    expect(offered).toEqual(shared);
    expect(offered).not.toContain('Trot');
    expect(offered).not.toContain('Tvib');
    expect(shared).toContain(useCompareStore().choice.field);
    expect(useCompareStore().differenceNote).toBeNull();
  });

  it("a live mixture run offers its case's fields, the per-species ones labelled, and keeps a choice among them", async () => {
    const air = { species: [{ name: 'N2', rotationalDof: 2 }, { name: 'O2', rotationalDof: 2 }] };
    const names = [...caseFieldNames(air)];
    expect(names.slice(-4)).toEqual(['n_N2', 'n_O2', 'x_N2', 'x_O2']);
    const progress = { runId: 7, status: 'running' as const, step: 10, steps: 100, particles: 10, elapsedSeconds: 1, particleStepsPerSecond: 1, etaSeconds: 9 };
    const fake = fakeTransport({ getLiveRun: () => ({ progress, steps: [], phases: [], reason: null, ranks: 1, balance: null, fieldNames: names }), setLiveView: () => undefined });
    useTransport(fake.transport);
    const store = useLiveRunStore();
    await store.watch(7);
    expect(store.fieldNames).toEqual(names);
    await store.choose({ field: 'x_O2' });
    await store.refresh();
    expect(store.choice.field).toBe('x_O2');
    expect(store.error).toBeNull();
    const w = mount(FieldSlicePanel, { props: { slice: null, choice: store.choice, fields: store.fieldNames } });
    const options = w.find('[data-test="slice-field"]').findAll('option').map((o) => o.text());
    expect(options).toContain('x_O2 (mole fraction of O2)');
    expect(options).toContain('n_N2 (number density of N2)');
    expect(options).toContain('Tvib (vibrational temperature)');
    store.stop();
  });
});
