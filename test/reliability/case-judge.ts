// The judge of the case fuzzers (case-fuzz, hostile-case-fuzz, cli-fuzz): the bundled presets, mutations of them,
// and what an accepted or refused case must satisfy. An accepted case passes the rules and gives finite solver
// tables and a pre-launch report without throwing; a refused one throws the product's CaseError whose every
// issue names a real path of the case and says what to do. Anything else fails the property.
import fc from 'fast-check';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { gasVolumeOf, prelaunchCheck } from '../../src-main/cases/prelaunch.js';
import { CaseError, parseCase, type Case } from '../../src-main/common/case-schema.js';
import { valueAt } from '../../src-main/common/case-errors.js';
import { stepsPerSubmit } from '../../src-main/solver/submit-plan.js';
import { bufferPlan, initialCapacity } from '../../src-main/solver/state.js';
import { buildTables, type SolverTables } from '../../src-main/solver/tables.js';

const casesDir = fileURLToPath(new URL('../../resources/cases/', import.meta.url));
export const PRESET_TEXTS = readdirSync(casesDir).filter((f) => f.endsWith('.json')).sort().map((f) => readFileSync(casesDir + f, 'utf8'));
export const PRESETS: unknown[] = PRESET_TEXTS.map((t) => JSON.parse(t));
/** Words that tell the user what to do; every issue message must contain one. */
export const FIX_WORDS = /expected|use |set |remove|lower|raise|write |close /;

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type Seg = string | number;

// Every path (containers and leaves) inside a JSON value, the root excluded.
export function allPaths(v: unknown, base: Seg[] = []): Seg[][] {
  if (v === null || typeof v !== 'object') return [];
  const keys: Seg[] = Array.isArray(v) ? v.map((_, i) => i) : Object.keys(v);
  return keys.flatMap((k) => [[...base, k], ...allPaths((v as Record<Seg, unknown>)[k], [...base, k])]);
}

// Parses a formatted issue path such as `boundaries.xmin.velocity[0]` or `initial.fractions["a b"]` back into segments.
export function parsePath(text: string): Seg[] {
  if (text === '(case file)') return [];
  const out: Seg[] = [];
  const re = /(?:^|\.)([A-Za-z_$][\w$]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]/y;
  let m: RegExpExecArray | null;
  while (re.lastIndex < text.length && (m = re.exec(text))) out.push(m[1] ?? (m[2] !== undefined ? Number(m[2]) : JSON.parse(m[3])));
  if (re.lastIndex !== text.length) throw new Error(`issue path "${text}" is not in the path notation`);
  return out;
}

/** Containers a case may leave out (they have defaults), so a rule may name a field inside them. */
const DEFAULTED_CONTAINERS = new Set(['sampling', 'velocity', 'initial']);

// True when the path names something of the input: the root, or a field whose parent exists (the field itself may be missing).
export function realPath(input: unknown, path: Seg[]): boolean {
  if (path.length === 0) return true;
  const parent = path.length === 1 ? input : valueAt(input, path.slice(0, -1));
  if (parent === undefined) {
    // a container the case leaves to its default (e.g. sampling) still has a real path when its parent exists
    return path.length > 1 && realPath(input, path.slice(0, -1)) && DEFAULTED_CONTAINERS.has(String(path[path.length - 2]));
  }
  return parent !== null && typeof parent === 'object';
}

// Writes `value` at `path` in a deep copy of `root` (deleting when value is the DELETE marker).
export const DELETE = Symbol('delete');
export function setAt(root: unknown, path: Seg[], value: unknown): unknown {
  const copy = structuredClone(root) as Record<Seg, unknown>;
  let cur = copy;
  for (const seg of path.slice(0, -1)) cur = cur[seg] as Record<Seg, unknown>;
  const last = path[path.length - 1];
  if (value === DELETE) {
    if (Array.isArray(cur)) cur.splice(last as number, 1);
    else delete cur[last];
  } else cur[last] = value;
  return copy;
}

/** Replacement values: every JSON type, numbers at and beyond every bound, and values JSON cannot hold. */
export const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.double(),
  fc.constantFrom(NaN, Infinity, -Infinity, 0, -0, -1, 1, 1e-300, 5e-324, 1e300, 2 ** 31, 2 ** 32, 2 ** 53, 2 ** 60, 0.5, 1.5),
  fc.integer({ min: -10, max: 1e6 }),
  fc.string({ maxLength: 12 }),
  fc.constantFrom('periodic', 'specular', 'diffuse', 'inflow', 'outflow', 'empty', 'plusMinus', 'Ar', 'N2', '', 'NaN'),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.double(), { maxLength: 4 }),
  fc.array(fc.integer({ min: -2, max: 5000 }), { minLength: 3, maxLength: 3 }),
  fc.jsonValue({ maxDepth: 2 }),
  fc.dictionary(fc.constantFrom('Ar', 'N2', 'O2', 'He', 'x'), fc.double({ min: -1, max: 1e308, noNaN: true }), { maxKeys: 3 }),
  fc.constantFrom({ type: 'periodic' }, { type: 'inflow', numberDensity: 1e21, temperature: 300, velocity: [3e5, 0, 0] },
    { type: 'diffuse', temperature: 300, velocity: [0, 0, 50] }, { type: 'outflow' }),
);

/** One mutation: a path index (taken modulo the paths present) and what to do there. */
export const mutation = fc.record({
  at: fc.nat(),
  op: fc.oneof(
    fc.record({ kind: fc.constant('replace' as const), value: anyValue }),
    fc.record({ kind: fc.constant('scale' as const), factor: fc.constantFrom(0, -1, 1e-30, 1e-6, 1e-3, 0.5, 0.9, 1.1, 2, 10, 1e3, 1e6, 1e30, 1e300) }),
    fc.record({ kind: fc.constant('delete' as const) }),
    fc.record({ kind: fc.constant('addKey' as const), key: fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('__proto__', 'constructor', 'type', 'cells')), value: anyValue }),
  ),
});

/** One generated mutation. */
export type Mutation = typeof mutation extends fc.Arbitrary<infer T> ? T : never;

// Applies one mutation to a case JSON.
export function mutate(json: unknown, m: Mutation): unknown {
  const paths = allPaths(json);
  if (paths.length === 0) return json;
  const path = paths[m.at % paths.length];
  const here = valueAt(json, path);
  switch (m.op.kind) {
    case 'replace': return setAt(json, path, m.op.value);
    case 'scale': return typeof here === 'number' ? setAt(json, path, here * m.op.factor) : setAt(json, path, m.op.factor);
    case 'delete': return setAt(json, path, DELETE);
    case 'addKey': {
      if (here === null || typeof here !== 'object' || Array.isArray(here)) return setAt(json, path, { [m.op.key]: m.op.value });
      const copy = structuredClone(here) as Record<string, unknown>;
      Object.defineProperty(copy, m.op.key, { value: m.op.value, enumerable: true, writable: true, configurable: true });
      return setAt(json, path, copy);
    }
  }
}

// Numbers of the solver tables that the GPU receives as f32: all must stay finite.
export function nonFiniteTableValues(t: SolverTables): string[] {
  const bad: string[] = [];
  // Collects every number under `v` that is not finite as f32.
  const look = (where: string, v: unknown) => {
    if (typeof v === 'number') {
      if (!Number.isFinite(Math.fround(v))) bad.push(`${where} = ${v}`);
    } else if (v instanceof Float64Array || v instanceof Float32Array) {
      // per-cell and per-triangle tables: a plain loop (Object.entries of millions of cells would take seconds)
      for (let i = 0; i < v.length; i++) if (!Number.isFinite(Math.fround(v[i]))) bad.push(`${where}[${i}] = ${v[i]}`);
    } else if (ArrayBuffer.isView(v)) {
      // integer arrays (cell kinds, triangle lists, GPU words) are finite by type
    } else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) look(`${where}.${k}`, x);
  };
  look('tables', t);
  return bad;
}

// The outcome of one mutated case: 'accepted' or 'refused'; throws (failing the property) on anything else.
export function judge(input: unknown): 'accepted' | 'refused' {
  let c: Case;
  let tables: SolverTables;
  try {
    c = parseCase(input);
    // bodies are meshed and placed when the tables are built: bad geometry is refused there, the same way
    tables = buildTables(c);
  } catch (e) {
    if (!(e instanceof CaseError)) throw new Error(`parseCase threw ${(e as Error)?.name}: ${(e as Error)?.message}`);
    expect(e.issues.length).toBeGreaterThan(0);
    for (const issue of e.issues) {
      expect(realPath(input, parsePath(issue.path)), `issue names no real path: ${issue.path}: ${issue.message}`).toBe(true);
      expect(issue.message, `issue gives no fix: ${issue.path}: ${issue.message}`).toMatch(FIX_WORDS);
    }
    return 'refused';
  }
  // an accepted case must go through everything that runs before the GPU without throwing
  expect(nonFiniteTableValues(tables), 'accepted case gives non-finite f32 solver tables').toEqual([]);
  const capacity = initialCapacity(tables, stepsPerSubmit(c));
  expect(Number.isFinite(capacity) && capacity <= 2 ** 32).toBe(true);
  // as the product calls it (checkCase in run-case.ts): the bodies' warnings and gas volume from the tables just built
  // (without them prelaunchCheck meshes and checks the bodies a second time, the same call buildTables just made)
  const report = prelaunchCheck(c, {
    limits: { maxStorageBufferBindingSize: 2 ** 31 - 4, maxBufferSize: 2 ** 40 }, buffers: bufferPlan(tables, capacity),
    gasVolume: gasVolumeOf(c, tables.bodies.volumeFraction), bodyWarnings: tables.bodies.warnings,
  });
  expect(Object.values(report.estimates).every((x) => !Number.isNaN(x))).toBe(true);
  return 'accepted';
}
