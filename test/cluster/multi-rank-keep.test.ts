// Stop and keep of a multi-rank run (issue 27 item 5) on real rank processes: `dsmc run --ranks 2` of a periodic box
// (migrants every step) is stopped mid-way by one Ctrl-C (SIGINT); both ranks end after the same submit, the run is
// saved cancelled "stopped by the user at step N" with its fields, and the kept fields, standard errors, samples and
// step statistics are bitwise those of a one-rank run of the same case stopped after the same N steps (in this
// process). The agreement itself under random schedules: keep-stop-protocol.test.ts. Uses the compiled out/.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fieldsSha256 } from '../../src-main/solver/fields.js';
import { openGpu } from '../../src-main/solver/gpu/device.js';
import { runCase } from '../../src-main/solver/run-case.js';
import { RunStore } from '../../src-main/store/run-store.js';
import { presetCase } from '../physics/harness.js';

const BIN = new URL('../../bin/dsmc.js', import.meta.url).pathname;
const DATA_DIR = mkdtempSync(join(tmpdir(), 'dsmc-ranks-keep-'));
afterAll(() => rmSync(DATA_DIR, { recursive: true, force: true }));

const STEPS = 2000;
const PER_SUBMIT = 3;
const COMMON = [`run.steps=${STEPS}`, `run.stepsPerSubmit=${PER_SUBMIT}`, 'sampling.enabled=true', 'sampling.start=5'];
// a periodic box (every rank sends migrants every step), sampling from step 5: 20 batch-means blocks of ~100 steps
const PERIODIC = ['grid.cells=[12,10,8]', ...COMMON, ...['xmin', 'xmax', 'ymin', 'ymax', 'zmin', 'zmax'].map((f) => `boundaries.${f}={"type":"periodic"}`)];
// a walled channel with inflow and outflow, split in blocks and balanced (the ranks wait for the orchestrator's
// balancing answer after every submit, then for the stop decision)
const CHANNEL = ['grid.cells=[16,6,4]', ...COMMON, 'boundaries.ymin={"type":"diffuse","temperature":500}', 'boundaries.ymax={"type":"diffuse","temperature":300,"velocity":[200,0,0]}'];

/** The newest run of a project and its highest recorded step. */
function progressOf(project: string): { runId: number; step: number; status: string } | null {
  try {
    const store = RunStore.open({ dataDir: DATA_DIR });
    try {
      const run = store.listRuns({ project })[0];
      return run ? { runId: run.id, step: run.lastStep, status: run.status } : null;
    } finally {
      store.close();
    }
  } catch {
    return null; // the database is being created
  }
}

/** Starts `dsmc run ...`, sends one SIGINT once its run recorded step `atStep`; resolves with its exit and output. */
async function interruptAt(args: string[], project: string, atStep: number) {
  const child = spawn(process.execPath, [BIN, 'run', ...args, '--project', project, '--data-dir', DATA_DIR, '--no-progress', '--json'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '', stderr = '';
  child.stdout.on('data', (d) => { stdout += String(d); });
  child.stderr.on('data', (d) => { stderr += String(d); });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const deadline = Date.now() + 120_000;
  let sentAt = -1;
  while (Date.now() < deadline && child.exitCode === null) {
    await new Promise((r) => setTimeout(r, 20));
    const p = progressOf(project);
    if (p?.status === 'running' && p.step >= atStep) {
      sentAt = p.step;
      child.kill('SIGINT');
      break;
    }
  }
  return { code: await exited, stdout, stderr, sentAt };
}

describe('dsmc run --ranks 2: Ctrl-C once stops every rank after the same submit and keeps the run', () => {
  it.each([
    ['periodic box, slabs', 'collide-box', PERIODIC, [] as string[]],
    ['walled inflow/outflow channel, blocks, --rebalance 10', 'free-stream', CHANNEL, ['--decomposition', 'block', '--rebalance', '10']],
  ])('%s: keeps bitwise the fields of a one-rank run stopped after the same steps', async (name, preset, sets, extra) => {
    const project = `keep-${preset}`;
    const run = await interruptAt([preset, ...sets.flatMap((s) => ['--set', s]), '--ranks', '2', '--timing', 'off', ...extra], project, 240);
    expect(run.sentAt, run.stderr).toBeGreaterThanOrEqual(240);
    expect(run.code, run.stderr).toBe(130);
    expect(run.stderr).toContain('SIGINT: stopping every rank after the same submit, keeping what was sampled');
    const many = JSON.parse(run.stdout.trim().split('\n').pop()!) as Record<string, unknown>;
    const runId = many.runId as number;
    const step = Number(/stopped by the user at step (\d+) of 2000 \(Ctrl-C \(SIGINT\)\); the fields, profile and surface loads sampled so far are kept \(saved as run (\d+), cancelled\)/.exec(run.stderr)?.[1]);
    // stopped mid-way, after a whole submit, after the step the signal was sent at
    expect(step).toBeGreaterThanOrEqual(run.sentAt);
    expect(step).toBeLessThan(STEPS);
    expect(step % PER_SUBMIT).toBe(0);
    expect(many.steps).toBe(step);
    expect(many.ranks).toBe(2);
    console.log(`${name}, 2 ranks: SIGINT at step ${run.sentAt}, stopped and kept at step ${step} of ${STEPS}`);

    const store = RunStore.open({ dataDir: DATA_DIR });
    let record, fields, steps;
    try {
      record = store.getRun(runId);
      fields = store.getFields(runId);
      steps = store.getSteps(runId);
    } finally {
      store.close();
    }
    expect(record.status).toBe('cancelled');
    expect(record.reason).toBe(`stopped by the user at step ${step} of ${STEPS} (Ctrl-C (SIGINT)); the fields, profile and surface loads sampled so far are kept`);
    expect(record.summary?.steps).toBe(step);
    expect(fields).not.toBeNull();

    // the one-rank reference: the same case, its loop stopped and kept after the same steps
    const c = presetCase(preset, sets);
    const gpu = await openGpu();
    const stop = new AbortController();
    let one;
    try {
      one = await runCase(c, {
        gpu, timing: 'off', signal: stop.signal, keepOnStop: true,
        onSteps: (s) => { if (s.at(-1)!.step >= step) stop.abort(); },
      });
    } finally {
      gpu.device.destroy();
    }
    expect(one.result.steps).toBe(step);
    // sampling from step 5: passes of steps 5..N; over 200 steps sampled, two or more blocks closed (standard errors)
    expect(one.result.samples).toBe(step - 4);
    expect(one.result.fieldBlocks).toBeGreaterThanOrEqual(2);
    expect(many.samples).toBe(one.result.samples);
    expect(fields!.samples).toBe(one.result.samples);
    expect(fields!.blocks).toBe(one.result.fieldBlocks);
    expect(many.fieldsSha256).toBe(one.summary.fieldsSha256);
    expect(fieldsSha256(fields!.values)).toBe(one.summary.fieldsSha256);
    expect(fieldsSha256(fields!.errors)).toBe(fieldsSha256(one.result.fieldErrors));
    expect(steps.map((s) => [s.step, s.particles, s.collisions, s.candidates])).toEqual(
      one.result.stepStats.map((s) => [s.step, s.particlesAfter, s.collisions, s.candidates]));
    expect((many.particlesPerRank as number[]).reduce((s, x) => s + x, 0)).toBe(one.summary.particles);
  }, 240_000);
});
