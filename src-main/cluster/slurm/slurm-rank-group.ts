// The RankGroup of a run whose ranks Slurm started: follows the job (waiting, running, ended with Slurm's reason),
// splits its labelled output by rank, watches heartbeats through the orchestrator's channel like the local
// supervisor, and maps cancel to `stop` then scancel. A rank that exits non-zero, is killed, hangs or never says
// hello fails the run with a RankFailure naming the rank, its host and its last lines.
import { describeFailure } from '../supervisor/failure-messages.js';
import { RankFailedError } from '../supervisor/errors.js';
import { LineTail } from '../supervisor/line-tail.js';
import { LivenessWatch, type LivenessProblem } from '../supervisor/liveness.js';
import type { FailureReason, LaunchOptions, RankExit, RankFailure, RankGroup, RunOutcome } from '../supervisor/types.js';
import type { JobDriver } from './job-driver.js';
import { LineSplitter, parseOutputLine } from './job-output.js';
import { describeJobEnd, phaseOf, type JobState } from './job-state.js';

/** Settings of the rank group beyond LaunchOptions. */
export interface SlurmGroupSettings {
  /** Milliseconds between looks at the job (default 1000). */
  pollMs: number;
  /** Where a failed job's fix is configured (e.g. 'cluster profile "gpu"'). */
  profileHint: string;
  /** After a failure or cancel, how long Slurm gets to end the job before the outcome is given anyway (a dead node keeps it COMPLETING). */
  releaseMs: number;
  /** Every change of the job's state (queued, running, ended). */
  onJobState?: (state: JobState) => void;
}

/** A task's end as srun reported it. */
interface TaskEnd {
  host: string;
  code: number | null;
  signal: string | null;
}

export class SlurmRankGroup implements RankGroup {
  readonly outcome: Promise<RunOutcome>;
  readonly failed: Promise<RankFailure | null>;
  /** Resolves with the job id once submitted (rejects when the submission failed). */
  readonly jobId: Promise<string>;
  private readonly count: number;
  private readonly tails: LineTail[];
  private readonly jobLines: LineTail;
  private readonly splitter = new LineSplitter();
  private readonly taskEnds = new Map<number, TaskEnd>();
  /** Host of each rank, from the rank entry's first line ("rank R on HOST: ..."). */
  private readonly hosts = new Map<number, string>();
  /** GPU of each rank as its entry reported it (PCI address when pinned). */
  private readonly gpus = new Map<number, { gpu: string; pinned: boolean }>();
  private readonly liveness: LivenessWatch;
  private readonly unsubscribe: () => void;
  private readonly heartbeatTimeoutMs: number;
  private readonly startTimeoutMs: number;
  private lastState: JobState | null = null;
  private id = '?';
  private failure: RankFailure | null = null;
  private cancelReason: string | null = null;
  private stopAt: number | null = null;
  private runningSince: number | null = null;
  private resolveFailed!: (f: RankFailure | null) => void;
  private cancelTimer: NodeJS.Timeout | null = null;

  constructor(private readonly options: LaunchOptions, private readonly driver: JobDriver, private readonly settings: SlurmGroupSettings) {
    this.count = options.ranks.length;
    const keep = options.lastLineCount ?? 50;
    this.tails = Array.from({ length: this.count }, () => new LineTail(keep));
    this.jobLines = new LineTail(keep);
    this.heartbeatTimeoutMs = options.heartbeatTimeoutMs ?? 30_000;
    this.startTimeoutMs = options.startTimeoutMs ?? 60_000;
    this.failed = new Promise((resolve) => (this.resolveFailed = resolve));
    this.liveness = new LivenessWatch({
      heartbeatTimeoutMs: options.channel ? this.heartbeatTimeoutMs : 0,
      startTimeoutMs: options.channel ? this.startTimeoutMs : 0,
      onProblem: (rank, problem) => this.onLivenessProblem(rank, problem),
    });
    this.unsubscribe = options.channel?.onActivity((rank, type) => this.liveness.seen(rank, type === 'hello')) ?? (() => undefined);
    this.jobId = driver.start().then((id) => (this.id = id));
    this.outcome = this.follow();
    this.jobId.catch(() => undefined);
  }

  /** Every rank with its GPU label; pids are on the nodes, so null. */
  get processes(): ReadonlyArray<{ rank: number; gpu: string; pid: number | null }> {
    return this.options.ranks.map((r) => ({ rank: r.rank, gpu: 'node-local', pid: null }));
  }

  /** The last log lines of a rank (srun's own lines about it included). */
  lastLines(rank: number): string[] {
    if (rank < 0 || rank >= this.count) throw new Error(`slurm launcher: there is no rank ${rank} (ranks 0..${this.count - 1})`);
    return this.tails[rank].snapshot();
  }

  /** The GPU a rank reported it runs on: its PCI address when pinned, 'node default' when not (undefined before it said). */
  gpuOf(rank: number): { gpu: string; pinned: boolean } | undefined {
    return this.gpus.get(rank);
  }

  /** Host of a rank as its first log line named it (undefined before it started). */
  hostOf(rank: number): string | undefined {
    return this.hosts.get(rank);
  }

  /** The job's own output lines (not from a rank): srun and batch-script messages. */
  jobOutput(): string[] {
    return this.jobLines.snapshot();
  }

  /** `stop` to every rank, then scancel after stopGraceMs (at once while the job still waits in the queue). */
  async cancel(reason = 'cancelled'): Promise<RunOutcome> {
    if (this.failure === null && this.cancelReason === null) {
      this.cancelReason = reason;
      this.stopAt = Date.now();
      const waiting = this.lastState === null || phaseOf(this.lastState.state) === 'waiting';
      const channel = this.options.channel;
      this.cancelTimer = setTimeout(() => void this.driver.cancel().catch(() => undefined), waiting || !channel ? 0 : this.options.stopGraceMs ?? 3000);
      if (channel && !waiting) await Promise.allSettled(this.options.ranks.map((r) => channel.send(r.rank, { type: 'stop', reason })));
    }
    return this.outcome;
  }

  /** Marks the run failed because of `rank` and cancels the job. */
  fail(rank: number, message: string): Promise<RunOutcome> {
    this.failWith(rank, 'reported', { detail: message });
    return this.outcome;
  }

  /** Polls the job until it has ended, then builds the outcome. */
  private async follow(): Promise<RunOutcome> {
    try {
      await this.jobId;
    } catch (e) {
      const text = (e as Error).message;
      for (const line of text.split('\n')) this.tails[0].push(line);
      this.failWith(0, 'spawn', {
        detail: text,
        message: `the Slurm job could not be started (${text.split('\n')[0]}); check ${this.settings.profileHint} (partition, account, time limit, sbatchOptions) and that Slurm's commands work here (sinfo)`,
      });
      return this.finish();
    }
    let gone = 0;
    for (;;) {
      await this.readOutput();
      let state: JobState | null = null;
      try {
        state = await this.driver.poll();
      } catch (e) {
        this.jobLines.push(`could not read the job's state: ${(e as Error).message}`);
      }
      if (state) this.onState(state);
      // a job Slurm has forgotten (no accounting) after it was seen running has ended
      if (state === null && this.lastState !== null && ++gone >= 3) break;
      if (state && phaseOf(state.state) === 'ended') break;
      if (this.stopAt !== null && (this.failure !== null || this.cancelReason !== null) && Date.now() - this.stopAt > this.settings.releaseMs) {
        this.jobLines.push(`Slurm job ${this.id} is still ${state?.state ?? 'listed'} ${this.settings.releaseMs} ms after it was cancelled (a node that stopped responding keeps it there); Slurm ends it, dsmc does not wait`);
        break;
      }
      await new Promise((r) => setTimeout(r, this.settings.pollMs));
    }
    await new Promise((r) => setTimeout(r, Math.min(1000, this.settings.pollMs))); // the last output lines
    await this.readOutput();
    for (const line of this.splitter.flush()) this.onLine(line);
    this.judgeEnd();
    return this.finish();
  }

  /** Reports a changed state, and starts the start timeout when the job begins running. */
  private onState(state: JobState): void {
    // a short job can start and end between two polls: it ran if it holds nodes, so say so before its end
    if (this.runningSince === null && phaseOf(state.state) !== 'waiting' && state.state !== 'RUNNING' && state.nodes !== '') {
      this.onState({ ...state, state: 'RUNNING', reason: 'None' });
    }
    const changed = this.lastState === null || this.lastState.state !== state.state || this.lastState.reason !== state.reason;
    this.lastState = state;
    if (changed) this.settings.onJobState?.(state);
    if (this.runningSince === null && phaseOf(state.state) !== 'waiting') {
      this.runningSince = Date.now();
      for (const r of this.options.ranks) this.liveness.started(r.rank, this.runningSince);
    }
  }

  /** Reads new output and dispatches its lines. */
  private async readOutput(): Promise<void> {
    let text = '';
    try {
      text = await this.driver.readOutput();
    } catch {
      return; // the output file is on a shared folder that may lag; read again on the next poll
    }
    for (const line of this.splitter.push(text)) this.onLine(line);
  }

  /** Keeps a line in its rank's tail (or the job's) and forwards it with a prefix. */
  private onLine(line: string): void {
    const l = parseOutputLine(line);
    if (l.kind === 'rank' && l.rank < this.count) {
      this.tails[l.rank].push(l.text);
      const host = /^rank \d+ on (\S+): /.exec(l.text);
      if (host && !this.hosts.has(l.rank)) this.hosts.set(l.rank, host[1]);
      const pinned = /^rank \d+ on \S+: pinned to GPU \d+ \(.*, ([0-9a-f:.]+)\) as local rank/.exec(l.text);
      if (pinned) this.gpus.set(l.rank, { gpu: pinned[1], pinned: true });
      else if (/^rank \d+ on \S+: not pinned/.test(l.text)) this.gpus.set(l.rank, { gpu: 'node default', pinned: false });
      this.options.onLog?.(`[rank ${l.rank} job ${this.id}] ${l.text}`, { rank: l.rank, gpu: 'node-local', pid: -1, stream: 'stdout', text: l.text });
      return;
    }
    if (l.kind === 'task-end' && l.rank < this.count) {
      this.taskEnds.set(l.rank, { host: l.host, code: l.code, signal: l.signal });
      this.tails[l.rank].push(l.text);
      this.liveness.forget(l.rank);
      if (this.cancelReason === null && this.failure === null) {
        if (l.signal !== null) this.failWith(l.rank, 'signal', { signal: l.signal as NodeJS.Signals, host: l.host });
        else if (l.code !== null && l.code !== 0) this.failWith(l.rank, 'exit', { code: l.code, host: l.host });
      }
    } else {
      this.jobLines.push(line);
      if (l.kind === 'node-failure') this.onNodeFailure(l.host);
    }
    this.options.onLog?.(`[job ${this.id}] ${line}`, { rank: -1, gpu: '-', pid: -1, stream: 'stderr', text: line });
  }

  /** Slurm lost a node: the run fails because of the first rank that was on it. */
  private onNodeFailure(host: string): void {
    const rank = [...this.hosts.entries()].find(([, h]) => h === host)?.[0] ?? 0;
    this.failWith(rank, 'reported', { host, detail: `its node ${host} failed (Slurm: "Node failure on ${host}"; the node stopped answering): run again, Slurm leaves the node out once it is marked down` });
  }

  /** A rank hung or never said hello. */
  private onLivenessProblem(rank: number, problem: LivenessProblem): void {
    if (this.taskEnds.has(rank)) return;
    const host = this.hosts.get(rank);
    const who = `rank ${rank} (Slurm job ${this.id}${host ? ` on ${host}` : ''})`;
    const message = problem === 'hang'
      ? `${who} sent nothing for ${this.heartbeatTimeoutMs} ms: its node may be gone (down, or cut off from this host) or the rank hung; ` +
        'Slurm\'s job output and sinfo say which; raise dsmc run --heartbeat-timeout only if its steps legitimately take that long'
      : `${who} did not say hello within ${this.startTimeoutMs} ms of the job starting: check that the nodes reach the orchestrator ` +
        '(--orchestrator-host / the profile\'s orchestratorHost) and the rank\'s last lines (Node.js and the product at productPath on the nodes)';
    this.failWith(rank, problem, { message });
  }

  /** After the job ended: a failed or unexpectedly ended job fails the run with Slurm's reason. */
  private judgeEnd(): void {
    if (this.failure !== null || this.cancelReason !== null) return;
    const s = this.lastState;
    if (s === null || s.state.startsWith('COMPLETED')) return;
    const rank = [...this.taskEnds.entries()].find(([, t]) => t.code !== 0)?.[0] ?? 0;
    this.failWith(rank, 'reported', { detail: describeJobEnd(s, this.settings.profileHint) });
  }

  /** Records the first failure, ends the channel's waits and cancels the job. */
  private failWith(rank: number, reason: FailureReason, facts: { code?: number | null; signal?: NodeJS.Signals | null; detail?: string; host?: string; message?: string }): void {
    if (this.failure !== null || this.cancelReason !== null) return;
    const code = facts.code ?? null;
    const signal = facts.signal ?? null;
    const host = facts.host ?? this.hosts.get(rank);
    const where = host ? ` on ${host}` : '';
    const message = facts.message ?? describeFailure(reason, {
      rank, gpu: 'node-local', pid: null, code, signal, detail: facts.detail ?? '',
      heartbeatTimeoutMs: this.heartbeatTimeoutMs, startTimeoutMs: this.startTimeoutMs,
    }).replace(/^rank (\d+) \(gpu node-local, pid -\)/, `rank $1 (Slurm job ${this.id}${where})`);
    this.failure = { rank, gpu: 'node-local', pid: null, reason, code, signal, lastLines: this.tails[rank]?.snapshot() ?? [], message };
    this.stopAt = Date.now();
    this.options.channel?.abort(new RankFailedError(this.failure));
    this.resolveFailed(this.failure);
    void this.driver.cancel().catch(() => undefined);
  }

  /** The outcome, once the job has ended; releases timers and hooks. */
  private finish(): RunOutcome {
    this.liveness.dispose();
    this.unsubscribe();
    if (this.cancelTimer !== null) clearTimeout(this.cancelTimer);
    this.resolveFailed(this.failure);
    const exits: RankExit[] = this.options.ranks.map((r) => {
      const t = this.taskEnds.get(r.rank);
      return {
        rank: r.rank, pid: null, code: t ? t.code : this.failure || this.cancelReason ? null : 0, signal: (t?.signal ?? null) as NodeJS.Signals | null,
        stoppedBySupervisor: this.stopAt !== null, stopMs: this.stopAt !== null ? Date.now() - this.stopAt : null,
      };
    });
    if (this.failure !== null) return { status: 'failed', failure: this.failure, exits };
    if (this.cancelReason !== null) return { status: 'cancelled', reason: this.cancelReason, exits };
    return { status: 'completed', exits };
  }
}
