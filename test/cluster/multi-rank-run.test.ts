// `dsmc run --ranks N` as a user runs it: one rank process per (shared) adapter under the supervisor,
// migrants through zeromq. The fields hash and the recorded step statistics of 2 and 4 ranks must equal
// those of one rank (periodic box; walled channel with inflow and outflow); a rank killed mid-run fails
// the run cleanly (every process gone, the run recorded failed naming the rank); Ctrl-C once stops every rank after
// the same submit and keeps the run (multi-rank-keep.test.ts checks the kept fields bitwise).
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunStore } from '../../src-main/store/run-store.js';
import { runNode } from '../helpers/run-process.js';

const BIN = new URL('../../bin/dsmc.js', import.meta.url).pathname;
const DATA_DIR = mkdtempSync(join(tmpdir(), 'dsmc-ranks-'));
afterAll(() => rmSync(DATA_DIR, { recursive: true, force: true }));

/** Runs dsmc to the end (killed after 180 s). */
async function dsmc(args: string[]) {
  const r = await runNode([BIN, ...args, '--data-dir', DATA_DIR, '--no-progress'], { timeout: 180_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The --json summary of a finished run. */
async function summaryOf(args: string[]): Promise<Record<string, unknown>> {
  const r = await dsmc(['run', ...args, '--json']);
  if (r.code !== 0) throw new Error(`dsmc ${args.join(' ')} exited ${r.code}: ${r.stderr}`);
  const lines = r.stdout.trim().split('\n');
  return JSON.parse(lines[lines.length - 1]);
}

/** The step statistics a run recorded. */
function recordedSteps(runId: number) {
  const store = RunStore.open({ dataDir: DATA_DIR });
  try {
    return store.getSteps(runId);
  } finally {
    store.close();
  }
}

const PERIODIC = ['collide-box', '--set', 'grid.cells=[12,10,8]', '--set', 'run.steps=30', '--set', 'sampling.enabled=true', '--set', 'sampling.start=5',
  ...['xmin', 'xmax', 'ymin', 'ymax', 'zmin', 'zmax'].flatMap((f) => ['--set', `boundaries.${f}={"type":"periodic"}`])];
const CHANNEL = ['free-stream', '--set', 'grid.cells=[16,6,4]', '--set', 'run.steps=100', '--set', 'sampling.start=50',
  '--set', 'boundaries.ymin={"type":"diffuse","temperature":500}', '--set', 'boundaries.ymax={"type":"diffuse","temperature":300,"velocity":[200,0,0]}'];

// a block in the channel: its surface loads are summed exactly over the ranks (the sums travel as 64-bit integers)
const BODY = [...CHANNEL, '--set', 'bodies=[{"name":"block","shape":{"type":"box","min":[0.021,0.0061,0.0041],"max":[0.033,0.017,0.0119]},"surface":{"model":"diffuse","temperature":400}}]'];

describe.each([
  ['periodic box', PERIODIC, [['slab', 2], ['rcb', 4]]],
  ['walled inflow/outflow channel', CHANNEL, [['block', 2], ['slab', 4]]],
  ['channel with a block', BODY, [['rcb', 3]]],
] as const)('dsmc run --ranks: %s', (_name, caseArgs, layouts) => {
  let one: Record<string, unknown>;
  beforeAll(async () => {
    one = await summaryOf([...caseArgs]);
  });

  it.each(layouts)('%s over %i rank processes gives the one-rank fields hash and step statistics', async (method, ranks) => {
    const many = await summaryOf([...caseArgs, '--ranks', String(ranks), '--decomposition', method]);
    expect(many.ranks).toBe(ranks);
    expect(many.decomposition).toBe(method);
    expect((many.particlesPerRank as number[]).length).toBe(ranks);
    expect((many.particlesPerRank as number[]).reduce((s, x) => s + x, 0)).toBe(one.particles);
    expect(typeof many.loadNonUniformity).toBe('number');
    expect(many.samples).toBe(one.samples);
    expect(many.fieldsSha256).toBe(one.fieldsSha256);
    expect(many.surface).toEqual(one.surface);
    if (caseArgs === BODY) expect((many.surface as { bodies: { drag: number }[] }).bodies[0].drag).not.toBe(0);
    // the sampled fields after the loop (read back, evaluated; here also sent and placed), timed on either path
    for (const s of [one, many]) expect((s.host as { foldSeconds: number }).foldSeconds).toBeGreaterThan(0);
    // where it went: one rank read back and evaluated; every rank of several too, then their planes placed
    type End = { readSeconds: number[]; evaluateSeconds: number[]; threads: number[]; writeSeconds?: number[]; placeSeconds?: number };
    const endOne = one.endOfRun as End, endMany = many.endOfRun as End;
    expect(endOne.readSeconds).toHaveLength(1);
    expect(endOne.threads).toEqual([1]); // a small grid: one thread
    for (const key of ['readSeconds', 'evaluateSeconds', 'threads', 'writeSeconds'] as const) expect(endMany[key]).toHaveLength(ranks);
    expect(endMany.evaluateSeconds.every((x) => x > 0)).toBe(true);
    expect(endMany.placeSeconds).toBeGreaterThan(0);
    expect(endMany.placeSeconds!).toBeLessThanOrEqual((many.host as { foldSeconds: number }).foldSeconds);
    // which kernel sampled each rank (the pass on a CPU adapter, as on one rank)
    expect(many.sampleKernels).toEqual(Array.from({ length: ranks }, (_, rank) => ({ rank, kernel: 'pass', how: 'fixed' })));
    expect(one.sampleKernel).toEqual({ kernel: 'pass', how: 'fixed' });
    const phases = Object.keys(many.phases as object);
    expect(phases).toContain('exchange');
    expect(recordedSteps(many.runId as number)).toEqual(recordedSteps(one.runId as number));
  });
});

describe('dsmc run --ranks: major garbage collections taken together', () => {
  it('every rank collects its old generation after the same submits when the orchestrator asks, and the fields stay the one-rank fields', async () => {
    const args = [...PERIODIC, '--set', 'run.steps=60', '--set', 'run.stepsPerSubmit=5'];
    const one = await summaryOf(args);
    // a budget any growth passes (and no minor collections asked): every report calls for a major collection two submits later
    const r = await runNode([BIN, 'run', ...args, '--ranks', '2', '--json', '--data-dir', DATA_DIR, '--no-progress'], {
      timeout: 180_000, env: { ...process.env, DSMC_OLD_BUDGET_MB: '0.000001', DSMC_COLLECT_AT_FILL: '1' },
    });
    expect(r.status, r.stderr).toBe(0);
    const many = JSON.parse(r.stdout.trim().split('\n').pop()!) as Record<string, unknown>;
    expect(many.fieldsSha256).toBe(one.fieldsSha256);
    const taken = many.youngCollections as { rank: number; index: number; seconds: number; major?: boolean }[];
    const after = (rank: number) => taken.filter((g) => g.rank === rank && g.major).map((g) => g.index);
    // 12 submits: asked after the first report with a growth (old space grows by pages, so a submit may show none), two
    // submits later, and again after a later report once the last collection is taken (a request covers the reports
    // until its collection): at least three submits apart, the same on both ranks
    expect(after(0).length).toBeGreaterThanOrEqual(2);
    for (const [i, k] of after(0).slice(1).entries()) expect(k - after(0)[i]).toBeGreaterThanOrEqual(3);
    expect(after(1)).toEqual(after(0));
    expect(taken.every((g) => g.seconds > 0)).toBe(true);
  });
});

describe('dsmc run --ranks: minor garbage collections taken together', () => {
  it('every rank collects after the same submits when the orchestrator asks, and the fields stay the one-rank fields', async () => {
    const args = [...PERIODIC, '--set', 'run.steps=60', '--set', 'run.stepsPerSubmit=5'];
    const one = await summaryOf(args);
    // a threshold any young generation passes: every report calls for a collection two submits later
    const r = await runNode([BIN, 'run', ...args, '--ranks', '2', '--json', '--data-dir', DATA_DIR, '--no-progress'], {
      timeout: 180_000, env: { ...process.env, DSMC_COLLECT_AT_FILL: '0.000001' },
    });
    expect(r.status, r.stderr).toBe(0);
    const many = JSON.parse(r.stdout.trim().split('\n').pop()!) as Record<string, unknown>;
    expect(many.fieldsSha256).toBe(one.fieldsSha256);
    // the set-up until every rank was ready, measured by the orchestrator
    expect(many.setupSeconds).toBeGreaterThan(0);
    // its parts: the launch, the orchestrator's own tables and split, and the ranks' (each the most over the ranks)
    const parts = many.setupParts as Record<string, number>;
    for (const k of ['launch', 'orchestrator', 'device', 'tables', 'buffers', 'pipelines', 'fill']) expect(parts[k], k).toBeGreaterThan(0);
    for (const [k, sec] of Object.entries(parts)) expect(sec, k).toBeLessThanOrEqual(many.setupSeconds as number);
    const taken = many.youngCollections as { rank: number; index: number; seconds: number }[];
    const after = (rank: number) => taken.filter((g) => g.rank === rank).map((g) => g.index);
    // 12 submits: asked after submits 0, 3, 6 and 9 (each request covers the reports until its collection)
    expect(after(0)).toEqual([2, 5, 8, 11]);
    expect(after(1)).toEqual(after(0));
    expect(taken.every((g) => g.seconds >= 0)).toBe(true);
  });
});

describe('dsmc run --ranks 4 (--rebalance 10, off, the defaults): supersonic lid-driven cavity', () => {
  it('re-splits the grid as the gas piles up, keeps UN under 10 % and the one-rank fields', async () => {
    const cavity = ['supersonic-cavity', '--set', 'run.steps=300', '--set', 'run.stepsPerSubmit=20', '--set', 'sampling.start=200'];
    const one = await summaryOf(cavity);
    const fixed = await summaryOf([...cavity, '--ranks', '4', '--decomposition', 'slab', '--rebalance', 'off']);
    const balanced = await summaryOf([...cavity, '--ranks', '4', '--decomposition', 'slab', '--rebalance', '10']);
    const launched = await dsmc(['run', ...cavity, '--ranks', '4', '--json']);
    // said before the ranks start: the decomposition, the split and the rebalancing chosen, and why (a box without bodies: slabs)
    expect(launched.stderr).toMatch(/^balance: slab \(the default for a box without bodies: the fewest faces between ranks\); initial split by cells \(the box starts uniform\); rebalanced when UN > 20 % and a new split saves 2 times what its moves cost within as many steps as the split in force has lasted \(the default/m);
    const byDefault = JSON.parse(launched.stdout.trim().split('\n').pop()!) as Record<string, unknown>;
    expect(fixed.loadNonUniformity).toBeGreaterThan(15);
    expect(fixed.rebalances).toBeUndefined();
    expect((balanced.rebalances as unknown[]).length).toBeGreaterThan(0);
    // a re-split is made only where it pays for its moves over the steps left: late in a run UN may drift past the
    // threshold unanswered, so the check is on the mean over steps
    expect(balanced.loadNonUniformityMean).toBeLessThan(10);
    expect(balanced.loadNonUniformityMean).toBeLessThan(fixed.loadNonUniformityMean);
    // the default rebalances at UN > 20 % (a split that saves twice its cost) and says how to change that
    expect((byDefault.rebalances as unknown[]).length).toBeGreaterThan(0);
    expect(byDefault.loadNonUniformityMean).toBeLessThan(fixed.loadNonUniformityMean);
    expect((byDefault.balance as { reason: string }).reason).toMatch(/\(the default; .*--rebalance P sets the threshold, --rebalance off keeps the first split\)/);
    expect(byDefault.fieldsSha256).toBe(one.fieldsSha256);
    expect(balanced.fieldsSha256).toBe(one.fieldsSha256);
    expect(fixed.fieldsSha256).toBe(one.fieldsSha256);
  });
});

/** Pids of the rank processes a dsmc process started. */
function childPids(pid: number): number[] {
  try {
    return execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' }).split('\n').map((l) => Number(l.trim())).filter((p) => p > 0);
  } catch {
    return [];
  }
}

/** True while a process exists. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Starts a long two-rank run; resolves once both ranks have run some steps, with the process and its rank pids. */
async function startLongRun(project: string) {
  const child = spawn(process.execPath, [BIN, 'run', 'collide-box', '--set', 'grid.cells=[16,16,16]', '--set', 'run.steps=1000000',
    '--set', 'run.stepsPerSubmit=5', '--ranks', '2', '--project', project, '--data-dir', DATA_DIR, '--no-progress'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => { stderr += d; });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (Date.now() > deadline) throw new Error(`the run did not get going: ${stderr}`);
    const store = RunStore.open({ dataDir: DATA_DIR });
    const run = store.listRuns({ project })[0];
    store.close();
    if (run && run.lastStep >= 10) return { child, ranks: childPids(child.pid!), exited, stderr: () => stderr, runId: run.id };
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('dsmc run --ranks: faults', () => {
  it("refuses a part that does not fit its rank's adapter before making any buffer, naming the rank and the limit", async () => {
    // 125.8M particles over 2 ranks: 63M per rank, 252 MB per particle array, over lavapipe's 128 MiB bindings
    const r = await dsmc(['run', 'scaling-box', '--ranks', '2', '--project', 'too-big-per-rank']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/rank \d of 2 cannot run its part of the case on this adapter/);
    expect(r.stderr).toMatch(/buffer-binding/);
    // the rank's own report fails the run (not just its exit code), and its lines are not printed twice
    expect(r.stderr).toMatch(/rank (\d) \(gpu [^)]*\) failed: rank \1 of 2 cannot run/);
    expect(r.stderr.match(/Pre-launch check: REFUSED/g)).toHaveLength(1);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    const store = RunStore.open({ dataDir: DATA_DIR });
    const runs = store.listRuns({ project: 'too-big-per-rank' });
    store.close();
    expect(runs.map((x) => x.status)).toEqual(['failed']);
  });

  it('prints the case\'s pre-launch warnings before launching the ranks', async () => {
    const r = await dsmc(['run', 'collide-box', '--set', 'run.dt=1e-7', '--set', 'run.steps=2', '--ranks', '2', '--no-save']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/pre-launch check:[\s\S]*warning \[dt-/);
  });

  it('refuses more GPUs than exist, naming --gpus and the GPUs there are, and records nothing', async () => {
    const r = await dsmc(['run', 'collide-box', '--ranks', '2', '--gpus', '5,6', '--project', 'too-many-gpus']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/--gpus: there is no GPU 5; this machine lists /);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    const store = RunStore.open({ dataDir: DATA_DIR });
    const runs = store.listRuns({ project: 'too-many-gpus' });
    store.close();
    expect(runs).toEqual([]);
  });

  it('a rank killed mid-run stops the others and the run is recorded failed with the rank and its exit', async () => {
    const run = await startLongRun('killed');
    expect(run.ranks.length).toBe(2);
    const t0 = Date.now();
    process.kill(run.ranks[1], 'SIGKILL');
    const end = await run.exited;
    expect(Date.now() - t0).toBeLessThan(20_000);
    expect(end.code).not.toBe(0);
    expect(run.stderr()).toMatch(/rank 1/);
    expect(run.stderr()).not.toMatch(/\n\s+at /);
    for (const pid of run.ranks) expect(alive(pid), `rank pid ${pid}`).toBe(false);
    const store = RunStore.open({ dataDir: DATA_DIR });
    const rec = store.getRun(run.runId);
    store.close();
    expect(rec.status).toBe('failed');
    expect(rec.reason).toMatch(/rank 1/);
    expect(rec.reason).toMatch(/SIGKILL|signal/);
  });

  it('Ctrl-C once stops every rank after the same submit and records the run cancelled with what it ran', async () => {
    const run = await startLongRun('cancelled');
    process.kill(run.child.pid!, 'SIGINT');
    const end = await run.exited;
    expect(end.code).toBe(130);
    for (const pid of run.ranks) expect(alive(pid), `rank pid ${pid}`).toBe(false);
    const store = RunStore.open({ dataDir: DATA_DIR });
    const rec = store.getRun(run.runId);
    store.close();
    expect(rec.status).toBe('cancelled');
    expect(rec.reason).toMatch(/^stopped by the user at step \d+ of 1000000 \(Ctrl-C \(SIGINT\)\)/);
    expect(rec.summary?.ranks).toBe(2);
  });
});
