// Schema migrations: a new file gets the latest schema; a file of the previous schema (v1, written by
// running only migration 1) is migrated on open and its runs survive; newer and foreign files are refused.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { APPLICATION_ID, LATEST_VERSION, MIGRATIONS, migrate } from '../../src-main/store/migrations.js';
import { RunStore } from '../../src-main/store/run-store.js';
import { float64ToBlob } from '../../src-main/store/field-blobs.js';
import { FIELD_NAMES } from '../../src-main/common/field-names.js';
import { removeDir, tempDir } from './store-fixtures.js';

let dir: string;
let path: string;
beforeEach(() => {
  dir = tempDir();
  path = join(dir, 'runs.sqlite');
});
afterEach(() => removeDir(dir));

/** Table names of a database file. */
function tables(file: string): string[] {
  const db = new Database(file, { readonly: true });
  const names = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[]).map((r) => r.name);
  db.close();
  return names;
}

/** Writes a v1 database (migration 1 only) holding one completed run with steps, phases and fields. */
function writeV1Fixture(file: string): void {
  const db = new Database(file);
  migrate(db, 1);
  const t = '2025-01-02T03:04:05.000Z';
  db.prepare("INSERT INTO projects (id, name, created_at) VALUES (1, 'legacy', ?)").run(t);
  db.prepare("INSERT INTO cases (id, name, hash, json, created_at) VALUES (1, 'old-case', ?, ?, ?)").run('c'.repeat(64), '{"name":"old-case"}', t);
  db.prepare(`INSERT INTO runs (id, project_id, case_id, status, started_at, ended_at, seed, ranks, gpus, adapter_description,
              backend, product_version, pid, hostname, summary)
              VALUES (5, 1, 1, 'completed', ?, ?, 3, 1, 1, 'old gpu', 'vulkan', '0.0.1', 1, 'elsewhere', ?)`)
    .run(t, t, JSON.stringify({ steps: 2, particles: 9 }));
  db.prepare('INSERT INTO run_steps VALUES (5, 1, 9, 0, 1, 2), (5, 2, 9, 0, 3, 4)').run();
  db.prepare("INSERT INTO run_phases (run_id, rank, phase, calls, total, min, max) VALUES (5, 0, 'move', 2, 0.5, 0.2, 0.3)").run();
  db.prepare('INSERT INTO run_fields VALUES (5, 1, 1, 2, 1e-5, 1e-5, 1e-5, 2, 1)').run();
  for (const name of FIELD_NAMES) {
    db.prepare('INSERT INTO run_field_arrays VALUES (5, ?, ?, ?)').run(name, float64ToBlob(new Float64Array([1.5, -2.5])), float64ToBlob(new Float64Array([NaN, 0.25])));
  }
  db.close();
}

describe('run database migrations', () => {
  it('creates the latest schema in a new file (and in an existing empty file)', () => {
    RunStore.open({ dataDir: dir }).close();
    const db = new Database(path, { readonly: true });
    expect(db.pragma('user_version', { simple: true })).toBe(LATEST_VERSION);
    expect(db.pragma('application_id', { simple: true })).toBe(APPLICATION_ID);
    db.close();
    expect(tables(path)).toEqual(['cases', 'cluster_profiles', 'projects', 'run_field_arrays', 'run_fields', 'run_launches', 'run_phases',
      'run_rank_steps', 'run_ranks', 'run_steps', 'run_surfaces', 'run_tags', 'run_totals', 'runs', 'studies', 'study_runs']);
    const other = tempDir();
    writeFileSync(join(other, 'runs.sqlite'), '');
    RunStore.open({ dataDir: other }).close();
    expect(tables(join(other, 'runs.sqlite'))).toContain('runs');
    removeDir(other);
  });

  it('numbers the migrations 1, 2, ... in order', () => {
    expect(MIGRATIONS.map((m) => m.version)).toEqual(MIGRATIONS.map((_, i) => i + 1));
    expect(LATEST_VERSION).toBeGreaterThanOrEqual(2);
  });

  it('migrates a file of the previous schema on open and keeps its runs', () => {
    writeV1Fixture(path);
    expect(tables(path)).not.toContain('run_tags');
    const store = RunStore.open({ dataDir: dir });
    try {
      const run = store.getRun(5);
      expect(run).toMatchObject({ project: 'legacy', caseName: 'old-case', status: 'completed', seed: 3, tags: [], notes: '', lastStep: 2 });
      expect(run.summary).toEqual({ steps: 2, particles: 9 });
      expect(store.getSteps(5)).toEqual([
        { step: 1, particles: 9, injected: 0, collisions: 1, candidates: 2 },
        { step: 2, particles: 9, injected: 0, collisions: 3, candidates: 4 },
      ]);
      expect(store.getPhases(5)).toEqual([{ rank: 0, phase: 'move', calls: 2, totalSeconds: 0.5, minSeconds: 0.2, maxSeconds: 0.3 }]);
      const f = store.getFields(5)!;
      expect(Array.from(f.values.T)).toEqual([1.5, -2.5]);
      expect(Number.isNaN(f.errors.T[0])).toBe(true);
      // the new schema works on the old run
      store.tagRun(5, 'kept');
      store.setNotes(5, 'from v1');
      expect(store.getRun(5)).toMatchObject({ tags: ['kept'], notes: 'from v1' });
      // the old pid/host row is not ours: not touched by the stale-run cleanup
      expect(store.listRuns().map((r) => r.id)).toEqual([5]);
    } finally {
      store.close();
    }
    const db = new Database(path, { readonly: true });
    expect(db.pragma('user_version', { simple: true })).toBe(LATEST_VERSION);
    db.close();
  });

  it('refuses a database of a newer schema, naming the versions, and leaves it as it was', () => {
    RunStore.open({ dataDir: dir }).close();
    const db = new Database(path);
    db.pragma(`user_version = ${LATEST_VERSION + 1}`);
    db.close();
    const before = readFileSync(path);
    expect(() => RunStore.open({ dataDir: dir })).toThrow(new RegExp(`${path}.*schema version ${LATEST_VERSION + 1}.*newer dsmc.*Upgrade dsmc`));
    expect(readFileSync(path).equals(before)).toBe(true);
  });

  it('refuses an SQLite file of another program without changing it', () => {
    const db = new Database(path);
    db.exec('CREATE TABLE photos (id INTEGER PRIMARY KEY, blob BLOB); INSERT INTO photos VALUES (1, x\'00ff\')');
    db.close();
    const before = readFileSync(path);
    expect(() => RunStore.open({ dataDir: dir })).toThrow(/some other program, not a dsmc run database.*left untouched.*Move it aside.*--data-dir/);
    expect(readFileSync(path).equals(before)).toBe(true);
    expect(tables(path)).toEqual(['photos']);
  });
});
