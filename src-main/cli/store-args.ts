// Arguments shared by the commands over the run database: --data-dir, a RUN id, opening the store.
import { explainDatabaseError, type OpenOptions } from '../store/open-database.js';
import { RunStore } from '../store/run-store.js';
import type { CommandArgs, CommandOptions } from './command.js';

/** --data-dir DIR: the folder of the run database (else $DSMC_DATA_DIR, else the platform's data folder). */
export const DATA_DIR_OPTION: CommandOptions = { 'data-dir': { type: 'string' } };

/**
 * Opens the run database named by --data-dir (or the default), runs `use` and closes it. `mustExist`: commands
 * about saved runs never create a data folder or database; `verify`: commands that write check it for damage first.
 */
export function withStore<T>(args: CommandArgs, use: (store: RunStore) => T, opts: OpenOptions = {}): T {
  const store = RunStore.open({ dataDir: args.values['data-dir'] as string | undefined, ...opts });
  try {
    return use(store);
  } catch (e) {
    // SQLite errors found after the open (damage met by a query, a full disk on a write) name the file and the fix
    throw explainDatabaseError(store.path, e);
  } finally {
    try {
      store.close();
    } catch {
      // closing a damaged database can fail too; the error above says what to do
    }
  }
}

/** A RUN argument as a run id; the error shows the usage. */
export function runIdArg(text: string | undefined, usage: string): number {
  if (text === undefined) throw new Error(`missing RUN (a run id from \`dsmc runs\`); usage: dsmc ${usage}`);
  if (!/^[1-9][0-9]*$/.test(text)) throw new Error(`RUN must be a run id (a positive integer from \`dsmc runs\`), got "${text}"; usage: dsmc ${usage}`);
  return Number(text);
}

/** Throws unless there are between min and max positionals, showing the usage. */
export function positionalCount(args: CommandArgs, min: number, max: number, usage: string): void {
  const n = args.positionals.length;
  if (n < min || n > max) {
    throw new Error(`expected ${min === max ? min : `${min} to ${max}`} argument${max === 1 ? '' : 's'}, got ${n}` +
      `${n > 0 ? ` (${args.positionals.join(' ')})` : ''}; usage: dsmc ${usage}`);
  }
}
