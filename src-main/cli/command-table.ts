// Every `dsmc` subcommand, in the order `dsmc --help` lists them.
import type { CliCommand } from './command.js';
import { presetsCommand, schemaCommand } from './commands/info-commands.js';
import { benchCommand, checkCommand, runCommand } from './commands/solver-commands.js';

export const COMMANDS: CliCommand[] = [runCommand, benchCommand, checkCommand, presetsCommand, schemaCommand];
