// Drives the real `dsmc` CLI for the checkpoint tests: runs to the end, runs killed (SIGKILL) once the run
// database shows a given step, the recorded outcome of a run, and SQLite's integrity check.
import { spawn, type ChildProcess } from 'node:child_process';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { fieldsSha256 } from '../../src-main/solver/fields.js';
import { RunStore } from '../../src-main/store/run-store.js';
import { processRuns } from '../helpers/process-alive.js';
import { runNode } from '../helpers/run-process.js';

export const BIN = new URL('../../bin/dsmc.js', import.meta.url).pathname;

/** Runs dsmc to the end in data folder `dataDir` (killed after 120 s), without blocking the test worker. */
export async function dsmc(dataDir: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const r = await runNode([BIN, ...args, '--data-dir', dataDir, '--no-progress'], { timeout: 120_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The JSON object on the last line of stdout of a command that must succeed. */
export function jsonOf(r: { code: number | null; stdout: string; stderr: string }, what: string): Record<string, unknown> {
  if (r.code !== 0) throw new Error(`${what} exited ${r.code}: ${r.stderr}`);
  const lines = r.stdout.trim().split('\n');
  return JSON.parse(lines[lines.length - 1]);
}

/** A read-only connection to the run database (never migrates or marks runs). */
function readOnly(dataDir: string): Database.Database {
  const db = new Database(join(dataDir, 'runs.sqlite'), { readonly: true, fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  return db;
}

/** PRAGMA integrity_check of the run database ('ok' when sound). */
export function integrity(dataDir: string): string {
  const db = readOnly(dataDir);
  try {
    return (db.pragma('integrity_check') as { integrity_check: string }[]).map((r) => r.integrity_check).join('; ');
  } finally {
    db.close();
  }
}

/** What a run recorded, as the CLI sees it after opening the store (which marks runs of dead processes failed). */
export function recorded(dataDir: string, runId: number) {
  const store = RunStore.open({ dataDir });
  try {
    const run = store.getRun(runId);
    const fields = store.getFields(runId);
    return {
      status: run.status, reason: run.reason,
      steps: store.getSteps(runId), totals: store.getTotals(runId),
      fieldsSha256: fields ? fieldsSha256(fields.values) : null, errorsSha256: fields ? fieldsSha256(fields.errors) : null, blocks: fields?.blocks ?? null, samples: fields?.samples ?? null,
    };
  } finally {
    store.close();
  }
}

/** Sleeps. */
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Where a kill lands: the orchestrator (the dsmc process itself) or one rank process. */
export type KillTarget = { kind: 'orchestrator' } | { kind: 'rank'; rank: number };

/** What happened to a run that was to be killed. */
export interface KillOutcome {
  runId: number;
  /** Highest step recorded when the kill was sent (null: the run ended before it). */
  killedAtStep: number | null;
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  rankPids: number[];
}

/** Waits for a child's exit (SIGKILL after `ms`). */
function exited(child: ChildProcess, ms: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve({ code: child.exitCode, signal: child.signalCode });
    const t = setTimeout(() => child.kill('SIGKILL'), ms);
    child.once('exit', (code, signal) => { clearTimeout(t); resolve({ code, signal }); });
  });
}

/**
 * Starts `dsmc ARGS` (a run or a resume of run `resumeOf`), waits until the database records step `atStep` or
 * later of its run, and SIGKILLs the target; returns once the dsmc process and its ranks are gone.
 */
export async function runAndKill(dataDir: string, args: string[], atStep: number, target: KillTarget, resumeOf?: number): Promise<KillOutcome> {
  const before = resumeOf ?? maxRunId(dataDir);
  const child = spawn(process.execPath, [BIN, ...args, '--data-dir', dataDir, '--no-progress'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d) => { stderr += String(d); });
  const deadline = Date.now() + 90_000;
  let runId = resumeOf ?? 0;
  let killedAtStep: number | null = null;
  let rankPids: number[] = [];
  while (Date.now() < deadline && child.exitCode === null && child.signalCode === null) {
    await sleep(15);
    const db = readOnlyOrNull(dataDir);
    if (!db) continue;
    try {
      if (!db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'run_ranks'").get()) continue; // not migrated yet
      // this process's run (another may be running at the same time on the same database)
      if (!resumeOf) runId = (db.prepare('SELECT max(id) AS id FROM runs WHERE pid = ?').get(child.pid) as { id: number | null }).id ?? 0;
      if (runId <= (resumeOf ? 0 : before)) continue;
      const { status } = db.prepare('SELECT status FROM runs WHERE id = ?').get(runId) as { status: string };
      const step = (db.prepare('SELECT max(step) AS s FROM run_steps WHERE run_id = ?').get(runId) as { s: number | null }).s ?? 0;
      rankPids = (db.prepare('SELECT pid FROM run_ranks WHERE run_id = ? ORDER BY rank').all(runId) as { pid: number }[]).map((r) => r.pid);
      if (status !== 'running' || step < atStep) continue;
      const pid = target.kind === 'orchestrator' ? child.pid! : rankPids[target.rank];
      if (pid === undefined) throw new Error(`run ${runId} has no recorded rank ${target.kind === 'rank' ? target.rank : ''}`);
      process.kill(pid, 'SIGKILL');
      killedAtStep = step;
      break;
    } finally {
      db.close();
    }
  }
  const end = await exited(child, 60_000);
  // ranks outlive a killed orchestrator until their supervisor watch notices (250 ms); an exited one init has not
  // reaped yet (up to 2 s later) holds nothing and counts as gone
  for (let k = 0; k < 100 && rankPids.some(processRuns); k++) await sleep(50);
  if (killedAtStep === null && end.code !== 0) throw new Error(`dsmc ${args.join(' ')} exited ${end.code} before the kill: ${stderr}`);
  return { runId, killedAtStep, exitCode: end.code, signal: end.signal, rankPids };
}

/** A read-only connection, or null while the database does not exist yet. */
function readOnlyOrNull(dataDir: string): Database.Database | null {
  try {
    return readOnly(dataDir);
  } catch {
    return null;
  }
}

/** The highest run id in the database (0 when none or no database). */
function maxRunId(dataDir: string): number {
  const db = readOnlyOrNull(dataDir);
  if (!db) return 0;
  try {
    return (db.prepare('SELECT max(id) AS id FROM runs').get() as { id: number | null }).id ?? 0;
  } finally {
    db.close();
  }
}
