// Starts runs in child processes so the host stays responsive, relays their live events, and cancels them.
// One rank: a forked run-child (runCase + RunRecorder) that posts progress and steps over IPC.
// Several ranks: `node bin/dsmc.js run CASE --ranks N ...`, followed through the run database.
import { isHarmlessDawnNotice } from '../solver/gpu/dawn-notices.js';
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Decomposition } from '../common/contract/contract.js';
import type { RunEvent, RunProgress, RunRecord } from '../common/contract/types.js';
import type { RunStore } from '../store/run-store.js';
import type { FromChild, LiveView, ToChild } from './child-messages.js';
import { DbFollower } from './db-follower.js';
import { cliEntry, runChildEntry } from './install-paths.js';
import { etaSeconds } from './run-progress.js';
import { EventPacer } from './event-pacer.js';

/** What to launch. */
export interface LaunchSpec {
  project: string;
  caseJson: unknown;
  ranks: number;
  gpus?: number[];
  /** Absent: the case's default (rcb where bodies cut the box, slabs otherwise). */
  decomposition?: Decomposition;
  /** Rebalancing threshold (UN, percent) or 'off'; absent: the default (`dsmc run --rebalance`). */
  rebalance?: number | 'off';
  /** A Slurm job with this cluster profile (ranks = nodes x gpusPerNode); absent: rank processes on this host. */
  cluster?: { profile: string; nodes: number; gpusPerNode: number };
}

/** A run this host started and still watches. */
interface LiveRun {
  progress: RunProgress;
  cancel(): void;
  /** Changes the field slice the run posts. */
  setView(view: LiveView): void;
}

/** How long a child may take to open the GPU and record its run. */
const START_TIMEOUT_MS = 120_000;

/** The last lines of a child's stderr (for error messages), without Dawn's harmless start-up notices. */
function stderrTail(child: ChildProcess): () => string {
  let tail = '';
  child.stderr?.on('data', (d: Buffer) => { tail = (tail + d.toString()).slice(-4000); });
  return () => tail.split('\n').filter((l) => !isHarmlessDawnNotice(l)).join('\n').trim().slice(-2000);
}

export class RunLauncher {
  private readonly live = new Map<number, LiveRun>();
  private readonly children = new Set<ChildProcess>();

  /** Live events on their way out, paced (event-pacer.ts: a page redrawing on every submit's events stops answering). */
  private readonly events: EventPacer;

  constructor(private readonly store: RunStore, emit: (e: RunEvent) => void) {
    this.events = new EventPacer(emit);
  }

  /** Launches a run; resolves to its run id once it is recorded (rejects with the child's reason otherwise). */
  launch(spec: LaunchSpec): Promise<number> {
    return spec.ranks > 1 || spec.cluster ? this.launchRanks(spec) : this.launchOne(spec);
  }

  /** The latest progress of a run this host launched, if it still watches it. */
  progressOf(runId: number): RunProgress | undefined {
    return this.live.get(runId)?.progress;
  }

  /** Continues an interrupted run from its last checkpoint (`dsmc resume RUN`) and follows it through the database. */
  async resume(runId: number): Promise<number> {
    if (this.live.has(runId)) throw new Error(`run ${runId} is running already`);
    const args = [cliEntry(), 'resume', String(runId), '--json', '--no-progress', '--data-dir', this.store.dataDir];
    // inside Electron, process.execPath is the Electron binary: run it as plain Node; over the IPC channel the run
    // posts live field slices (src-main/cli/live-fields-ipc.ts), the checkpoint's samples included
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe', 'ipc'], env: { ...process.env, ELECTRON_RUN_AS_NODE: '1', DSMC_LIVE_FIELDS: '1' } });
    this.children.add(child);
    const tail = stderrTail(child);
    child.on('message', (m: FromChild) => { if (m.type === 'field') this.relay(runId, m); });
    let exited: string | null = null;
    child.on('exit', (code, signal) => {
      this.children.delete(child);
      exited = `${signal ?? `code ${code}`}: ${tail() || 'no message'}`;
    });
    // follow only once `dsmc resume` has reopened the run (until then it still reads failed or cancelled)
    const deadline = Date.now() + START_TIMEOUT_MS;
    while (this.store.getRun(runId).status !== 'running') {
      if (exited) throw new Error(`dsmc resume ${runId} refused or failed (${exited})`);
      if (Date.now() > deadline) throw new Error(`dsmc resume ${runId} did not reopen the run within ${START_TIMEOUT_MS / 1000} s`);
      await new Promise((r) => setTimeout(r, 100));
    }
    this.follow(runId, child, (view) => { if (child.connected) child.send({ type: 'view', view } satisfies ToChild); });
    return runId;
  }

  /** Asks a run to stop after its current submit and keep what it sampled (every rank of a multi-rank run after the same one); errors when this host does not run it. */
  cancel(runId: number): void {
    const run = this.live.get(runId);
    if (!run) throw new Error(`run ${runId} is not running in this app (it may have ended, or was started elsewhere: stop it with Ctrl-C in its terminal)`);
    run.cancel();
  }

  /** Chooses the field slice a running run posts live; errors say why when it cannot. */
  setView(runId: number, view: LiveView): void {
    const run = this.live.get(runId);
    if (!run) throw new Error(`run ${runId} is not running in this app, so it has no live fields; open its run detail for the final fields`);
    run.setView(view);
  }

  /** Host shutdown: stops every run still going (recorded cancelled with what they sampled), killing children that do not stop within `graceMs`. */
  async closeAll(graceMs = 5000): Promise<void> {
    for (const run of this.live.values()) run.cancel();
    const exits = [...this.children].map((c) => new Promise<void>((resolve) => {
      if (c.exitCode !== null || c.signalCode !== null) { resolve(); return; }
      const timer = setTimeout(() => { c.kill('SIGKILL'); resolve(); }, graceMs);
      c.once('exit', () => { clearTimeout(timer); resolve(); });
    }));
    await Promise.all(exits);
  }

  /** Forks the run child for a one-rank run and relays its messages. */
  private launchOne(spec: LaunchSpec): Promise<number> {
    const child = fork(runChildEntry(), [], { stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
    this.children.add(child);
    const tail = stderrTail(child);
    return new Promise<number>((resolve, reject) => {
      let runId: number | null = null;
      const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error(`the run did not start within ${START_TIMEOUT_MS / 1000} s (GPU busy?); try again`)); }, START_TIMEOUT_MS);
      child.on('message', (m: FromChild) => {
        if (m.type === 'refused') { clearTimeout(timer); reject(new Error(m.message)); return; }
        if (m.type === 'started') {
          clearTimeout(timer);
          runId = m.runId;
          const progress: RunProgress = { runId, status: 'running', step: 0, steps: m.steps, particles: 0, elapsedSeconds: 0, particleStepsPerSecond: 0, etaSeconds: null };
          this.live.set(runId, {
            progress,
            cancel: () => child.send({ type: 'cancel' } satisfies ToChild),
            setView: (view) => child.send({ type: 'view', view } satisfies ToChild),
          });
          resolve(runId);
          return;
        }
        if (runId !== null) this.relay(runId, m);
      });
      child.on('exit', (code, signal) => {
        clearTimeout(timer);
        this.children.delete(child);
        if (runId === null) reject(new Error(`the run process exited before the run started (${signal ?? `code ${code}`}): ${tail() || 'no message'}`));
        else if (this.live.has(runId)) this.endFromDatabase(runId, `the run process exited (${signal ?? `code ${code}`}): ${tail() || 'no message'}`);
      });
      child.send({ type: 'start', caseJson: spec.caseJson, project: spec.project, dataDir: this.store.dataDir } satisfies ToChild);
    });
  }

  /** Turns a child message into live events and updates the progress kept for late viewers. */
  private relay(runId: number, m: FromChild): void {
    const run = this.live.get(runId);
    if (!run) return;
    if (m.type === 'progress') {
      run.progress = { ...run.progress, step: m.step, steps: m.steps, particles: m.particles, elapsedSeconds: m.elapsedSeconds, particleStepsPerSecond: m.particleStepsPerSecond, etaSeconds: etaSeconds(m.step, m.steps, m.elapsedSeconds) };
      this.events.push({ kind: 'progress', progress: run.progress });
    } else if (m.type === 'steps') {
      this.events.push({ kind: 'steps', runId, steps: m.steps });
    } else if (m.type === 'field') {
      this.events.push({ kind: 'field', runId, slice: m.slice });
    } else if (m.type === 'phases') {
      this.events.push({ kind: 'phases', runId, phases: m.phases });
    } else if (m.type === 'ended') {
      this.live.delete(runId);
      this.events.push({ kind: 'progress', progress: { ...run.progress, status: m.status, etaSeconds: null } });
      this.events.push({ kind: 'ended', runId, status: m.status, reason: m.reason });
    }
  }

  /** A watched run whose process went away: reports the status the database holds. */
  private endFromDatabase(runId: number, why: string): void {
    this.live.delete(runId);
    const run = this.store.getRun(runId);
    this.events.push({ kind: 'ended', runId, status: run.status === 'running' ? 'failed' : run.status, reason: run.reason ?? why });
  }

  /** Starts `dsmc run --ranks N` for a multi-GPU launch and follows the run through the database. */
  private async launchRanks(spec: LaunchSpec): Promise<number> {
    const dir = join(this.store.dataDir, 'launched-cases');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `case-${Date.now()}-${process.pid}.json`);
    writeFileSync(`${file}.tmp`, JSON.stringify(spec.caseJson, null, 2));
    renameSync(`${file}.tmp`, file);
    const before = Math.max(0, ...this.store.listRuns({ project: spec.project }).map((r) => r.id));
    const args = [cliEntry(), 'run', file, '--ranks', String(spec.ranks), ...(spec.decomposition ? ['--decomposition', spec.decomposition] : []),
      ...(spec.rebalance !== undefined ? ['--rebalance', String(spec.rebalance)] : []),
      '--project', spec.project, '--json', '--no-progress', '--data-dir', this.store.dataDir];
    if (spec.cluster) {
      args.push('--launcher', 'slurm', '--profile', spec.cluster.profile, '--nodes', String(spec.cluster.nodes), '--gpus-per-node', String(spec.cluster.gpusPerNode));
    }
    const gpus = spec.cluster ? [] : spec.gpus ?? [];
    if (gpus.length > 1 && gpus.length !== spec.ranks) {
      throw new Error(`${gpus.length} GPUs chosen for ${spec.ranks} ranks: choose one GPU per rank, or one GPU (or none) to let the ranks share the default adapter`);
    }
    if (gpus.length === spec.ranks) args.push('--gpus', gpus.join(','));
    // inside Electron, process.execPath is the Electron binary: run it as plain Node; over the IPC channel the run
    // posts live field slices (src-main/cli/live-fields-ipc.ts) and takes the view the app chooses
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe', 'ipc'], env: { ...process.env, ELECTRON_RUN_AS_NODE: '1', DSMC_LIVE_FIELDS: '1' } });
    this.children.add(child);
    const tail = stderrTail(child);
    let exited: string | null = null;
    let runId: number | null = null;
    child.on('message', (m: FromChild) => { if (runId !== null && m.type === 'field') this.relay(runId, m); });
    child.on('exit', (code, signal) => {
      this.children.delete(child);
      rmSync(file, { force: true });
      exited = `${signal ?? `code ${code}`}: ${tail() || 'no message'}`;
    });
    const caseName = String((spec.caseJson as { name?: unknown }).name ?? '');
    runId = await this.waitForRun(spec.project, before, (r) => r.ranks === spec.ranks && r.caseName === caseName, () => exited);
    this.follow(runId, child, (view) => { if (child.connected) child.send({ type: 'view', view } satisfies ToChild); });
    return runId;
  }

  /**
   * Follows a run that a spawned dsmc process records, through the database; cancel = a 'cancel' message to that
   * process (its stop and keep, recorded "from the app"; SIGINT when the channel is gone); setView: where the process
   * takes the live view.
   */
  private follow(runId: number, child: ChildProcess, setView: (view: LiveView) => void): void {
    const follower = new DbFollower(this.store, runId, (e) => {
      if (e.kind === 'progress') { const r = this.live.get(runId); if (r) r.progress = e.progress; }
      if (e.kind === 'ended') this.live.delete(runId);
      this.events.push(e);
    });
    const cancel = () => {
      if (child.connected) child.send({ type: 'cancel' } satisfies ToChild);
      else child.kill('SIGINT');
    };
    this.live.set(runId, { progress: follower.progress(), cancel, setView });
    follower.start();
  }

  /** Polls the database for the run a spawned `dsmc run` records (a new id in the project, same case and ranks). */
  private async waitForRun(project: string, before: number, ours: (r: RunRecord) => boolean, exited: () => string | null): Promise<number> {
    const deadline = Date.now() + START_TIMEOUT_MS;
    while (Date.now() < deadline) {
      const run = this.store.listRuns({ project }).find((r) => r.id > before && ours(r));
      if (run) return run.id;
      const why = exited();
      if (why) throw new Error(`dsmc run --ranks exited before recording a run (${why})`);
      await new Promise((r) => setTimeout(r, 250));
    }
    throw new Error(`dsmc run --ranks recorded no run within ${START_TIMEOUT_MS / 1000} s; check the GPUs (dsmc check)`);
  }
}
