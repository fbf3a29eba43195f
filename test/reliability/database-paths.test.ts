// The run database's path when it is not a regular file, and a missing native SQLite module (issue 25 items 9, 10,
// 14), through the real `dsmc`: a FIFO never hangs (the file type is checked before anything opens it), a folder, a
// link to /dev/null or /dev/zero and a dangling link are named as what they are with the fix, never "the disk is
// full" or a raw EISDIR; nothing is created or changed. A copy of the install without better-sqlite3's compiled
// module says to run `npm rebuild better-sqlite3` and that --no-save runs without the database (and it does).
import { spawnSync } from 'node:child_process';
import { cpSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readlinkSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runNode } from '../helpers/run-process.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const BIN = join(ROOT, 'bin', 'dsmc.js');
const DIR = mkdtempSync(join(tmpdir(), 'dsmc-db-paths-'));
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

/** Runs `node bin` with args; killed after 30 s (a FIFO opened for reading without a writer would hang). */
async function run(bin: string, args: string[]) {
  const r = await runNode([bin, ...args], { timeout: 30_000, env: { ...process.env, XDG_RUNTIME_DIR: process.env.XDG_RUNTIME_DIR ?? '/tmp' } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, signal: r.signal };
}

/** A data folder whose runs.sqlite is made by `make`. */
function dataDir(name: string, make: (db: string) => void): string {
  const dir = join(DIR, name);
  mkdirSync(dir);
  make(join(dir, 'runs.sqlite'));
  return dir;
}

/** Names and link targets of a folder's entries (to see that nothing was created or replaced). */
function listing(dir: string): string[] {
  return readdirSync(dir).sort().map((n) => {
    const st = lstatSync(join(dir, n));
    return `${n}:${st.isSymbolicLink() ? `->${readlinkSync(join(dir, n))}` : st.isFIFO() ? 'fifo' : st.isDirectory() ? 'dir' : st.size}`;
  });
}

const COMMANDS = [['db', 'check'], ['runs'], ['show', '1'], ['db', 'recover', join(DIR, 'never.sqlite')],
  ['run', 'collide-box', '--set', 'grid.cells=[2,2,2]', '--set', 'run.steps=1', '--no-progress']];

describe('a run database that is not a regular file', () => {
  const cases: [string, (db: string) => void, RegExp][] = [
    ['fifo', (db) => spawnSync('mkfifo', [db]), /is a named pipe \(FIFO\), not a regular file/],
    ['folder', (db) => mkdirSync(db), /is a folder, not a regular file/],
    ['null', (db) => symlinkSync('/dev/null', db), /is a link to \/dev\/null, which is a character device/],
    ['zero', (db) => symlinkSync('/dev/zero', db), /is a link to \/dev\/zero, which is a character device/],
    ['dangling', (db) => symlinkSync(join(DIR, 'nowhere.sqlite'), db), /is a link to a file that does not exist/],
  ];
  for (const [name, make, why] of cases) {
    it(`${name}: every command refuses at once naming it and the fix, changing nothing`, async () => {
      const dir = dataDir(name, make);
      const before = listing(dir);
      for (const args of COMMANDS) {
        const r = await run(BIN, [...args, '--data-dir', dir]);
        expect(r.signal, `dsmc ${args.join(' ')} hung`).toBeNull();
        expect(r.code, `dsmc ${args.join(' ')}: ${r.stdout}`).toBe(1);
        expect(r.stderr).toMatch(why);
        expect(r.stderr).toMatch(/Move it aside .* or use another data folder with --data-dir DIR/);
        expect(r.stderr).not.toMatch(/disk is full|EISDIR|ENOENT|\n\s+at /);
        expect(listing(dir)).toEqual(before);
      }
      expect(readdirSync(DIR)).not.toContain('never.sqlite');
    }, 120_000);
  }
});

describe('better-sqlite3 without its compiled module', () => {
  it('says to run npm rebuild better-sqlite3 and that --no-save runs without the database; --no-save runs', async () => {
    // a copy of the install: out/ and bin/ copied, every package linked, better-sqlite3 copied without build/
    const inst = join(DIR, 'install');
    mkdirSync(join(inst, 'node_modules'), { recursive: true });
    cpSync(join(ROOT, 'out'), join(inst, 'out'), { recursive: true });
    cpSync(join(ROOT, 'bin'), join(inst, 'bin'), { recursive: true });
    cpSync(join(ROOT, 'package.json'), join(inst, 'package.json'));
    cpSync(join(ROOT, 'resources'), join(inst, 'resources'), { recursive: true });
    cpSync(join(ROOT, 'shaders'), join(inst, 'shaders'), { recursive: true });
    for (const name of readdirSync(join(ROOT, 'node_modules'))) {
      if (name === 'better-sqlite3' || name === '.bin') continue;
      symlinkSync(join(ROOT, 'node_modules', name), join(inst, 'node_modules', name));
    }
    cpSync(join(ROOT, 'node_modules', 'better-sqlite3'), join(inst, 'node_modules', 'better-sqlite3'), {
      recursive: true, filter: (src) => !src.includes(`${join('better-sqlite3', 'build')}`),
    });
    const bin = join(inst, 'bin', 'dsmc.js');
    const data = join(DIR, 'nobind-data');
    expect((await run(BIN, ['runs', '--data-dir', data])).code).toBe(0); // a database made by the working install
    for (const args of [['runs'], ['db', 'check'], ['run', 'collide-box', '--set', 'grid.cells=[2,2,2]', '--set', 'run.steps=1', '--no-progress']]) {
      const r = await run(bin, [...args, '--data-dir', data]);
      expect(r.code, `dsmc ${args.join(' ')}: ${r.stdout}`).toBe(1);
      expect(r.stderr).toMatch(/the SQLite module \(better-sqlite3\) cannot be loaded/);
      expect(r.stderr).toMatch(/Run `npm rebuild better-sqlite3`/);
      expect(r.stderr).toMatch(/--no-save .* without the run database/);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
    const ok = await run(bin, ['run', 'collide-box', '--set', 'grid.cells=[2,2,2]', '--set', 'run.steps=2', '--no-progress', '--no-save', '--json']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout.trim().split('\n').pop()!).steps).toBe(2);
  }, 120_000);
});
