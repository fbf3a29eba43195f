// `dsmc projects`, `runs`, `show`, `delete`, `tag` and `note`: the saved runs in the run database.
import { removeRunCheckpoints, runCheckpointFolder } from '../../solver/checkpoint/checkpoint-folder.js';
import { fieldNamesOf } from '../../common/field-names.js';
import type { RunStatus } from '../../common/run-record.js';
import { RUN_STATUSES } from '../../store/input-schemas.js';
import type { RunStore } from '../../store/run-store.js';
import type { CliCommand } from '../command.js';
import { formatRunDetails, type RunDetails } from '../format-run.js';
import { gasMeansOf } from '../format-results.js';
import { formatProjects, formatRuns } from '../format-runs.js';
import { DATA_DIR_OPTION, positionalCount, runIdArg, withStore } from '../store-args.js';
import { printSafe } from '../terminal-text.js';

const JSON_OPTION = { json: { type: 'boolean', default: false } } as const;

/** Writes one line (or block) to stdout. */
function print(text: string): void {
  printSafe(text + '\n');
}

export const projectsCommand: CliCommand = {
  name: 'projects',
  usage: 'projects [--json] [--data-dir DIR]',
  summary: 'List the projects in the run database with their number of runs.',
  options: { ...JSON_OPTION, ...DATA_DIR_OPTION },
  async run(args) {
    positionalCount(args, 0, 0, projectsCommand.usage);
    withStore(args, (store) => {
      const projects = store.listProjects({ includeArchived: true });
      if (args.values.json) print(JSON.stringify(projects));
      else print(projects.length ? formatProjects(projects) : `no projects yet in ${store.path}; \`dsmc run CASE --project NAME\` makes one`);
    });
    return 0;
  },
};

/** The --status value, checked. */
function statusOf(value: unknown): RunStatus | undefined {
  if (value === undefined) return undefined;
  if (!(RUN_STATUSES as readonly unknown[]).includes(value)) throw new Error(`--status: got "${value}"; expected one of ${RUN_STATUSES.join(', ')}`);
  return value as RunStatus;
}

export const runsCommand: CliCommand = {
  name: 'runs',
  usage: 'runs [--project P] [--status S] [--tag T] [--json] [--data-dir DIR]',
  summary: `List saved runs, oldest first; filter by project, status (${RUN_STATUSES.join('|')}) or tag.`,
  options: { project: { type: 'string' }, status: { type: 'string' }, tag: { type: 'string' }, ...JSON_OPTION, ...DATA_DIR_OPTION },
  async run(args) {
    positionalCount(args, 0, 0, runsCommand.usage);
    const filter = { project: args.values.project as string | undefined, status: statusOf(args.values.status), tag: args.values.tag as string | undefined };
    withStore(args, (store) => {
      const runs = store.listRuns(filter);
      if (args.values.json) print(JSON.stringify(runs));
      else if (runs.length > 0) print(formatRuns(runs));
      else {
        const filtered = filter.project !== undefined || filter.status !== undefined || filter.tag !== undefined;
        print(`no runs${filtered ? ' match these filters' : ''} in ${store.path}${filtered ? '' : '; `dsmc run CASE` saves one'}`);
      }
    });
    return 0;
  },
};

/** Everything `dsmc show` reports about one run. */
function runDetails(store: RunStore, id: number): RunDetails {
  const run = store.getRun(id);
  const steps = store.getSteps(id);
  const fields = store.getFields(id);
  return {
    database: store.path,
    run,
    case: store.getCase(id),
    phases: store.getPhases(id),
    steps: { recorded: steps.length, last: run.lastStep },
    totalsRecorded: store.getTotals(id).length,
    fields: fields && {
      cells: fields.cells, cellSize: fields.cellSize, samples: fields.samples, blocks: fields.blocks,
      names: fieldNamesOf(fields.values),
    },
    gas: gasMeansOf(fields),
  };
}

export const showCommand: CliCommand = {
  name: 'show',
  usage: 'show RUN [--json] [--data-dir DIR]',
  summary: 'Show a saved run: case, adapter, throughput, phase table, conservation, fields, tags and notes.',
  options: { ...JSON_OPTION, ...DATA_DIR_OPTION },
  async run(args) {
    positionalCount(args, 1, 1, showCommand.usage);
    const id = runIdArg(args.positionals[0], showCommand.usage);
    withStore(args, (store) => {
      const d = runDetails(store, id);
      print(args.values.json ? JSON.stringify(d) : formatRunDetails(d));
    }, { mustExist: true });
    return 0;
  },
};

export const deleteCommand: CliCommand = {
  name: 'delete',
  usage: 'delete RUN [--data-dir DIR]',
  summary: 'Delete a saved run and everything recorded about it (its checkpoints included).',
  options: { ...DATA_DIR_OPTION },
  async run(args) {
    positionalCount(args, 1, 1, deleteCommand.usage);
    const id = runIdArg(args.positionals[0], deleteCommand.usage);
    withStore(args, (store) => {
      const run = store.getRun(id);
      store.deleteRun(id);
      // a failed or cancelled run may still hold checkpoints for dsmc resume: they go with it
      removeRunCheckpoints(runCheckpointFolder(store.dataDir, id));
      print(`deleted run ${id} (${run.caseName}, ${run.status})`);
    }, { mustExist: true, verify: true });
    return 0;
  },
};

export const tagCommand: CliCommand = {
  name: 'tag',
  usage: 'tag RUN TAG [--remove] [--data-dir DIR]',
  summary: 'Tag a saved run (--remove takes the tag off); dsmc runs --tag TAG lists the runs with it.',
  options: { remove: { type: 'boolean', default: false }, ...DATA_DIR_OPTION },
  async run(args) {
    positionalCount(args, 2, 2, tagCommand.usage);
    const id = runIdArg(args.positionals[0], tagCommand.usage);
    const tag = args.positionals[1];
    withStore(args, (store) => {
      if (args.values.remove) store.untagRun(id, tag);
      else store.tagRun(id, tag);
      print(`run ${id} tags: ${store.getRun(id).tags.join(', ') || '(none)'}`);
    }, { mustExist: true, verify: true });
    return 0;
  },
};

export const noteCommand: CliCommand = {
  name: 'note',
  usage: 'note RUN TEXT [--data-dir DIR]',
  summary: 'Set the notes of a saved run (replacing them; "" clears them).',
  options: { ...DATA_DIR_OPTION },
  async run(args) {
    if (args.positionals.length < 2) positionalCount(args, 2, 2, noteCommand.usage);
    const id = runIdArg(args.positionals[0], noteCommand.usage);
    const text = args.positionals.slice(1).join(' ');
    withStore(args, (store) => {
      store.setNotes(id, text);
      print(text ? `notes of run ${id} set` : `notes of run ${id} cleared`);
    }, { mustExist: true, verify: true });
    return 0;
  },
};
