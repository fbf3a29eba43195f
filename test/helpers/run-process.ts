// Runs a child process without blocking the test worker's event loop: the asynchronous replacement for spawnSync
// in the tests. Vitest's fork worker must answer its main process within 60 s ("Timeout calling onTaskUpdate"), which
// it cannot while blocked in spawnSync; with two test files at once a CLI run of seconds can take a minute.
// runProcess resolves to spawnSync's shape (status, signal, stdout, stderr, pid, error) plus timedOut.
import { spawn } from 'node:child_process';

/** What a finished child did (the fields of spawnSync's result with encoding 'utf8'). */
export interface ProcessResult {
  /** Exit code, null when a signal ended it or it never started. */
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** 0 when it never started (as spawnSync). */
  pid: number;
  /** Spawn failure (ENOENT, ...) or the timeout, as spawnSync's `error`. */
  error?: Error;
  /** True when it ran past `timeout` and was killed. */
  timedOut: boolean;
}

export interface RunOptions {
  cwd?: string;
  /** The child's whole environment (default: this process's). */
  env?: NodeJS.ProcessEnv;
  /** Written to the child's stdin, which is then closed (closed at once without it, as spawnSync). */
  input?: string;
  /** Milliseconds before the child is sent `killSignal` (then SIGKILL 5 s later if still there); none when 0 or absent. */
  timeout?: number;
  /** First signal on timeout (default SIGTERM, as spawnSync). */
  killSignal?: NodeJS.Signals;
}

/** Milliseconds between the timeout's first signal and SIGKILL (and between SIGKILL and giving up on 'close'). */
const KILL_GRACE_MS = 5_000;

/**
 * Runs `command args` to its end (stdout and stderr closed) and resolves to what it did; never rejects. On timeout the
 * child is killed, `timedOut` and `error` are set, and a line naming the command and the limit is appended to stderr,
 * so an assertion on the status or the output shows why.
 */
export function runProcess(command: string, args: readonly string[], options: RunOptions = {}): Promise<ProcessResult> {
  return new Promise((resolve) => {
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    let error: Error | undefined;
    let settled = false;
    const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ['pipe', 'pipe', 'pipe'] });
    const timers: NodeJS.Timeout[] = [];
    const finish = (status: number | null, signal: NodeJS.Signals | null) => {
      if (settled) return;
      settled = true;
      for (const t of timers) clearTimeout(t);
      if (timedOut) stderr += `\n[runProcess] ${command} ${args.join(' ')}: killed after its ${options.timeout} ms timeout\n`;
      resolve({ status, signal, stdout, stderr, pid: child.pid ?? 0, error, timedOut });
    };
    child.stdout.setEncoding('utf8').on('data', (d: string) => { stdout += d; });
    child.stderr.setEncoding('utf8').on('data', (d: string) => { stderr += d; });
    child.stdin.on('error', () => {}); // a child that exits without reading its input (EPIPE)
    child.stdin.end(options.input ?? '');
    child.on('error', (e) => {
      error ??= e;
      if (child.pid === undefined) finish(null, null); // never started: no 'close' follows
    });
    child.on('close', (code, signal) => finish(code, signal));
    if (options.timeout && options.timeout > 0) {
      timers.push(setTimeout(() => {
        timedOut = true;
        error ??= Object.assign(new Error(`${command} timed out after ${options.timeout} ms`), { code: 'ETIMEDOUT' });
        child.kill(options.killSignal ?? 'SIGTERM');
        timers.push(setTimeout(() => {
          child.kill('SIGKILL');
          // a grandchild that still holds stdout or stderr open would delay 'close' for ever: stop waiting for it
          timers.push(setTimeout(() => {
            child.stdout.destroy();
            child.stderr.destroy();
            finish(child.exitCode, child.signalCode);
          }, KILL_GRACE_MS));
        }, KILL_GRACE_MS));
      }, options.timeout));
    }
  });
}

/** Runs this Node (process.execPath) with `args`: a script such as bin/dsmc.js and its arguments. */
export function runNode(args: readonly string[], options: RunOptions = {}): Promise<ProcessResult> {
  return runProcess(process.execPath, args, options);
}
