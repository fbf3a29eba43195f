// `dsmc presets` and `dsmc schema`: what cases the install ships and the case file format.
import { caseJsonSchema } from '../../common/case-schema.js';
import { presetNames } from '../case-file.js';
import type { CliCommand } from '../command.js';

export const presetsCommand: CliCommand = {
  name: 'presets',
  usage: 'presets',
  summary: 'List the bundled case presets.',
  options: {},
  async run() {
    process.stdout.write(presetNames().join('\n') + '\n');
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
