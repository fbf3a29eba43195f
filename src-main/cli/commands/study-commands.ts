// `dsmc study strong|weak CASE --gpus 1,2,4`: runs a scaling series (the same case on each GPU count, or for
// weak scaling the case grown along z with the GPU count) and stores it as one study; `study show|delete`.
import type { StudyKind } from '../../common/run-record.js';
import { buildScalingReport } from '../../common/reports/scaling-model.js';
import { loadScalingInput } from '../../reports/scaling-source.js';
import { caseHashOf } from '../../store/canonical-json.js';
import { RunStore } from '../../store/run-store.js';
import { loadCase } from '../../solver/run-case.js';
import { readCaseFile } from '../case-file.js';
import type { CliCommand, CommandArgs } from '../command.js';
import { RUN_OPTIONS, runCaseFile, timingOf } from './solver-commands.js';
import { STUDY_STORE_SUBCOMMANDS, formatStudy } from './study-store-commands.js';
import { forTerminal, printSafe } from '../terminal-text.js';

const USAGE = 'study strong|weak CASE --gpus 1,2,4 [--repeat N] [--decomposition slab|block|rcb] [--set path=value ...] [--warmup N] [--name NAME] [--project P] [--data-dir DIR] [--json]\n' +
  '       dsmc study show STUDY [--json] | dsmc study delete STUDY';

/** The GPU counts of --gpus (ascending, distinct, each >= 1). */
export function gpuCounts(text: string | undefined): number[] {
  if (!text) throw new Error('--gpus: missing; give the GPU counts of the series, e.g. --gpus 1,2,4');
  const counts = text.split(',').map((t) => t.trim());
  const out = counts.map((t) => {
    const n = Number(t);
    if (!Number.isInteger(n) || n < 1 || n > 256) throw new Error(`--gpus: "${t}" is not a GPU count from 1 to 256; e.g. --gpus 1,2,4`);
    return n;
  });
  if (new Set(out).size !== out.length) throw new Error(`--gpus: ${text} repeats a count; list each GPU count once, e.g. --gpus 1,2,4`);
  return out.sort((a, b) => a - b);
}

/** --repeat: runs per GPU count (1 to 20; default 1). */
export function repeatCount(text: string | undefined): number {
  if (text === undefined) return 1;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1 || n > 20) throw new Error(`--repeat: got "${text}"; expected the number of runs per GPU count, 1 to 20 (the report uses the median run)`);
  return n;
}

/** The --set that grows a case's grid along z by `factor` (weak scaling keeps the load per GPU). */
export function weakGrowth(cells: [number, number, number], factor: number): string {
  return `grid.cells=[${cells[0]},${cells[1]},${cells[2] * factor}]`;
}

/** Runs one study series and stores it; returns the study id. */
async function runStudy(kind: StudyKind, args: CommandArgs): Promise<number> {
  const ref = args.positionals[1];
  if (!ref || args.positionals.length !== 2) throw new Error(`expected a study kind and one CASE; usage: dsmc ${USAGE}`);
  const sets = args.values.set as string[];
  const base = loadCase(readCaseFile(ref), sets);
  const counts = gpuCounts(args.values.gpus as string | undefined);
  const repeats = repeatCount(args.values.repeat as string | undefined);
  const warmupText = (args.values.warmup as string | undefined) ?? '20';
  const warmup = Number(warmupText);
  if (!Number.isInteger(warmup) || warmup < 0) throw new Error(`--warmup: got "${warmupText}"; expected a whole number of untimed steps >= 0`);
  const dataDir = args.values['data-dir'] as string | undefined;
  const project = args.values.project as string;
  const store = RunStore.open({ dataDir, verify: true });
  try {
    const name = (args.values.name as string | undefined) ?? `${kind} scaling of ${base.name} on ${counts.join(', ')} GPUs${repeats > 1 ? `, ${repeats} runs each` : ''}`;
    const study = store.createStudy({ name, kind, project, caseName: base.name, caseHash: caseHashOf(base) });
    process.stderr.write(forTerminal(`study ${study.id}: ${name}\n`));
    // repeats go round the GPU counts in turn, so a slow spell of the machine does not hit one count only
    for (const [repeat, n] of Array.from({ length: repeats }, (_, k) => counts.map((c) => [k + 1, c] as const)).flat()) {
      const grown = kind === 'weak' && n > 1 ? [weakGrowth(base.grid.cells, n)] : [];
      const which = repeats > 1 ? `, run ${repeat} of ${repeats}` : '';
      process.stderr.write(`\n== ${n} GPU${n > 1 ? 's' : ''}${grown.length ? ` (${grown[0]})` : ''}${which}\n`);
      const done = await runCaseFile(ref, {
        sets: [...sets, ...grown], json: false, timing: timingOf(args), detail: false, progress: !args.values['no-progress'],
        warmup, save: { project, dataDir }, ranks: n, decomposition: args.values.decomposition as 'slab' | 'block' | 'rcb' | undefined,
      });
      store.addStudyRun(study.id, done.runId!, n);
    }
    const report = buildScalingReport(loadScalingInput(store, study.id));
    const finished = store.getStudy(study.id);
    printSafe(args.values.json ? JSON.stringify({ study: finished, report }) + '\n' : '\n' + formatStudy(finished, report) + '\n');
    return study.id;
  } finally {
    store.close();
  }
}

export const studyCommand: CliCommand = {
  name: 'study',
  usage: USAGE,
  summary: 'Scaling studies: run CASE on each GPU count of --gpus (strong: the same problem; weak: the grid grown along z\n' +
    'with the GPU count), --repeat N times in turn (the report uses each count\'s median run and shows the spread), and\n' +
    'store the series as one study (dsmc report scaling STUDY); show or delete a study.',
  options: { ...RUN_OPTIONS, gpus: { type: 'string' }, repeat: { type: 'string' }, warmup: { type: 'string' }, name: { type: 'string' } },
  async run(args) {
    const word = args.positionals[0];
    if (word === 'strong' || word === 'weak') {
      await runStudy(word, args);
      return 0;
    }
    if (word === 'show' || word === 'delete') return STUDY_STORE_SUBCOMMANDS[word].run({ ...args, positionals: args.positionals });
    throw new Error(`unknown study action "${word ?? ''}"; usage: dsmc ${USAGE}`);
  },
};
