// Every `dsmc` subcommand, in the order `dsmc --help` lists them.
import type { CliCommand } from './command.js';
import { clusterCommand } from './commands/cluster-commands.js';
import { dbCommand } from './commands/db-commands.js';
import { fieldsCommand } from './commands/fields-command.js';
import { presetsCommand, schemaCommand } from './commands/info-commands.js';
import { compareCommand, exportCommand, reportCommand } from './commands/report-commands.js';
import { benchCommand, checkCommand, runCommand } from './commands/solver-commands.js';
import { resumeCommand } from './commands/resume-command.js';
import { serveCommand } from './commands/serve-command.js';
import { deleteCommand, noteCommand, projectsCommand, runsCommand, showCommand, tagCommand } from './commands/store-commands.js';
import { studyCommand } from './commands/study-commands.js';
import { studiesCommand } from './commands/study-store-commands.js';

export const COMMANDS: CliCommand[] = [
  runCommand, resumeCommand, benchCommand, checkCommand, studyCommand, studiesCommand,
  projectsCommand, runsCommand, showCommand, fieldsCommand, tagCommand, noteCommand, deleteCommand, dbCommand,
  compareCommand, reportCommand, exportCommand,
  presetsCommand, schemaCommand, serveCommand, clusterCommand,
];
