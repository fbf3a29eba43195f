// `dsmc fields RUN`: a saved run's sampled values on a plane, a line or a point, with standard errors (CSV or JSON).
import { parseSelection } from '../../common/reports/field-selection.js';
import { requireFields } from '../../reports/run-source.js';
import { chosenFields, fieldTable, fieldTableCsv } from '../../reports/field-table.js';
import type { CliCommand } from '../command.js';
import { DATA_DIR_OPTION, positionalCount, runIdArg, withStore } from '../store-args.js';
import { printSafe } from '../terminal-text.js';

const USAGE = 'fields RUN (--plane AXIS=I | --line A=I,B=J | --point x=I,y=J,z=K | --at x=METRES[,y=...[,z=...]]) [--fields n,T,...] [--json] [--data-dir DIR]';

export const fieldsCommand: CliCommand = {
  name: 'fields',
  usage: USAGE,
  summary: "Print a saved run's sampled fields on a plane, a line or a point, each value with its batch-means standard\n" +
    'error (NAME_se), as CSV (default: i, j, k, cell centre x, y, z in m, then the fields) or JSON (--json).\n' +
    '--plane z=3: the cells with index 3 along z (0-based); --line x=4,y=0: the cells along z there; --point x=1,y=2,z=0;\n' +
    '--at x=0.01: the same by position in metres (one coordinate a plane, two a line, three a point).\n' +
    '--fields n,T,Trot picks fields (default all the run has; Trot, Tvib, Tall only for a gas with internal modes).',
  options: {
    plane: { type: 'string' }, line: { type: 'string' }, point: { type: 'string' }, at: { type: 'string' },
    fields: { type: 'string' }, json: { type: 'boolean', default: false }, ...DATA_DIR_OPTION,
  },
  async run(args) {
    positionalCount(args, 1, 1, USAGE);
    const id = runIdArg(args.positionals[0], USAGE);
    const table = withStore(args, (store) => {
      if (!store.getFields(id)) {
        const run = store.getRun(id);
        const why = run.status !== 'completed' ? `it is ${run.status}${run.reason ? ` (${run.reason})` : ''}` : 'it kept no fields (sampling.enabled was false?)';
        throw new Error(`run ${id} has no sampled fields: ${why}; give a completed run that sampled its fields (dsmc runs --status completed)`);
      }
      const set = requireFields(store, id);
      const v = args.values as Record<string, string | undefined>;
      const selection = parseSelection({ plane: v.plane, line: v.line, point: v.point, at: v.at }, set.cells, set.cellSize);
      return fieldTable(id, set, selection, chosenFields(set, v.fields));
    }, { mustExist: true });
    printSafe(args.values.json ? JSON.stringify(table) + '\n' : fieldTableCsv(table));
    return 0;
  },
};
