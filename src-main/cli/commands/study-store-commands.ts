// `dsmc studies`, `dsmc study show STUDY` and `dsmc study delete STUDY`: the scaling studies kept in the run
// database. Not registered here: the `study` command (strong|weak runs) dispatches its words `show` and
// `delete` to STUDY_STORE_SUBCOMMANDS, and the command table lists studiesCommand.
import { buildScalingReport, type ScalingReport } from '../../common/reports/scaling-model.js';
import type { StudyRecord } from '../../common/run-record.js';
import { loadScalingInput } from '../../reports/scaling-source.js';
import type { CliCommand, CommandArgs } from '../command.js';
import { localTime } from '../format-runs.js';
import { table } from '../format-summary.js';
import { DATA_DIR_OPTION, positionalCount, withStore } from '../store-args.js';
import { printSafe } from '../terminal-text.js';

const JSON_OPTION = { json: { type: 'boolean', default: false } } as const;

/** Writes one line (or block) to stdout. */
function print(text: string): void {
  printSafe(text + '\n');
}

/** A STUDY argument as a study id; the error shows the usage. */
export function studyIdArg(text: string | undefined, usage: string): number {
  if (text === undefined) throw new Error(`missing STUDY (a study id from \`dsmc studies\`); usage: dsmc ${usage}`);
  if (!/^[1-9][0-9]*$/.test(text)) throw new Error(`STUDY must be a study id (a positive integer from \`dsmc studies\`), got "${text}"; usage: dsmc ${usage}`);
  return Number(text);
}

/** The study id after the sub-word (`show 3`, `delete 3`), checked. */
function subcommandStudy(args: CommandArgs, word: string, usage: string): number {
  positionalCount(args, 2, 2, usage);
  if (args.positionals[0] !== word) throw new Error(`unknown study subcommand "${args.positionals[0]}", expected ${word}; usage: dsmc ${usage}`);
  return studyIdArg(args.positionals[1], usage);
}

/** The table of `dsmc studies`. */
export function formatStudies(studies: StudyRecord[]): string {
  const rows = [['id', 'project', 'name', 'kind', 'case', 'GPUs', 'completed', 'created']];
  for (const s of studies) {
    const done = s.runs.filter((r) => r.run.status === 'completed').length;
    rows.push([String(s.id), s.project, s.name, s.kind, s.caseName, s.runs.map((r) => r.gpus).join(',') || '-',
      `${done}/${s.runs.length}`, localTime(s.createdAt)]);
  }
  const width = Math.max(...rows.map((r) => r[0].length));
  return table(rows.map((r, i) => (i === 0 ? r : [r[0].padStart(width), ...r.slice(1)])));
}

/** The text of `dsmc study show`: the study, one line per run with speedup and efficiency, the model. */
export function formatStudy(study: StudyRecord, report: ScalingReport): string {
  const lines = [`study ${study.id}: ${study.name} (${study.kind} scaling of ${study.caseName}, project ${study.project}, created ${localTime(study.createdAt)})`];
  if (study.notes) lines.push(`notes: ${study.notes}`);
  const rows = [['GPUs', 'run', 'status', 'ranks', 'loop s', 'particle-steps/s/GPU', 'speedup', 'efficiency', 'UN mean %']];
  for (const r of study.runs) {
    const p = report.points.find((x) => x.runId === r.runId);
    // a repeat that is not its GPU count's median run: its own time and throughput, the median's row has the rest
    const repeat = !p && report.points.some((x) => x.repeats.runIds.includes(r.runId)) ? r.run.summary : null;
    const un = p?.balance.loadNonUniformity?.meanPercent;
    const loop = p ? p.loopSeconds : repeat?.seconds;
    const perGpu = p ? p.particleStepsPerSecondPerGpu : repeat ? repeat.particleSteps / repeat.seconds / r.gpus : undefined;
    rows.push([String(r.gpus), String(r.runId), r.run.status, String(r.run.ranks), loop === undefined ? '-' : loop.toFixed(3),
      perGpu === undefined ? '-' : perGpu.toExponential(3), p ? p.speedup.toFixed(3) : repeat ? '(repeat)' : '-',
      p ? `${(100 * p.efficiency).toFixed(1)} %${p.repeats.runIds.length > 1 ? ` (median of ${p.repeats.runIds.length}, spread ${p.repeats.spreadPercent.toFixed(1)} %)` : ''}` : '-',
      un === undefined ? '-' : un.toFixed(1)]);
  }
  lines.push(study.runs.length ? table(rows) : 'no runs yet');
  const f = report.fit;
  if (f) {
    lines.push(`model: ${f.formula}: T1 = ${f.t1Seconds.toFixed(3)} s, s = ${f.serialFraction.toExponential(3)}, c = ${f.commSeconds.toExponential(3)} s, ` +
      `RMS residual ${(100 * f.relativeRmsResidual).toFixed(2)} %; predicted (not measured) ` +
      f.predictions.map((p) => `on ${p.gpus} GPUs: ${p.seconds.toFixed(3)} s, speedup ${p.speedup.toFixed(2)}, efficiency ${(100 * p.efficiency).toFixed(1)} %`).join('; '));
  }
  if (report.fitNote) lines.push(report.fitNote);
  for (const w of report.warnings) lines.push(`warning: ${w}`);
  lines.push(`full report: dsmc report scaling ${study.id} --format html|csv|zip|json|pdf`);
  return lines.join('\n');
}

export const studiesCommand: CliCommand = {
  name: 'studies',
  usage: 'studies [--project P] [--json] [--data-dir DIR]',
  summary: 'List the scaling studies in the run database, oldest first, with their GPU counts and completed runs.',
  options: { project: { type: 'string' }, ...JSON_OPTION, ...DATA_DIR_OPTION },
  async run(args) {
    positionalCount(args, 0, 0, studiesCommand.usage);
    withStore(args, (store) => {
      const studies = store.listStudies({ project: args.values.project as string | undefined });
      if (args.values.json) print(JSON.stringify(studies));
      else if (studies.length > 0) print(formatStudies(studies));
      else print(`no studies${args.values.project !== undefined ? ` in project "${args.values.project}"` : ''} in ${store.path}; \`dsmc study strong|weak CASE --gpus 1,2,4\` makes one`);
    });
    return 0;
  },
};

const SHOW_USAGE = 'study show STUDY [--json] [--data-dir DIR]';

export const studyShowCommand: CliCommand = {
  name: 'study',
  usage: SHOW_USAGE,
  summary: 'Show a scaling study: its runs by GPU count with speedup, efficiency and UN, and the fitted model.',
  options: { ...JSON_OPTION, ...DATA_DIR_OPTION },
  async run(args) {
    const id = subcommandStudy(args, 'show', SHOW_USAGE);
    withStore(args, (store) => {
      const study = store.getStudy(id);
      const report = buildScalingReport(loadScalingInput(store, id));
      print(args.values.json ? JSON.stringify({ study, report }) : formatStudy(study, report));
    });
    return 0;
  },
};

const DELETE_USAGE = 'study delete STUDY [--data-dir DIR]';

export const studyDeleteCommand: CliCommand = {
  name: 'study',
  usage: DELETE_USAGE,
  summary: 'Delete a scaling study; its runs stay (delete them with `dsmc delete RUN`).',
  options: { ...DATA_DIR_OPTION },
  async run(args) {
    const id = subcommandStudy(args, 'delete', DELETE_USAGE);
    withStore(args, (store) => {
      const study = store.getStudy(id);
      store.deleteStudy(id);
      print(`deleted study ${id} (${study.name}); its ${study.runs.length} run(s) stay: ${study.runs.map((r) => r.runId).join(', ') || '(none)'}`);
    });
    return 0;
  },
};

/** The words of `dsmc study` that this file serves, for the study command's dispatch. */
export const STUDY_STORE_SUBCOMMANDS: Record<'show' | 'delete', CliCommand> = { show: studyShowCommand, delete: studyDeleteCommand };
