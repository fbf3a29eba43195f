// Stop and keep through the real CLI (issue 27 item 5): Ctrl-C once (SIGINT) stops `dsmc run` after its submit and
// keeps the run cancelled with what it sampled (exit code 130); `dsmc resume` continues it, a second Ctrl-C keeps it
// again, and a last resume to the end records bitwise the steps, totals and fields of a run that never stopped.
// The same on two rank processes: Ctrl-C once stops both after the same submit and keeps the run (in `dsmc run` and
// in `dsmc resume`), and a last resume continues it on two ranks to the fields of a two-rank run that never stopped.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { BOX, withCheckpoints } from './cases.js';
import { BIN, dsmc, integrity, jsonOf, recorded } from './cli-harness.js';

const DATA_DIR = mkdtempSync(join(tmpdir(), 'dsmc-stop-keep-'));
afterAll(() => rmSync(DATA_DIR, { recursive: true, force: true }));

/** The newest run id and its highest recorded step (0 and 0 before any). */
function progressOf(): { runId: number; step: number; status: string } {
  try {
    const db = new Database(join(DATA_DIR, 'runs.sqlite'), { readonly: true, fileMustExist: true });
    try {
      const run = db.prepare('SELECT id, status FROM runs ORDER BY id DESC LIMIT 1').get() as { id: number; status: string } | undefined;
      if (!run) return { runId: 0, step: 0, status: '' };
      const step = (db.prepare('SELECT max(step) AS s FROM run_steps WHERE run_id = ?').get(run.id) as { s: number | null }).s ?? 0;
      return { runId: run.id, step, status: run.status };
    } finally {
      db.close();
    }
  } catch {
    return { runId: 0, step: 0, status: '' }; // not created or not migrated yet
  }
}

/** Starts `dsmc ARGS`, sends one SIGINT once the newest run is running at step `atStep` or later; returns its exit code and output. */
async function interruptAt(args: string[], atStep: number): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [BIN, ...args, '--data-dir', DATA_DIR, '--no-progress'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '', stderr = '';
  child.stdout.on('data', (d) => { stdout += String(d); });
  child.stderr.on('data', (d) => { stderr += String(d); });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline && child.exitCode === null) {
    await new Promise((r) => setTimeout(r, 15));
    const p = progressOf();
    if (p.status === 'running' && p.step >= atStep) { child.kill('SIGINT'); break; }
  }
  return { code: await exited, stdout, stderr };
}

/**
 * Ctrl-C during `dsmc resume RUN` once it passed step `atLeast`: the resume stops, says it kept the run, and the run
 * is recorded cancelled again at some step >= atLeast with the sampling passes of steps 20 on; returns that record and step.
 */
async function interruptResumeKept(runId: number, atLeast: number): Promise<{ again: ReturnType<typeof recorded>; step: number }> {
  const second = await interruptAt(['resume', String(runId), '--timing', 'off'], atLeast);
  expect(second.code, second.stderr).toBe(130);
  expect(second.stdout).toMatch(/resumed run \d+ from step \d+ to step \d+ \(stopped and kept\)/);
  const again = recorded(DATA_DIR, runId);
  expect(again.status).toBe('cancelled');
  const step = Number(/^stopped by the user at step (\d+) of 200/.exec(again.reason ?? '')?.[1]);
  expect(step).toBeGreaterThanOrEqual(atLeast);
  expect(again.samples).toBe(step - 19);
  return { again, step };
}

describe('Ctrl-C once keeps the run; resume continues it to the uninterrupted result', () => {
  it('stops and keeps twice, then resumes bitwise to the end', async () => {
    const reference = recorded(DATA_DIR, (jsonOf(await dsmc(DATA_DIR, ['run', ...BOX, '--json', '--timing', 'off']), 'reference run') as { runId: number }).runId);
    expect(reference.samples).toBeGreaterThan(0);

    const first = await interruptAt(['run', ...withCheckpoints(BOX), '--timing', 'off'], 60);
    expect(first.code, first.stderr).toBe(130);
    const runId = progressOf().runId;
    const kept = recorded(DATA_DIR, runId);
    expect(kept.status).toBe('cancelled');
    const step1 = Number(/^stopped by the user at step (\d+) of 200 \(Ctrl-C \(SIGINT\)\)/.exec(kept.reason ?? '')?.[1]);
    expect(step1).toBeGreaterThanOrEqual(60);
    expect(step1).toBeLessThan(200);
    expect(kept.steps.map((s) => s.step)).toEqual(Array.from({ length: step1 }, (_, i) => i + 1));
    // sampling starts at step 20: the passes kept are those of steps 20..step1
    expect(kept.samples).toBe(step1 - 19);
    expect(first.stdout).toContain(`saved as run ${runId}`);

    const { again, step: step2 } = await interruptResumeKept(runId, step1 + 40);
    expect(again.steps.map((s) => s.step)).toEqual(Array.from({ length: step2 }, (_, i) => i + 1));

    const done = jsonOf(await dsmc(DATA_DIR, ['resume', String(runId), '--json', '--timing', 'off']), 'dsmc resume');
    expect(done.runId).toBe(runId);
    expect(integrity(DATA_DIR)).toBe('ok');
    const full = recorded(DATA_DIR, runId);
    const comparable = (r: typeof full) => ({ status: r.status, steps: r.steps, totals: r.totals, fields: r.fieldsSha256, errors: r.errorsSha256, blocks: r.blocks, samples: r.samples });
    expect(comparable(full)).toEqual(comparable(reference));
  }, 300_000);

  it('two ranks: stops and keeps, then resumes bitwise to the end', async () => {
    const TWO = ['--ranks', '2'];
    const reference = recorded(DATA_DIR, (jsonOf(await dsmc(DATA_DIR, ['run', ...BOX, ...TWO, '--json', '--timing', 'off']), 'two-rank reference run') as { runId: number }).runId);
    expect(reference.samples).toBeGreaterThan(0);

    const first = await interruptAt(['run', ...withCheckpoints(BOX), ...TWO, '--timing', 'off'], 60);
    expect(first.code, first.stderr).toBe(130);
    expect(first.stderr).toContain('SIGINT: stopping every rank after the same submit, keeping what was sampled');
    const runId = progressOf().runId;
    const kept = recorded(DATA_DIR, runId);
    expect(kept.status).toBe('cancelled');
    const step = Number(/^stopped by the user at step (\d+) of 200 \(Ctrl-C \(SIGINT\)\)/.exec(kept.reason ?? '')?.[1]);
    expect(step).toBeGreaterThanOrEqual(60);
    expect(step).toBeLessThan(200);
    expect(step % 5).toBe(0);
    expect(kept.steps.map((s) => s.step)).toEqual(Array.from({ length: step }, (_, i) => i + 1));
    expect(kept.samples).toBe(step - 19);
    expect(kept.steps).toEqual(reference.steps.slice(0, step));

    // a Ctrl-C during the two-rank resume keeps it again
    const { again, step: step2 } = await interruptResumeKept(runId, step + 40);
    expect(step2).toBeLessThan(200);
    expect(again.steps).toEqual(reference.steps.slice(0, step2));

    const done = jsonOf(await dsmc(DATA_DIR, ['resume', String(runId), '--json', '--timing', 'off']), 'dsmc resume');
    expect(done.runId).toBe(runId);
    expect(done.ranks).toBe(2);
    expect(integrity(DATA_DIR)).toBe('ok');
    const full = recorded(DATA_DIR, runId);
    const comparable = (r: typeof full) => ({ status: r.status, steps: r.steps, fields: r.fieldsSha256, errors: r.errorsSha256, blocks: r.blocks, samples: r.samples });
    expect(comparable(full)).toEqual(comparable(reference));
  }, 300_000);
});
