// "Corrupt or foreign database file, full disk while writing: clear errors, no crash loops, original data
// intact" (issue 7), through the real dsmc CLI and, where a file size limit must not hit the test runner,
// through child processes. Full disk is simulated with RLIMIT_FSIZE (`ulimit -f` in a child shell: writes
// past the limit fail with EFBIG, Node ignores SIGXFSZ), which works unprivileged and as root. A read-only
// data folder is simulated with chmod, and as root (which ignores file modes) by running the CLI as nobody.
import { spawn } from 'node:child_process';
import { chmodSync, closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, readdirSync, rmSync, statSync, truncateSync, writeFileSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunStore } from '../../src-main/store/run-store.js';
import { runInput, steps } from '../store/store-fixtures.js';
import { BIN, STACK_TRACE, dsmc, folderChecksums, requireBuild, type CliResult } from './cli-runner.js';

const VALID_CASE = new URL('../fixtures/invalid-cases/valid-base.json', import.meta.url).pathname;
const CHILD = new URL('./fault-child.mjs', import.meta.url).pathname;
const IS_ROOT = process.getuid?.() === 0;
const NOBODY = 65534;

let root: string;
beforeAll(() => {
  requireBuild();
  root = mkdtempSync(join(tmpdir(), 'dsmc-faults-'));
  chmodSync(root, 0o755); // nobody (the read-only tests as root) must reach the folders inside
});
afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

let folders = 0;
// A new empty folder under the test root.
function folder(): string {
  const d = join(root, `d${++folders}`);
  rmSync(d, { recursive: true, force: true });
  return d;
}

// A data folder holding a real run database with `runs` finished runs of 50 steps each; returns the folder.
function populated(runs = 12): string {
  const dir = folder();
  const store = RunStore.open({ dataDir: dir });
  for (let k = 0; k < runs; k++) {
    const id = store.createRun(runInput({ project: `p${k % 3}`, caseJson: { name: `box${k}`, pad: 'x'.repeat(2000 + k) } }));
    store.appendSteps(id, steps(1, 50), []);
    store.finishRun(id, 'failed', `fixture run ${k}`);
  }
  store.close();
  return dir;
}

// Everything the runs table and its steps hold, to compare before and after a fault.
function dump(dir: string): { runs: unknown[]; steps: number; integrity: string } {
  const db = new Database(join(dir, 'runs.sqlite'));
  try {
    return {
      runs: db.prepare('SELECT * FROM runs ORDER BY id').all(),
      steps: (db.prepare('SELECT count(*) AS n FROM run_steps').get() as { n: number }).n,
      integrity: db.pragma('integrity_check', { simple: true }) as string,
    };
  } finally {
    db.close();
  }
}

// Runs a command with a file size limit of `kib` KiB (bash's ulimit -f unit); resolves like dsmc().
function limited(kib: number, command: string[]): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', `ulimit -f ${kib} && exec "$0" "$@"`, ...command], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => { stdout += d; });
    child.stderr.setEncoding('utf8').on('data', (d: string) => { stderr += d; });
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ args: command, code, signal, stdout, stderr }));
  });
}

// Runs dsmc as the user nobody (as root) so that file modes apply; as another user, runs it as that user.
function dsmcAsNobody(args: string[]): Promise<CliResult> {
  if (!IS_ROOT) return dsmc(args);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { uid: NOBODY, gid: NOBODY, stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env.PATH ?? '' } });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => { stdout += d; });
    child.stderr.setEncoding('utf8').on('data', (d: string) => { stderr += d; });
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ args, code, signal, stdout, stderr }));
  });
}

// A refused command: non-zero exit, no signal, no stack trace, the problem and the fix on stderr.
function expectClearRefusal(r: CliResult, ...says: (string | RegExp)[]): void {
  const what = `${r.args.join(' ').slice(0, 300)}\nexit ${r.code} signal ${r.signal}\nstderr: ${r.stderr}`;
  expect(r.signal, what).toBeNull();
  expect(r.code, what).not.toBe(0);
  expect(r.stderr, what).not.toMatch(STACK_TRACE);
  for (const s of says) {
    if (typeof s === 'string') expect(r.stderr, what).toContain(s);
    else expect(r.stderr, what).toMatch(s);
  }
}

/** Ways to spoil the database file: [name, spoil(path) run on a populated folder's runs.sqlite, what the message must say]. */
const SPOILERS: [string, (path: string) => void, RegExp][] = [
  ['random bytes', (p) => writeFileSync(p, randomBytes(64 * 1024)), /is not an SQLite database/],
  ['a JSON text file', (p) => writeFileSync(p, JSON.stringify({ runs: [1, 2, 3] })), /is not an SQLite database/],
  ['the SQLite header followed by garbage', (p) => writeFileSync(p, Buffer.concat([Buffer.from('SQLite format 3\0', 'latin1'), randomBytes(16 * 1024)])), /is damaged|could not be opened/],
  ['truncated to half', (p) => truncateSync(p, Math.floor(statSync(p).size / 2 / 4096) * 4096), /is damaged/],
  ['truncated to its first page', (p) => truncateSync(p, 4096), /is damaged/],
  ['truncated inside the header', (p) => truncateSync(p, 60), /is damaged|is not an SQLite database/],
  ['an SQLite database of another program', (p) => {
    rmSync(p);
    const db = new Database(p);
    db.exec("CREATE TABLE photos (id INTEGER PRIMARY KEY, path TEXT); INSERT INTO photos (path) VALUES ('a.jpg')");
    db.close();
  }, /SQLite database of some other program/],
  ['a run database from a newer dsmc', (p) => {
    const db = new Database(p);
    db.pragma('user_version = 999');
    db.close();
  }, /schema version 999, written by a newer dsmc/],
];

describe('a corrupt, truncated or foreign database file', () => {
  it.each(SPOILERS)('%s: a clear error naming the file and the fix, three times the same, the file unchanged', async (_name, spoil, problem) => {
    const dir = populated();
    const path = join(dir, 'runs.sqlite');
    spoil(path);
    const before = folderChecksums(dir);
    const results = [
      await dsmc(['runs', '--data-dir', dir, '--json']),
      await dsmc(['runs', '--data-dir', dir, '--json']),
      await dsmc(['runs', '--data-dir', dir, '--json']),
      await dsmc(['run', VALID_CASE, '--data-dir', dir, '--json', '--no-progress']),
    ];
    for (const r of results) {
      expectClearRefusal(r, path, problem);
      expect(r.stderr).toMatch(/Move it aside|move it aside|Upgrade dsmc/);
      expect(r.stderr).toMatch(/--data-dir DIR/);
    }
    // no crash loop: the same answer every time, nothing written, no journal files left beside it
    expect(new Set(results.slice(0, 3).map((r) => `${r.code} ${r.stderr}`)).size).toBe(1);
    expect(folderChecksums(dir)).toEqual(before);
  });

  it('damage inside the file (a page overwritten): refused without a crash, the file unchanged', async () => {
    const dir = populated(30);
    const path = join(dir, 'runs.sqlite');
    const fd = openSync(path, 'r+');
    writeSync(fd, randomBytes(8192), 0, 8192, Math.floor(statSync(path).size / 2 / 4096) * 4096);
    closeSync(fd);
    const before = folderChecksums(dir);
    const results = [await dsmc(['runs', '--data-dir', dir]), await dsmc(['runs', '--data-dir', dir])];
    for (const r of results) expectClearRefusal(r, /malformed|damaged/);
    expect(results[0].stderr).toBe(results[1].stderr);
    expect(folderChecksums(dir)).toEqual(before);
  });

  // SQLite finds this damage only when a query reads the page; the CLI's store helper passes the error
  // through explainDatabaseError so that it names the file and the fix.
  it('damage inside the file: the message names the file and how to fix it', async () => {
    const dir = populated(30);
    const path = join(dir, 'runs.sqlite');
    const fd = openSync(path, 'r+');
    writeSync(fd, randomBytes(8192), 0, 8192, Math.floor(statSync(path).size / 2 / 4096) * 4096);
    closeSync(fd);
    expectClearRefusal(await dsmc(['runs', '--data-dir', dir]), path, /Move it aside/);
  });
});

describe('a data folder or database this user cannot write', () => {
  it('a read-only data folder: a clear error naming the folder and the fix, nothing created', async () => {
    const dir = populated();
    chmodSync(join(dir, 'runs.sqlite'), 0o444);
    chmodSync(dir, 0o555);
    try {
      const before = folderChecksums(dir);
      for (const args of [['runs', '--json'], ['run', VALID_CASE, '--json', '--no-progress'], ['note', '1', 'hello']]) {
        const r = await dsmcAsNobody([...args, '--data-dir', dir]);
        expectClearRefusal(r, `in the folder ${dir}, which this user cannot write to`, /chmod u\+w/, /--data-dir DIR/);
      }
      expect(folderChecksums(dir)).toEqual(before);
      expect(readdirSync(dir)).toEqual(['runs.sqlite']);
    } finally {
      chmodSync(dir, 0o755);
    }
  });

  it('a read-only database file in a writable folder: a clear error, no -wal or -shm files left behind', async () => {
    const dir = populated();
    chmodSync(dir, 0o777);
    chmodSync(join(dir, 'runs.sqlite'), 0o444);
    const before = folderChecksums(dir);
    const r = await dsmcAsNobody(['note', '1', 'hello', '--data-dir', dir]);
    expectClearRefusal(r, 'is not readable and writable by this user', /chmod u\+rw/);
    expect(folderChecksums(dir)).toEqual(before);
    expect(readdirSync(dir)).toEqual(['runs.sqlite']);
  });

  it('a data folder that is a file: says so and how to give a folder', async () => {
    const file = join(folder() + '.txt');
    writeFileSync(file, 'not a folder');
    const r = await dsmc(['runs', '--data-dir', file]);
    expectClearRefusal(r, `the data folder ${file} is a file, not a folder`, /--data-dir DIR/);
    expect(readFileSync(file, 'utf8')).toBe('not a folder');
  });
});

describe('a full disk while writing (RLIMIT_FSIZE)', () => {
  it('creating a new database: a clear error, three times the same, and no empty database file left behind', async () => {
    const dir = folder();
    const results = [];
    for (let k = 0; k < 3; k++) results.push(await limited(2, [process.execPath, BIN, 'runs', '--data-dir', dir]));
    for (const r of results) expectClearRefusal(r, join(dir, 'runs.sqlite'), 'could not be written', /disk is full|file size limit/, /--data-dir DIR/);
    expect(new Set(results.map((r) => r.stderr)).size).toBe(1);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('writing a run into an existing database: the write fails, the database passes integrity_check and keeps every earlier row', async () => {
    const dir = populated();
    const before = dump(dir);
    expect(before.integrity).toBe('ok');
    // 40 KiB: enough for the 32 KiB -shm index, too little for 20000 step rows in the -wal file
    const r = await limited(40, [process.execPath, CHILD, 'write-runs', dir, '20000']);
    expect(r.signal, r.stderr).toBeNull();
    const outcome = JSON.parse(r.stdout.trim()) as { ok: boolean; error?: { code?: string; message: string } };
    expect(outcome.ok).toBe(false);
    expect(outcome.error!.code).toMatch(/^SQLITE_(IOERR|FULL)/);
    const after = dump(dir);
    expect(after.integrity).toBe('ok');
    // the earlier runs are exactly as they were; the new run (created before the steps failed) may exist, without steps
    expect(after.runs.slice(0, before.runs.length)).toEqual(before.runs);
    expect(after.steps).toBe(before.steps);
    // and the folder still opens normally afterwards (no crash loop)
    const list = await dsmc(['runs', '--data-dir', dir, '--json']);
    expect(list.code, list.stderr).toBe(0);
  });

  // Notes of 20000 characters, one run after another, under a 33 KiB limit: the first fits the -wal file (the
  // checkpoint into the larger main file fails quietly and the -wal keeps it), a later one no longer does.
  async function notesUntilRefused(dir: string): Promise<{ saved: Map<number, string>; refused: CliResult[] }> {
    const saved = new Map<number, string>();
    const refused: CliResult[] = [];
    for (let id = 1; id <= 5; id++) {
      const text = String.fromCharCode(96 + id).repeat(20_000);
      const r = await limited(33, [process.execPath, BIN, 'note', String(id), text, '--data-dir', dir]);
      r.args = ['dsmc', 'note', String(id), `(${text.length} characters)`];
      if (r.code === 0) saved.set(id, text);
      else refused.push(r);
    }
    return { saved, refused };
  }

  it('dsmc note on a full disk: refused without a crash or stack trace; every note it said it saved is saved, the rest unchanged', async () => {
    const dir = populated();
    const before = dump(dir);
    const { saved, refused } = await notesUntilRefused(dir);
    expect(refused.length).toBeGreaterThan(0);
    for (const r of refused) expectClearRefusal(r, /disk I\/O error|could not be written/);
    const after = dump(dir);
    expect(after.integrity).toBe('ok');
    const notes = new Map((after.runs as { id: number; notes: string | null }[]).map((r) => [r.id, r.notes]));
    for (const [id, text] of saved) expect(notes.get(id)).toBe(text);
    // apart from the notes that were saved, every row is as it was
    // The rows with the saved notes replaced by a marker.
    const strip = (rows: unknown[]) => (rows as { id: number; notes: unknown }[]).map((r) => ({ ...r, notes: saved.has(r.id) ? '(saved)' : r.notes }));
    expect(strip(after.runs)).toEqual(strip(before.runs));
  });

  // A write that fails after the database opened goes through explainDatabaseError too.
  it('dsmc note on a full disk: the message names the database and how to fix it', async () => {
    const dir = populated();
    const { refused } = await notesUntilRefused(dir);
    expect(refused.length).toBeGreaterThan(0);
    for (const r of refused) expectClearRefusal(r, join(dir, 'runs.sqlite'), /Free some space/);
  });

  it('an atomic report write: a clear error, the earlier file unchanged, no temporary file left', async () => {
    const dir = folder();
    mkdirSync(dir);
    const target = join(dir, 'report.html');
    writeFileSync(target, '<p>the earlier report</p>');
    const r = await limited(8, [process.execPath, CHILD, 'write-file', target, String(100_000)]);
    const outcome = JSON.parse(r.stdout.trim()) as { ok: boolean; error?: { message: string } };
    expect(outcome.ok).toBe(false);
    expect(outcome.error!.message).toContain(`cannot write ${target}: EFBIG`);
    expect(outcome.error!.message).toMatch(/raise the limit or write a smaller output.*left as it was/);
    expect(readFileSync(target, 'utf8')).toBe('<p>the earlier report</p>');
    expect(readdirSync(dir)).toEqual(['report.html']);
  });
});

describe('controls: the same helpers see success where there is no fault', () => {
  it('an unspoiled populated folder lists its runs; the file size limit alone lets a small write through', async () => {
    const dir = populated();
    const r = await dsmc(['runs', '--data-dir', dir, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout.trim().split('\n').pop()!)).toHaveLength(12);
    const ok = await limited(4096, [process.execPath, CHILD, 'write-runs', dir, '10']);
    expect(JSON.parse(ok.stdout.trim())).toEqual({ ok: true });
    expect(existsSync(join(dir, 'runs.sqlite'))).toBe(true);
  });
});
