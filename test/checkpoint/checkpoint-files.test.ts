// Checkpoint files without a GPU: the codec round-trips and refuses damaged bytes naming the file, the
// manifest marks a folder complete and catches any changed byte, pruning keeps the newest two complete
// checkpoints, the schedule lands on submit boundaries, and RunStore.reopenRun deletes what came after.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CheckpointCorrupt, decodeCheckpoint, encodeCheckpoint } from '../../src-main/solver/checkpoint/checkpoint-codec.js';
import {
  CheckpointIncomplete, checkpointSteps, completeCheckpoint, latestCheckpoint, makeStepFolder, pruneOlder, stepFolder, verifyCheckpoint,
} from '../../src-main/solver/checkpoint/checkpoint-folder.js';
import { checkpointDue } from '../../src-main/solver/checkpoint/checkpoint-schedule.js';
import { RunStore } from '../../src-main/store/run-store.js';
import { presetCase } from '../physics/harness.js';

const dirs: string[] = [];
afterAll(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }); });
/** A fresh temporary folder. */
function temp(): string {
  const d = mkdtempSync(join(tmpdir(), 'dsmc-ckf-'));
  dirs.push(d);
  return d;
}

describe('checkpoint codec', () => {
  const arrays = { a: new Float32Array([1.5, -2, 3]), b: new Uint32Array([7, 0xffffffff]), c: new Float64Array([Math.PI]) };
  const bytes = encodeCheckpoint('rank', { step: 40, note: 'x' }, arrays);

  it('round-trips meta data and arrays bitwise', () => {
    const d = decodeCheckpoint(bytes, 'f.bin', 'rank');
    expect(d.meta).toEqual({ step: 40, note: 'x' });
    expect(d.arrays.a).toEqual(arrays.a);
    expect(d.arrays.b).toEqual(arrays.b);
    expect(d.arrays.c).toEqual(arrays.c);
  });

  it.each([
    ['truncated', () => bytes.subarray(0, bytes.length - 3), 'truncated or extended'],
    ['cut inside the header', () => bytes.subarray(0, 20), 'more than the file holds'],
    ['bad magic word', () => Buffer.concat([Buffer.from('XXXXXXXX'), bytes.subarray(8)]), 'magic word'],
    ['empty', () => Buffer.alloc(0), 'magic word'],
  ])('refuses a %s file naming it', (_name, make, why) => {
    expect(() => decodeCheckpoint(make(), '/x/rank-0.bin', 'rank')).toThrow(CheckpointCorrupt);
    expect(() => decodeCheckpoint(make(), '/x/rank-0.bin', 'rank')).toThrow(`checkpoint file /x/rank-0.bin is damaged: `);
    expect(() => decodeCheckpoint(make(), '/x/rank-0.bin', 'rank')).toThrow(why);
  });

  it('refuses a file of another kind', () => {
    expect(() => decodeCheckpoint(bytes, '/x/loop.bin', 'loop')).toThrow('it holds "rank", expected "loop"');
  });
});

describe('checkpoint folders', () => {
  /** Writes a checkpoint of `step` with one file and completes it (unless `complete` is false). */
  function write(folder: string, step: number, complete = true): string {
    const dir = makeStepFolder(folder, step);
    writeFileSync(join(dir, 'rank-0.bin'), `data of step ${step}`);
    if (complete) completeCheckpoint(dir, step, 1, ['rank-0.bin']);
    return dir;
  }

  it('a manifest verifies its files and catches a changed byte, naming the file', () => {
    const folder = temp();
    const dir = write(folder, 20);
    expect(verifyCheckpoint(dir).manifest.step).toBe(20);
    const file = join(dir, 'rank-0.bin');
    const b = readFileSync(file);
    b[3] ^= 1;
    writeFileSync(file, b);
    expect(() => verifyCheckpoint(dir)).toThrow(`checkpoint file ${file} does not match the SHA-256`);
  });

  it('a folder without a manifest is incomplete; completing it needs every file', () => {
    const folder = temp();
    const dir = write(folder, 40, false);
    expect(() => verifyCheckpoint(dir)).toThrow(CheckpointIncomplete);
    expect(() => completeCheckpoint(dir, 40, 2, ['rank-0.bin', 'rank-1.bin'])).toThrow(`${join(dir, 'rank-1.bin')} is missing`);
    expect(existsSync(join(dir, 'manifest.json'))).toBe(false);
  });

  it('pruning keeps the newest two complete checkpoints and drops older incomplete ones', () => {
    const folder = temp();
    write(folder, 20);
    write(folder, 30, false);
    write(folder, 40);
    pruneOlder(folder, 40);
    expect(checkpointSteps(folder)).toEqual([40, 30, 20]);
    write(folder, 60);
    pruneOlder(folder, 60);
    expect(checkpointSteps(folder)).toEqual([60, 40]);
    write(folder, 80, false); // a newer incomplete one is never pruned by an older completion
    pruneOlder(folder, 60);
    expect(checkpointSteps(folder)).toEqual([80, 60, 40]);
  });

  it('latestCheckpoint skips incomplete, reports damaged, and falls back', () => {
    const folder = temp();
    write(folder, 20);
    const damaged = write(folder, 40);
    write(folder, 60, false);
    writeFileSync(join(damaged, 'manifest.json'), '{');
    const refused: string[] = [];
    const skipped: string[] = [];
    const v = latestCheckpoint(folder, (e) => refused.push(e.message), (e) => skipped.push(e.message));
    expect(v.manifest.step).toBe(20);
    expect(skipped).toEqual([expect.stringContaining(stepFolder(folder, 60))]);
    expect(refused).toEqual([expect.stringContaining(`checkpoint manifest ${join(damaged, 'manifest.json')} is damaged`)]);
  });

  it('with no complete checkpoint, says so and how to get one', () => {
    const folder = temp();
    write(folder, 20, false);
    expect(() => latestCheckpoint(folder, () => undefined)).toThrow(/no complete checkpoint in .*run.checkpointEvery=100/);
  });
});

describe('checkpoint schedule', () => {
  const c = presetCase('collide-box', ['run.steps=100', 'run.checkpointEvery=25']);
  it('is due after the first submit reaching each multiple, never at the end or when off', () => {
    const due = (chunk: number) => {
      const out: number[] = [];
      for (let s = 0; s < 100; s += chunk) if (checkpointDue(c, s, Math.min(s + chunk, 100), 100)) out.push(Math.min(s + chunk, 100));
      return out;
    };
    expect(due(5)).toEqual([25, 50, 75]);
    expect(due(10)).toEqual([30, 50, 80]);
    expect(due(50)).toEqual([50]);
    expect(checkpointDue({ ...c, run: { ...c.run, checkpointEvery: 0 } }, 20, 30, 100)).toBe(false);
  });
});

describe('RunStore.reopenRun', () => {
  it('deletes what was recorded after the step, marks the run running again, and refuses runs that are not failed or cancelled', () => {
    const store = RunStore.open({ dataDir: temp() });
    try {
      const c = presetCase('collide-box');
      const id = store.createRun({ project: 'p', caseName: c.name, caseJson: c, seed: 1, ranks: 1, gpus: 1, adapter: { description: 'x', backend: 'y' }, productVersion: '0' });
      const steps = Array.from({ length: 10 }, (_, k) => ({ step: k + 1, particles: 5, injected: 0, collisions: k, candidates: 2 * k }));
      store.appendSteps(id, steps, [{ step: 8, particles: 5, kineticEnergy: 1, momentum: [0, 0, 0] }]);
      expect(() => store.reopenRun(id, 4)).toThrow(`run ${id} is running; cannot resume it`);
      store.finishRun(id, 'failed', 'killed');
      store.reopenRun(id, 4);
      const run = store.getRun(id);
      expect(run.status).toBe('running');
      expect(run.reason).toBeNull();
      expect(store.getSteps(id).map((s) => s.step)).toEqual([1, 2, 3, 4]);
      expect(store.getTotals(id)).toEqual([]);
      store.appendSteps(id, steps.slice(4), []);
      expect(store.getSteps(id)).toEqual(steps);
    } finally {
      store.close();
    }
  });
});
