// A process SIGKILLed while writing runs leaves a database that passes PRAGMA integrity_check and holds
// no half-written run: each write transaction is there whole or not at all, and a completed run always
// has its phases and fields. The killed process's last run is marked failed on the next open.
// The writer (kill-writer.mjs) uses the compiled out/ code: `npm test` compiles first.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIELD_NAMES } from '../../src-main/common/field-names.js';
import { RunStore } from '../../src-main/store/run-store.js';
import { STALE_RUN_REASON } from '../../src-main/store/stale-runs.js';
import { removeDir, tempDir } from './store-fixtures.js';

const WRITER = fileURLToPath(new URL('./kill-writer.mjs', import.meta.url));
const COMPILED = fileURLToPath(new URL('../../out/src-main/store/run-store.js', import.meta.url));

/** Starts the writer, waits until it has completed `runs` runs plus a random extra delay, SIGKILLs it. */
function writeThenKill(dir: string, runs: number, extraMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [WRITER, dir], { stdio: ['ignore', 'pipe', 'pipe'] });
    let completed = 0;
    let stderr = '';
    let killing = false;
    const timer = setTimeout(() => reject(new Error(`writer did not complete ${runs} runs in 60 s; stderr: ${stderr}`)), 60_000);
    child.stderr.on('data', (d) => { stderr += d; });
    child.stdout.on('data', (d: Buffer) => {
      completed += String(d).split('\n').filter((l) => l.startsWith('completed')).length;
      if (completed >= runs && !killing) {
        killing = true;
        setTimeout(() => child.kill('SIGKILL'), extraMs);
      }
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (signal !== 'SIGKILL') reject(new Error(`writer exited with code ${code} before the kill; stderr: ${stderr}`));
      else resolve(completed);
    });
  });
}

/** One number from a query. */
function count(db: Database.Database, sql: string, ...args: unknown[]): number {
  return (db.prepare(sql).get(...args) as { n: number }).n;
}

describe('SIGKILL while writing', () => {
  let dir: string;
  beforeAll(() => {
    dir = tempDir();
  });
  afterAll(() => removeDir(dir));

  it('leaves an intact database with only whole transactions, three kills in a row', async () => {
    expect(existsSync(COMPILED), 'out/ is missing: run `npm run build` (npm test does)').toBe(true);
    let killedRuns = 0;
    for (const [runs, extraMs] of [[5, 3], [3, 11], [4, 0]]) {
      await writeThenKill(dir, runs, extraMs + Math.floor(Math.random() * 5));
      killedRuns += 1;

      // read the file as it was left, before the store's stale-run cleanup
      const db = new Database(`${dir}/runs.sqlite`);
      try {
        expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
        expect(db.pragma('foreign_key_check')).toEqual([]);
        const rows = db.prepare('SELECT id, status FROM runs ORDER BY id').all() as { id: number; status: string }[];
        expect(rows.filter((r) => r.status === 'completed').length).toBeGreaterThanOrEqual(runs);
        // at most one run per kill can be left running
        expect(rows.filter((r) => r.status === 'running').length).toBeLessThanOrEqual(1);
        for (const r of rows) {
          const steps = count(db, 'SELECT count(*) AS n FROM run_steps WHERE run_id = ?', r.id);
          const totals = count(db, 'SELECT count(*) AS n FROM run_totals WHERE run_id = ?', r.id);
          const lastStep = count(db, 'SELECT coalesce(max(step), 0) AS n FROM run_steps WHERE run_id = ?', r.id);
          // each appendSteps wrote 40 steps and one totals row together
          expect(steps % 40, `run ${r.id} steps`).toBe(0);
          expect(totals, `run ${r.id} totals`).toBe(steps / 40);
          expect(lastStep, `run ${r.id} last step`).toBe(steps);
          const phases = count(db, 'SELECT count(*) AS n FROM run_phases WHERE run_id = ?', r.id);
          const fields = count(db, 'SELECT count(*) AS n FROM run_fields WHERE run_id = ?', r.id);
          const arrays = count(db, 'SELECT count(*) AS n FROM run_field_arrays WHERE run_id = ? AND length(field_values) = 4096 AND length(field_errors) = 4096', r.id);
          if (r.status === 'completed') {
            expect([steps, phases, fields, arrays], `completed run ${r.id}`).toEqual([200, 4, 1, FIELD_NAMES.length]);
          } else {
            expect([phases, fields, arrays], `unfinished run ${r.id}`).toEqual([0, 0, 0]);
          }
        }
      } finally {
        db.close();
      }

      // opening the store marks the killed writer's unfinished run failed
      const store = RunStore.open({ dataDir: dir });
      try {
        const runs = store.listRuns();
        expect(runs.filter((r) => r.status === 'running')).toEqual([]);
        const failed = runs.filter((r) => r.status === 'failed');
        for (const r of failed) expect(r.reason).toBe(STALE_RUN_REASON);
        expect(failed.length).toBeLessThanOrEqual(killedRuns);
        const last = runs.filter((r) => r.status === 'completed').at(-1)!;
        expect(store.getFields(last.id)!.values.T[3]).toBe(Math.cos(3 + 4));
      } finally {
        store.close();
      }
    }
  });
});
