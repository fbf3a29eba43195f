// Runs left 'running' by a process that is gone are marked failed when the database opens; runs of a
// live process or of another host are left alone.
import { spawnSync } from 'node:child_process';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RunStore } from '../../src-main/store/run-store.js';
import { STALE_RUN_REASON, processAlive } from '../../src-main/store/stale-runs.js';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { phases, removeDir, runInput, steps, summary, tempDir } from './store-fixtures.js';

let dir: string;
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => removeDir(dir));

/** The pid of a process that has exited. */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', '']);
  expect(processAlive(r.pid!)).toBe(false);
  return r.pid!;
}

describe('stale running runs', () => {
  it('marks failed the runs whose process on this host is gone, and only those', () => {
    const store = RunStore.open({ dataDir: dir });
    const dead = store.createRun(runInput());
    const alive = store.createRun(runInput());
    const elsewhere = store.createRun(runInput());
    const done = store.createRun(runInput());
    store.appendSteps(dead, steps(1, 3), []);
    store.finishRun(done, 'failed', 'earlier');
    store.close();
    const raw = new Database(`${dir}/runs.sqlite`);
    const pid = deadPid();
    raw.prepare('UPDATE runs SET pid = ? WHERE id IN (?, ?, ?)').run(pid, dead, elsewhere, done);
    raw.prepare("UPDATE runs SET hostname = 'some-other-host' WHERE id = ?").run(elsewhere);
    raw.close();

    const again = RunStore.open({ dataDir: dir });
    try {
      expect(again.getRun(dead)).toMatchObject({ status: 'failed', reason: STALE_RUN_REASON, lastStep: 3 });
      expect(again.getRun(dead).endedAt).not.toBeNull();
      expect(again.getRun(alive).status).toBe('running'); // this test process
      expect(again.getRun(elsewhere).status).toBe('running'); // cannot tell from here
      expect(again.getRun(done)).toMatchObject({ status: 'failed', reason: 'earlier' });
      expect(again.getSteps(dead).length).toBe(3);
    } finally {
      again.close();
    }
  });
});

describe('stale checkpoint folders (issue 25 item 15)', () => {
  it('removes on the next open the checkpoints of completed runs, and only those', () => {
    const store = RunStore.open({ dataDir: dir });
    const completed = store.createRun(runInput());
    store.completeRun(completed, { summary: summary(), phases: phases(), fields: null });
    const failed = store.createRun(runInput());
    store.finishRun(failed, 'failed', 'killed');
    const running = store.createRun(runInput());
    store.close();
    // what a process killed between its final commit and the removal of its checkpoints leaves behind
    const folder = (id: number) => join(dir, 'checkpoints', `run-${id}`);
    for (const id of [completed, failed, running, 999]) {
      mkdirSync(join(folder(id), 'step-0000000020'), { recursive: true });
      writeFileSync(join(folder(id), 'step-0000000020', 'manifest.json'), '{}');
    }
    writeFileSync(join(dir, 'checkpoints', 'notes.txt'), 'not a run folder');
    RunStore.open({ dataDir: dir }).close();
    expect(existsSync(folder(completed))).toBe(false);
    for (const id of [failed, running, 999]) expect(existsSync(folder(id)), `run ${id}`).toBe(true);
    expect(existsSync(join(dir, 'checkpoints', 'notes.txt'))).toBe(true);
  });
});
