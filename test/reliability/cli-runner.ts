// Runs the real `dsmc` command (bin/dsmc.js, compiled out/) as child processes, several at a time, and
// helpers to look into a data folder afterwards (run rows, checksums of every file).
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { runNode } from '../helpers/run-process.js';

export const BIN = new URL('../../bin/dsmc.js', import.meta.url).pathname;
export const BUILT_MAIN = new URL('../../out/src-main/cli/main.js', import.meta.url).pathname;

/** What one dsmc process did. */
export interface CliResult {
  args: string[];
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Lines of a Node stack trace, or the names of JavaScript's internal error classes: never for the user. */
export const STACK_TRACE = /\n\s+at \S|(TypeError|RangeError|ReferenceError|SyntaxError|AssertionError)\b|node:internal/;

/** What Node prints when out/ is being rewritten by a concurrent `tsc` (a torn build, not the product's doing). */
const TORN_BUILD = /does not provide an export named|ERR_MODULE_NOT_FOUND|Cannot find module/;

// Runs `dsmc args` (killed after timeoutMs) in folder `cwd`, again up to 3 times while the shared out/ is being rebuilt by someone else.
export async function dsmc(args: string[], env: Record<string, string> = {}, timeoutMs = 60_000, cwd?: string): Promise<CliResult> {
  for (let attempt = 1; ; attempt++) {
    const r = await dsmcOnce(args, env, timeoutMs, cwd);
    if (attempt > 3 || !TORN_BUILD.test(r.stderr)) return r;
    await new Promise((done) => setTimeout(done, 3000));
  }
}

// Runs `dsmc args` once; env adds to a copy of this process's environment without DSMC_DEBUG.
async function dsmcOnce(args: string[], env: Record<string, string>, timeoutMs: number, cwd?: string): Promise<CliResult> {
  const { DSMC_DEBUG: _ignored, ...base } = process.env;
  const r = await runNode([BIN, ...args], { env: { ...base, ...env }, cwd, timeout: timeoutMs, killSignal: 'SIGKILL' });
  if (r.error && !r.timedOut) throw r.error;
  return { args, code: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
}

// Runs many dsmc invocations with at most `parallel` at a time; results in the order of `jobs`.
export async function dsmcAll(jobs: string[][], env: Record<string, string> = {}, parallel = 4): Promise<CliResult[]> {
  const out: CliResult[] = new Array(jobs.length);
  let next = 0;
  // Takes the next job until none is left.
  const worker = async () => {
    while (next < jobs.length) {
      const k = next++;
      out[k] = await dsmc(jobs[k], env);
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, jobs.length) }, worker));
  return out;
}

// Number of rows in the runs table of a data folder's database (read-only; 0 when the table does not exist).
export function runRows(dataDir: string): number {
  const db = new Database(join(dataDir, 'runs.sqlite'), { readonly: true, fileMustExist: true });
  try {
    const has = db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name = 'runs'").get() as { n: number };
    return has.n === 0 ? 0 : (db.prepare('SELECT count(*) AS n FROM runs').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

// SHA-256 of every file in a folder (name -> hash), to compare before and after a fault.
export function folderChecksums(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isFile()) out[name] = createHash('sha256').update(readFileSync(p)).digest('hex');
  }
  return out;
}

// Throws a clear error when the compiled CLI is missing (build with npx tsc -p tsconfig.json).
export function requireBuild(): void {
  if (!existsSync(BUILT_MAIN)) throw new Error(`${BUILT_MAIN} is missing: build first with npx tsc -p tsconfig.json (npm test does it)`);
}
