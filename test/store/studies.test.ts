// Scaling studies and per-rank step series in the run database: round trip, order by GPU count,
// one run per GPU count, deleting runs and studies, transactional appends, inputs refused with the field
// named, and migration of a v2 database holding runs.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RankStepRecord } from '../../src-main/common/run-record.js';
import { LATEST_VERSION, migrate } from '../../src-main/store/migrations.js';
import { RunStore } from '../../src-main/store/run-store.js';
import { caseHashOf } from '../../src-main/store/canonical-json.js';
import { caseJson, phases, removeDir, runInput, summary, tempDir } from './store-fixtures.js';

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

/** Time stamp of the rows written into old-schema files. */
const OLD_TIME = '2025-01-02T03:04:05.000Z';

/**
 * Replaces the test's database by a fresh file at schema `version` holding project 1 and case 1 (named as
 * given); returns it open for more rows (the caller closes it, then opens `store` on `dir` to migrate).
 */
function oldDatabase(version: number, project: string, caseName: string): Database.Database {
  store.close();
  removeDir(dir);
  dir = tempDir();
  const db = new Database(join(dir, 'runs.sqlite'));
  migrate(db, version);
  db.prepare('INSERT INTO projects (id, name, created_at) VALUES (1, ?, ?)').run(project, OLD_TIME);
  db.prepare("INSERT INTO cases (id, name, hash, json, created_at) VALUES (1, ?, ?, '{}', ?)").run(caseName, 'c'.repeat(64), OLD_TIME);
  return db;
}

/** A completed run on `ranks` ranks; returns its id. */
function completedRun(ranks: number): number {
  const id = store.createRun(runInput({ ranks, gpus: ranks }));
  store.completeRun(id, { summary: summary(), phases: phases(), fields: null });
  return id;
}

/** Rank rows for steps first..last on `ranks` ranks with values derived from step and rank. */
function rankRows(ranks: number, first: number, last: number): RankStepRecord[] {
  const out: RankStepRecord[] = [];
  for (let step = first; step <= last; step++) {
    for (let rank = 0; rank < ranks; rank++) {
      out.push({ rank, step, particles: 1000 + 10 * rank + step, sent: rank + step, received: 2 * rank, waitSeconds: 1e-4 * (rank + 1) + step * 1e-7 });
    }
  }
  return out;
}

const HASH = 'ab'.repeat(32);

describe('scaling studies', () => {
  it('keeps a study with its runs ordered by GPU count, whatever order they were added in', () => {
    const r4 = completedRun(4), r1 = completedRun(1), r2 = completedRun(2);
    const s = store.createStudy({ name: 'box strong', kind: 'strong', project: 'scaling', caseName: 'box', caseHash: HASH });
    expect(s).toMatchObject({ name: 'box strong', kind: 'strong', project: 'scaling', caseName: 'box', caseHash: HASH, notes: '', runs: [] });
    expect(Number.isNaN(Date.parse(s.createdAt))).toBe(false);
    store.addStudyRun(s.id, r4, 4);
    store.addStudyRun(s.id, r1, 1);
    store.addStudyRun(s.id, r2, 2);
    const got = store.getStudy(s.id);
    expect(got.runs.map((x) => [x.gpus, x.runId, x.position])).toEqual([[1, r1, 1], [2, r2, 2], [4, r4, 0]]);
    expect(got.runs[2].run).toEqual(store.getRun(r4));
    expect(store.listProjects().map((p) => p.name)).toContain('scaling');
  });

  it('gives the case hash a run of that case will get, before any run exists', () => {
    const hash = caseHashOf({ ...caseJson(), extra: { b: 1, a: [2, 3] } });
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    const id = store.createRun(runInput({ caseJson: { extra: { a: [2, 3], b: 1 }, ...caseJson() } }));
    expect(store.getRun(id).caseHash).toBe(hash);
    expect(caseHashOf(caseJson('other'))).not.toBe(hash);
  });

  it('lists studies oldest first, filtered by project', () => {
    const a = store.createStudy({ name: 'a', kind: 'strong', project: 'p1', caseName: 'box', caseHash: HASH });
    const b = store.createStudy({ name: 'b', kind: 'weak', project: 'p2', caseName: 'box', caseHash: HASH, notes: 'grown in x' });
    expect(store.listStudies().map((s) => s.id)).toEqual([a.id, b.id]);
    expect(store.listStudies({ project: 'p2' })).toEqual([store.getStudy(b.id)]);
    expect(store.listStudies({ project: 'nobody' })).toEqual([]);
    store.setStudyNotes(a.id, 'first try');
    expect(store.getStudy(a.id).notes).toBe('first try');
  });

  it('keeps repeated runs on one GPU count, refuses the same run twice naming the fix, and removes one run', () => {
    const r1 = completedRun(1), r1b = completedRun(1), r2 = completedRun(2);
    const s = store.createStudy({ name: 's', kind: 'strong', project: 'p1', caseName: 'box', caseHash: HASH });
    store.addStudyRun(s.id, r1, 1);
    store.addStudyRun(s.id, r2, 2);
    store.addStudyRun(s.id, r1b, 1); // a repeat
    expect(store.getStudy(s.id).runs.map((x) => [x.gpus, x.runId])).toEqual([[1, r1], [1, r1b], [2, r2]]);
    expect(() => store.addStudyRun(s.id, r1, 2)).toThrow(/already in study/);
    store.removeStudyRun(s.id, r1);
    expect(store.getStudy(s.id).runs.map((x) => x.runId)).toEqual([r1b, r2]);
    expect(() => store.removeStudyRun(s.id, r1)).toThrow(new RegExp(`run ${r1} is not in study ${s.id}`));
  });

  it('migrates a version 4 database: its study runs are kept, and a repeat on one GPU count is then accepted', () => {
    const db = oldDatabase(4, 'v4', 'box');
    const t = OLD_TIME;
    for (const id of [3, 4, 5]) {
      db.prepare(`INSERT INTO runs (id, project_id, case_id, status, started_at, ended_at, seed, ranks, gpus, adapter_description,
                  backend, product_version, pid, hostname, summary) VALUES (?, 1, 1, 'completed', ?, ?, 1, 1, 1, 'gpu', 'vulkan', '0.0.1', 1, 'h', NULL)`).run(id, t, t);
    }
    db.prepare("INSERT INTO studies (id, project_id, name, kind, case_name, case_hash, created_at) VALUES (7, 1, 'old', 'strong', 'box', ?, ?)").run('c'.repeat(64), t);
    db.prepare('INSERT INTO study_runs (study_id, run_id, gpus, position) VALUES (7, 3, 1, 0), (7, 4, 2, 1)').run();
    expect(() => db.prepare('INSERT INTO study_runs (study_id, run_id, gpus, position) VALUES (7, 5, 1, 2)').run()).toThrow(/UNIQUE/);
    db.close();
    store = RunStore.open({ dataDir: dir });
    expect(store.getStudy(7).runs.map((x) => [x.gpus, x.runId, x.position])).toEqual([[1, 3, 0], [2, 4, 1]]);
    store.addStudyRun(7, 5, 1);
    expect(store.getStudy(7).runs.map((x) => [x.gpus, x.runId])).toEqual([[1, 3], [1, 5], [2, 4]]);
    store.deleteStudy(7);
    expect(store.getRun(5).id).toBe(5);
  });

  it('removes a deleted run from its study, and deleting a study keeps its runs', () => {
    const r1 = completedRun(1), r2 = completedRun(2);
    const s = store.createStudy({ name: 's', kind: 'strong', project: 'p1', caseName: 'box', caseHash: HASH });
    store.addStudyRun(s.id, r1, 1);
    store.addStudyRun(s.id, r2, 2);
    store.deleteRun(r2);
    expect(store.getStudy(s.id).runs.map((x) => x.runId)).toEqual([r1]);
    store.deleteStudy(s.id);
    expect(() => store.getStudy(s.id)).toThrow(new RegExp(`study ${s.id} not found.*dsmc studies`));
    expect(store.getRun(r1).status).toBe('completed');
    expect(() => store.deleteStudy(s.id)).toThrow(/not found/);
  });

  it('refuses bad inputs with the field named', () => {
    const base = { name: 's', kind: 'strong' as const, project: 'p1', caseName: 'box', caseHash: HASH };
    expect(() => store.createStudy({ ...base, kind: 'medium' as never })).toThrow(/createStudy: invalid input[\s\S]*kind: expected "strong"/);
    expect(() => store.createStudy({ ...base, caseHash: 'xyz' })).toThrow(/caseHash: expected the SHA-256/);
    expect(() => store.createStudy({ ...base, name: '  ' })).toThrow(/name: must not be empty/);
    const s = store.createStudy(base);
    const r = completedRun(1);
    expect(() => store.addStudyRun(s.id, r, 0)).toThrow(/gpus: must be at least 1/);
    expect(() => store.addStudyRun(s.id, 999, 1)).toThrow(/run 999 not found/);
    expect(() => store.addStudyRun(999, r, 1)).toThrow(/study 999 not found/);
    expect(() => store.getStudy(-1)).toThrow(/study id -1 \(expected a positive integer\)/);
    expect(store.getStudy(s.id).runs).toEqual([]);
  });
});

describe('per-rank step series', () => {
  it('round-trips rows ordered by step then rank, across several appends', () => {
    const id = store.createRun(runInput({ ranks: 3, gpus: 3 }));
    const rows = rankRows(3, 1, 40);
    // appended out of order: later steps first, ranks reversed
    store.appendRankSteps(id, rows.filter((r) => r.step > 20).reverse());
    store.appendRankSteps(id, rows.filter((r) => r.step <= 20));
    expect(store.getRankSteps(id)).toEqual(rows);
    store.completeRun(id, { summary: summary(), phases: phases(), fields: null });
    expect(store.getRankSteps(id)).toEqual(rows);
  });

  it('keeps 10^5 rows of one run quickly', () => {
    const id = store.createRun(runInput({ ranks: 4, gpus: 4 }));
    const rows = rankRows(4, 1, 25_000);
    const t0 = performance.now();
    store.appendRankSteps(id, rows);
    const back = store.getRankSteps(id);
    expect(back.length).toBe(100_000);
    expect(back[99_999]).toEqual(rows[99_999]);
    expect(performance.now() - t0).toBeLessThan(5000);
  });

  it('writes all rows of an append or none', () => {
    const id = store.createRun(runInput({ ranks: 2, gpus: 2 }));
    store.appendRankSteps(id, rankRows(2, 1, 5));
    // step 5 again in the middle of a batch: the whole batch is refused
    expect(() => store.appendRankSteps(id, rankRows(2, 6, 8).concat(rankRows(2, 5, 5)))).toThrow(/\(step, rank\) pair is recorded twice/);
    expect(store.getRankSteps(id).map((r) => r.step).at(-1)).toBe(5);
    expect(store.getRankSteps(id).length).toBe(10);
  });

  it('refuses rows of a rank the run does not have, bad numbers, and runs that are not running', () => {
    const id = store.createRun(runInput({ ranks: 2, gpus: 2 }));
    const row = { rank: 2, step: 1, particles: 1, sent: 0, received: 0, waitSeconds: 0 };
    expect(() => store.appendRankSteps(id, [row])).toThrow(/rows\[0\]\.rank is 2, but the run has 2 rank\(s\) \(0\.\.1\)/);
    expect(() => store.appendRankSteps(id, [{ ...row, rank: 0, sent: -1 }])).toThrow(/appendRankSteps\(run \d+\): invalid input[\s\S]*0\.sent/);
    expect(() => store.appendRankSteps(id, [{ ...row, rank: 0, waitSeconds: NaN }])).toThrow(/0\.waitSeconds/);
    store.finishRun(id, 'failed', 'rank 1 crashed');
    expect(() => store.appendRankSteps(id, [{ ...row, rank: 0 }])).toThrow(/is failed; per-rank steps are recorded while it runs/);
    expect(() => store.getRankSteps(12345)).toThrow(/run 12345 not found/);
  });

  it('deletes a run\'s rows with the run', () => {
    const id = store.createRun(runInput({ ranks: 2, gpus: 2 }));
    store.appendRankSteps(id, rankRows(2, 1, 3));
    store.finishRun(id, 'cancelled', 'stopped');
    store.deleteRun(id);
    const raw = new Database(store.path, { readonly: true });
    expect(raw.prepare('SELECT count(*) AS n FROM run_rank_steps').get()).toEqual({ n: 0 });
    raw.close();
  });
});

describe('migration to v3', () => {
  it('migrates a v2 database with a run, tags and notes, and the new tables work on the old run', () => {
    const db = oldDatabase(2, 'legacy', 'old-case');
    const path = join(dir, 'runs.sqlite');
    const t = OLD_TIME;
    db.prepare(`INSERT INTO runs (id, project_id, case_id, status, started_at, ended_at, seed, ranks, gpus, adapter_description,
                backend, product_version, pid, hostname, summary, notes)
                VALUES (8, 1, 1, 'completed', ?, ?, 3, 2, 2, 'old gpu', 'vulkan', '0.0.1', 1, 'elsewhere', NULL, 'kept note')`).run(t, t);
    db.prepare("INSERT INTO run_tags VALUES (8, 'v2tag')").run();
    db.prepare("INSERT INTO run_phases (run_id, rank, phase, calls, total, min, max) VALUES (8, 1, 'exchange', 2, 0.5, 0.2, 0.3)").run();
    expect(db.pragma('user_version', { simple: true })).toBe(2);
    db.close();

    store = RunStore.open({ dataDir: dir });
    expect(LATEST_VERSION).toBeGreaterThanOrEqual(3);
    expect(store.getRun(8)).toMatchObject({ project: 'legacy', caseName: 'old-case', tags: ['v2tag'], notes: 'kept note', ranks: 2 });
    expect(store.getPhases(8)).toEqual([{ rank: 1, phase: 'exchange', calls: 2, totalSeconds: 0.5, minSeconds: 0.2, maxSeconds: 0.3 }]);
    expect(store.getRankSteps(8)).toEqual([]);
    const s = store.createStudy({ name: 'old', kind: 'weak', project: 'legacy', caseName: 'old-case', caseHash: 'c'.repeat(64) });
    store.addStudyRun(s.id, 8, 2);
    expect(store.getStudy(s.id).runs.map((x) => x.run.id)).toEqual([8]);
    expect(store.listStudies({ project: 'legacy' }).length).toBe(1);
    const raw = new Database(path, { readonly: true });
    expect(raw.pragma('user_version', { simple: true })).toBe(LATEST_VERSION);
    raw.close();
  });
});
