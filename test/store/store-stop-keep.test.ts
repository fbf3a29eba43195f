// A run stopped and kept in the run database (issue 27 item 5): completeRun with `stopped` records it cancelled
// with the reason and every result a completed run keeps, all or none; reopening it to resume deletes those results.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SURFACE_Q, type RunSurface } from '../../src-main/common/surface-layout.js';
import { RunStore } from '../../src-main/store/run-store.js';
import { fields, phases, removeDir, runInput, steps, summary, tempDir, totals } from './store-fixtures.js';

let dir: string;
let store: RunStore;
beforeEach(() => {
  dir = tempDir();
  store = RunStore.open({ dataDir: dir });
});
afterEach(() => {
  store.close();
  removeDir(dir);
});

/** A surface of one triangle of one body on the 12 cells of a 3x2x2 grid. */
function surface(): RunSurface {
  return {
    sums: { elements: 7, values: new Float64Array(7 * SURFACE_Q).fill(1e-20), sampledTime: 1e-6 },
    triangles: new Float64Array(9).fill(0.5), triangleBody: Int32Array.from([0]), bodyNames: ['b'], cellKind: null, volumeFraction: null,
  };
}

const REASON = 'stopped by the user at step 10 of 1000 (from the app); the fields, profile and surface loads sampled so far are kept';

describe('stop and keep in the run database', () => {
  it('records the stopped run cancelled with its reason, summary, phases, fields and surface', () => {
    const id = store.createRun(runInput({ caseJson: { name: 'box', grid: { cells: [3, 2, 2] } } }));
    store.appendSteps(id, steps(1, 10), totals([0, 10]));
    store.completeRun(id, { summary: summary(), phases: phases(), fields: fields([3, 2, 2]), surface: surface(), stopped: REASON });
    const run = store.getRun(id);
    expect(run).toMatchObject({ status: 'cancelled', reason: REASON, lastStep: 10 });
    expect(run.summary).toEqual(summary());
    expect(run.endedAt).not.toBeNull();
    expect(store.getPhases(id)).toHaveLength(phases().length);
    expect(store.getFields(id)?.samples).toBe(fields([3, 2, 2]).samples);
    expect(store.getSurface(id)?.bodyNames).toEqual(['b']);
    // a second stop of the same run is refused, naming what it tried
    expect(() => store.completeRun(id, { summary: summary(), phases: [], fields: null, stopped: REASON })).toThrow(/is cancelled \(stopped by the user.*\); cannot keep what it sampled, only a running run/);
  });

  it('writes nothing when any part is invalid (one transaction)', () => {
    const id = store.createRun(runInput());
    const bad = { ...fields([2, 2, 2]), samples: -1 };
    expect(() => store.completeRun(id, { summary: summary(), phases: phases(), fields: bad, stopped: REASON })).toThrow();
    expect(store.getRun(id)).toMatchObject({ status: 'running', reason: null, summary: null });
    expect(store.getPhases(id)).toEqual([]);
  });

  it('reopening a stopped and kept run to resume it deletes its kept results and totals', () => {
    const id = store.createRun(runInput({ caseJson: { name: 'box', grid: { cells: [3, 2, 2] } } }));
    store.appendSteps(id, steps(1, 10), []);
    store.appendSteps(id, [], totals([0, 5, 10]));
    store.completeRun(id, { summary: summary(), phases: phases(), fields: fields([3, 2, 2]), surface: surface(), stopped: REASON });
    store.reopenRun(id, 5);
    expect(store.getRun(id)).toMatchObject({ status: 'running', reason: null, summary: null, lastStep: 5 });
    expect(store.getFields(id)).toBeNull();
    expect(store.getSurface(id)).toBeNull();
    expect(store.getPhases(id)).toEqual([]);
    expect(store.getTotals(id)).toEqual([]);
    // the resumed run records its own totals and results
    store.appendSteps(id, steps(6, 10), totals([0, 5, 10]));
    store.completeRun(id, { summary: summary(), phases: phases(), fields: fields([3, 2, 2]), surface: surface() });
    expect(store.getRun(id)).toMatchObject({ status: 'completed', reason: null });
  });
});
