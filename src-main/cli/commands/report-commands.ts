// `dsmc report profile`, `dsmc export vtk` and `dsmc compare`: reports on runs kept in the run database.
import { buildComparison } from '../../common/reports/compare-model.js';
import { buildProfileReport } from '../../common/reports/profile-model.js';
import { comparisonText } from '../../reports/compare-text.js';
import { exportProfile, PROFILE_FORMATS, profileFormatOf } from '../../reports/export-profile.js';
import { loadCompareInput, loadProfileInput, requireFields } from '../../reports/run-source.js';
import { fieldsToVti } from '../../reports/vtk-image-data.js';
import { writeFileAtomic } from '../../reports/write-atomic.js';
import { RunStore } from '../../store/run-store.js';
import type { CliCommand, CommandArgs } from '../command.js';

/** A run id from the command line, or an error saying where ids come from. */
export function runIdOf(text: string): number {
  const id = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(id) || id < 1) throw new Error(`RUN: got "${text}"; expected a run id (a positive integer), see dsmc runs`);
  return id;
}

/** The --out path, required. */
function outOf(args: CommandArgs, example: string): string {
  const out = args.values.out;
  if (typeof out !== 'string' || out === '') throw new Error(`--out FILE is required, e.g. dsmc ${example}`);
  return out;
}

/** Runs `body` with the run database of --data-dir (or the default), closing it afterwards. */
async function withStore<T>(args: CommandArgs, body: (store: RunStore) => Promise<T> | T): Promise<T> {
  const store = RunStore.open({ dataDir: typeof args.values['data-dir'] === 'string' ? args.values['data-dir'] : undefined });
  try {
    return await body(store);
  } finally {
    store.close();
  }
}

/** `what ID` positionals (e.g. `profile 3`), checked. */
function subcommandAndRun(args: CommandArgs, what: string, example: string): number {
  const [sub, run, ...rest] = args.positionals;
  if (sub !== what || run === undefined || rest.length > 0) throw new Error(`expected ${what} RUN, e.g. dsmc ${example}`);
  return runIdOf(run);
}

export const reportCommand: CliCommand = {
  name: 'report',
  usage: `report profile RUN --format ${PROFILE_FORMATS.join('|')} --out FILE [--data-dir DIR]`,
  summary: "Write a run's profiling report (SPARTA-style phase table, throughput, conservation, charts, the case):\n" +
    'html is one self-contained file that opens offline; pdf prints it with headless Chromium (apt-get install chromium).',
  options: { format: { type: 'string', default: 'html' }, out: { type: 'string' }, 'data-dir': { type: 'string' } },
  async run(args) {
    const example = 'report profile 3 --format html --out run3.html';
    const id = subcommandAndRun(args, 'profile', example);
    const format = profileFormatOf(args.values.format);
    const out = outOf(args, example);
    const report = await withStore(args, (store) => buildProfileReport(loadProfileInput(store, id)));
    await exportProfile(report, format, out);
    process.stdout.write(`wrote ${out} (${format}, run ${id})\n`);
    return 0;
  },
};

export const exportCommand: CliCommand = {
  name: 'export',
  usage: 'export vtk RUN --out FILE.vti [--data-dir DIR]',
  summary: "Write a run's sampled fields and their standard errors as VTK ImageData (.vti) for ParaView.",
  options: { out: { type: 'string' }, 'data-dir': { type: 'string' } },
  async run(args) {
    const example = 'export vtk 3 --out run3.vti';
    const id = subcommandAndRun(args, 'vtk', example);
    const out = outOf(args, example);
    const fields = await withStore(args, (store) => requireFields(store, id));
    await writeFileAtomic(out, fieldsToVti(fields));
    process.stdout.write(`wrote ${out} (${fields.cells.join('x')} cells, run ${id})\n`);
    return 0;
  },
};

export const compareCommand: CliCommand = {
  name: 'compare',
  usage: 'compare RUN RUN [...] [--json] [--data-dir DIR]',
  summary: 'Compare runs with the first: case differences, throughput and phase times with ratios, and per-cell\n' +
    'field differences in units of their standard errors (|z| > 3 in many cells: a real change, not DSMC noise).',
  options: { json: { type: 'boolean', default: false }, 'data-dir': { type: 'string' } },
  async run(args) {
    if (args.positionals.length < 2) throw new Error('expected two or more run ids, e.g. dsmc compare 3 4');
    const ids = args.positionals.map(runIdOf);
    const comparison = await withStore(args, (store) => buildComparison(ids.map((id) => loadCompareInput(store, id))));
    process.stdout.write(args.values.json ? JSON.stringify(comparison) + '\n' : comparisonText(comparison));
    return 0;
  },
};
