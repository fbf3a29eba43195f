// Output targets of every writer (`dsmc export vtk`, `dsmc report profile|scaling`, `dsmc db recover`) through the
// real CLI: the run database, its -wal/-shm, a checkpoint, a hard or symbolic link to the database, devices, FIFOs
// (and links to them), missing folders and names ending in / are refused before anything is written, naming the
// target and the fix; the database stays byte for byte the same; "wrote" is never printed for a refused target;
// the format follows the extension (or a contradiction is refused) and the .vti/.vtp pair is derived sanely.
// Issue 25 items 1, 4, 11, 12 and issue 26 item 6 (output parts). Uses the compiled out/ (`npx tsc -p tsconfig.json`).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runNode } from '../helpers/run-process.js';

const BIN = new URL('../../bin/dsmc.js', import.meta.url).pathname;
const DIR = mkdtempSync(join(tmpdir(), 'dsmc-out-targets-'));
const DATA = join(DIR, 'data');
const DB = join(DATA, 'runs.sqlite');

/** Runs dsmc in DIR with the data folder; killed after 60 s (a FIFO opened for writing would hang). */
async function dsmc(args: string[]) {
  const r = await runNode([BIN, ...args, '--data-dir', DATA], { cwd: DIR, timeout: 60_000, env: { ...process.env, XDG_RUNTIME_DIR: process.env.XDG_RUNTIME_DIR ?? '/tmp' } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, signal: r.signal };
}

/** SHA-256 of every file of a folder (names and bytes). */
function folderHash(dir: string): string {
  const h = createHash('sha256');
  for (const name of readdirSync(dir, { recursive: true }).map(String).sort()) {
    const p = join(dir, name);
    h.update(name);
    try { h.update(readFileSync(p)); } catch { /* a folder */ }
  }
  return h.digest('hex');
}

let box = 0, sphere = 0;

/** Runs a case and returns its run id. */
async function runCase(preset: string, sets: string[]): Promise<number> {
  const r = await dsmc(['run', preset, ...sets.flatMap((s) => ['--set', s]), '--json', '--no-progress']);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout.trim().split('\n').pop()!).runId;
}

beforeAll(async () => {
  box = await runCase('collide-box', ['grid.cells=[4,4,4]', 'run.steps=10']);
  sphere = await runCase('sphere-free-molecular', ['grid.cells=[6,6,6]', 'grid.cellSize=[0.1,0.1,0.1]', 'run.steps=4', 'run.stepsPerSubmit=2', 'sampling.start=0']);
  mkdirSync(join(DATA, 'checkpoints', 'run-1'), { recursive: true });
}, 120_000);

afterAll(() => rmSync(DIR, { recursive: true, force: true }));

/** Expects a refusal: non-zero exit, nothing on stdout (no "wrote"), no stack, the message matching `why`, the data folder unchanged. */
async function expectRefused(args: string[], why: RegExp): Promise<void> {
  const before = folderHash(DATA);
  const r = await dsmc(args);
  expect(r.signal, 'the command hung and was killed').toBeNull();
  expect(r.code, r.stdout + r.stderr).not.toBe(0);
  expect(r.stdout).not.toMatch(/wrote/);
  expect(r.stderr).toMatch(why);
  expect(r.stderr).not.toMatch(/\n\s+at /);
  expect(folderHash(DATA)).toBe(before);
}

describe('outputs never replace the run database or its checkpoints (item 1)', () => {
  it('refuses the database, its -wal/-shm/-journal and a checkpoint folder as --out of every writer', async () => {
    const targets = [DB, `${DB}-wal`, `${DB}-shm`, `${DB}-journal`, join(DATA, 'checkpoints', 'run-1', 'x.html')];
    for (const t of targets) {
      await expectRefused(['report', 'profile', String(box), '--out', t], /run database|checkpoints folder/);
      await expectRefused(['report', 'profile', String(box), '--format', 'json', '--out', t], /run database|checkpoints folder/);
    }
    await expectRefused(['export', 'vtk', String(box), '--out', DB], /\.vti/);
    await expectRefused(['export', 'vtk', String(box), '--out', join(DATA, 'checkpoints', 'f.vti')], /checkpoints folder/);
    expect((await dsmc(['runs'])).stdout).toMatch(/collide-box/);
  });

  it('refuses a hard link and a symbolic link to the database, and the same database through another --data-dir spelling', async () => {
    linkSync(DB, join(DIR, 'hard.db'));
    symlinkSync(DB, join(DIR, 'sym.html'));
    await expectRefused(['report', 'profile', String(box), '--out', join(DIR, 'hard.db')], /SQLite database/);
    await expectRefused(['report', 'profile', String(box), '--out', join(DIR, 'sym.html')], /run database/);
    await expectRefused(['report', 'profile', String(box), '--out', 'data/../data/runs.sqlite'], /run database/);
  });

  it('db recover refuses the database and its companions as OUT', async () => {
    await expectRefused(['db', 'recover', `${DB}-shm`], /run database|already exists/);
    await expectRefused(['db', 'recover', DB], /damaged database itself/);
  });
});

describe('outputs that are not regular files are refused (item 4)', () => {
  it('refuses a character device, a FIFO and links to them, without hanging and without replacing them', async () => {
    spawnSync('mkfifo', [join(DIR, 'pipe')]);
    symlinkSync(join(DIR, 'pipe'), join(DIR, 'pipe-link.html'));
    symlinkSync('/dev/null', join(DIR, 'null-link.vti'));
    await expectRefused(['report', 'profile', String(box), '--out', '/dev/null'], /character device, not a regular file/);
    await expectRefused(['report', 'profile', String(box), '--out', join(DIR, 'pipe')], /named pipe \(FIFO\)/);
    await expectRefused(['report', 'profile', String(box), '--out', join(DIR, 'pipe-link.html')], /link to a named pipe/);
    await expectRefused(['export', 'vtk', String(box), '--out', join(DIR, 'null-link.vti')], /link to a character device/);
    await expectRefused(['db', 'recover', '/dev/null'], /character device/);
    expect(spawnSync('test', ['-p', join(DIR, 'pipe')]).status).toBe(0);
  });
});

describe('folders, missing folders and the .vti/.vtp pair (item 12, issue 26 item 6)', () => {
  it('refuses --out missing/dir/ and a file in a missing folder without creating anything or printing "wrote"', async () => {
    await expectRefused(['export', 'vtk', String(sphere), '--out', 'missing/dir/'], /names a folder \(it does not exist/);
    await expectRefused(['export', 'vtk', String(sphere), '--out', 'missing/f.vti'], /the folder .*missing does not exist; create it/);
    await expectRefused(['report', 'profile', String(box), '--out', DATA], /is a folder, not a regular file; give a file name inside it/);
    expect(existsSync(join(DIR, 'missing'))).toBe(false);
    expect(readdirSync(DIR).filter((n) => n.startsWith('.') || n.startsWith('dir'))).toEqual([]);
  });

  it('refuses --out x.vtp (no x.vtp.vtp) and writes FILE.vti + FILE.vtp for --out FILE', async () => {
    await expectRefused(['export', 'vtk', String(sphere), '--out', 'x.vtp'], /give --out x\.vti/);
    expect(readdirSync(DIR).filter((n) => n.startsWith('x.'))).toEqual([]);
    const r = await dsmc(['export', 'vtk', String(sphere), '--out', 'novti']);
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(join(DIR, 'novti.vti'), 'utf8')).toMatch(/<VTKFile type="ImageData"/);
    expect(readFileSync(join(DIR, 'novti.vtp'), 'utf8')).toMatch(/<VTKFile type="PolyData"/);
    expect(existsSync(join(DIR, 'novti'))).toBe(false);
    expect(r.stdout).toMatch(/wrote novti\.vti .*\nwrote novti\.vtp/);
  });

  it('infers the report format from the extension and refuses a contradicting --format', async () => {
    const r = await dsmc(['report', 'profile', String(box), '--out', 'p.csv']);
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(join(DIR, 'p.csv'), 'utf8')).toMatch(/^# metrics\nkey,value\n/);
    const j = await dsmc(['report', 'profile', String(box), '--out', 'p.json']);
    expect(j.code, j.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(DIR, 'p.json'), 'utf8')).run.id).toBe(box);
    await expectRefused(['report', 'profile', String(box), '--format', 'html', '--out', 'q.csv'], /ends in \.csv, but --format is html/);
    expect(existsSync(join(DIR, 'q.csv'))).toBe(false);
    const h = await dsmc(['report', 'profile', String(box), '--out', 'plain']);
    expect(h.code, h.stderr).toBe(0);
    expect(readFileSync(join(DIR, 'plain'), 'utf8')).toMatch(/^<!DOCTYPE html>/i);
  });
});

describe('db recover OUT names (item 11)', () => {
  it('refuses "" and newdir/ naming the fix, writing nothing in the folder', async () => {
    const before = readdirSync(DIR).sort();
    await expectRefused(['db', 'recover', ''], /db recover OUT: the file name is empty/);
    await expectRefused(['db', 'recover', 'newdir/'], /db recover OUT newdir\/: this names a folder \(it does not exist/);
    expect(readdirSync(DIR).sort()).toEqual(before);
  });

  it('still recovers into a new file', async () => {
    const r = await dsmc(['db', 'recover', 'rec.sqlite']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/wrote rec\.sqlite: 2 runs recovered/);
  });
});

describe('the shared helper', () => {
  it('every writer goes through checkOutputTarget (no direct writes of outputs)', () => {
    const root = new URL('../../src-main/', import.meta.url).pathname;
    const writers = ['reports/write-atomic.ts', 'reports/html-to-pdf.ts', 'store/recover-database.ts', 'cli/commands/report-commands.ts'];
    for (const w of writers) expect(readFileSync(join(root, w), 'utf8'), w).toMatch(/checkOutputTarget|writeOutputs/);
  });
});
