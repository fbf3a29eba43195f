// Fuzzing through the real `dsmc run` (seeded, a few dozen processes: each costs a Node start, an accepted one a
// short run on the software GPU). Case files are mutated presets, hostile texts (byte-order mark, deep nesting,
// huge or control-character strings, raw escape characters, random bytes) and random --set values, all on a tiny
// grid. The library predicts each outcome; the CLI must agree: refused with exit 2 naming the first issue's
// field (or exit 1 naming a malformed --set), no stack trace, and nothing saved (the data folder not even
// created when the case itself is invalid); or accepted, run, and saved as exactly one run whose stored case
// is valid and equal to the library's. DSMC_FUZZ_SEED and DSMC_CLI_FUZZ_RUNS explore further.
import fc from 'fast-check';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveBodyFiles } from '../../src-main/cli/case-file.js';
import { forTerminal } from '../../src-main/cli/terminal-text.js';
import { CaseError, parseCase, parseCaseJson, type Case } from '../../src-main/common/case-schema.js';
import { loadCase } from '../../src-main/solver/run-case.js';
import { stepsPerSubmit } from '../../src-main/solver/submit-plan.js';
import { initialCapacity } from '../../src-main/solver/state.js';
import { buildTables } from '../../src-main/solver/tables.js';
import { PRESETS, PRESET_TEXTS, allPaths, mutate, mutation, setAt } from './case-judge.js';
import { STACK_TRACE, dsmcAll, requireBuild, runRows, type CliResult } from './cli-runner.js';

const SEED = Number(process.env.DSMC_FUZZ_SEED ?? 20261122);
const RUNS = Number(process.env.DSMC_CLI_FUZZ_RUNS ?? 40);
/** Every case runs on a tiny grid for two steps, so an accepted one costs about a second on lavapipe. */
const TINY = ['run.steps=2', 'grid.cells=[4,4,4]', 'run.stepsPerSubmit=1'];
/** Accepted cases with more particles than this are checked (`dsmc check`) instead of run. */
const MAX_RUN_PARTICLES = 200_000;
const NASTY = ['\u001b]0;pwned\u0007', '\u001b[2J', '\r', '\t', '\u0000', '\u009b', '\u202e', '\ufeff', 'é'];
const VALID = readFileSync(new URL('../fixtures/invalid-cases/valid-base.json', import.meta.url), 'utf8');

/** One generated CLI input: the case file's bytes and the --set texts. */
interface Input {
  text: string;
  sets: string[];
}

/** Inputs of every kind. */
const inputs: fc.Arbitrary<Input> = fc.oneof(
  fc.record({ p: fc.nat(PRESETS.length - 1), ms: fc.array(mutation, { minLength: 1, maxLength: 3 }) })
    .map(({ p, ms }) => ({ text: JSON.stringify(ms.reduce((j, m) => mutate(j, m), PRESETS[p])), sets: TINY })),
  fc.nat(PRESET_TEXTS.length - 1).map((p) => ({ text: '\ufeff' + PRESET_TEXTS[p], sets: TINY })),
  fc.record({ p: fc.nat(PRESETS.length - 1), at: fc.nat(), depth: fc.integer({ min: 20, max: 2000 }) }).map(({ p, at, depth }) => {
    const paths = allPaths(PRESETS[p]);
    return { text: JSON.stringify(setAt(PRESETS[p], paths[at % paths.length], 'DEEP')).replace('"DEEP"', '['.repeat(depth) + ']'.repeat(depth)), sets: TINY };
  }),
  fc.record({ p: fc.nat(PRESETS.length - 1), field: fc.constantFrom('name', 'description'), bits: fc.array(fc.constantFrom(...NASTY, 'ok'), { minLength: 1, maxLength: 4 }), len: fc.constantFrom(1, 50, 101, 20_000, 20_001, 200_000) })
    .map(({ p, field, bits, len }) => {
      const unit = bits.join('');
      return { text: JSON.stringify({ ...(PRESETS[p] as object), [field]: unit.repeat(Math.ceil(len / unit.length)).slice(0, len) }), sets: TINY };
    }),
  fc.record({ p: fc.nat(PRESET_TEXTS.length - 1), at: fc.nat(), s: fc.constantFrom(...NASTY) }).map(({ p, at, s }) => {
    const t = PRESET_TEXTS[p];
    return { text: t.slice(0, at % t.length) + s + t.slice(at % t.length), sets: TINY };
  }),
  fc.uint8Array({ maxLength: 200 }).map((b) => ({ text: new TextDecoder().decode(b), sets: TINY })),
  fc.record({ path: fc.constantFrom('name', 'description', 'run.dt', 'grid.cellSize', 'species.0.mass', 'initial.velocity', 'x', 'boundaries.xmin', '__proto__.x', 'a..b', 'name.x'), v: fc.oneof(fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)), fc.constantFrom(...NASTY), fc.integer({ min: 30, max: 3000 }).map((d) => '['.repeat(d) + ']'.repeat(d))) })
    // a command line cannot hold NUL: the shell and the kernel cut arguments there
    .map(({ path, v }) => ({ text: VALID, sets: [...TINY, `${path}=${v.replaceAll('\u0000', '')}`] })),
);

/** What the library says the CLI must do with an input. */
type Prediction =
  | { kind: 'invalid'; error: CaseError; early: boolean }
  | { kind: 'bad-set'; error: Error }
  | { kind: 'accepted'; c: Case; particles: number };

/** Predicts the outcome the way `dsmc run` reads, overrides, validates and meshes a case (early: before the database opens). */
function predict(input: Input, file: string): Prediction {
  let c: Case;
  try {
    c = loadCase(resolveBodyFiles(parseCaseJson(input.text), dirname(file)), input.sets);
  } catch (e) {
    if (e instanceof CaseError) return { kind: 'invalid', error: e, early: true };
    if (e instanceof Error && /^--set /.test(e.message)) return { kind: 'bad-set', error: e };
    throw e;
  }
  try {
    const tables = buildTables(c);
    return { kind: 'accepted', c, particles: initialCapacity(tables, stepsPerSubmit(c)) };
  } catch (e) {
    if (e instanceof CaseError) return { kind: 'invalid', error: e, early: false };
    throw e;
  }
}

/** The stored case JSON of every run in a data folder. */
function storedCases(dir: string): unknown[] {
  const db = new Database(join(dir, 'runs.sqlite'), { readonly: true });
  try {
    return (db.prepare('SELECT c.json FROM runs r JOIN cases c ON c.id = r.case_id').all() as { json: string }[]).map((r) => JSON.parse(r.json));
  } finally {
    db.close();
  }
}

let root: string;
beforeAll(() => {
  requireBuild();
  root = mkdtempSync(join(tmpdir(), 'dsmc-cli-fuzz-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('fuzzing dsmc run', () => {
  it(`the CLI agrees with the library and saves nothing invalid (${RUNS} processes, seed ${SEED})`, async () => {
    const samples = fc.sample(inputs, { seed: SEED, numRuns: RUNS });
    const jobs: { input: Input; file: string; data: string; p: Prediction; args: string[] }[] = samples.map((input, k) => {
      const dir = join(root, `case-${k}`);
      mkdirSync(dir);
      const file = join(dir, 'case.json');
      writeFileSync(file, input.text);
      const data = join(root, `data-${k}`);
      const p = predict(input, file);
      const sets = input.sets.flatMap((s) => ['--set', s]);
      const args = p.kind === 'accepted' && p.particles > MAX_RUN_PARTICLES
        ? ['check', file, ...sets, '--json']
        : ['run', file, ...sets, '--data-dir', data, '--json', '--no-progress', '--timing', 'off'];
      return { input, file, data, p, args };
    });
    const results: CliResult[] = await dsmcAll(jobs.map((j) => j.args), {}, 2);
    const counts = { invalid: 0, 'bad-set': 0, run: 0, checked: 0 };
    jobs.forEach((j, k) => {
      const r = results[k];
      const what = `input ${k}: ${j.args.slice(0, 2).join(' ')} ${j.input.sets.join(' ').slice(0, 200)}\ntext: ${JSON.stringify(j.input.text.slice(0, 300))}\nprediction: ${j.p.kind}\nexit ${r.code}\nstderr: ${r.stderr.slice(0, 1500)}`;
      expect(r.signal, what).toBeNull();
      expect(r.stderr, what).not.toMatch(STACK_TRACE);
      expect(r.stderr, what).not.toMatch(/[\u001b\u0007\u009b\u202e]/);
      if (j.p.kind === 'invalid') {
        counts.invalid++;
        expect(r.code, what).toBe(2);
        expect(r.stdout, what).toBe('');
        const first = j.p.error.issues[0];
        expect(r.stderr, what).toContain(forTerminal(`${first.path}: ${first.message}`.split('\n')[0]));
        if (j.p.early) expect(existsSync(j.data), what).toBe(false);
        else if (existsSync(j.data)) expect(runRows(j.data), what).toBe(0);
      } else if (j.p.kind === 'bad-set') {
        counts['bad-set']++;
        expect(r.code, what).toBe(1);
        expect(r.stderr, what).toContain(forTerminal(j.p.error.message.split('\n')[0]));
        expect(existsSync(j.data), what).toBe(false);
      } else if (j.args[0] === 'check') {
        counts.checked++;
        expect([0, 1], what).toContain(r.code);
        expect(JSON.parse(r.stdout.trim().split('\n').pop()!), what).toHaveProperty('ok');
      } else {
        counts.run++;
        expect(r.code, what).toBe(0);
        expect(JSON.parse(r.stdout.trim().split('\n').pop()!).runId, what).toBe(1);
        const saved = storedCases(j.data);
        expect(saved, what).toHaveLength(1);
        // what was saved is valid and is the case the library read
        expect(parseCase(saved[0]), what).toEqual(j.p.c);
      }
    });
    // every outcome must occur, or the inputs are too tame or too wild to test anything
    expect(counts.invalid).toBeGreaterThan(RUNS / 3);
    expect(counts.run).toBeGreaterThan(2);
    console.log(`dsmc run fuzz: ${JSON.stringify(counts)}`);
  }, 240_000);
});
