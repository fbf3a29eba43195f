// The `dsmc` command line: parses arguments, dispatches to a command, turns errors into one clear
// line on stderr and a non-zero exit code (stack traces only with DSMC_DEBUG=1).
import { parseArgs } from 'node:util';
import { runCommand, benchCommand, checkCommand } from './commands.js';
import { caseJsonSchema } from '../common/case-schema.js';
import { presetNames } from './case-file.js';

const HELP = `dsmc - rarefied gas flow simulation (DSMC) on WebGPU

usage:
  dsmc run CASE [--set path=value ...] [--json] [--timing auto|wall] [--no-progress]
      Run a case (a .json path or a preset name) on the default GPU adapter.
      --set overrides any field, value as JSON:  --set grid.cells=[40,40,40] --set run.steps=200
      --json prints the summary as one JSON object on the last line of stdout.
  dsmc bench [--particles N] [--set path=value ...] [--json]
      Run the collide-box benchmark (SPARTA's bench/in.collide physics), ~N particles (default 1e6),
      200 timed steps after 20 untimed warm-up steps; sampling off.
  dsmc check CASE [--set path=value ...] [--json]
      Validate a case and print the pre-launch check (mean free path, dt, particles per cell, memory).
  dsmc presets              List the bundled case presets.
  dsmc schema               Print the JSON Schema of case files.
`;

/** Runs the CLI with argv (without node and script); resolves to the exit code. */
export async function main(argv: string[]): Promise<number> {
  let [command] = argv;
  const rest = argv.slice(1);
  try {
    const { values, positionals } = parseArgs({
      args: rest,
      allowPositionals: true,
      options: {
        set: { type: 'string', multiple: true, default: [] },
        json: { type: 'boolean', default: false },
        timing: { type: 'string', default: 'auto' },
        particles: { type: 'string' },
        'no-progress': { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
    if (values.timing !== 'auto' && values.timing !== 'wall') throw new Error(`--timing: got "${values.timing}"; expected auto or wall`);
    const opts = {
      sets: values.set as string[],
      json: values.json as boolean,
      timing: values.timing as 'auto' | 'wall',
      progress: !values['no-progress'],
      particles: values.particles as string | undefined,
    };
    if (values.help) command = 'help';
    switch (command) {
      case 'run':
        return await runCommand(oneCase(positionals, 'run'), opts);
      case 'bench':
        return await benchCommand(opts);
      case 'check':
        return await checkCommand(oneCase(positionals, 'check'), opts);
      case 'presets':
        process.stdout.write(presetNames().join('\n') + '\n');
        return 0;
      case 'schema':
        process.stdout.write(JSON.stringify(caseJsonSchema(), null, 2) + '\n');
        return 0;
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        process.stdout.write(HELP);
        return 0;
      default:
        throw new Error(`unknown command "${command}"; commands: run, bench, check, presets, schema (dsmc --help)`);
    }
  } catch (e) {
    const err = e as Error;
    const text = err.name === 'CaseError' ? `invalid case, fix these fields:\n  ${err.message.split('\n').join('\n  ')}` : err.message;
    process.stderr.write(`dsmc ${command ?? ''}: ${text}\n`);
    if (process.env.DSMC_DEBUG) process.stderr.write(`${err.stack}\n`);
    return err.name === 'CaseError' ? 2 : 1;
  }
}

/** The single CASE positional argument of a command. */
function oneCase(positionals: string[], command: string): string {
  if (positionals.length !== 1) throw new Error(`expected one CASE (a .json path or preset name), e.g. dsmc ${command} collide-box`);
  return positionals[0];
}
