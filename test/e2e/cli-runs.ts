// Runs a case with the built CLI into the data folder of a running `dsmc serve`, for the end-to-end tests that need
// finished runs without walking the editor and launch pages (tiny cases: a few seconds each on lavapipe).
import { join } from 'node:path';
import { runNode } from '../helpers/run-process.js';
import { ROOT } from './browser-session.js';

/** `dsmc ARGS --data-dir DIR`; returns stdout, throws with the output when it fails. */
export async function dsmc(dataDir: string, args: string[]): Promise<string> {
  const r = await runNode([join(ROOT, 'bin', 'dsmc.js'), ...args, '--data-dir', dataDir], { timeout: 120_000 });
  if (r.status !== 0) throw new Error(`dsmc ${args.join(' ')} failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

/** Runs CASE with `--set` overrides into project P; returns the saved run's id. */
export async function runCase(dataDir: string, kase: string, project: string, sets: string[]): Promise<number> {
  const out = await dsmc(dataDir, ['run', kase, '--project', project, '--no-progress', ...sets.flatMap((s) => ['--set', s])]);
  const m = /saved as run (\d+)/.exec(out);
  if (!m) throw new Error(`no run id in the output of dsmc run ${kase}:\n${out}`);
  return Number(m[1]);
}
