// @vitest-environment happy-dom
// The renderer's Pinia stores over a fake transport: the case editor's live check and messages by field,
// the JSON view, the live run's events, and the contract proxy.
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { CONTRACT_METHODS } from '../../src-main/common/contract/contract.js';
import type { CaseCheck } from '../../src-main/common/contract/types.js';
import { useTransport } from '../../src-renderer/api/index.js';
import { contractProxy } from '../../src-renderer/api/proxy.js';
import { useCaseEditorStore } from '../../src-renderer/stores/case-editor.js';
import { useLiveRunStore } from '../../src-renderer/stores/live-run.js';
import { fakeTransport } from './fake-transport.js';

const PRESET = { name: 'box', description: 'a box', json: { name: 'box', grid: { cells: [4, 4, 4], cellSize: [1, 1, 1] }, run: { steps: 10, dt: 1e-9 } } };

/** A check answer: an issue when a cell count is negative, a dt warning when dt > 1e-8. */
function checkOf(request: unknown): CaseCheck {
  const c = (request as { caseJson: { grid: { cells: number[] }; run: { dt: number } } }).caseJson;
  if (c.grid.cells.some((n) => n < 1)) return { ok: false, issues: [{ path: `grid.cells[${c.grid.cells.findIndex((n) => n < 1)}]`, message: 'expected an integer >= 1' }], prelaunch: null, adapter: 'fake' };
  const warnings = c.run.dt > 1e-8 ? [{ code: 'dt-residence', field: 'run.dt', message: 'run.dt is too large' }] : [];
  return { ok: true, issues: [], prelaunch: { errors: [], warnings, estimates: {} }, adapter: 'fake' };
}

beforeEach(() => {
  setActivePinia(createPinia());
  vi.useRealTimers();
});

describe('contract proxy', () => {
  it('has one function per contract method, each sending its own name', async () => {
    const fake = fakeTransport(Object.fromEntries(CONTRACT_METHODS.map((m) => [m, () => m])));
    const api = contractProxy(fake.transport) as unknown as Record<string, (r: unknown) => Promise<unknown>>;
    expect(Object.keys(api).sort()).toEqual([...CONTRACT_METHODS].sort());
    for (const m of CONTRACT_METHODS) expect(await api[m]({})).toBe(m);
    expect(fake.calls.map((c) => c.method)).toEqual(CONTRACT_METHODS);
  });
});

describe('case editor store', () => {
  it('starts from the first preset, checks after edits, and files messages under their field path', async () => {
    vi.useFakeTimers();
    const fake = fakeTransport({ listPresets: () => [PRESET], checkCase: checkOf });
    useTransport(fake.transport);
    const store = useCaseEditorStore();
    await store.loadPresets();
    expect(store.presetName).toBe('box');
    await vi.advanceTimersByTimeAsync(300);
    expect(store.check?.ok).toBe(true);
    expect(store.canLaunch).toBe(true);

    store.update(['run', 'dt'], 1e-6);
    store.update(['grid', 'cells', 1], 8);
    await vi.advanceTimersByTimeAsync(300);
    // edits within the delay cause one check, of the latest case
    expect(fake.calls.filter((c) => c.method === 'checkCase')).toHaveLength(2);
    expect(store.messagesByPath.get('run.dt')).toEqual([{ level: 'warning', text: 'run.dt is too large' }]);
    expect(JSON.parse(store.jsonText).grid.cells).toEqual([4, 8, 4]);
    // the preset itself is untouched
    expect(PRESET.json.run.dt).toBe(1e-9);

    store.update(['grid', 'cells', 2], -1);
    await vi.advanceTimersByTimeAsync(300);
    expect(store.messagesByPath.get('grid.cells[2]')).toEqual([{ level: 'error', text: 'expected an integer >= 1' }]);
    expect(store.canLaunch).toBe(false);
  });

  it('choosing a library species in the form makes the item that species; fields edited afterwards override it', async () => {
    const withGas = { ...PRESET, json: { ...PRESET.json, species: [{ name: 'Ar', mass: 6.63e-26, dRef: 4.11e-10, omega: 0.81, tRef: 273.15 }] } };
    useTransport(fakeTransport({ listPresets: () => [withGas], checkCase: checkOf }).transport);
    const store = useCaseEditorStore();
    await store.loadPresets();
    store.update(['species', 0, 'use'], 'N2');
    expect(store.caseJson?.species).toEqual([{ use: 'N2' }]);
    store.update(['species', 0, 'omega'], 0.75);
    expect(store.caseJson?.species).toEqual([{ use: 'N2', omega: 0.75 }]);
    // any other field of a species is set as is
    store.update(['species', 0, 'name'], 'nitrogen');
    expect(JSON.parse(store.jsonText).species).toEqual([{ use: 'N2', omega: 0.75, name: 'nitrogen' }]);
  });

  it('keeps the last valid case when the JSON view has bad JSON, and says so', async () => {
    const fake = fakeTransport({ listPresets: () => [PRESET], checkCase: checkOf });
    useTransport(fake.transport);
    const store = useCaseEditorStore();
    await store.loadPresets();
    store.setJsonText('{"name": ');
    expect(store.jsonError).toMatch(/^JSON view: .*fix the text/);
    expect(store.caseJson?.name).toBe('box');
    expect(store.canLaunch).toBe(false);
    store.setJsonText('[1, 2]');
    expect(store.jsonError).toContain('the case must be a JSON object');
  });
});

describe('live run store', () => {
  it('follows only its run: progress, throughput points, new steps, and the end', async () => {
    const progress = { runId: 5, status: 'running' as const, step: 0, steps: 100, particles: 10, elapsedSeconds: 0, particleStepsPerSecond: 0, etaSeconds: null };
    const fake = fakeTransport({
      getLiveRun: () => ({ progress, steps: [], phases: [], reason: null, ranks: 1, balance: null }),
      getFieldSlice: () => { throw new Error('run 5 has no sampled fields'); },
    });
    useTransport(fake.transport);
    const store = useLiveRunStore();
    await store.watch(5);
    fake.push({ kind: 'progress', progress: { ...progress, step: 50, elapsedSeconds: 1, particleStepsPerSecond: 500, etaSeconds: 1 } });
    fake.push({ kind: 'progress', progress: { ...progress, runId: 6, step: 99 } });
    fake.push({ kind: 'steps', runId: 5, steps: [{ step: 1, particles: 10, injected: 0, collisions: 1, candidates: 2 }] });
    fake.push({ kind: 'steps', runId: 5, steps: [{ step: 1, particles: 10, injected: 0, collisions: 1, candidates: 2 }, { step: 2, particles: 10, injected: 0, collisions: 1, candidates: 2 }] });
    expect(store.progress?.step).toBe(50);
    expect(store.fraction).toBe(0.5);
    expect(store.throughput).toEqual([[1, 500]]);
    expect(store.steps.map((s) => s.step)).toEqual([1, 2]);
    expect(store.running).toBe(true);
    fake.push({ kind: 'ended', runId: 5, status: 'cancelled', reason: 'cancelled at step 50' });
    expect(store.progress?.status).toBe('cancelled');
    expect(store.reason).toBe('cancelled at step 50');
    store.stop();
  });
});
