// The `dsmc resume --json` summary means the same on one rank and on two: `steps` is the run's (run.steps),
// `resumed` names the checkpoint's step and the steps run after it, and the mean particle count is over those
// steps (before the fix `steps` counted only the resumed part on one rank and the total on two, and the two-rank
// mean divided the resumed steps' particles by the total). The saved summary says the same as the printed one.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RunStore } from '../../src-main/store/run-store.js';
import { dsmc, jsonOf, runAndKill } from './cli-harness.js';

const DATA_DIR = mkdtempSync(join(tmpdir(), 'dsmc-resume-summary-'));
afterAll(() => rmSync(DATA_DIR, { recursive: true, force: true }));

/** A small collide box of 80 steps, 5 per submit, a checkpoint every 20 (periodic: the particle count stays). */
const BOX = ['collide-box', '--set', 'grid.cells=[8,6,6]', '--set', 'run.steps=80', '--set', 'run.stepsPerSubmit=5',
  '--set', 'run.checkpointEvery=20', '--set', 'sampling.start=10', '--timing', 'off'];

describe.each([1, 2])('dsmc resume --json on %i rank(s)', (ranks) => {
  it('steps is the run\'s total, resumed says from where, the mean is over the resumed steps', async () => {
    const k = await runAndKill(DATA_DIR, ['run', ...BOX, '--ranks', String(ranks)], 45, { kind: 'orchestrator' });
    expect(k.killedAtStep).not.toBeNull();
    const s = jsonOf(await dsmc(DATA_DIR, ['resume', String(k.runId), '--json', '--timing', 'off']), 'dsmc resume') as {
      steps: number; particles: number; meanParticles: number; particleSteps: number; resumed: { fromStep: number; steps: number };
    };
    expect(s.steps).toBe(80);
    // checkpoints fall on submit boundaries at or after each multiple of 20 (the submits follow the sampling blocks)
    expect(s.resumed.fromStep).toBeGreaterThanOrEqual(20);
    expect(s.resumed.fromStep).toBeLessThanOrEqual(k.killedAtStep!);
    expect(s.resumed.steps).toBe(80 - s.resumed.fromStep);
    // periodic box: every step moves all particles, so the mean over the resumed steps is the count itself
    expect(s.meanParticles).toBeCloseTo(s.particles, 6);
    expect(s.particleSteps).toBe(s.particles * s.resumed.steps);
    const store = RunStore.open({ dataDir: DATA_DIR });
    try {
      const saved = store.getRun(k.runId).summary!;
      expect(saved.steps).toBe(80);
      expect(saved.resumed).toEqual(s.resumed);
    } finally {
      store.close();
    }
  });
});
