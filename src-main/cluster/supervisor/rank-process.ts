// One rank's Node child process: started with this Node binary, every output line prefixed with rank, GPU and pid
// and kept in a tail, its end reported once, and stopped with SIGTERM then SIGKILL after a grace period.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { isHarmlessDawnNotice } from '../../solver/gpu/dawn-notices.js';
import { LineTail } from './line-tail.js';
import type { LogLineInfo } from './types.js';

/** How the process ended. */
export interface ProcessEnd {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Set when it never started (spawn error). */
  spawnError: Error | null;
}

export interface RankProcessOptions {
  rank: number;
  gpu: string;
  script: string;
  args: string[];
  execArgv: string[];
  cwd: string | undefined;
  env: NodeJS.ProcessEnv;
  lastLineCount: number;
  onLog: ((prefixedLine: string, info: LogLineInfo) => void) | undefined;
}

/** After the exit, how long to wait for the output pipes to drain (a grandchild may hold them open). */
const PIPE_DRAIN_MS = 1000;

export class RankProcess {
  readonly rank: number;
  readonly gpu: string;
  readonly pid: number | null;
  /** Resolves once, when the process has exited and its output was read. */
  readonly ended: Promise<ProcessEnd>;
  /** Date.now() when it was started. */
  readonly startedAt = Date.now();
  private readonly child: ChildProcess;
  private readonly tail: LineTail;
  private running = true;
  private killTimer: NodeJS.Timeout | null = null;

  constructor(private readonly options: RankProcessOptions) {
    this.rank = options.rank;
    this.gpu = options.gpu;
    this.tail = new LineTail(options.lastLineCount);
    this.child = spawn(process.execPath, [...options.execArgv, options.script, ...options.args], {
      cwd: options.cwd,
      env: options.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      // own process group: a terminal Ctrl-C reaches only the orchestrator, which then cancels cleanly; the
      // supervisor's exit hook and exitWhenSupervisorGone() in the rank keep ranks from outliving it
      detached: true,
    });
    this.pid = this.child.pid ?? null;
    this.readLines('stdout');
    this.readLines('stderr');
    this.ended = this.watchEnd();
  }

  /** True until the process has exited. */
  get isRunning(): boolean {
    return this.running;
  }

  /** The last output lines (without prefix), oldest first. */
  lastLines(): string[] {
    return this.tail.snapshot();
  }

  /** SIGTERM now, SIGKILL if it is still running after graceMs; resolves when it has ended. */
  terminate(graceMs: number): Promise<ProcessEnd> {
    if (this.running) {
      this.child.kill('SIGTERM');
      if (this.killTimer === null) {
        this.killTimer = setTimeout(() => this.kill(), graceMs);
      }
    }
    return this.ended;
  }

  /** SIGKILL now (no cleanup in the child). */
  kill(): void {
    if (this.running) this.child.kill('SIGKILL');
  }

  /** Prefixes, forwards and keeps every line of one output stream. */
  private readLines(stream: 'stdout' | 'stderr'): void {
    const input = this.child[stream];
    if (!input) return;
    const prefix = `[rank ${this.rank} gpu ${this.gpu} pid ${this.pid ?? '-'}] `;
    createInterface({ input, crlfDelay: Infinity }).on('line', (text) => {
      // Dawn's start-up notice about capped descriptor limits: harmless, and every rank would repeat it
      if (stream === 'stderr' && isHarmlessDawnNotice(text)) return;
      this.tail.push(text);
      this.options.onLog?.(prefix + text, { rank: this.rank, gpu: this.gpu, pid: this.pid ?? -1, stream, text });
    });
  }

  /** Resolves with the exit once the output is read (or PIPE_DRAIN_MS after the exit), or with the spawn error. */
  private watchEnd(): Promise<ProcessEnd> {
    return new Promise((resolve) => {
      let exit: ProcessEnd | null = null;
      const finish = (end: ProcessEnd) => {
        this.running = false;
        if (this.killTimer !== null) clearTimeout(this.killTimer);
        resolve(end);
      };
      this.child.once('error', (error) => {
        if (this.pid === null) finish({ code: null, signal: null, spawnError: error });
      });
      this.child.once('exit', (code, signal) => {
        exit = { code, signal, spawnError: null };
        this.running = false;
        setTimeout(() => finish(exit!), PIPE_DRAIN_MS).unref();
      });
      this.child.once('close', (code, signal) => finish(exit ?? { code, signal, spawnError: null }));
    });
  }
}
