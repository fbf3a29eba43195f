// A damaged or foreign file where the database should be: a clear error naming the file and the fix,
// and the file left exactly as it was (no journal or WAL files created beside it either).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RunStore } from '../../src-main/store/run-store.js';
import { StoreOpenError } from '../../src-main/store/open-database.js';
import { removeDir, tempDir } from './store-fixtures.js';

let dir: string;
let path: string;
beforeEach(() => {
  dir = tempDir();
  path = join(dir, 'runs.sqlite');
});
afterEach(() => removeDir(dir));

/** Opens the store expecting a StoreOpenError; returns its message. */
function openError(): string {
  try {
    RunStore.open({ dataDir: dir }).close();
  } catch (e) {
    expect(e).toBeInstanceOf(StoreOpenError);
    return (e as Error).message;
  }
  throw new Error('the store opened');
}

describe('a corrupt database file', () => {
  it('random bytes: names the file, says how to fix it, leaves it untouched', () => {
    const junk = randomBytes(64 * 1024);
    writeFileSync(path, junk);
    const msg = openError();
    expect(msg).toContain(path);
    expect(msg).toMatch(/not an SQLite database/);
    expect(msg).toMatch(/left untouched/);
    expect(msg).toMatch(/Move it aside .*mv .*\.bad.*--data-dir DIR or the DSMC_DATA_DIR/);
    expect(readFileSync(path).equals(junk)).toBe(true);
    expect(existsSync(`${path}-wal`) || existsSync(`${path}-shm`) || existsSync(`${path}-journal`)).toBe(false);
  });

  it('an SQLite header followed by garbage: says it is damaged, leaves it untouched', () => {
    const junk = Buffer.concat([Buffer.from('SQLite format 3\0', 'latin1'), randomBytes(8192)]);
    writeFileSync(path, junk);
    const msg = openError();
    expect(msg).toContain(path);
    expect(msg).toMatch(/damaged|could not be opened/);
    expect(msg).toMatch(/Move it aside/);
    expect(readFileSync(path).equals(junk)).toBe(true);
  });

  it('a data folder that cannot be created: says which and how to choose another', () => {
    writeFileSync(join(dir, 'file'), 'x');
    expect(() => RunStore.open({ dataDir: join(dir, 'file', 'sub') })).toThrow(/cannot create the data folder .*file\/sub.*--data-dir DIR or the DSMC_DATA_DIR/);
  });
});
