// `dsmc delete RUN` removes the run's checkpoint folder with it (a failed run keeps its checkpoints for dsmc resume).
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { runCheckpointFolder } from '../../src-main/solver/checkpoint/checkpoint-folder.js';
import { RunStore } from '../../src-main/store/run-store.js';
import { runNode } from '../helpers/run-process.js';

const BIN = new URL('../../bin/dsmc.js', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'dsmc-delete-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('deletes the checkpoints of a deleted run and leaves other runs\' checkpoints alone', async () => {
  const store = RunStore.open({ dataDir: dir });
  const input = { project: 'p', caseName: 'c', caseJson: { name: 'c' }, seed: 1, ranks: 1, gpus: 1, adapter: { description: 'test', backend: 'none' }, productVersion: '0' };
  const a = store.createRun(input);
  const b = store.createRun(input);
  store.finishRun(a, 'failed', 'killed');
  store.finishRun(b, 'failed', 'killed');
  store.close();
  for (const id of [a, b]) {
    const step = join(runCheckpointFolder(dir, id), 'step-10');
    mkdirSync(step, { recursive: true });
    writeFileSync(join(step, 'manifest.json'), '{}');
  }
  const r = await runNode([BIN, 'delete', String(a), '--data-dir', dir]);
  expect(r.status, r.stderr).toBe(0);
  expect(existsSync(runCheckpointFolder(dir, a))).toBe(false);
  expect(existsSync(runCheckpointFolder(dir, b))).toBe(true);
});
