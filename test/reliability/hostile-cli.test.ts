// Hostile input through the real `dsmc` CLI: case "files" that are devices, FIFOs, folders or 50 MB; 100 000-deep
// nesting; preset names that climb out of resources/cases; a byte-order mark; escape sequences in names that
// would act on the terminal; invalid --gpus and resume of a run that does not exist. Each is refused (or, for the
// byte-order mark, accepted) with one clear message naming the file or field and the fix, no stack trace, and
// nothing is created in the data folder. Each case here failed before the fix (see docs/RELIABILITY.md).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunStore } from '../../src-main/store/run-store.js';
import { runInput, steps } from '../store/store-fixtures.js';
import { STACK_TRACE, dsmc, folderChecksums, requireBuild, runRows, type CliResult } from './cli-runner.js';

const VALID = new URL('../fixtures/invalid-cases/valid-base.json', import.meta.url).pathname;
const BASE = JSON.parse(readFileSync(VALID, 'utf8')) as Record<string, unknown>;
/** Characters that act on a terminal: ESC, BEL, CR, C1 CSI, right-to-left override. */
const TERMINAL_CONTROLS = /[\u001b\u0007\r\u009b\u202e]/;

let root: string;
beforeAll(() => {
  requireBuild();
  root = mkdtempSync(join(tmpdir(), 'dsmc-hostile-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

let n = 0;
/** A path under the test folder that does not exist yet. */
function fresh(name = 'data'): string {
  return join(root, `${name}-${++n}`);
}

/** Writes a case file (text as given) and returns its path. */
function caseFile(text: string, name = 'case.json'): string {
  const dir = fresh('cases');
  mkdirSync(dir);
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
}

/** A refusal: exit code, one message without a stack trace or JavaScript error name, matching every pattern. */
function expectRefused(r: CliResult, code: number, ...says: RegExp[]): void {
  const what = `${r.args.join(' ').slice(0, 200)}\nexit ${r.code} signal ${r.signal}\nstderr: ${r.stderr.slice(0, 2000)}`;
  expect(r.signal, what).toBeNull();
  expect(r.code, what).toBe(code);
  expect(r.stdout, what).toBe('');
  expect(r.stderr, what).not.toMatch(STACK_TRACE);
  expect(r.stderr, what).not.toMatch(/Maximum call stack|EISDIR|ENOENT|\ufeff/);
  for (const s of says) expect(r.stderr, what).toMatch(s);
}

describe('case files that are not regular files, or too big', () => {
  it('/dev/zero is refused at once as a device, memory does not grow, nothing is created', async () => {
    const data = fresh();
    const r = await dsmc(['run', '/dev/zero', '--data-dir', data, '--no-progress'], {}, 20_000);
    expectRefused(r, 1, /the case file \/dev\/zero is a character device, not a regular file; save the case to a \.json file/);
    expect(existsSync(data)).toBe(false);
  });

  it('a FIFO with no writer is refused at once instead of hanging', async () => {
    const fifo = join(fresh('fifo'));
    mkdirSync(fifo);
    const p = join(fifo, 'case.json');
    expect(spawnSync('mkfifo', [p]).status).toBe(0);
    const data = fresh();
    const r = await dsmc(['run', p, '--data-dir', data, '--no-progress'], {}, 20_000);
    expectRefused(r, 1, /is a named pipe \(FIFO\), not a regular file/);
    expect(existsSync(data)).toBe(false);
  });

  it('a folder is refused naming it as a folder (no raw EISDIR)', async () => {
    const dir = fresh('folder.json');
    mkdirSync(dir);
    const r = await dsmc(['run', dir, '--data-dir', fresh(), '--no-progress']);
    expectRefused(r, 1, new RegExp(`the case file ${dir} is a folder, not a file; give the path of a \\.json case file inside it`));
  });

  it('a 50 MB case file (a huge description) is refused naming its size and the limit; nothing is stored', async () => {
    const p = caseFile(JSON.stringify({ ...BASE, description: 'x'.repeat(50_000_000) }));
    const data = fresh();
    const r = await dsmc(['run', p, '--data-dir', data, '--no-progress']);
    expectRefused(r, 2, /\(case file\): the case file .* is 50\.00 MB \(50000\d+ bytes\); a case is at most 4\.19 MB \(4194304 bytes\)/);
    expect(existsSync(data)).toBe(false);
  });

  it('a description over 20000 characters is refused naming the field, in a file and through --set', async () => {
    const data = fresh();
    const inFile = await dsmc(['run', caseFile(JSON.stringify({ ...BASE, description: 'y'.repeat(100_000) })), '--data-dir', data, '--no-progress']);
    expectRefused(inFile, 2, /description: got "yyy+\.\.\.; expected a string of at most 20000 characters: shorten it/);
    const bySet = await dsmc(['run', VALID, '--set', `description=${'z'.repeat(30_000)}`, '--data-dir', data, '--no-progress']);
    expectRefused(bySet, 2, /description: .*at most 20000 characters/);
    expect(existsSync(data)).toBe(false);
  });
});

describe('a body whose STL file is a device', () => {
  it('/dev/zero as an STL mesh is refused naming the body and the file; no run is saved', async () => {
    const c = { ...BASE, bodies: [{ name: 'blob', shape: { type: 'stl', file: '/dev/zero' }, surface: { model: 'specular' } }] };
    const data = fresh();
    const r = await dsmc(['run', caseFile(JSON.stringify(c)), '--data-dir', data, '--no-progress'], {}, 30_000);
    expectRefused(r, 2, /bodies\[0\]\.shape: body "blob": bodies\[0\] \("blob"\): cannot read the STL file \/dev\/zero: it is not a regular file \(a device, FIFO or socket\)/);
    if (existsSync(data)) expect(runRows(data)).toBe(0);
  });
});

describe('deep nesting', () => {
  it('100 000 nested arrays as the whole file: the depth and the limit, no stack overflow', async () => {
    const p = caseFile('['.repeat(100_000) + ']'.repeat(100_000));
    const data = fresh();
    const r = await dsmc(['run', p, '--data-dir', data, '--no-progress']);
    expectRefused(r, 2, /\(case file\): arrays and objects nest more than 32 levels deep \(at line 1 column 33\); a case nests at most 32/);
    expect(existsSync(data)).toBe(false);
  });

  it('deep nesting inside a field names the field; through --set too', async () => {
    const text = JSON.stringify({ ...BASE, grid: 'GRID' }).replace('"GRID"', '['.repeat(100_000) + ']'.repeat(100_000));
    const data = fresh();
    const inFile = await dsmc(['run', caseFile(text), '--data-dir', data, '--no-progress']);
    expectRefused(inFile, 2, /^dsmc run: invalid case, fix these fields:\n {2}grid: arrays and objects nest more than 32 levels deep/);
    const bySet = await dsmc(['run', VALID, '--set', `initial.velocity=${'['.repeat(50_000)}${']'.repeat(50_000)}`, '--data-dir', data, '--no-progress']);
    expectRefused(bySet, 2, /initial: got arrays and objects nested more than 32 levels deep; expected at most 32/);
    expect(existsSync(data)).toBe(false);
  });
});

describe('preset names', () => {
  it('a preset name that climbs out of resources/cases is not read as a case', async () => {
    const cwd = join(fresh('deep'), 'a', 'b');
    mkdirSync(cwd, { recursive: true });
    for (const ref of ['../../package', '../../package.json', '../cases/collide-box', 'collide-box/../../../package']) {
      const r = await dsmc(['run', ref, '--data-dir', fresh(), '--no-progress'], {}, 60_000, cwd);
      expectRefused(r, 1, new RegExp(`case file "${ref.replace(/[.]/g, '\\.')}" not found, and it is not a preset name; give a path to a \\.json case or one of the presets: collide-box, `));
      expect(r.stderr).not.toMatch(/unknown key "(version|license|dependencies)"/);
    }
  });
});

describe('a UTF-8 byte-order mark', () => {
  it('is dropped: a valid case with one is accepted', async () => {
    const r = await dsmc(['check', caseFile('\ufeff' + JSON.stringify(BASE)), '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).ok).toBe(true);
  });

  it('an invalid case with one is refused naming the field, with no invisible character in the message', async () => {
    const { name: _name, ...noName } = BASE;
    const r = await dsmc(['run', caseFile('\ufeff' + JSON.stringify(noName, null, 2)), '--data-dir', fresh(), '--no-progress']);
    expectRefused(r, 2, /\n {2}name: got nothing \(the field is missing\)/);
  });
});

describe('escape sequences in names (ANSI, OSC window title, C1, bidi)', () => {
  const HOSTILE = '\u001b]0;pwned\u0007\u001b[2J\u009b31m\u202eevil\r';

  it('a case whose name holds them is refused naming the field; the message shows them escaped', async () => {
    const data = fresh();
    const r = await dsmc(['run', caseFile(JSON.stringify({ ...BASE, name: `box${HOSTILE}` })), '--data-dir', data, '--no-progress']);
    expectRefused(r, 2, /name: got "box\\u001b\]0;pwned.*expected a string of 1 to 100 characters without control characters/);
    expect(r.stderr).not.toMatch(TERMINAL_CONTROLS);
    expect(existsSync(data)).toBe(false);
  });

  it('runs, show and projects print them escaped when an older database holds them', async () => {
    const data = fresh();
    const store = RunStore.open({ dataDir: data });
    const id = store.createRun(runInput({ project: 'p' }));
    store.appendSteps(id, steps(1, 3), []);
    store.finishRun(id, 'failed', 'fixture');
    store.close();
    // as written by an older dsmc or another tool: straight into the tables
    const db = new Database(join(data, 'runs.sqlite'));
    db.prepare('UPDATE cases SET name = ?').run(`box${HOSTILE}`);
    db.prepare('UPDATE projects SET name = ?').run(`proj${HOSTILE}`);
    db.prepare('UPDATE runs SET notes = ?, reason = ?').run(`note${HOSTILE}`, `reason${HOSTILE}`);
    db.prepare('INSERT INTO run_tags (run_id, tag) VALUES (?, ?)').run(id, `tag${HOSTILE}`);
    db.close();
    for (const args of [['runs'], ['runs', '--json'], ['show', String(id)], ['show', String(id), '--json'], ['projects'], ['projects', '--json']]) {
      const r = await dsmc([...args, '--data-dir', data]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout, args.join(' ')).not.toMatch(TERMINAL_CONTROLS);
      expect(r.stdout, args.join(' ')).toMatch(/\\u001b\]0;pwned\\u0007/);
      // JSON output stays valid JSON with the same text
      if (args.includes('--json')) expect(JSON.stringify(JSON.parse(r.stdout))).toContain('pwned');
    }
  });

  it('a project name or tag with them is refused before anything is written', async () => {
    const data = fresh();
    const r = await dsmc(['run', VALID, '--project', `p${HOSTILE}`, '--data-dir', data, '--no-progress']);
    expectRefused(r, 1, /--project: invalid input\n.*no control characters/);
    expect(r.stderr).not.toMatch(TERMINAL_CONTROLS);
    expect(existsSync(data)).toBe(false);
  });
});

describe('options checked before the data folder is created', () => {
  it('invalid --gpus values: nothing created', async () => {
    for (const [gpus, ranks, says] of [
      ['x', '1', /--gpus: "x" is neither a GPU index \(0, 1, \.\.\.\) nor a PCI address like 0000:07:00\.0/],
      [',', '1', /--gpus: got ",", which names no GPU/],
      ['0,zz', '2', /--gpus: "zz" is neither a GPU index/],
      ['5,6', '2', /--gpus: there is no GPU 5; this machine lists /],
      ['-1,0', '2', /--gpus: "-1" is neither a GPU index/],
    ] as const) {
      const data = fresh();
      const r = await dsmc(['run', VALID, `--gpus=${gpus}`, '--ranks', ranks, '--data-dir', data, '--no-progress']);
      expectRefused(r, 1, says);
      expect(existsSync(data), `--gpus ${gpus}`).toBe(false);
    }
  });

  it('resume, show, tag, note and delete of a run in a folder without a database: nothing created', async () => {
    for (const args of [['resume', '999'], ['show', '999'], ['tag', '999', 'x'], ['note', '999', 'x'], ['delete', '999']]) {
      const data = fresh();
      const r = await dsmc([...args, '--data-dir', data]);
      expectRefused(r, 1, new RegExp(`there is no run database at ${data}/runs\\.sqlite \\(nothing was saved in that data folder\\)`));
      expect(existsSync(data), args.join(' ')).toBe(false);
    }
  });

  it('resume 999 in an existing database: refused, the folder unchanged', async () => {
    const data = fresh();
    RunStore.open({ dataDir: data }).close();
    const before = folderChecksums(data);
    const r = await dsmc(['resume', '999', '--data-dir', data]);
    expectRefused(r, 1, /run 999 not found in .*runs\.sqlite; list runs with `dsmc runs`/);
    expect(folderChecksums(data)).toEqual(before);
  });
});
