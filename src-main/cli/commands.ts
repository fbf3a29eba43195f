// The `dsmc run`, `dsmc bench` and `dsmc check` commands.
import { formatPrelaunch, type PrelaunchReport } from '../cases/prelaunch.js';
import { openGpu } from '../solver/gpu/device.js';
import { checkCase, loadCase, runCase } from '../solver/run-case.js';
import { readCaseFile } from './case-file.js';
import { formatSummary } from './format-summary.js';
import { progressBar } from './progress.js';

/** Options shared by the commands. */
export interface CommandOptions {
  sets: string[];
  json: boolean;
  timing: 'auto' | 'wall';
  progress: boolean;
  particles?: string;
  warmup?: number;
}

/** Prints pre-launch warnings on stderr. */
function reportPrelaunch(r: PrelaunchReport): void {
  if (r.warnings.length > 0) process.stderr.write(`pre-launch check:\n${formatPrelaunch(r)}\n`);
}

/** dsmc run CASE: runs a case and prints the summary. */
export async function runCommand(ref: string, o: CommandOptions): Promise<number> {
  const c = loadCase(readCaseFile(ref), o.sets);
  const bar = progressBar(o.progress);
  const controller = new AbortController();
  const onSigint = () => controller.abort();
  process.once('SIGINT', onSigint);
  try {
    const { summary } = await runCase(c, { timing: o.timing, warmupSteps: o.warmup, onProgress: (p) => bar.update(p), onPrelaunch: reportPrelaunch, signal: controller.signal });
    bar.stop();
    process.stdout.write(o.json ? JSON.stringify(summary) + '\n' : formatSummary(summary) + '\n');
    return 0;
  } finally {
    bar.stop();
    process.off('SIGINT', onSigint);
  }
}

/** dsmc bench: collide-box scaled to about --particles particles (10 per cell, cubic grid), timed after 20 warm-up steps. */
export async function benchCommand(o: CommandOptions): Promise<number> {
  const particles = Number(o.particles ?? 1e6);
  if (!(particles >= 10) || !Number.isFinite(particles)) throw new Error(`--particles: got "${o.particles}"; expected a number >= 10, e.g. 16e6`);
  const side = Math.max(1, Math.round(Math.cbrt(particles / 10)));
  const sets = [`grid.cells=[${side},${side},${side}]`, 'run.steps=200', 'sampling.enabled=false', ...o.sets];
  return runCommand('collide-box', { ...o, sets, warmup: o.warmup ?? 20 });
}

/** dsmc check CASE: validates and prints the pre-launch check on the default adapter. */
export async function checkCommand(ref: string, o: CommandOptions): Promise<number> {
  const c = loadCase(readCaseFile(ref), o.sets);
  const gpu = await openGpu();
  try {
    const report = checkCase(c, gpu);
    const adapter = { description: gpu.adapter.description, backend: gpu.adapter.backend };
    process.stdout.write(o.json ? JSON.stringify({ ...report, adapter }) + '\n' : `adapter: ${adapter.description} [${adapter.backend}]\n${formatPrelaunch(report)}\n`);
    return report.ok ? 0 : 1;
  } finally {
    gpu.device.destroy();
  }
}
