// Where the run database lives: --data-dir, else $DSMC_DATA_DIR, else the platform's data folder.
import { join } from 'node:path';
import envPaths from 'env-paths';

/** Environment variable that overrides the data folder. */
export const DATA_DIR_ENV = 'DSMC_DATA_DIR';
/** File name of the run database inside the data folder. */
export const DATABASE_FILE = 'runs.sqlite';
/** Application name of the data folder (the desktop app uses the same folder). */
export const APP_NAME = 'dsmc-studio';

/**
 * The platform's data folder for the app: $XDG_DATA_HOME/dsmc-studio (~/.local/share) on Linux,
 * ~/Library/Application Support/dsmc-studio on macOS (env-paths), %APPDATA%\dsmc-studio on Windows
 * (roaming, as Electron's app data).
 */
export function defaultDataDir(): string {
  if (process.platform === 'win32' && process.env.APPDATA) return join(process.env.APPDATA, APP_NAME);
  return envPaths(APP_NAME, { suffix: '' }).data;
}

/** The data folder to use: the explicit one, else the environment variable, else the platform default. */
export function resolveDataDir(explicit?: string): string {
  if (explicit !== undefined) {
    if (explicit.trim() === '') throw new Error('--data-dir is empty; give a folder, e.g. --data-dir ./dsmc-data');
    return explicit;
  }
  const fromEnv = process.env[DATA_DIR_ENV];
  if (fromEnv !== undefined && fromEnv.trim() !== '') return fromEnv;
  return defaultDataDir();
}

/** Path of the database file in a data folder. */
export function databasePath(dataDir: string): string {
  return join(dataDir, DATABASE_FILE);
}
