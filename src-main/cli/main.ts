// The `dsmc` command line: picks the subcommand from the table, parses its options, and turns errors
// into one clear message on stderr and a non-zero exit code (stack traces only with DSMC_DEBUG=1).
import { parseArgs } from 'node:util';
import type { CliCommand } from './command.js';
import { COMMANDS } from './command-table.js';
import { forTerminal } from './terminal-text.js';

/** The help text, generated from the command table. */
function helpText(): string {
  const lines = ['dsmc - rarefied gas flow simulation (DSMC) on WebGPU', '', 'usage:'];
  for (const c of COMMANDS) {
    lines.push(`  dsmc ${c.usage}`);
    for (const s of c.summary.split('\n')) lines.push(`      ${s}`);
  }
  lines.push('', 'dsmc help COMMAND (or dsmc COMMAND --help): one command with its options.');
  return lines.join('\n') + '\n';
}

/** The help of one command: usage, what it does, and its options with their defaults. */
export function commandHelp(c: CliCommand): string {
  const options = Object.entries(c.options).map(([name, o]) => {
    // the value's name as the usage line writes it (--set path=value), else the option's name in capitals
    const inUsage = new RegExp(`--${name}[ =]([^\\s\\]]+)`).exec(c.usage)?.[1];
    const value = o.type === 'string' ? ` ${inUsage ?? name.toUpperCase().replace(/-/g, '_')}` : '';
    const more = [o.multiple ? 'repeatable' : '', o.default !== undefined && o.type === 'string' && !o.multiple ? `default ${String(o.default)}` : '']
      .filter(Boolean).join(', ');
    return `  --${name}${value}${more ? `  (${more})` : ''}`;
  });
  return [`usage: dsmc ${c.usage}`, '', c.summary, ...(options.length ? ['', 'options:', ...options] : []), ''].join('\n');
}

/** The command `name` names, or an error listing the commands. */
function commandNamed(name: string): CliCommand {
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) throw new Error(`unknown command "${name}"; commands: ${COMMANDS.map((c) => c.name).join(', ')} (dsmc --help)`);
  return command;
}

/** Runs the CLI with argv (without node and script); resolves to the exit code. */
export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  try {
    // `dsmc help run` is `dsmc run --help`
    if (name === 'help' && rest.length > 0) {
      process.stdout.write(commandHelp(commandNamed(rest[0])));
      return 0;
    }
    if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
      process.stdout.write(helpText());
      return 0;
    }
    const command = commandNamed(name);
    const { values, positionals } = parseArgs({
      args: rest,
      allowPositionals: true,
      options: { ...command.options, help: { type: 'boolean', short: 'h', default: false } },
    });
    if (values.help) {
      process.stdout.write(commandHelp(command));
      return 0;
    }
    return await command.run({ values, positionals });
  } catch (e) {
    const err = e as Error;
    const text = err.name === 'CaseError' ? `invalid case, fix these fields:\n  ${err.message.split('\n').join('\n  ')}` : err.message;
    // names and values from the case or the database may hold escape sequences: shown, never acted on
    process.stderr.write(forTerminal(`dsmc ${name ?? ''}: ${text}\n`));
    if (process.env.DSMC_DEBUG) process.stderr.write(`${err.stack}\n`);
    return err.name === 'CaseError' ? 2 : 1;
  }
}
