// `dsmc report profile|scaling`, `dsmc export vtk` and `dsmc compare`: reports on runs and studies kept in the run database.
import { writeFileSync } from 'node:fs';
import { buildComparison } from '../../common/reports/compare-model.js';
import { buildProfileReport } from '../../common/reports/profile-model.js';
import { buildScalingReport } from '../../common/reports/scaling-model.js';
import { comparisonText } from '../../reports/compare-text.js';
import { loadCompareInput, loadProfileInput, requireFields } from '../../reports/run-source.js';
import { loadScalingInput } from '../../reports/scaling-source.js';
import { runFieldsVti, runSurfaceVtp } from '../../reports/vtk-export.js';
import { checkOutputTarget, reportFormat, vtkPair, type OutputGuard } from '../../reports/output-target.js';
import { writeOutputs } from '../../reports/write-atomic.js';
import { resolveDataDir } from '../../store/data-dir.js';
import type { CliCommand, CommandArgs } from '../command.js';
import { DATA_DIR_OPTION, positionalCount, runIdArg, withStore } from '../store-args.js';
import { studyIdArg } from './study-store-commands.js';
import { printSafe } from '../terminal-text.js';

/** The --out path, required. */
function outOf(args: CommandArgs, usage: string): string {
  const out = args.values.out;
  if (typeof out !== 'string' || out === '') throw new Error(`--out FILE is required; usage: dsmc ${usage}`);
  return out;
}

/** What an output of a command may never overwrite: the run database and checkpoints of its data folder. */
export function outputGuard(args: CommandArgs): OutputGuard {
  return { dataDirs: [resolveDataDir(args.values['data-dir'] as string | undefined)] };
}

/** The --format value when given (checked by `formatOf`), else undefined (the --out extension then chooses). */
function givenFormat<F>(args: CommandArgs, formatOf: (text: unknown) => F): F | undefined {
  return args.values.format === undefined ? undefined : formatOf(args.values.format);
}

/** The run id after a sub-word (`profile 3`, `vtk 3`), checked. */
function subcommandRun(args: CommandArgs, word: string, usage: string): number {
  positionalCount(args, 2, 2, usage);
  if (args.positionals[0] !== word) throw new Error(`unknown kind "${args.positionals[0]}", expected ${word}; usage: dsmc ${usage}`);
  return runIdArg(args.positionals[1], usage);
}

const PROFILE_USAGE = 'report profile RUN --format html|csv|zip|json|pdf --out FILE [--data-dir DIR]';
const SCALING_USAGE = 'report scaling STUDY [--format html|csv|zip|json|pdf] [--out FILE] [--data-dir DIR]';
const REPORT_USAGE = `${PROFILE_USAGE}\n       dsmc ${SCALING_USAGE}`;

/** `report profile RUN`: the profiling report of one run (--out required). */
async function reportProfile(args: CommandArgs): Promise<number> {
  const id = subcommandRun(args, 'profile', PROFILE_USAGE);
  // loaded on demand: ECharts takes ~0.6 s to load and only reports need it
  const { exportProfile, profileFormatOf, PROFILE_FORMATS } = await import('../../reports/export-profile.js');
  const { loadReportFigures } = await import('../../reports/report-figures.js');
  const out = outOf(args, PROFILE_USAGE);
  const guard = outputGuard(args);
  checkOutputTarget(out, guard);
  const format = reportFormat(out, givenFormat(args, profileFormatOf), PROFILE_FORMATS, 'html');
  // the JSON model has no figures; the other formats draw or tabulate the field maps and surface distributions
  const { report, figures } = withStore(args, (store) => ({
    report: buildProfileReport(loadProfileInput(store, id)), figures: format === 'json' ? null : loadReportFigures(store, id),
  }));
  await exportProfile(report, format, out, guard, figures);
  process.stdout.write(`wrote ${out} (${format} profile of run ${id})\n`);
  return 0;
}

/** `report scaling STUDY`: speedup, efficiency, phases, UN and the fitted model of a study (--out defaults to study-ID-scaling.FORMAT). */
async function reportScaling(args: CommandArgs): Promise<number> {
  positionalCount(args, 2, 2, SCALING_USAGE);
  const id = studyIdArg(args.positionals[1], SCALING_USAGE);
  const { defaultScalingOut, exportScaling, scalingFormatOf, SCALING_FORMATS } = await import('../../reports/scaling-export.js');
  const given = givenFormat(args, scalingFormatOf);
  const out = typeof args.values.out === 'string' ? args.values.out : defaultScalingOut(id, given ?? 'html');
  const guard = outputGuard(args);
  checkOutputTarget(out, guard);
  const format = reportFormat(out, given, SCALING_FORMATS, 'html');
  const report = withStore(args, (store) => buildScalingReport(loadScalingInput(store, id)));
  await exportScaling(report, format, out, guard);
  const fit = report.fit ? `, model s = ${report.fit.serialFraction.toExponential(2)}, ${report.fit.prediction.gpus} GPUs predicted` : '';
  process.stdout.write(`wrote ${out} (${format} ${report.study.kind} scaling report of study ${id}: ${report.points.length} GPU count(s)${fit})\n`);
  for (const w of report.warnings) process.stderr.write(`warning: ${w}\n`);
  return 0;
}

/** The report kinds by their word. */
const REPORT_KINDS: Record<string, (args: CommandArgs) => Promise<number>> = { profile: reportProfile, scaling: reportScaling };

export const reportCommand: CliCommand = {
  name: 'report',
  usage: REPORT_USAGE,
  summary: "Write a run's profiling report (SPARTA-style phase table, throughput, conservation, charts, the case) or a\n" +
    "study's scaling report (speedup, efficiency, phases, UN, throughput per GPU, fitted model and prediction);\n" +
    'html is one self-contained file that opens offline (a run\'s field maps and surface distributions included), pdf prints it\n' +
    'with headless Chromium (apt-get install chromium), csv is one file of sections, zip one CSV file per table (pandas, spreadsheets).',
  options: { ...DATA_DIR_OPTION, format: { type: 'string' }, out: { type: 'string' } },
  async run(args) {
    const kind = args.positionals[0];
    const handler = kind !== undefined && Object.hasOwn(REPORT_KINDS, kind) ? REPORT_KINDS[kind] : undefined;
    if (!handler) {
      throw new Error(`${kind === undefined ? 'missing the report kind' : `unknown report kind "${kind}"`}, expected ${Object.keys(REPORT_KINDS).join(' or ')}; usage: dsmc ${REPORT_USAGE}`);
    }
    return handler(args);
  },
};

const EXPORT_USAGE = 'export vtk RUN --out FILE.vti [--data-dir DIR]  (a case with bodies also gets FILE.vtp, its surfaces; FILE alone gets .vti added)';

export const exportCommand: CliCommand = {
  name: 'export',
  usage: EXPORT_USAGE,
  summary: "Write a run's sampled fields and their standard errors as VTK ImageData (.vti) that ParaView opens; with bodies,\n" +
    'also their surfaces (pressure, shear, heat flux, coefficients per triangle) as PolyData (.vtp) beside it.',
  options: { ...DATA_DIR_OPTION, out: { type: 'string' } },
  async run(args) {
    const id = subcommandRun(args, 'vtk', EXPORT_USAGE);
    const out = vtkPair(outOf(args, EXPORT_USAGE));
    const guard = outputGuard(args);
    checkOutputTarget(out.vti, guard, ['.vti']);
    const { vti, vtp, cells } = withStore(args, (store) => {
      const surface = store.getSurface(id);
      return {
        vti: runFieldsVti(store, id), cells: requireFields(store, id).cells,
        vtp: surface && surface.triangleBody.length > 0 ? { text: runSurfaceVtp(store, id), triangles: surface.triangleBody.length } : null,
      };
    });
    // both targets are checked before either is written; "wrote" is printed only once both are in place
    const files = [{ path: out.vti, extensions: ['.vti'], write: (tmp: string) => writeFileSync(tmp, vti) }];
    if (vtp) files.push({ path: out.vtp, extensions: ['.vtp'], write: (tmp: string) => writeFileSync(tmp, vtp.text) });
    await writeOutputs(files, guard);
    process.stdout.write(`wrote ${out.vti} (${cells.join('x')} cells of run ${id})\n`);
    if (vtp) process.stdout.write(`wrote ${out.vtp} (${vtp.triangles} body triangles of run ${id})\n`);
    return 0;
  },
};

const COMPARE_USAGE = 'compare RUN RUN [...] [--json] [--data-dir DIR]';

export const compareCommand: CliCommand = {
  name: 'compare',
  usage: COMPARE_USAGE,
  summary: 'Compare runs with the first: case differences, throughput and phase times with ratios, and per-cell\n' +
    'field differences in standard errors (|z| > 3 in many cells: a real change, not DSMC noise).',
  options: { ...DATA_DIR_OPTION, json: { type: 'boolean', default: false } },
  async run(args) {
    if (args.positionals.length < 2) throw new Error(`expected two or more run ids, got ${args.positionals.length}; usage: dsmc ${COMPARE_USAGE}`);
    const ids = args.positionals.map((p) => runIdArg(p, COMPARE_USAGE));
    const comparison = withStore(args, (store) => buildComparison(ids.map((id) => loadCompareInput(store, id))));
    printSafe(args.values.json ? JSON.stringify(comparison) + '\n' : comparisonText(comparison));
    return 0;
  },
};
