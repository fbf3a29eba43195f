// The run database from the command line: `dsmc run` saves a run (unless --no-save) that `dsmc runs`
// and `dsmc show` report with the same numbers; tag, note and delete; an invalid case; Ctrl-C once (stop and keep).
// Uses the compiled out/ (`npm test` builds first) and tiny grids so lavapipe stays quick.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunStore } from '../../src-main/store/run-store.js';
import { removeDir, tempDir } from '../store/store-fixtures.js';
import { runNode } from '../helpers/run-process.js';

const BIN = new URL('../../bin/dsmc.js', import.meta.url).pathname;
const TINY = ['--set', 'run.steps=5', '--set', 'grid.cells=[6,6,6]'];

/** Runs dsmc with args (killed after 120 s); DSMC_DATA_DIR points nowhere useful so --data-dir must be honoured. */
async function dsmc(args: string[]) {
  const r = await runNode([BIN, ...args], {
    timeout: 120_000, env: { ...process.env, DSMC_DATA_DIR: '/nonexistent/must-not-be-used' },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The JSON on the last line of stdout. */
function lastJson<T = Record<string, unknown>>(stdout: string): T {
  const lines = stdout.trim().split('\n');
  return JSON.parse(lines[lines.length - 1]) as T;
}

describe('dsmc run saves into the run database', () => {
  let dir: string;
  let runId: number;
  let printed: Record<string, unknown>;
  beforeAll(() => {
    dir = tempDir('dsmc-cli-store-');
  });
  afterAll(() => removeDir(dir));

  it('records a completed run and prints its id in the --json summary', async () => {
    const r = await dsmc(['run', 'collide-box', ...TINY, '--data-dir', dir, '--project', 'demo', '--json']);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.code, r.stderr).toBe(0);
    printed = lastJson(r.stdout);
    expect(printed.runId).toBe(1);
    runId = printed.runId as number;
    expect(existsSync(join(dir, 'runs.sqlite'))).toBe(true);
  });

  it('dsmc runs and dsmc show report the same numbers', async () => {
    const { runId: _, ...summary } = printed;
    const list = await dsmc(['runs', '--data-dir', dir, '--json']);
    expect(list.code, list.stderr).toBe(0);
    const runs = lastJson<Record<string, unknown>[]>(list.stdout);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ id: runId, project: 'demo', caseName: 'collide-box', status: 'completed', seed: 1, ranks: 1, gpus: 1, lastStep: 5 });
    expect(runs[0].summary).toEqual(summary);

    const show = await dsmc(['show', String(runId), '--data-dir', dir, '--json']);
    expect(show.code, show.stderr).toBe(0);
    const d = lastJson<{
      run: { summary: Record<string, unknown>; adapter: unknown };
      case: { json: { grid: { cells: number[] } } };
      phases: { phase: string; calls: number; totalSeconds: number }[];
      steps: { recorded: number; last: number };
      totalsRecorded: number;
      fields: { cells: number[]; samples: number; blocks: number; names: string[] };
    }>(show.stdout);
    expect(d.run.summary).toEqual(summary);
    expect(d.run.adapter).toEqual(summary.adapter);
    expect(d.case.json.grid.cells).toEqual([6, 6, 6]);
    const phases = summary.phases as Record<string, { calls: number; totalSeconds: number }>;
    expect(d.phases.map((p) => p.phase)).toEqual(Object.keys(phases));
    for (const p of d.phases) expect([p.calls, p.totalSeconds]).toEqual([phases[p.phase].calls, phases[p.phase].totalSeconds]);
    expect(d.steps).toEqual({ recorded: 5, last: 5 });
    expect(d.totalsRecorded).toBeGreaterThanOrEqual(2);
    expect(d.fields).toMatchObject({ cells: [6, 6, 6], samples: summary.samples });
    expect(d.fields.names).toContain('T');

    const text = await dsmc(['show', String(runId), '--data-dir', dir]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`run ${runId}: collide-box, completed (project demo)`);
    expect(text.stdout).toMatch(/phase\s+calls\s+AVG x Call/);
    const table = await dsmc(['runs', '--data-dir', dir]);
    expect(table.stdout).toMatch(/id\s+project\s+case\s+status\s+started\s+steps\s+particles\s+particle-steps\/s\s+tags/);
    expect(table.stdout).toMatch(new RegExp(`${runId}\\s+demo\\s+collide-box\\s+completed`));
    const projects = lastJson<{ name: string; runCount: number }[]>((await dsmc(['projects', '--data-dir', dir, '--json'])).stdout);
    expect(projects.map((p) => [p.name, p.runCount])).toEqual([['demo', 1]]);
  });

  it('tags, notes and deletes runs', async () => {
    expect((await dsmc(['tag', String(runId), 'baseline', '--data-dir', dir])).code).toBe(0);
    expect((await dsmc(['note', String(runId), 'first', 'try', '--data-dir', dir])).code).toBe(0);
    const tagged = lastJson<{ id: number; tags: string[]; notes: string }[]>((await dsmc(['runs', '--tag', 'baseline', '--data-dir', dir, '--json'])).stdout);
    expect(tagged.map((r) => [r.id, r.tags, r.notes])).toEqual([[runId, ['baseline'], 'first try']]);
    expect((await dsmc(['tag', String(runId), 'baseline', '--remove', '--data-dir', dir])).code).toBe(0);
    expect(lastJson<unknown[]>((await dsmc(['runs', '--tag', 'baseline', '--data-dir', dir, '--json'])).stdout)).toEqual([]);
    const missingTag = await dsmc(['tag', String(runId), 'baseline', '--remove', '--data-dir', dir]);
    expect(missingTag.code).toBe(1);
    expect(missingTag.stderr).toContain('has no tag "baseline"');

    const del = await dsmc(['delete', String(runId), '--data-dir', dir]);
    expect(del.code).toBe(0);
    expect(del.stdout).toContain(`deleted run ${runId}`);
    const gone = await dsmc(['show', String(runId), '--data-dir', dir]);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain(`run ${runId} not found`);
    expect(gone.stderr).toContain('dsmc runs');
    expect(gone.stderr).not.toMatch(/\n\s+at /);
  });

  it('names bad arguments and the fix', async () => {
    const badId = await dsmc(['show', 'abc', '--data-dir', dir]);
    expect(badId.code).toBe(1);
    expect(badId.stderr).toMatch(/RUN must be a run id .*got "abc".*usage: dsmc show RUN/);
    const badStatus = await dsmc(['runs', '--status', 'done', '--data-dir', dir]);
    expect(badStatus.code).toBe(1);
    expect(badStatus.stderr).toContain('expected one of queued, running, completed, failed, cancelled');
  });

  it('--no-save records nothing; an invalid case writes nothing', async () => {
    const other = tempDir('dsmc-cli-nosave-');
    try {
      const r = await dsmc(['run', 'collide-box', ...TINY, '--no-save', '--data-dir', other, '--json']);
      expect(r.code, r.stderr).toBe(0);
      expect(lastJson(r.stdout)).not.toHaveProperty('runId');
      expect(existsSync(join(other, 'runs.sqlite'))).toBe(false);
      const bad = await dsmc(['run', 'collide-box', '--set', 'grid.cells=[0,1,2]', '--data-dir', other]);
      expect(bad.code).toBe(2);
      expect(existsSync(join(other, 'runs.sqlite'))).toBe(false);
    } finally {
      removeDir(other);
    }
    const before = lastJson<unknown[]>((await dsmc(['runs', '--data-dir', dir, '--json'])).stdout).length;
    expect((await dsmc(['run', 'collide-box', '--set', 'run.dt=-1', '--data-dir', dir])).code).toBe(2);
    expect(lastJson<unknown[]>((await dsmc(['runs', '--data-dir', dir, '--json'])).stdout)).toHaveLength(before);
  });

  it('Ctrl-C once stops and keeps: the run is saved cancelled at the step it reached with its fields, exit code 130', async () => {
    const child = spawn(process.execPath, [BIN, 'run', 'collide-box', '--set', 'run.steps=1000000', '--set', 'grid.cells=[4,4,4]',
      '--set', 'run.stepsPerSubmit=10', '--data-dir', dir], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    let stdout = '';
    child.stderr.on('data', (d) => { stderr += d; });
    child.stdout.on('data', (d) => { stdout += d; });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    // wait until the run is recording steps, then interrupt it
    let id = 0;
    for (let i = 0; i < 600 && id === 0; i++) {
      await new Promise((r) => setTimeout(r, 100));
      if (!existsSync(join(dir, 'runs.sqlite'))) continue;
      const store = RunStore.open({ dataDir: dir });
      id = store.listRuns({ status: 'running' }).find((r) => r.lastStep > 0)?.id ?? 0;
      store.close();
    }
    expect(id).toBeGreaterThan(0);
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(stderr).toContain('SIGINT: stopping after the current submit, keeping what was sampled');
    expect(stderr).toMatch(new RegExp(`stopped by the user at step \\d+ of 1000000 \\(Ctrl-C \\(SIGINT\\)\\); the fields, profile and surface loads sampled so far are kept \\(saved as run ${id}, cancelled\\)`));
    // the summary of the steps it ran is printed as for a completed run
    expect(stdout).toContain(`saved as run ${id}`);
    const store = RunStore.open({ dataDir: dir });
    let step = 0;
    try {
      const run = store.getRun(id);
      expect(run.status).toBe('cancelled');
      step = Number(/at step (\d+)/.exec(run.reason ?? '')?.[1]);
      expect(step).toBeGreaterThan(0);
      expect(run.summary?.steps).toBe(step);
      expect(store.getSteps(id).length).toBe(step);
      expect(store.getFields(id)?.samples).toBe(step);
      expect(store.getPhases(id).length).toBeGreaterThan(0);
    } finally {
      store.close();
    }
    // exported to VTK like a completed run
    const out = join(dir, 'stopped.vti');
    const ex = await dsmc(['export', 'vtk', String(id), '--out', out, '--data-dir', dir]);
    expect(ex.code, ex.stderr).toBe(0);
    expect(readFileSync(out, 'utf8')).toContain('<VTKFile type="ImageData"');
  });
});
