// RunStore API: what goes in comes back (fields bit-exact), cases deduplicated, tags, notes, delete,
// and inputs refused at the boundary with the field named.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { FIELD_NAMES, INTERNAL_FIELD_NAMES, fieldNamesOf } from '../../src-main/common/field-names.js';
import { fieldsSha256 } from '../../src-main/solver/fields.js';
import { RunStore } from '../../src-main/store/run-store.js';
import { caseJson, fields, phases, removeDir, runInput, steps, summary, tempDir, totals } from './store-fixtures.js';

/** The bytes of a Float64Array. */
function bytes(a: Float64Array): Buffer {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength);
}

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

describe('RunStore round trip', () => {
  it('opens the file in the data folder in WAL mode with foreign keys on', () => {
    expect(store.path).toBe(`${dir}/runs.sqlite`);
    const raw = new Database(store.path, { readonly: true });
    expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    raw.close();
    expect(() => store.getRun(1)).toThrow(/run 1 not found.*dsmc runs/);
  });

  it('keeps a completed run with its steps, totals, phases, summary and fields', () => {
    const id = store.createRun(runInput());
    let run = store.getRun(id);
    expect(run).toMatchObject({ id, project: 'p1', caseName: 'box', status: 'running', reason: null, endedAt: null, seed: 7, ranks: 1,
      gpus: 1, adapter: { description: 'test adapter', backend: 'vulkan' }, productVersion: '0.0.0-test', summary: null, lastStep: 0, tags: [], notes: '' });
    store.appendSteps(id, steps(1, 5), totals([0, 5]));
    store.appendSteps(id, steps(6, 10), []);
    expect(store.getRun(id).lastStep).toBe(10);
    store.appendSteps(id, [], totals([10]));
    const f = fields([3, 2, 2]);
    store.completeRun(id, { summary: summary(), phases: phases(), fields: f });
    run = store.getRun(id);
    expect(run.status).toBe('completed');
    expect(run.endedAt).not.toBeNull();
    expect(run.summary).toEqual(summary());
    expect(store.getSteps(id)).toEqual(steps(1, 10));
    expect(store.getTotals(id)).toEqual(totals([0, 5, 10]));
    expect(store.getPhases(id)).toEqual(phases());
    expect(store.getCase(id)).toMatchObject({ name: 'box', json: caseJson() });
    expect(store.getCase(id).hash).toMatch(/^[0-9a-f]{64}$/);
    const back = store.getFields(id)!;
    expect(back).toMatchObject({ cells: [3, 2, 2], cellSize: [1e-5, 2e-5, 3e-5], samples: 10, blocks: 5 });
    for (const name of FIELD_NAMES) {
      expect(bytes(back.values[name]).equals(bytes(f.values[name])), name).toBe(true);
      expect(bytes(back.errors[name]).equals(bytes(f.errors[name])), name).toBe(true);
    }
    expect(Number.isNaN(back.errors.n[0])).toBe(true);
    expect(Object.is(back.values.n[0], -0)).toBe(true);
    expect(new DataView(back.errors.T.buffer).getBigUint64(8, true)).toBe(0x7ff8_0000_dead_beefn);
  });

  it('keeps the internal temperatures of a molecular run, and refuses values and errors of different fields', () => {
    const id = store.createRun(runInput());
    const f = fields([2, 2, 1]);
    for (const name of INTERNAL_FIELD_NAMES) {
      f.values[name] = Float64Array.from([100, 200, 300, 400].map((x) => x + name.length));
      f.errors[name] = Float64Array.from([1, 2, NaN, 4]);
    }
    const bad = { ...f, errors: { ...f.errors, Tall: undefined } };
    expect(() => store.completeRun(id, { summary: summary(), phases: phases(), fields: bad })).toThrow(/Tall.*give a standard error for each field/);
    store.completeRun(id, { summary: summary(), phases: phases(), fields: f });
    const back = store.getFields(id)!;
    for (const name of INTERNAL_FIELD_NAMES) {
      expect(bytes(back.values[name]!).equals(bytes(f.values[name]!)), name).toBe(true);
      expect(bytes(back.errors[name]!).equals(bytes(f.errors[name]!)), name).toBe(true);
    }
    // a monatomic run's fields come back without them
    const plain = store.createRun(runInput());
    store.completeRun(plain, { summary: summary(), phases: phases(), fields: fields([2, 2, 1]) });
    expect(Object.keys(store.getFields(plain)!.values).sort()).toEqual([...FIELD_NAMES].sort());
  });

  it('keeps the per-species fields of a mixture bit-exact with their hash, and refuses a name that is no field', () => {
    const id = store.createRun(runInput());
    const f = fields([2, 2, 1]);
    // species order O2, N2: the database reads its rows by name, the hash's order is fieldNamesOf's either way
    for (const name of ['n_O2', 'n_N2', 'x_O2', 'x_N2'] as const) {
      f.values[name] = Float64Array.from([0.1, 0.2, 0.3, 0.4].map((x) => x + name.length + name.charCodeAt(2)));
      f.errors[name] = Float64Array.from([1e-3, NaN, 3e-3, 4e-3]);
    }
    const bad = { ...f, values: { ...f.values, y_N2: new Float64Array(4) }, errors: { ...f.errors, y_N2: new Float64Array(4) } };
    expect(() => store.completeRun(id, { summary: summary(), phases: phases(), fields: bad })).toThrow(/y_N2.*is no field name/);
    store.completeRun(id, { summary: summary(), phases: phases(), fields: f });
    const back = store.getFields(id)!;
    expect(fieldNamesOf(back.values)).toEqual([...FIELD_NAMES, 'n_N2', 'n_O2', 'x_N2', 'x_O2']);
    for (const name of ['n_O2', 'n_N2', 'x_O2', 'x_N2'] as const) {
      expect(bytes(back.values[name]!).equals(bytes(f.values[name]!)), name).toBe(true);
      expect(bytes(back.errors[name]!).equals(bytes(f.errors[name]!)), name).toBe(true);
    }
    expect(fieldsSha256(back.values)).toBe(fieldsSha256(f.values));
  });

  it('stores a run without fields, and refuses to complete or append to a finished run', () => {
    const id = store.createRun(runInput());
    store.completeRun(id, { summary: summary(), phases: [], fields: null });
    expect(store.getFields(id)).toBeNull();
    expect(() => store.appendSteps(id, steps(1, 1), [])).toThrow(/run \d+ is completed; cannot add steps/);
    expect(() => store.completeRun(id, { summary: summary(), phases: [], fields: null })).toThrow(/is completed; cannot complete it/);
    expect(() => store.finishRun(id, 'failed', 'x')).toThrow(/is completed; cannot mark it failed/);
  });

  it('marks runs failed or cancelled with the reason', () => {
    const a = store.createRun(runInput());
    const b = store.createRun(runInput());
    store.finishRun(a, 'failed', 'the GPU reported an error: out of memory');
    store.finishRun(b, 'cancelled', 'cancelled at step 40 (Ctrl-C (SIGINT))');
    expect(store.getRun(a)).toMatchObject({ status: 'failed', reason: 'the GPU reported an error: out of memory' });
    expect(store.getRun(b)).toMatchObject({ status: 'cancelled', reason: 'cancelled at step 40 (Ctrl-C (SIGINT))' });
    expect(store.getRun(b).endedAt).not.toBeNull();
  });

  it('deduplicates cases by the hash of their canonical JSON (key order does not matter)', () => {
    const a = store.createRun(runInput({ caseJson: { b: 1, a: { y: [1, 2], x: 'q' } } }));
    const b = store.createRun(runInput({ caseJson: { a: { x: 'q', y: [1, 2] }, b: 1 } }));
    const c = store.createRun(runInput({ caseJson: { a: { x: 'q', y: [1, 3] }, b: 1 } }));
    expect(store.getRun(a).caseId).toBe(store.getRun(b).caseId);
    expect(store.getRun(a).caseHash).toBe(store.getRun(b).caseHash);
    expect(store.getRun(c).caseId).not.toBe(store.getRun(a).caseId);
  });

  it('lists projects and runs with filters', () => {
    const a = store.createRun(runInput({ project: 'alpha' }));
    const b = store.createRun(runInput({ project: 'beta' }));
    const c = store.createRun(runInput({ project: 'beta' }));
    store.completeRun(c, { summary: summary(), phases: phases(), fields: null });
    store.tagRun(a, 'baseline');
    store.tagRun(c, 'baseline');
    store.tagRun(c, 'wall-300K');
    store.tagRun(c, 'wall-300K');
    store.ensureProject('empty');
    expect(store.listProjects().map((p) => [p.name, p.runCount])).toEqual([['alpha', 1], ['beta', 2], ['empty', 0]]);
    expect(store.listRuns().map((r) => r.id)).toEqual([a, b, c]);
    expect(store.listRuns({ project: 'beta' }).map((r) => r.id)).toEqual([b, c]);
    expect(store.listRuns({ status: 'completed' }).map((r) => r.id)).toEqual([c]);
    expect(store.listRuns({ tag: 'baseline' }).map((r) => r.id)).toEqual([a, c]);
    expect(store.listRuns({ project: 'beta', tag: 'baseline' }).map((r) => r.id)).toEqual([c]);
    expect(store.getRun(c).tags).toEqual(['baseline', 'wall-300K']);
    store.untagRun(c, 'baseline');
    expect(store.getRun(c).tags).toEqual(['wall-300K']);
    expect(() => store.untagRun(c, 'baseline')).toThrow(/has no tag "baseline"; its tags: wall-300K/);
    expect(() => store.listRuns({ status: 'done' as never })).toThrow(/run status filter/);
  });

  it('sets notes and deletes a run with everything about it (and its case when unused)', () => {
    const a = store.createRun(runInput());
    const b = store.createRun(runInput({ caseJson: caseJson('other') }));
    store.appendSteps(b, steps(1, 3), totals([3]));
    store.completeRun(b, { summary: summary(), phases: phases(), fields: fields() });
    store.setNotes(b, 'wall at 300 K; compare with run 1');
    store.tagRun(b, 'x');
    expect(store.getRun(b).notes).toBe('wall at 300 K; compare with run 1');
    expect(() => store.deleteRun(a)).toThrow(/run \d+ is still running \(pid \d+ on .*\); stop it first/);
    store.deleteRun(b);
    expect(() => store.getRun(b)).toThrow(`run ${b} not found`);
    expect(() => store.deleteRun(b)).toThrow(`run ${b} not found`);
    const raw = new Database(store.path, { readonly: true });
    for (const t of ['run_steps', 'run_totals', 'run_phases', 'run_fields', 'run_field_arrays', 'run_tags']) {
      expect((raw.prepare(`SELECT count(*) AS n FROM ${t}`).get() as { n: number }).n, t).toBe(0);
    }
    expect((raw.prepare('SELECT count(*) AS n FROM cases').get() as { n: number }).n).toBe(1);
    raw.close();
  });

  it('refuses bad input with the field named and writes nothing', () => {
    expect(() => store.createRun(runInput({ seed: -1 }))).toThrow(/createRun: invalid input\n\s+seed:/);
    expect(() => store.createRun(runInput({ project: '  ' }))).toThrow(/project: must not be empty/);
    expect(() => store.createRun(runInput({ caseJson: { a: NaN } }))).toThrow(/case JSON at \$\.a is NaN/);
    expect(store.listRuns()).toEqual([]);
    const id = store.createRun(runInput());
    expect(() => store.appendSteps(id, [{ ...steps(1, 1)[0], collisions: 1.5 }], [])).toThrow(/steps: invalid input\n\s+0\.collisions/);
    store.appendSteps(id, steps(1, 2), []);
    expect(() => store.appendSteps(id, steps(3, 4).concat(steps(2, 2)), [])).toThrow(/a step is recorded twice/);
    expect(store.getSteps(id).map((s) => s.step)).toEqual([1, 2]);
    const f = fields();
    f.values.T = new Float64Array(3);
    expect(() => store.completeRun(id, { summary: summary(), phases: phases(), fields: f })).toThrow(/values\.T: has 3 values; the grid has 8 cells/);
    expect(() => store.completeRun(id, { summary: { ...summary(), steps: -1 }, phases: phases(), fields: null })).toThrow(/summary: invalid input\n\s+steps/);
    expect(store.getRun(id).status).toBe('running');
    expect(store.getPhases(id)).toEqual([]);
    expect(() => store.tagRun(id, 'has space')).toThrow(/tag: invalid input/);
    expect(() => store.getRun(0)).toThrow(/positive integer/);
  });
});

describe('projects: rename and archive', () => {
  it('renames a project, refuses a taken name or a missing project, and archives and restores it', () => {
    const dir = tempDir();
    const store = RunStore.open({ dataDir: dir });
    try {
      store.ensureProject('alpha');
      store.ensureProject('beta');
      store.renameProject('alpha', 'gamma');
      expect(store.listProjects().map((p) => p.name)).toEqual(['beta', 'gamma']);
      expect(() => store.renameProject('gamma', 'beta')).toThrow('a project named "beta" already exists');
      expect(() => store.renameProject('nope', 'x')).toThrow('project "nope" not found');
      store.setProjectArchived('beta', true);
      expect(store.listProjects().map((p) => p.name)).toEqual(['gamma']);
      expect(store.listProjects({ includeArchived: true }).find((p) => p.name === 'beta')!.archived).toBe(true);
      store.setProjectArchived('beta', false);
      expect(store.listProjects().map((p) => p.name)).toEqual(['beta', 'gamma']);
    } finally {
      store.close();
      removeDir(dir);
    }
  });
});
