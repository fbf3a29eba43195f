// A run database with a damaged page in the middle (random bytes over one leaf page of run_steps, or of runs):
// `dsmc run` and the other writing commands refuse to write into it (SQLite's quick_check at open) and say how
// to recover; `dsmc db check` names the damage and the unreadable runs; `dsmc db recover OUT` copies every
// readable run, bit for bit as it was, into a new database file and leaves the damaged one unchanged.
import { randomBytes } from 'node:crypto';
import { closeSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caseHashOf } from '../../src-main/store/canonical-json.js';
import { RunStore } from '../../src-main/store/run-store.js';
import { fields, phases, runInput, steps, summary, totals } from '../store/store-fixtures.js';
import { STACK_TRACE, dsmc, folderChecksums, requireBuild } from './cli-runner.js';

const VALID = new URL('../fixtures/invalid-cases/valid-base.json', import.meta.url).pathname;
const RUNS = 30;

let root: string;
let pristine: string;
beforeAll(() => {
  requireBuild();
  root = mkdtempSync(join(tmpdir(), 'dsmc-damaged-'));
  pristine = join(root, 'pristine');
  build(pristine);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A run database of RUNS completed runs (steps, totals, phases, fields, tags, notes) and a study of two of them. */
function build(dir: string): void {
  const store = RunStore.open({ dataDir: dir });
  for (let k = 0; k < RUNS; k++) {
    const caseJson = { name: `box${k}`, pad: 'x'.repeat(1500 + k) };
    const id = store.createRun(runInput({ project: `p${k % 3}`, caseName: `box${k}`, caseJson }));
    store.appendSteps(id, steps(1, 200), totals([0, 100, 200]));
    store.completeRun(id, { summary: summary(), phases: phases(), fields: fields([4, 4, 4]) });
    if (k % 4 === 0) store.tagRun(id, `t${k}`);
    if (k % 5 === 0) store.setNotes(id, `note of run ${id}`);
  }
  const study = store.createStudy({ name: 'strong', kind: 'strong', project: 'p0', caseName: 'box0', caseHash: caseHashOf({ name: 'box0', pad: 'x'.repeat(1500) }) });
  store.addStudyRun(study.id, 1, 1);
  store.addStudyRun(study.id, 4, 2);
  store.close();
}

let copies = 0;
/** A copy of the pristine data folder with random bytes over one leaf page of `table` (the middle one); returns the folder. */
function damaged(table: 'run_steps' | 'runs'): string {
  const dir = join(root, `damaged-${++copies}`);
  mkdirSync(dir);
  const path = join(dir, 'runs.sqlite');
  // the page numbers from the pristine file (opening the copy would leave -wal and -shm files beside it)
  const db = new Database(join(pristine, 'runs.sqlite'), { readonly: true });
  const pages = (db.prepare("SELECT pageno FROM dbstat WHERE name = ? AND pagetype = 'leaf' ORDER BY pageno").all(table) as { pageno: number }[]).map((r) => r.pageno);
  db.close();
  copyFileSync(join(pristine, 'runs.sqlite'), path);
  expect(pages.length).toBeGreaterThan(2);
  const page = pages[Math.floor(pages.length / 2)];
  const fd = openSync(path, 'r+');
  writeSync(fd, randomBytes(4096), 0, 4096, (page - 1) * 4096);
  closeSync(fd);
  return dir;
}

/** Everything the store gives back about a run, to compare a recovered run with the original. */
function everything(store: RunStore, id: number) {
  return {
    run: store.getRun(id), case: store.getCase(id), phases: store.getPhases(id), steps: store.getSteps(id),
    totals: store.getTotals(id), fields: store.getFields(id),
  };
}

describe('a database with a damaged page in the middle', () => {
  it('dsmc run, note, tag and delete refuse to write into it, naming db check and db recover; the folder unchanged', async () => {
    const dir = damaged('run_steps');
    const path = join(dir, 'runs.sqlite');
    const before = folderChecksums(dir);
    for (const args of [['run', VALID, '--no-progress', '--json'], ['note', '1', 'hello'], ['tag', '2', 'x'], ['delete', '3']]) {
      const r = await dsmc([...args, '--data-dir', dir]);
      const what = `${args.join(' ')}: exit ${r.code}\n${r.stderr}`;
      expect(r.code, what).toBe(1);
      expect(r.stdout, what).toBe('');
      expect(r.stderr, what).not.toMatch(STACK_TRACE);
      expect(r.stderr, what).toContain(`the run database ${path} is damaged (SQLite's quick_check found`);
      expect(r.stderr, what).toMatch(/so no run is written into it/);
      expect(r.stderr, what).toMatch(/`dsmc db check`.*`dsmc db recover NEW\.sqlite`/s);
    }
    expect(folderChecksums(dir)).toEqual(before);
  });

  it('dsmc db check names the damage and the unreadable runs (exit 1); a sound database is ok (exit 0)', async () => {
    const dir = damaged('run_steps');
    const before = folderChecksums(dir);
    const r = await dsmc(['db', 'check', '--data-dir', dir]);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toMatch(/is damaged\. SQLite's integrity_check says:\n {2}\S/);
    expect(r.stdout).toMatch(/unreadable runs: \n {2}run \d+: database disk image is malformed/);
    expect(r.stdout).toMatch(/dsmc db recover NEW\.sqlite/);
    const json = await dsmc(['db', 'check', '--data-dir', dir, '--json']);
    const report = JSON.parse(json.stdout) as { ok: boolean; runs: { readable: number[]; unreadable: { id: number }[] } };
    expect(report.ok).toBe(false);
    expect(report.runs.unreadable.length).toBeGreaterThan(0);
    expect(report.runs.readable.length + report.runs.unreadable.length).toBe(RUNS);
    expect(folderChecksums(dir)).toEqual(before);

    const sound = await dsmc(['db', 'check', '--data-dir', pristine]);
    expect(sound.code, sound.stderr).toBe(0);
    expect(sound.stdout).toMatch(new RegExp(`: ok \\(integrity_check found no damage; ${RUNS} runs, all readable\\)`));
  });

  it.each(['run_steps', 'runs'] as const)('dsmc db recover copies every readable run bit for bit (damage in %s)', async (table) => {
    const dir = damaged(table);
    const before = folderChecksums(dir);
    const outDir = join(root, `recovered-${table}`);
    mkdirSync(outDir);
    const out = join(outDir, 'runs.sqlite');
    const r = await dsmc(['db', 'recover', out, '--data-dir', dir, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as { runs: { recovered: number[]; lost: { id: number; reason: string }[] }; studies: { recovered: number } };
    expect(folderChecksums(dir)).toEqual(before);
    expect(readdirSync(outDir)).toEqual(['runs.sqlite']);
    // most runs come back; the ones on the damaged page do not, and are named
    expect(report.runs.recovered.length).toBeGreaterThanOrEqual(RUNS - 12);
    if (table === 'run_steps') expect(report.runs.lost.length).toBeGreaterThan(0);
    expect(report.runs.recovered.length + report.runs.lost.length).toBeLessThanOrEqual(RUNS);
    const db = new Database(out, { readonly: true });
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(db.pragma('journal_mode', { simple: true })).toBe('delete');
    db.close();
    const got = RunStore.open({ dataDir: outDir });
    const ref = RunStore.open({ dataDir: pristine });
    try {
      expect(got.listRuns().map((x) => x.id)).toEqual(report.runs.recovered);
      for (const id of report.runs.recovered) expect(everything(got, id)).toEqual(everything(ref, id));
      if (report.runs.recovered.includes(1) && report.runs.recovered.includes(4)) expect(got.listStudies()[0].runs.map((x) => x.runId)).toEqual([1, 4]);
    } finally {
      got.close();
      ref.close();
    }
    if (table === 'runs') {
      // the runs on the damaged page cannot be told from deleted ones: the text names the ids not found
      const text = await dsmc(['db', 'check', '--data-dir', dir]);
      expect(text.stdout).toMatch(/the list of runs cannot be read whole \(database disk image is malformed\); runs were looked up one by one: ids not found \d/);
    }
    // the recovered database is a normal one: dsmc writes into it again
    const again = await dsmc(['note', String(report.runs.recovered[0]), 'recovered', '--data-dir', outDir]);
    expect(again.code, again.stderr).toBe(0);
  });

  it('dsmc db recover never overwrites a file, nor the damaged database itself', async () => {
    const dir = damaged('run_steps');
    const taken = join(root, 'taken.sqlite');
    copyFileSync(join(pristine, 'runs.sqlite'), taken);
    for (const [out, says] of [[taken, /already exists; give the name of a new file/], [join(dir, 'runs.sqlite'), /is the damaged database itself/],
      [join(root, 'no-such-folder', 'x.sqlite'), /does not exist; create it/]] as const) {
      const r = await dsmc(['db', 'recover', out, '--data-dir', dir]);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toMatch(says);
      expect(r.stderr).not.toMatch(STACK_TRACE);
    }
    expect(existsSync(join(root, 'no-such-folder'))).toBe(false);
  });
});
