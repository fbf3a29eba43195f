// `dsmc run --launcher slurm` against a real Slurm (Debian's slurmctld, slurmd, munge) started by the test as a
// cluster of simulated hosts: each slurmd in its own network and UTS namespace on a bridge, so the ranks of one
// job sit on different "hosts" (n1, n2) and talk over tcp. Checks: the fields are bitwise those of one rank and
// the run records each rank's host and the job; the job is followed (PENDING, RUNNING, COMPLETED); inside an
// allocation (salloc) the ranks are one srun step there, and Ctrl-C stops it; a job Slurm refuses fails at once;
// Ctrl-C while queued maps to scancel; Ctrl-C while running stops the ranks and the job ends; a scancel from
// outside fails the run; a rank killed on its host, and a host that disappears (every process in its namespace
// killed), fail the run cleanly, naming the rank and the host, with nothing of the job left running.
// Without Slurm, munge, iproute2 or root the file is skipped with one line saying what is missing and how to install
// it (slurm-presence.ts); CI installs them and sets DSMC_REQUIRE_SLURM=1, so there it always runs.
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StudioService } from '../../src-main/services/studio-service.js';
import { RunStore } from '../../src-main/store/run-store.js';
import { startSimCluster, type SimCluster } from './sim-cluster.js';
import { slurmSkipReason } from './slurm-presence.js';
import { runNode, runProcess } from '../helpers/run-process.js';

const BIN = new URL('../../bin/dsmc.js', import.meta.url).pathname;
/** The tiny case of every run: collide-box on 12x10x8 cells, 30 steps, sampling on. */
const CASE = ['collide-box', '--set', 'grid.cells=[12,10,8]', '--set', 'run.steps=30', '--set', 'sampling.enabled=true', '--set', 'sampling.start=5'];
/** A run long enough to interrupt (about a minute on lavapipe). */
const LONG = ['collide-box', '--set', 'grid.cells=[12,10,8]', '--set', 'run.steps=100000', '--set', 'run.stepsPerSubmit=5'];

let cluster: SimCluster;
let dataDir: string;
/** Why this machine cannot run these tests (printed once), or null. */
const SKIP = slurmSkipReason();

beforeAll(async () => {
  if (SKIP) return;
  cluster = await startSimCluster({ hosts: 2, cpus: 2 });
  dataDir = join(cluster.dir, 'data');
  const add = await dsmc(['cluster', 'profile', 'add', 'sim', '--partition', cluster.partition, '--no-gpu-request', '--nodes', '2', '--gpus-per-node', '1',
    '--time', '10', '--orchestrator-host', cluster.orchestratorHost]);
  expect(add.code, add.stderr).toBe(0);
  const held = await dsmc(['cluster', 'profile', 'add', 'held', '--partition', cluster.partition, '--no-gpu-request', '--sbatch-option=--hold', '--orchestrator-host', cluster.orchestratorHost]);
  expect(held.code, held.stderr).toBe(0);
});
afterAll(() => cluster?.stop());

/** Runs dsmc to the end against the cluster (killed after 120 s). */
async function dsmc(args: string[]) {
  const r = await runNode([BIN, ...args, '--data-dir', dataDir], { timeout: 120_000, env: cluster.env });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The --json summary of a finished run. */
async function summaryOf(args: string[]): Promise<Record<string, unknown> & { stderr: string }> {
  const r = await dsmc(['run', ...args, '--json', '--no-progress']);
  if (r.code !== 0) throw new Error(`dsmc run ${args.join(' ')} exited ${r.code}: ${r.stderr}`);
  const lines = r.stdout.trim().split('\n');
  return { ...JSON.parse(lines[lines.length - 1]), stderr: r.stderr };
}

/** The one-rank run of CASE every Slurm run is compared with (run once, by the first test that needs it). */
let oneRank: Promise<Record<string, unknown>> | null = null;
/** The --json summary of CASE on one local rank. */
function oneRankSummary(): Promise<Record<string, unknown>> {
  oneRank ??= summaryOf([...CASE]);
  return oneRank;
}

/** Reads the run database. */
function withStore<T>(use: (s: RunStore) => T): T {
  const s = RunStore.open({ dataDir });
  try {
    return use(s);
  } finally {
    s.close();
  }
}

/** A dsmc run in the background, with its stderr so far and its exit. */
function startRun(args: string[]) {
  const child = spawn(process.execPath, [BIN, 'run', ...args, '--data-dir', dataDir, '--no-progress'], { env: cluster.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => { stderr += d; });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, stderr: () => stderr };
}

/** Waits until `test` holds (polling), or throws with `what` and the run's stderr. */
async function until(test: () => boolean, what: string, stderr: () => string, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!test()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; stderr so far:\n${stderr()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The job id the run printed ("slurm job N: ..."). */
function jobIdOf(stderr: string): string {
  const m = /slurm job (\d+): /.exec(stderr);
  if (!m) throw new Error(`no job id in:\n${stderr}`);
  return m[1];
}

/** Slurm's state of a job (scontrol). */
function jobState(id: string): string {
  return /JobState=(\S+)/.exec(cluster.slurm('scontrol', ['show', 'job', '-o', id]))?.[1] ?? '?';
}

/** Pids of rank processes (the Slurm rank entry) in a host's network namespace. */
function rankEntryPids(netns: string): number[] {
  return spawnSync('ip', ['netns', 'pids', netns], { encoding: 'utf8' }).stdout.split('\n').filter(Boolean).map(Number)
    .filter((pid) => /rank-entry\.js/.test(spawnSync('ps', ['-o', 'args=', '-p', String(pid)], { encoding: 'utf8' }).stdout));
}

/** True when no job is queued or running. */
function queueEmpty(): boolean {
  return cluster.slurm('squeue', ['-h']).trim() === '';
}

describe.skipIf(SKIP !== null)('dsmc run --launcher slurm on simulated hosts', () => {
  it('2 hosts x 1 and 2 hosts x 2 ranks over tcp give the one-rank fields, bitwise; hosts and job recorded; the job followed', async () => {
    const one = await oneRankSummary();
    const two = await summaryOf([...CASE, '--launcher', 'slurm', '--profile', 'sim']);
    expect(two.ranks).toBe(2);
    expect(two.fieldsSha256).toBe(one.fieldsSha256);
    expect(two.samples).toBe(one.samples);
    expect(two.stderr).toMatch(/slurm job \d+: PENDING[\s\S]*slurm job \d+: RUNNING on n\[1-2\][\s\S]*slurm job \d+: COMPLETED/);
    const job = jobIdOf(two.stderr);
    expect(jobState(job)).toBe('COMPLETED');
    withStore((s) => {
      expect(s.getRanks(two.runId as number).map((r) => r.hostname)).toEqual(['n1', 'n2']);
      // lavapipe has no PCI address: each node says its rank shares the node's default adapter
      expect(s.getRanks(two.runId as number).map((r) => [r.gpu, r.pinned])).toEqual([['node default', false], ['node default', false]]);
      expect(s.getLaunch(two.runId as number)).toEqual({ launcher: 'slurm', jobId: job, profile: 'sim' });
      expect(s.getRun(two.runId as number).status).toBe('completed');
    });
    const four = await summaryOf([...CASE, '--launcher', 'slurm', '--profile', 'sim', '--gpus-per-node', '2', '--decomposition', 'block']);
    expect(four.ranks).toBe(4);
    expect(four.fieldsSha256).toBe(one.fieldsSha256);
    withStore((s) => expect(s.getRanks(four.runId as number).map((r) => r.hostname)).toEqual(['n1', 'n1', 'n2', 'n2']));
    expect(queueEmpty()).toBe(true);
  });

  it('the app launches on the cluster profile (launch view: run on Slurm): the job runs on both hosts and the run completes', async () => {
    const saved = process.env.SLURM_CONF;
    process.env.SLURM_CONF = cluster.env.SLURM_CONF;
    const service = new StudioService({ dataDir });
    try {
      const profiles = await service.listClusterProfiles();
      expect(profiles.find((p) => p.name === 'sim')).toMatchObject({ nodes: 2, gpusPerNode: 1 });
      const preset = (await service.listPresets()).find((p) => p.name === 'collide-box')!;
      const c = JSON.parse(JSON.stringify(preset.json)) as { grid: { cells: number[] }; run: Record<string, number> };
      c.grid.cells = [12, 10, 8];
      c.run.steps = 30;
      const ended = new Promise<{ status: string; reason: string | null }>((resolve) => {
        const off = service.onEvent((e) => { if (e.kind === 'ended') { off(); resolve(e); } });
      });
      const { runId } = await service.launchRun({ project: 'app-slurm', caseJson: c, ranks: 1, decomposition: 'slab', cluster: { profile: 'sim', nodes: 2, gpusPerNode: 1 } });
      const end = await ended;
      expect(end.status, end.reason ?? '').toBe('completed');
      withStore((s) => {
        expect(s.getRun(runId).ranks).toBe(2);
        expect(s.getRanks(runId).map((r) => r.hostname)).toEqual(['n1', 'n2']);
        expect(s.getLaunch(runId)).toMatchObject({ launcher: 'slurm', profile: 'sim' });
      });
      await expect(service.launchRun({ project: 'app-slurm', caseJson: c, ranks: 1, decomposition: 'slab', cluster: { profile: 'nope', nodes: 1, gpusPerNode: 1 } }))
        .rejects.toThrow('cluster.profile: there is no cluster profile "nope"');
    } finally {
      await service.close();
      if (saved === undefined) delete process.env.SLURM_CONF;
      else process.env.SLURM_CONF = saved;
    }
    expect(queueEmpty()).toBe(true);
  });

  it('inside an allocation (salloc, SLURM_JOB_ID set) the ranks start as one srun step there, with the one-rank fields', async () => {
    const one = await oneRankSummary();
    const r = await runProcess('salloc', ['--nodes=2', `--partition=${cluster.partition}`, process.execPath, BIN, 'run', ...CASE, '--launcher', 'slurm', '--profile', 'sim',
      '--json', '--no-progress', '--data-dir', dataDir], { timeout: 120_000, env: cluster.env });
    expect(r.status, r.stderr).toBe(0);
    const alloc = /Granted job allocation (\d+)/.exec(r.stderr)?.[1];
    expect(alloc).toBeDefined();
    const lines = r.stdout.trim().split('\n');
    const s = JSON.parse(lines[lines.length - 1]);
    expect(s.fieldsSha256).toBe(one.fieldsSha256);
    // no batch job was submitted (it would have another id): the run's job is the allocation itself
    expect(r.stderr).toMatch(new RegExp(`slurm job ${alloc}: RUNNING[\\s\\S]*slurm job ${alloc}: COMPLETED`));
    withStore((st) => {
      expect(st.getRanks(s.runId).map((x) => x.hostname)).toEqual(['n1', 'n2']);
      expect(st.getLaunch(s.runId)?.jobId).toBe(alloc);
    });
    expect(queueEmpty()).toBe(true);
  });

  it('Ctrl-C inside an allocation stops the srun step; the allocation ends with dsmc and the run is recorded cancelled', async () => {
    const salloc = spawn('salloc', ['--nodes=2', `--partition=${cluster.partition}`, process.execPath, BIN, 'run', ...LONG, '--launcher', 'slurm', '--profile', 'sim',
      '--project', 'step-cancel', '--no-progress', '--data-dir', dataDir], { env: cluster.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    salloc.stderr.on('data', (d) => { stderr += d; });
    const exited = new Promise<number | null>((resolve) => salloc.on('exit', (code) => resolve(code)));
    await until(() => withStore((st) => (st.listRuns({ project: 'step-cancel' })[0]?.lastStep ?? 0) >= 10), 'the run to reach step 10', () => stderr);
    const dsmcPid = Number(spawnSync('ps', ['-o', 'pid=', '--ppid', String(salloc.pid)], { encoding: 'utf8' }).stdout.trim().split('\n')[0]);
    expect(dsmcPid).toBeGreaterThan(0);
    process.kill(dsmcPid, 'SIGINT');
    await exited;
    expect(stderr).toMatch(/stopping every rank/);
    withStore((st) => expect(st.listRuns({ project: 'step-cancel' })[0].status).toBe('cancelled'));
    // salloc gives the allocation back once dsmc exits; Slurm lists it COMPLETING for a moment
    await until(queueEmpty, 'the allocation to end', () => cluster.slurm('squeue', []), 15_000);
  });

  it('a job Slurm refuses (unknown partition) fails the run at once, naming the profile to fix', async () => {
    const add = await dsmc(['cluster', 'profile', 'add', 'wrong', '--partition', 'nosuchpartition', '--no-gpu-request', '--orchestrator-host', cluster.orchestratorHost]);
    expect(add.code, add.stderr).toBe(0);
    const t0 = Date.now();
    const r = await dsmc(['run', ...CASE, '--launcher', 'slurm', '--profile', 'wrong', '--no-progress']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/the Slurm job could not be started \(sbatch .* failed: sbatch: error: invalid partition specified: nosuchpartition\); check cluster profile "wrong"/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(Date.now() - t0).toBeLessThan(30_000);
  });

  it('Ctrl-C while the job waits in the queue cancels it through scancel', async () => {
    const run = startRun([...CASE, '--launcher', 'slurm', '--profile', 'held']);
    await until(() => /slurm job \d+: PENDING \(JobHeldUser\)/.test(run.stderr()), 'the held job to be listed PENDING (JobHeldUser)', run.stderr, 30_000);
    const job = jobIdOf(run.stderr());
    run.child.kill('SIGINT');
    const code = await run.exited;
    expect(code).not.toBe(0);
    expect(run.stderr()).toMatch(/cancelled/i);
    expect(jobState(job)).toBe('CANCELLED');
    expect(queueEmpty()).toBe(true);
  });

  it('Ctrl-C while running stops every rank after the same submit, the job ends and the run is kept cancelled', async () => {
    const run = startRun([...LONG, '--launcher', 'slurm', '--profile', 'sim', '--project', 'ctrl-c']);
    await until(() => withStore((s) => (s.listRuns({ project: 'ctrl-c' })[0]?.lastStep ?? 0) >= 10), 'the run to reach step 10', run.stderr);
    const job = jobIdOf(run.stderr());
    const t0 = Date.now();
    run.child.kill('SIGINT');
    await run.exited;
    expect(Date.now() - t0).toBeLessThan(20_000);
    expect(['COMPLETED', 'CANCELLED']).toContain(jobState(job));
    expect(queueEmpty()).toBe(true);
    withStore((s) => {
      const rec = s.listRuns({ project: 'ctrl-c' })[0];
      expect(rec.status).toBe('cancelled');
      // stop and keep across hosts: the ranks' results are kept as a one-host run's
      expect(s.getRun(rec.id).reason).toMatch(/^stopped by the user at step \d+ of \d+ \(Ctrl-C \(SIGINT\)\); the fields, profile and surface loads sampled so far are kept$/);
    });
  });

  it('a job cancelled outside dsmc (scancel) fails the run with Slurm\'s word for it', async () => {
    const run = startRun([...LONG, '--launcher', 'slurm', '--profile', 'sim', '--project', 'scancel']);
    await until(() => withStore((s) => (s.listRuns({ project: 'scancel' })[0]?.lastStep ?? 0) >= 10), 'the run to reach step 10', run.stderr);
    cluster.slurm('scancel', [jobIdOf(run.stderr())]);
    const code = await run.exited;
    expect(code).toBe(1);
    expect(run.stderr()).toMatch(/CANCELLED|SIGTERM/);
    expect(run.stderr()).not.toMatch(/\n\s+at /);
    expect(queueEmpty()).toBe(true);
    withStore((s) => expect(s.listRuns({ project: 'scancel' })[0].status).toBe('failed'));
  });

  it('a rank killed on its host (SIGKILL) fails the run at once through srun\'s report, naming rank, host and signal', async () => {
    const run = startRun([...LONG, '--launcher', 'slurm', '--profile', 'sim', '--project', 'rank-killed']);
    await until(() => withStore((s) => (s.listRuns({ project: 'rank-killed' })[0]?.lastStep ?? 0) >= 10), 'the run to reach step 10', run.stderr);
    const rank = rankEntryPids(cluster.hosts[1].netns);
    expect(rank.length).toBe(1);
    process.kill(rank[0], 'SIGKILL');
    const t0 = Date.now();
    const code = await run.exited;
    expect(Date.now() - t0).toBeLessThan(15_000);
    expect(code).toBe(1);
    expect(run.stderr()).toMatch(/rank 1 \(Slurm job \d+ on n2\) was killed by SIGKILL/);
    withStore((s) => expect(s.listRuns({ project: 'rank-killed' })[0].status).toBe('failed'));
    await until(queueEmpty, 'the job to end', () => cluster.slurm('squeue', []), 15_000);
    expect(rankEntryPids(cluster.hosts[0].netns)).toEqual([]);
  });

  it('a host that disappears mid-run (its namespace\'s processes killed) fails the run cleanly, naming the rank and host', async () => {
    const run = startRun([...LONG, '--launcher', 'slurm', '--profile', 'sim', '--project', 'host-lost', '--heartbeat-timeout', '5']);
    await until(() => withStore((s) => (s.listRuns({ project: 'host-lost' })[0]?.lastStep ?? 0) >= 10), 'the run to reach step 10', run.stderr);
    const killed = cluster.killHost('n2');
    expect(killed.length).toBeGreaterThan(0);
    const t0 = Date.now();
    const code = await run.exited;
    expect(Date.now() - t0).toBeLessThan(45_000);
    expect(code).toBe(1);
    expect(run.stderr()).toMatch(/rank 1 \(Slurm job \d+ on n2\) sent nothing for 5000 ms: its node may be gone/);
    expect(run.stderr()).not.toMatch(/\n\s+at /);
    withStore((s) => {
      const rec = s.listRuns({ project: 'host-lost' })[0];
      expect(rec.status).toBe('failed');
      expect(rec.reason).toMatch(/rank 1 .*n2/);
    });
    // rank 0 on the surviving host is gone too: nothing of the job runs on n1
    expect(rankEntryPids(cluster.hosts[0].netns)).toEqual([]);
  });
});
