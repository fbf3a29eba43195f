// `dsmc presets` and `dsmc schema`: what cases the install ships and the case file format.
import { caseJsonSchema } from '../../common/case-schema.js';
import type { CliCommand } from '../command.js';
import { presetInfos, wrap } from '../preset-info.js';

export const presetsCommand: CliCommand = {
  name: 'presets',
  usage: 'presets [--json]',
  summary: 'List the bundled case presets with their descriptions and, for the big ones, the command that runs them\n' +
    'shrunk to a size a small GPU or a CPU (lavapipe) handles. --json: [{name, description, shrink}].',
  options: { json: { type: 'boolean', default: false } },
  async run(args) {
    const presets = presetInfos();
    if (args.values.json) {
      process.stdout.write(JSON.stringify(presets) + '\n');
      return 0;
    }
    const blocks = presets.map((p) => [p.name, wrap(p.description, 100, '    '),
      ...(p.shrink ? [`    shrunk for a small GPU or a CPU (one line, to copy):\n      ${p.shrink}`] : [])].join('\n'));
    process.stdout.write(`${blocks.join('\n\n')}\n\nrun one: dsmc run NAME (dsmc check NAME first says whether it fits this GPU)\n`);
    return 0;
  },
};

export const schemaCommand: CliCommand = {
  name: 'schema',
  usage: 'schema',
  summary: 'Print the JSON Schema of case files.',
  options: {},
  async run() {
    process.stdout.write(JSON.stringify(caseJsonSchema(), null, 2) + '\n');
    return 0;
  },
};
