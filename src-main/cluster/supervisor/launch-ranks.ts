// launchRanks: starts one Node process per rank and supervises them like VS Code's UtilityProcess. A rank that
// exits non-zero, dies of a signal, hangs (no message for heartbeatTimeoutMs) or never says hello fails the run:
// the failure is reported with the rank's last log lines, the channel's waits end with RankFailedError, and every
// other rank gets SIGTERM (SIGKILL after killGraceMs). cancel() sends `stop` first and kills only after stopGraceMs.
import { RankFailedError } from './errors.js';
import { describeFailure } from './failure-messages.js';
import { LivenessWatch, type LivenessProblem } from './liveness.js';
import { RankProcess, type ProcessEnd } from './rank-process.js';
import { SUPERVISOR_PID_ENV } from './supervisor-watch.js';
import type { FailureReason, LaunchOptions, RankExit, RankFailure, RankGroup, RunOutcome } from './types.js';

/** Settings with their defaults applied. */
interface Settings {
  heartbeatTimeoutMs: number;
  heartbeatIntervalMs: number;
  startTimeoutMs: number;
  killGraceMs: number;
  stopGraceMs: number;
  lastLineCount: number;
}

/** Fills in the defaults of LaunchOptions. */
function settingsOf(o: LaunchOptions): Settings {
  const heartbeatTimeoutMs = o.heartbeatTimeoutMs ?? 30_000;
  return {
    heartbeatTimeoutMs,
    heartbeatIntervalMs: o.heartbeatIntervalMs ?? Math.max(50, Math.min(2000, Math.floor((heartbeatTimeoutMs || 30_000) / 4))),
    startTimeoutMs: o.startTimeoutMs ?? 60_000,
    killGraceMs: o.killGraceMs ?? 2000,
    stopGraceMs: o.stopGraceMs ?? 3000,
    lastLineCount: o.lastLineCount ?? 50,
  };
}

/** Throws unless the ranks are exactly 0..N-1 and the timing makes sense. */
function checkOptions(o: LaunchOptions, s: Settings): void {
  const ranks = o.ranks.map((r) => r.rank).sort((a, b) => a - b);
  if (ranks.length === 0) throw new Error('launchRanks: no ranks given; pass ranks: [{ rank: 0 }, ...]');
  if (!ranks.every((r, i) => r === i)) {
    throw new Error(`launchRanks: ranks must be 0..${ranks.length - 1}, each once; got ${ranks.join(', ')}`);
  }
  if (s.heartbeatTimeoutMs > 0 && !o.channel) {
    throw new Error('launchRanks: hang detection needs the orchestrator channel (heartbeats arrive there); pass channel, or heartbeatTimeoutMs: 0');
  }
  if (s.heartbeatTimeoutMs > 0 && s.heartbeatIntervalMs * 2 > s.heartbeatTimeoutMs) {
    throw new Error(`launchRanks: heartbeatIntervalMs ${s.heartbeatIntervalMs} must be at most half of heartbeatTimeoutMs ${s.heartbeatTimeoutMs}, or a slow heartbeat looks like a hang`);
  }
}

/** Starts the rank processes of one run and supervises them. */
export function launchRanks(options: LaunchOptions): RankGroup {
  const settings = settingsOf(options);
  checkOptions(options, settings);
  return new Supervisor(options, settings);
}

class Supervisor implements RankGroup {
  readonly outcome: Promise<RunOutcome>;
  readonly failed: Promise<RankFailure | null>;
  private readonly procs: RankProcess[];
  private readonly exits = new Map<number, RankExit>();
  private readonly liveness: LivenessWatch;
  private readonly stopRequestedAt = new Map<number, number>();
  private readonly unsubscribe: () => void;
  private readonly onProcessExit = () => this.procs.forEach((p) => p.kill());
  private failure: RankFailure | null = null;
  private cancelReason: string | null = null;
  private resolveFailed!: (f: RankFailure | null) => void;

  constructor(private readonly options: LaunchOptions, private readonly settings: Settings) {
    this.failed = new Promise((resolve) => (this.resolveFailed = resolve));
    this.liveness = new LivenessWatch({
      heartbeatTimeoutMs: options.channel ? settings.heartbeatTimeoutMs : 0,
      startTimeoutMs: options.channel ? settings.startTimeoutMs : 0,
      onProblem: (rank, problem) => this.onLivenessProblem(rank, problem),
    });
    this.unsubscribe = options.channel?.onActivity((rank, type) => this.liveness.seen(rank, type === 'hello')) ?? (() => undefined);
    process.once('exit', this.onProcessExit);
    const worldSize = options.ranks.length;
    this.procs = [...options.ranks].sort((a, b) => a.rank - b.rank).map((spec) => {
      const proc = new RankProcess({
        rank: spec.rank,
        gpu: spec.gpu === undefined ? '-' : String(spec.gpu),
        script: options.script,
        args: options.args ?? [],
        execArgv: options.execArgv ?? [],
        cwd: options.cwd,
        env: {
          ...(options.env ?? process.env),
          ...options.channel?.rankEnvironment(spec.rank, worldSize, settings.heartbeatIntervalMs),
          [SUPERVISOR_PID_ENV]: String(process.pid),
          ...spec.env,
        },
        lastLineCount: settings.lastLineCount,
        onLog: options.onLog,
      });
      this.liveness.started(spec.rank, proc.startedAt);
      return proc;
    });
    this.outcome = Promise.all(this.procs.map((p) => p.ended.then((end) => this.onEnd(p, end)))).then(() => this.finish());
  }

  /** Rank, GPU label and pid of every process. */
  get processes(): ReadonlyArray<{ rank: number; gpu: string; pid: number | null }> {
    return this.procs.map((p) => ({ rank: p.rank, gpu: p.gpu, pid: p.pid }));
  }

  /** The last log lines of a rank. */
  lastLines(rank: number): string[] {
    return this.proc(rank).lastLines();
  }

  /** Stops every rank cleanly: `stop` through the channel, then SIGTERM/SIGKILL for those still running. */
  async cancel(reason = 'cancelled'): Promise<RunOutcome> {
    if (this.failure === null && this.cancelReason === null) {
      this.cancelReason = reason;
      const running = this.procs.filter((p) => p.isRunning);
      const now = Date.now();
      for (const p of running) this.stopRequestedAt.set(p.rank, now);
      const channel = this.options.channel;
      // the grace period starts now: a rank that cannot take the message (not connected yet) must not delay it
      const timer = setTimeout(() => this.terminateAll(), channel ? this.settings.stopGraceMs : 0);
      void this.outcome.then(() => clearTimeout(timer));
      if (channel) await Promise.allSettled(running.map((p) => channel.send(p.rank, { type: 'stop', reason })));
    }
    return this.outcome;
  }

  /** Marks the run failed because of `rank` and stops every rank. */
  fail(rank: number, message: string): Promise<RunOutcome> {
    this.failWith(rank, 'reported', { detail: message });
    return this.outcome;
  }

  /** The process of a rank (throws for an unknown rank). */
  private proc(rank: number): RankProcess {
    const p = this.procs.find((x) => x.rank === rank);
    if (!p) throw new Error(`launchRanks: there is no rank ${rank} (ranks 0..${this.procs.length - 1})`);
    return p;
  }

  /** A rank hung or never started: fail the run (the rank itself is stopped with the others). */
  private onLivenessProblem(rank: number, problem: LivenessProblem): void {
    if (this.proc(rank).isRunning) this.failWith(rank, problem, {});
  }

  /** Records how a rank ended; an unexpected non-zero exit or signal fails the run. */
  private onEnd(p: RankProcess, end: ProcessEnd): void {
    this.liveness.forget(p.rank);
    const requested = this.stopRequestedAt.get(p.rank);
    this.exits.set(p.rank, {
      rank: p.rank, pid: p.pid, code: end.code, signal: end.signal,
      stoppedBySupervisor: requested !== undefined,
      stopMs: requested === undefined ? null : Date.now() - requested,
    });
    if (requested !== undefined || this.failure !== null || this.cancelReason !== null) return;
    if (end.spawnError) this.failWith(p.rank, 'spawn', { detail: end.spawnError.message });
    else if (end.signal !== null) this.failWith(p.rank, 'signal', { signal: end.signal });
    else if (end.code !== 0) this.failWith(p.rank, 'exit', { code: end.code });
  }

  /** Records the first failure, ends the channel's waits and stops every rank still running. */
  private failWith(rank: number, reason: FailureReason, facts: { code?: number | null; signal?: NodeJS.Signals | null; detail?: string }): void {
    if (this.failure !== null || this.cancelReason !== null) return;
    const p = this.proc(rank);
    const code = facts.code ?? null;
    const signal = facts.signal ?? null;
    const failure: RankFailure = {
      rank, gpu: p.gpu, pid: p.pid, reason, code, signal,
      lastLines: p.lastLines(),
      message: describeFailure(reason, {
        rank, gpu: p.gpu, pid: p.pid, code, signal, detail: facts.detail ?? '',
        heartbeatTimeoutMs: this.settings.heartbeatTimeoutMs, startTimeoutMs: this.settings.startTimeoutMs,
      }),
    };
    this.failure = failure;
    this.options.channel?.abort(new RankFailedError(failure));
    this.resolveFailed(failure);
    this.terminateAll();
  }

  /** SIGTERM to every running rank, SIGKILL after the grace period. */
  private terminateAll(): void {
    const now = Date.now();
    for (const p of this.procs) {
      if (!p.isRunning) continue;
      if (!this.stopRequestedAt.has(p.rank)) this.stopRequestedAt.set(p.rank, now);
      void p.terminate(this.settings.killGraceMs);
    }
  }

  /** Builds the outcome once every process has ended, and releases timers and hooks. */
  private finish(): RunOutcome {
    this.liveness.dispose();
    this.unsubscribe();
    process.removeListener('exit', this.onProcessExit);
    this.resolveFailed(this.failure);
    const exits = this.procs.map((p) => this.exits.get(p.rank)!);
    if (this.failure !== null) return { status: 'failed', failure: this.failure, exits };
    if (this.cancelReason !== null) return { status: 'cancelled', reason: this.cancelReason, exits };
    return { status: 'completed', exits };
  }
}
