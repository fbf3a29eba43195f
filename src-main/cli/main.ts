// The `dsmc` command line: picks the subcommand from the table, parses its options, and turns errors
// into one clear message on stderr and a non-zero exit code (stack traces only with DSMC_DEBUG=1).
import { parseArgs } from 'node:util';
import { COMMANDS } from './command-table.js';
import { forTerminal } from './terminal-text.js';

/** The help text, generated from the command table. */
function helpText(): string {
  const lines = ['dsmc - rarefied gas flow simulation (DSMC) on WebGPU', '', 'usage:'];
  for (const c of COMMANDS) {
    lines.push(`  dsmc ${c.usage}`);
    for (const s of c.summary.split('\n')) lines.push(`      ${s}`);
  }
  return lines.join('\n') + '\n';
}

/** Runs the CLI with argv (without node and script); resolves to the exit code. */
export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  try {
    if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
      process.stdout.write(helpText());
      return 0;
    }
    const command = COMMANDS.find((c) => c.name === name);
    if (!command) throw new Error(`unknown command "${name}"; commands: ${COMMANDS.map((c) => c.name).join(', ')} (dsmc --help)`);
    const { values, positionals } = parseArgs({
      args: rest,
      allowPositionals: true,
      options: { ...command.options, help: { type: 'boolean', short: 'h', default: false } },
    });
    if (values.help) {
      process.stdout.write(`usage: dsmc ${command.usage}\n${command.summary}\n`);
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
