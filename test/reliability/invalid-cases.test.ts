// "Bad input gets a clear error and changes nothing" (issue 7): every file of the invalid-case corpus
// (test/fixtures/invalid-cases, manifest.json names the field each error must name and a piece of its fix)
// through the library parser and through the CLI (`dsmc run --data-dir --json` and `dsmc check`):
// refused with a message naming the field and the fix, no stack trace, and no run recorded.
// Every corpus file goes through the CLI's main() in this process (the function bin/dsmc.js calls, so the same
// parsing, checks and messages) with stdout and stderr captured; a spread of files (the first and last of every
// category) and every --set entry also go through the real `dsmc` process (compiled out/), whose exit code,
// stdout and stderr must equal the in-process ones byte for byte. (All 208 as processes took most of the file's
// 51 s in CI: about 0.2 to 0.5 s of Node start-up each on 2 cores, for checks done in milliseconds.)
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main as dsmcMain } from '../../src-main/cli/main.js';
import { CaseError, parseCase, parseCaseText } from '../../src-main/common/case-schema.js';
import { loadCase } from '../../src-main/solver/run-case.js';
import { RunStore } from '../../src-main/store/run-store.js';
import { runInput } from '../store/store-fixtures.js';
import { STACK_TRACE, dsmc, dsmcAll, folderChecksums, requireBuild, runRows, type CliResult } from './cli-runner.js';

const DIR = fileURLToPath(new URL('../fixtures/invalid-cases/', import.meta.url));

interface CaseEntry { file: string; category: string; field: string; says: string }
interface OverrideEntry { slug: string; base: string; sets: string[]; field: string; says: string }
const manifest = JSON.parse(readFileSync(join(DIR, 'manifest.json'), 'utf8')) as { cases: CaseEntry[]; overrides: OverrideEntry[] };
const text = (file: string) => readFileSync(join(DIR, file), 'utf8');
/** Entries whose file is not JSON at all (NaN literals, comments, ...). */
const isJson = (file: string) => { try { JSON.parse(text(file)); return true; } catch { return false; } };
/** Corpus entries also run as real `dsmc` processes: the first and the last file of every category. */
const SAMPLED = [...new Set(manifest.cases.flatMap((e, k) => {
  const same = manifest.cases.map((x, i) => [x, i] as const).filter(([x]) => x.category === e.category).map(([, i]) => i);
  return k === same[0] || k === same[same.length - 1] ? [k] : [];
}))];
/** Words that tell the user what to do; every issue message must contain one. */
const FIX_WORDS = /expected|use |set |remove|lower|raise|write |close /;

// Runs `dsmc args` through the CLI's main() in this process, one at a time, with stdout and stderr captured and
// `env` set (DSMC_DEBUG unset) as dsmc() sets them for a child; signal is null (no process to be killed).
async function dsmcInProcess(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  const saved = { ...process.env };
  const writes = { out: process.stdout.write, err: process.stderr.write };
  let stdout = '';
  let stderr = '';
  delete process.env.DSMC_DEBUG;
  Object.assign(process.env, env);
  process.stdout.write = ((chunk: string | Uint8Array) => { stdout += String(chunk); return true; }) as typeof process.stdout.write;
  process.stderr.write = ((chunk: string | Uint8Array) => { stderr += String(chunk); return true; }) as typeof process.stderr.write;
  try {
    const code = await dsmcMain(args);
    return { args, code, signal: null, stdout, stderr };
  } finally {
    process.stdout.write = writes.out;
    process.stderr.write = writes.err;
    for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
    Object.assign(process.env, saved);
  }
}

// Runs `parse` and returns the CaseError it must throw.
function caseError(parse: () => unknown): CaseError {
  try {
    parse();
  } catch (e) {
    if (e instanceof CaseError) return e;
    throw new Error(`expected a CaseError, got ${(e as Error)?.name}: ${(e as Error)?.message}`);
  }
  throw new Error('the case was accepted');
}

// Checks that a CaseError names `field` with a message containing `says`, and that every issue gives a fix.
function expectNamed(err: CaseError, field: string, says: string): void {
  const issue = err.issues.find((i) => i.path === field);
  expect(issue, `no issue names ${field}; issues:\n${err.message}`).toBeDefined();
  expect(issue!.message).toContain(says);
  for (const i of err.issues) expect(i.message, `${i.path}: ${i.message}`).toMatch(FIX_WORDS);
}

describe('the invalid-case corpus', () => {
  it('has at least 50 case files, each listed once in the manifest', () => {
    const files = readdirSync(DIR).filter((f) => /^\d{3}-.*\.json$/.test(f)).sort();
    expect(files.length).toBeGreaterThanOrEqual(50);
    expect(manifest.cases.map((e) => e.file).sort()).toEqual(files);
  });

  it('covers every kind of bad input the issue names', () => {
    const categories = new Set(manifest.cases.map((e) => e.category));
    for (const c of ['wrong type', 'NaN/Infinity', 'NaN/Infinity (JSON5-like text)', 'zero/negative size', 'absurd size', 'unknown key',
      'missing field', 'periodic one face', 'inflow too fast', 'mixture fractions']) expect(categories).toContain(c);
  });

  it('the base the overrides start from is valid (so the overrides alone make them invalid)', () => {
    expect(() => parseCaseText(text('valid-base.json'))).not.toThrow();
  });
});

describe('the library refuses every corpus file naming the field and the fix', () => {
  it.each(manifest.cases.map((e) => [e.file, e] as const))('%s', (_f, e) => {
    expectNamed(caseError(() => parseCaseText(text(e.file))), e.field, e.says);
    // a file that is JSON also fails the same way through parseCase on the parsed object
    if (isJson(e.file)) expectNamed(caseError(() => parseCase(JSON.parse(text(e.file)))), e.field, e.says);
  });

  it.each(manifest.overrides.map((e) => [e.slug, e] as const))('--set %s', (_s, e) => {
    expectNamed(caseError(() => loadCase(JSON.parse(text(e.base)), e.sets)), e.field, e.says);
  });
});

describe('the dsmc CLI refuses every corpus file and records nothing', () => {
  let root: string;
  let runs: CliResult[];
  let checks: CliResult[];
  let setRuns: CliResult[];
  let sampledProcesses: CliResult[];
  const dataDir = (k: number) => join(root, `data-${k}`);
  const setDataDir = (k: number) => join(root, `set-data-${k}`);

  beforeAll(async () => {
    requireBuild();
    root = mkdtempSync(join(tmpdir(), 'dsmc-invalid-'));
    // DSMC_DATA_DIR points at a folder that must stay absent: --data-dir must be the only place written
    const env = { DSMC_DATA_DIR: join(root, 'env-data-must-not-exist') };
    const cases = manifest.cases.map((e) => join(DIR, e.file));
    const runArgs = (k: number) => ['run', cases[k], '--data-dir', dataDir(k), '--json', '--no-progress'];
    const checkArgs = (k: number) => ['check', cases[k], '--json'];
    runs = [];
    checks = [];
    for (let k = 0; k < cases.length; k++) {
      runs.push(await dsmcInProcess(runArgs(k), env));
      checks.push(await dsmcInProcess(checkArgs(k), env));
    }
    // the real processes: the sampled files (run and check) and every --set entry
    const jobs = [
      ...SAMPLED.flatMap((k) => [runArgs(k), checkArgs(k)]),
      ...manifest.overrides.map((e, k) => ['run', join(DIR, e.base), ...e.sets.flatMap((s) => ['--set', s]), '--data-dir', setDataDir(k), '--json', '--no-progress']),
    ];
    const all = await dsmcAll(jobs, env);
    sampledProcesses = all.slice(0, 2 * SAMPLED.length);
    setRuns = all.slice(2 * SAMPLED.length);
    expect(existsSync(env.DSMC_DATA_DIR)).toBe(false);
  });
  afterAll(() => { if (root) rmSync(root, { recursive: true, force: true }); });

  // The checks every refused invocation must pass; `field`/`says` only where the CLI sees a CaseError.
  function expectRefused(r: CliResult, e: { field: string; says: string }, json: boolean): void {
    const what = `dsmc ${r.args.join(' ')}\nexit ${r.code}\nstderr: ${r.stderr}`;
    expect(r.signal, what).toBeNull();
    expect(r.code, what).not.toBe(0);
    expect(r.stderr, what).not.toMatch(STACK_TRACE);
    expect(r.stdout, what).toBe('');
    expect(r.stderr, what).toMatch(new RegExp(`^dsmc ${r.args[0]}: `));
    expect(r.code, what).toBe(2);
    expect(r.stderr, what).toContain('invalid case, fix these fields:');
    expect(r.stderr, what).toContain(`${e.field}: `);
    expect(r.stderr, what).toContain(e.says);
    // not JSON at all: the CLI's reader (parseCaseJson) names the field, line and column
    if (!json) expect(r.stderr, what).toMatch(/is not valid JSON at line \d+ column \d+/);
  }

  it.each(manifest.cases.map((e, k) => [e.file, e, k] as const))('%s', (_f, e, k) => {
    const json = isJson(e.file);
    expectRefused(runs[k], e, json);
    expectRefused(checks[k], e, json);
    // nothing recorded: the data folder was not even created, or its database has no run rows
    expect(!existsSync(dataDir(k)) || runRows(dataDir(k)) === 0, `data folder ${dataDir(k)} has run rows`).toBe(true);
  });

  it.each(SAMPLED.map((k, n) => [manifest.cases[k].file, manifest.cases[k], k, n] as const))('%s as a real dsmc process: the same as in process', (_f, e, k, n) => {
    const json = isJson(e.file);
    const [run, check] = [sampledProcesses[2 * n], sampledProcesses[2 * n + 1]];
    expectRefused(run, e, json);
    expectRefused(check, e, json);
    const same = (r: CliResult) => ({ code: r.code, stdout: r.stdout, stderr: r.stderr });
    expect(same(run)).toEqual(same(runs[k]));
    expect(same(check)).toEqual(same(checks[k]));
  });

  it.each(manifest.overrides.map((e, k) => [e.slug, e, k] as const))('--set %s', (_s, e, k) => {
    expectRefused(setRuns[k], e, true);
    expect(!existsSync(setDataDir(k)) || runRows(setDataDir(k)) === 0).toBe(true);
  });

  it('creates no data folder at all for an invalid case (the case is checked before the database opens)', () => {
    const created = [...manifest.cases.keys()].filter((k) => existsSync(dataDir(k)));
    expect(created).toEqual([]);
  });
});

describe('an existing database stays byte for byte the same when invalid cases are run against it', () => {
  let dir: string;
  beforeAll(() => {
    requireBuild();
    dir = mkdtempSync(join(tmpdir(), 'dsmc-invalid-db-'));
    const store = RunStore.open({ dataDir: dir });
    const id = store.createRun(runInput());
    store.finishRun(id, 'failed', 'a run from before');
    store.close();
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('checksums before and after match, and the old run is still listed', async () => {
    const before = folderChecksums(dir);
    const picks = manifest.cases.filter((_, k) => k % 10 === 0).map((e) => join(DIR, e.file));
    const results = await dsmcAll(picks.map((f) => ['run', f, '--data-dir', dir, '--json', '--no-progress']));
    for (const r of results) {
      expect(r.code, r.stderr).not.toBe(0);
      expect(r.stderr).not.toMatch(STACK_TRACE);
    }
    expect(folderChecksums(dir)).toEqual(before);
    const list = await dsmc(['runs', '--data-dir', dir, '--json']);
    expect(list.code, list.stderr).toBe(0);
    expect(JSON.parse(list.stdout.trim().split('\n').pop()!)).toHaveLength(1);
  });
});

describe('control: the same harness sees a run that is recorded', () => {
  it('the valid base case runs and leaves exactly one run row', async () => {
    requireBuild();
    const dir = mkdtempSync(join(tmpdir(), 'dsmc-valid-'));
    try {
      const data = join(dir, 'data');
      const r = await dsmc(['run', join(DIR, 'valid-base.json'), '--data-dir', data, '--json', '--no-progress', '--timing', 'off'], {}, 120_000);
      expect(r.code, r.stderr).toBe(0);
      expect(runRows(data)).toBe(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
