// Property-based fuzzing of case files as a hostile user writes them (fast-check, seeded): byte-order marks,
// nesting hundreds of levels deep at any field, huge strings and control characters (escape sequences) in any
// string field, random bytes, random JSON documents, and --set values of the same kinds. Every text goes through
// parseCaseText (the CLI's and the app's path) or applyOverrides + parseCase (--set). Outcome: accepted and
// valid (name and description within their limits and free of control characters, nesting within the limit,
// the same case as without the byte-order mark), or refused with a CaseError whose every issue names a
// parseable field path and says what to do (an Error naming the --set for a malformed --set). Never another
// exception, never a stack overflow. DSMC_FUZZ_SEED and DSMC_FUZZ_RUNS explore further.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyOverrides } from '../../src-main/common/case-overrides.js';
import { MAX_CASE_DEPTH, MAX_DESCRIPTION_CHARS, NO_CONTROL_CHARS, valueNestingFault } from '../../src-main/common/case-limits.js';
import { CaseError, parseCase, parseCaseText, type Case } from '../../src-main/common/case-schema.js';
import { FIX_WORDS, PRESETS, PRESET_TEXTS, allPaths, parsePath, realPath, setAt, type Seg } from './case-judge.js';

const SEED = Number(process.env.DSMC_FUZZ_SEED ?? 20261122);
/** Twice the other fuzzers' count: these inputs are judged without building solver tables, about 0.5 ms each. */
const RUNS = 2 * Number(process.env.DSMC_FUZZ_RUNS ?? 2500);
/** Characters that act on a terminal or hide text, and ordinary ones around them. */
const NASTY = ['\u001b', '\u001b]0;title\u0007', '\u001b[2J', '\u0007', '\r', '\n', '\t', '\u0000', '\u007f', '\u009b', '\u202e', '\u2028', '\ufeff', '\ud800', 'é', '✓', '"', '\\', 'a'];

/** What happened to one hostile input. */
type Outcome = 'accepted' | 'refused';

/** Checks an accepted case: nothing in it that the limits forbid. */
function expectValid(c: Case): void {
  expect(c.name).toMatch(NO_CONTROL_CHARS);
  expect(c.name.length).toBeLessThanOrEqual(100);
  expect((c.description ?? '').length).toBeLessThanOrEqual(MAX_DESCRIPTION_CHARS);
  for (const s of c.species) expect(s.name).toMatch(NO_CONTROL_CHARS);
  for (const b of c.bodies ?? []) expect(b.name).toMatch(NO_CONTROL_CHARS);
  expect(valueNestingFault(c)).toBeNull();
}

/** Checks a refusal: a CaseError whose issues name parseable paths (real ones of `input` when given) and say what to do. */
function expectCaseError(e: unknown, input?: unknown): void {
  if (!(e instanceof CaseError)) throw new Error(`threw ${(e as Error)?.name}: ${(e as Error)?.message}`);
  expect(e.issues.length).toBeGreaterThan(0);
  for (const issue of e.issues) {
    const path = parsePath(issue.path);
    if (input !== undefined) expect(realPath(input, path), `issue names no real path: ${issue.path}: ${issue.message}`).toBe(true);
    expect(issue.message, `issue gives no fix: ${issue.path}: ${issue.message}`).toMatch(FIX_WORDS);
    expect(issue.message).not.toMatch(/Maximum call stack/);
  }
}

/** Judges a case text as the CLI reads it. */
function judgeText(text: string, input?: unknown): Outcome {
  let c: Case;
  try {
    c = parseCaseText(text);
  } catch (e) {
    expectCaseError(e, input);
    return 'refused';
  }
  expectValid(c);
  return 'accepted';
}

/** Wraps a value in `depth` arrays or objects. */
function nest(value: unknown, depth: number, kind: 'array' | 'object'): unknown {
  let v = value;
  for (let i = 0; i < depth; i++) v = kind === 'array' ? [v] : { a: v };
  return v;
}

/** Depth of a path's position: the containers above the value at `path` in the case. */
function depthAt(path: Seg[]): number {
  return path.length;
}

/** A string built from nasty characters and ordinary text, up to `max` characters (repeated to reach huge lengths). */
const nastyString = (max: number) => fc.tuple(fc.array(fc.constantFrom(...NASTY), { maxLength: 8 }), fc.string({ maxLength: 12 }), fc.nat(max))
  .map(([bits, text, len]) => {
    const unit = bits.join('') + text;
    return unit.length === 0 ? 'x'.repeat(len) : unit.repeat(Math.ceil(len / unit.length) || 1).slice(0, Math.max(len, 1));
  });

/** Paths of string fields of a case that users name: the case name, description, species and body names. */
function stringFields(json: unknown): Seg[][] {
  return allPaths(json).filter((p) => {
    const last = p[p.length - 1];
    return last === 'name' || last === 'description';
  });
}

describe('hostile case texts', () => {
  it(`byte-order marks, deep nesting, huge and control-character strings, random bytes and documents (${RUNS} cases, seed ${SEED})`, () => {
    const seen = { accepted: 0, refused: 0 };
    const kinds = fc.oneof(
      // a byte-order mark before a preset: the same case as without it
      fc.record({ kind: fc.constant('bom' as const), p: fc.nat(PRESET_TEXTS.length - 1) }),
      // nesting 1 to 300 deep replacing any field
      fc.record({ kind: fc.constant('deep' as const), p: fc.nat(PRESETS.length - 1), at: fc.nat(), depth: fc.integer({ min: 1, max: 300 }), shape: fc.constantFrom('array' as const, 'object' as const) }),
      // a name or description replaced with nasty text of up to 60 000 characters
      fc.record({ kind: fc.constant('string' as const), p: fc.nat(PRESETS.length - 1), at: fc.nat(), s: nastyString(60_000) }),
      // a nasty character written raw into the preset text at any place
      fc.record({ kind: fc.constant('raw' as const), p: fc.nat(PRESET_TEXTS.length - 1), at: fc.nat(), s: fc.constantFrom(...NASTY) }),
      // random bytes as text, and random JSON documents
      fc.record({ kind: fc.constant('bytes' as const), b: fc.uint8Array({ maxLength: 300 }) }),
      fc.record({ kind: fc.constant('json' as const), v: fc.jsonValue({ maxDepth: 6 }) }),
    );
    fc.assert(fc.property(kinds, (k) => {
      switch (k.kind) {
        case 'bom': {
          const text = PRESET_TEXTS[k.p];
          expect(parseCaseText('\ufeff' + text)).toEqual(parseCase(PRESETS[k.p]));
          seen.accepted++;
          return;
        }
        case 'deep': {
          const paths = allPaths(PRESETS[k.p]);
          const path = paths[k.at % paths.length];
          const json = setAt(PRESETS[k.p], path, nest(0, k.depth, k.shape));
          const outcome = judgeText(JSON.stringify(json), json);
          // the value at `path` sits inside depthAt(path) containers, the root included
          if (depthAt(path) + k.depth > MAX_CASE_DEPTH) expect(outcome).toBe('refused');
          seen[outcome]++;
          return;
        }
        case 'string': {
          const paths = stringFields(PRESETS[k.p]);
          const json = setAt(PRESETS[k.p], paths[k.at % paths.length], k.s);
          seen[judgeText(JSON.stringify(json), json)]++;
          return;
        }
        case 'raw': {
          const t = PRESET_TEXTS[k.p];
          const i = k.at % t.length;
          seen[judgeText(t.slice(0, i) + k.s + t.slice(i))]++;
          return;
        }
        case 'bytes':
          seen[judgeText(new TextDecoder().decode(k.b))]++;
          return;
        case 'json':
          seen[judgeText(JSON.stringify(k.v), k.v)]++;
          return;
      }
    }), { seed: SEED, numRuns: RUNS });
    expect(seen.accepted).toBeGreaterThan(RUNS * 0.05);
    expect(seen.refused).toBeGreaterThan(RUNS * 0.5);
  });

  it('100 000 levels of nesting as text and as a value: refused naming the depth and the limit', () => {
    for (const text of ['['.repeat(100_000) + ']'.repeat(100_000), '{"a":'.repeat(100_000) + '1' + '}'.repeat(100_000)]) {
      expect(() => parseCaseText(text)).toThrow(/nest more than 32 levels deep \(at line 1 column \d+\); a case nests at most 32/);
    }
    expect(() => parseCase(nest(1, 100_000, 'array'))).toThrow(/^\[0\]: got arrays and objects nested more than 32 levels deep/);
    expect(() => parseCase({ ...(PRESETS[0] as object), grid: nest(1, 100_000, 'object') })).toThrow(/^grid: got arrays and objects nested more than 32/);
  });

  it('found by the CLI fuzzer: a name of only a byte-order mark or spaces is refused (the run database trims names)', () => {
    for (const name of ['\ufeff', '   ', '\u00a0']) {
      expect(() => parseCase({ ...(PRESETS[0] as object), name })).toThrow(/^name: got ".*"; expected a string of 1 to 100 characters, not only spaces: write a name/);
    }
  });

  it('a text over 4 MB is refused naming its size and the limit', () => {
    const text = JSON.stringify({ ...(PRESETS[0] as object), description: 'x'.repeat(5_000_000) });
    expect(() => parseCaseText(text)).toThrow(/\(case file\)|the case text is 5\.\d+ MB .*a case is at most 4\.19 MB/);
  });
});

describe('hostile --set values', () => {
  it(`deep, huge and control-character values through --set (${Math.ceil(RUNS / 5)} cases)`, () => {
    const value = fc.oneof(
      fc.integer({ min: 1, max: 400 }).map((d) => '['.repeat(d) + ']'.repeat(d)),
      fc.integer({ min: 1, max: 400 }).map((d) => '{"a":'.repeat(d) + '0' + '}'.repeat(d)),
      nastyString(40_000),
      nastyString(200).map((s) => JSON.stringify(s)),
    );
    const path = fc.constantFrom('name', 'description', 'species.0.name', 'grid', 'grid.cells', 'initial.velocity', 'run', 'boundaries.xmin', 'x');
    fc.assert(fc.property(fc.nat(PRESETS.length - 1), path, value, (p, at, v) => {
      let json: unknown;
      try {
        json = applyOverrides(PRESETS[p], [`${at}=${v}`]);
      } catch (e) {
        expect((e as Error).message).toMatch(/^--set ".*": .*expected --set path=value/s);
        return;
      }
      try {
        expectValid(parseCase(json));
      } catch (e) {
        if (e instanceof CaseError) expectCaseError(e, json);
        else throw e;
      }
    }), { seed: SEED, numRuns: Math.ceil(RUNS / 5) });
  });
});
