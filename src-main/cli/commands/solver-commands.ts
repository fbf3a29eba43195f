// `dsmc run`, `dsmc bench` and `dsmc check`: a case on the default GPU adapter.
import { formatPrelaunch, type PrelaunchReport } from '../../cases/prelaunch.js';
import { openGpu } from '../../solver/gpu/device.js';
import { checkCase, loadCase, runCase } from '../../solver/run-case.js';
import type { RunSummary } from '../../solver/summary.js';
import { readCaseFile } from '../case-file.js';
import { CASE_OPTIONS, onePositional, type CliCommand, type CommandArgs, type CommandOptions } from '../command.js';
import { formatSummary } from '../format-summary.js';
import { progressBar } from '../progress.js';

/** Options of a run from the command line. */
interface RunOptions {
  sets: string[];
  json: boolean;
  timing: 'auto' | 'wall';
  progress: boolean;
  warmup?: number;
}

/** The --timing value, checked. */
function timingOf(args: CommandArgs): 'auto' | 'wall' {
  const t = args.values.timing;
  if (t !== 'auto' && t !== 'wall') throw new Error(`--timing: got "${t}"; expected auto or wall`);
  return t;
}

/** Prints pre-launch warnings on stderr. */
function reportPrelaunch(r: PrelaunchReport): void {
  if (r.warnings.length > 0) process.stderr.write(`pre-launch check:\n${formatPrelaunch(r)}\n`);
}

/** Runs a case file with overrides and prints the summary; Ctrl-C cancels between submits. */
export async function runCaseFile(ref: string, o: RunOptions): Promise<RunSummary> {
  const c = loadCase(readCaseFile(ref), o.sets);
  const bar = progressBar(o.progress);
  const controller = new AbortController();
  const onSigint = () => controller.abort();
  process.once('SIGINT', onSigint);
  try {
    const { summary } = await runCase(c, { timing: o.timing, warmupSteps: o.warmup, onProgress: (p) => bar.update(p), onPrelaunch: reportPrelaunch, signal: controller.signal });
    bar.stop();
    process.stdout.write(o.json ? JSON.stringify(summary) + '\n' : formatSummary(summary) + '\n');
    return summary;
  } finally {
    bar.stop();
    process.off('SIGINT', onSigint);
  }
}

const RUN_OPTIONS: CommandOptions = {
  ...CASE_OPTIONS,
  timing: { type: 'string', default: 'auto' },
  'no-progress': { type: 'boolean', default: false },
};

export const runCommand: CliCommand = {
  name: 'run',
  usage: 'run CASE [--set path=value ...] [--json] [--timing auto|wall] [--no-progress]',
  summary: 'Run a case (a .json path or a preset name) on the default GPU adapter.\n' +
    '--set overrides any field, value as JSON:  --set grid.cells=[40,40,40] --set run.steps=200\n' +
    '--json prints the summary as one JSON object on the last line of stdout.',
  options: RUN_OPTIONS,
  async run(args) {
    const ref = onePositional(args, 'CASE (a .json path or preset name)', 'run collide-box');
    await runCaseFile(ref, { sets: args.values.set as string[], json: !!args.values.json, timing: timingOf(args), progress: !args.values['no-progress'] });
    return 0;
  },
};

export const benchCommand: CliCommand = {
  name: 'bench',
  usage: 'bench [--particles N] [--set path=value ...] [--json]',
  summary: "Run the collide-box benchmark (SPARTA's bench/in.collide physics), ~N particles (default 1e6),\n" +
    '200 timed steps after 20 untimed warm-up steps; sampling off.',
  options: { ...RUN_OPTIONS, particles: { type: 'string', default: '1e6' } },
  async run(args) {
    const text = args.values.particles as string;
    const particles = Number(text);
    if (!(particles >= 10) || !Number.isFinite(particles)) throw new Error(`--particles: got "${text}"; expected a number >= 10, e.g. 16e6`);
    const side = Math.max(1, Math.round(Math.cbrt(particles / 10)));
    const sets = [`grid.cells=[${side},${side},${side}]`, 'run.steps=200', 'sampling.enabled=false', ...(args.values.set as string[])];
    await runCaseFile('collide-box', { sets, json: !!args.values.json, timing: timingOf(args), progress: !args.values['no-progress'], warmup: 20 });
    return 0;
  },
};

export const checkCommand: CliCommand = {
  name: 'check',
  usage: 'check CASE [--set path=value ...] [--json]',
  summary: 'Validate a case and print the pre-launch check (mean free path, dt, particles per cell, memory).',
  options: CASE_OPTIONS,
  async run(args) {
    const ref = onePositional(args, 'CASE (a .json path or preset name)', 'check collide-box');
    const c = loadCase(readCaseFile(ref), args.values.set as string[]);
    const gpu = await openGpu();
    try {
      const report = checkCase(c, gpu);
      const adapter = { description: gpu.adapter.description, backend: gpu.adapter.backend };
      process.stdout.write(args.values.json ? JSON.stringify({ ...report, adapter }) + '\n' : `adapter: ${adapter.description} [${adapter.backend}]\n${formatPrelaunch(report)}\n`);
      return report.ok ? 0 : 1;
    } finally {
      gpu.device.destroy();
    }
  },
};
