// What a `dsmc` subcommand declares: its name, usage line, options (node:util parseArgs) and action.
import type { ParseArgsConfig } from 'node:util';

/** Parsed arguments handed to a command. */
export interface CommandArgs {
  values: Record<string, string | boolean | string[] | undefined>;
  positionals: string[];
}

/** One subcommand of `dsmc`. */
export interface CliCommand {
  name: string;
  /** One usage line, e.g. `run CASE [--set path=value ...] [--json]`. */
  usage: string;
  /** What it does, one or two lines for `dsmc --help`. */
  summary: string;
  options: CommandOptions;
  /** Runs the command; resolves to the exit code. */
  run(args: CommandArgs): Promise<number>;
}

/** The single positional argument a command needs (errors with an example otherwise). */
export function onePositional(args: CommandArgs, what: string, example: string): string {
  if (args.positionals.length !== 1) throw new Error(`expected one ${what}, e.g. dsmc ${example}`);
  return args.positionals[0];
}

export type CommandOptions = NonNullable<ParseArgsConfig['options']>;

/** Options shared by the commands that run or check a case. */
export const CASE_OPTIONS: CommandOptions = {
  set: { type: 'string', multiple: true, default: [] },
  json: { type: 'boolean', default: false },
};
