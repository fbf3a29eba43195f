// Typed configuration and results of the rank supervisor (launchRanks).
import type { OrchestratorToRankMessage, RankToOrchestratorMessage } from '../transport/messages.js';

/** One rank process to start. */
export interface RankLaunchSpec {
  rank: number;
  /** GPU label for log prefixes and reports (a device index or PCI address); '-' when not pinned. */
  gpu?: string | number;
  /** Extra environment for this rank only (e.g. the device-select variables that pin it to a GPU). */
  env?: Record<string, string>;
}

/** What the supervisor needs from the orchestrator's channel (OrchestratorChannel implements it). */
export interface SupervisedChannel {
  /** Environment variables that tell a rank where to connect. */
  rankEnvironment(rank: number, worldSize: number, heartbeatIntervalMs: number): Record<string, string>;
  /** Calls the listener with the rank and kind of every valid message (heartbeats included). */
  onActivity(listener: (rank: number, type: RankToOrchestratorMessage['type']) => void): () => void;
  /** Sends `stop` on cancel. */
  send(rank: number, message: OrchestratorToRankMessage): Promise<void>;
  /** Ends every wait on the channel when a rank failed. */
  abort(error: Error): void;
}

/** Where a log line came from. */
export interface LogLineInfo {
  rank: number;
  gpu: string;
  pid: number;
  stream: 'stdout' | 'stderr';
  /** The line without the prefix. */
  text: string;
}

export interface LaunchOptions {
  /** The rank entry script (.js/.mjs), run with this Node (process.execPath). */
  script: string;
  /** One entry per rank; ranks must be 0..N-1, each once. */
  ranks: RankLaunchSpec[];
  /** Arguments after the script, the same for every rank. */
  args?: string[];
  /** Node options before the script (default: none). */
  execArgv?: string[];
  /** Working folder of the ranks (default: this process's). */
  cwd?: string;
  /** Base environment (default: process.env); each rank gets it plus the channel's and its own variables. */
  env?: NodeJS.ProcessEnv;
  /** The orchestrator's channel: supplies the rank environment, heartbeats (activity) and `stop` on cancel. */
  channel?: SupervisedChannel;
  /** Every output line, prefixed `[rank R gpu G pid P] `. Default: none (lines are still kept for reports). */
  onLog?: (prefixedLine: string, info: LogLineInfo) => void;
  /**
   * A rank silent (not even a heartbeat) for this long after its first message is hung (ms, default 30000; 0: off).
   * Heartbeats come from a timer, so synchronous work that blocks the event loop (a long shader compile) counts.
   */
  heartbeatTimeoutMs?: number;
  /** How often ranks send heartbeats (ms, default heartbeatTimeoutMs / 4). */
  heartbeatIntervalMs?: number;
  /** A rank that has not said hello this long after it was started failed to start (ms, default 60000; 0: off). */
  startTimeoutMs?: number;
  /** After SIGTERM, how long before SIGKILL (ms, default 2000). */
  killGraceMs?: number;
  /** On cancel, how long ranks get to exit after `stop` before SIGTERM (ms, default 3000). */
  stopGraceMs?: number;
  /** Log lines kept per rank for failure reports (default 50). */
  lastLineCount?: number;
}

/** Why a rank failed. */
export type FailureReason = 'exit' | 'signal' | 'hang' | 'start-timeout' | 'spawn' | 'reported';

/** The rank that failed a run, why, and its last log lines. */
export interface RankFailure {
  rank: number;
  gpu: string;
  pid: number | null;
  reason: FailureReason;
  /** Exit code when it exited by itself, else null. */
  code: number | null;
  /** Signal when it was killed by one (not by the supervisor), else null. */
  signal: NodeJS.Signals | null;
  lastLines: string[];
  /** One sentence: what happened and what to do. */
  message: string;
}

/** How one rank process ended. */
export interface RankExit {
  rank: number;
  pid: number | null;
  code: number | null;
  signal: NodeJS.Signals | null;
  /** True when the supervisor stopped it (after a failure elsewhere or cancel). */
  stoppedBySupervisor: boolean;
  /** Milliseconds from the first stop request to its exit (null when it ended by itself). */
  stopMs: number | null;
}

/** The end of a run's processes. */
export type RunOutcome =
  | { status: 'completed'; exits: RankExit[] }
  | { status: 'failed'; failure: RankFailure; exits: RankExit[] }
  | { status: 'cancelled'; reason: string; exits: RankExit[] };

/** A started group of rank processes. */
export interface RankGroup {
  /** Rank, GPU label and pid of every process. */
  readonly processes: ReadonlyArray<{ rank: number; gpu: string; pid: number | null }>;
  /** Settles when every rank process has exited. */
  readonly outcome: Promise<RunOutcome>;
  /** The first failure, as soon as it is detected (before the others are stopped); null when the run ends without one. */
  readonly failed: Promise<RankFailure | null>;
  /** The last log lines of a rank. */
  lastLines(rank: number): string[];
  /** Stops every rank cleanly: `stop` through the channel, SIGTERM after stopGraceMs, SIGKILL after killGraceMs. */
  cancel(reason?: string): Promise<RunOutcome>;
  /** Marks the run failed because of `rank` (e.g. it sent an invalid message) and stops every rank. */
  fail(rank: number, message: string): Promise<RunOutcome>;
}
