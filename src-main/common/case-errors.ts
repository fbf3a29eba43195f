// Errors of the case-file layer: one CaseError carrying every problem found, each naming the field
// path, the value received and what is allowed. Turns zod issues into that form.
import type { z } from 'zod';
import { MAX_CASE_BYTES, checkTextNesting, stripBom, tooBigError } from './case-limits.js';

/** One problem in a case file: `path` like `grid.cells[0]`, `message` like `got -5; expected an integer >= 1`. */
export interface CaseIssue {
  path: string;
  message: string;
}

/** Thrown by parseCase: `issues` lists every problem, `message` has one `path: message` line per issue. */
export class CaseError extends Error {
  readonly issues: CaseIssue[];

  // Builds the error from its issues (at least one).
  constructor(issues: CaseIssue[]) {
    super(issues.map((i) => `${i.path}: ${i.message}`).join('\n'));
    this.name = 'CaseError';
    this.issues = issues;
  }
}

/** Label used for the path of the whole document. */
export const ROOT_PATH = '(case file)';

// Writes a path such as ['grid', 'cells', 0] as `grid.cells[0]`.
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else if (typeof seg === 'string' && /^[A-Za-z_$][\w$]*$/.test(seg)) out += out ? `.${seg}` : seg;
    else out += `[${JSON.stringify(String(seg))}]`;
  }
  return out || ROOT_PATH;
}

// Describes a received value for a message: `-5`, `"abc"`, `NaN`, `nothing (the field is missing)`.
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing (the field is missing)';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'bigint' || typeof value === 'function' || typeof value === 'symbol') return `a ${typeof value}`;
  const text = JSON.stringify(value, (_k, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? String(v) : v));
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

// Reads the value at `path` inside `input`, or undefined where the path does not exist.
export function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let cur: unknown = input;
  for (const seg of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    if (!Object.prototype.hasOwnProperty.call(cur, seg)) return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[seg];
  }
  return cur;
}

// Converts zod issues (whose messages are the schema's "expected ..." texts) into CaseIssues.
export function issuesFromZod(zodIssues: readonly z.core.$ZodIssue[], input: unknown): CaseIssue[] {
  const out: CaseIssue[] = [];
  for (const iss of zodIssues) {
    if (iss.code === 'unrecognized_keys') {
      // The strict-object schemas put the list of allowed keys in the message of this issue.
      for (const key of iss.keys) {
        out.push({
          path: formatPath([...iss.path, key]),
          message: `got unknown key "${key}"; allowed keys in ${formatPath(iss.path)}: ${iss.message} (remove it or fix its spelling)`,
        });
      }
    } else {
      out.push({ path: formatPath(iss.path), message: `got ${describeValue(valueAt(input, iss.path))}; ${iss.message}` });
    }
  }
  return out;
}

/** Where a case file's text stops being JSON: offset, the field path there, and what was found. */
interface SyntaxFault {
  offset: number;
  path: PropertyKey[];
  problem: string;
}

// Parses a case file's text as strict JSON; a syntax error becomes a CaseError naming the field, line, column and fix.
// A leading byte-order mark is dropped; text over MAX_CASE_BYTES or nested over MAX_CASE_DEPTH is refused first.
export function parseCaseJson(input: string): unknown {
  const text = stripBom(input);
  if (text.length > MAX_CASE_BYTES) throw tooBigError(new TextEncoder().encode(text).length, 'the case text');
  checkTextNesting(text);
  try {
    return JSON.parse(text);
  } catch (e) {
    const fault = findSyntaxFault(text) ?? { offset: 0, path: [], problem: `${(e as Error).message}; write the case file as strict JSON` };
    const before = text.slice(0, fault.offset).split('\n');
    const where = `line ${before.length} column ${before[before.length - 1].length + 1}`;
    throw new CaseError([{ path: formatPath(fault.path), message: `the file is not valid JSON at ${where}: ${fault.problem}` }]);
  }
}

// Walks the text as JSON and returns the first fault with the path of the value it is in (null when valid).
function findSyntaxFault(text: string): SyntaxFault | null {
  let i = 0;
  // Stops the walk with the fault at the current offset.
  const fail = (path: PropertyKey[], problem: string): never => {
    throw { offset: i, path, problem } satisfies SyntaxFault;
  };
  // Skips JSON whitespace.
  const space = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i])) i++;
  };
  // Explains an unexpected character where a value or a key should be.
  const unexpected = (path: PropertyKey[], wanted: string): never => {
    if (i >= text.length) fail(path, `the text ends early where ${wanted} should be: close every { with } and every [ with ]`);
    const rest = text.slice(i, i + 12);
    const word = /^-?(NaN|Infinity)\b/.exec(rest);
    if (word) fail(path, `found ${word[0]}, which JSON cannot hold; write a finite number, e.g. 1e-7`);
    if (rest.startsWith('//') || rest.startsWith('/*')) fail(path, 'found a comment; JSON has no comments: remove it (put notes in "description")');
    if (rest.startsWith("'")) fail(path, "found a single quote; JSON strings and keys need double quotes: write \"text\"");
    if (/^[}\]]/.test(rest)) fail(path, `found "${rest[0]}" after a comma; remove the trailing comma before it`);
    if (/^[A-Za-z_$]/.test(rest)) {
      const word = /^[\w$]+/.exec(rest)![0];
      fail(path, `found ${word} without quotes; write it as "${word}" if it is a key or a string (JSON values are numbers, true, false, null, "strings", [arrays] or {objects})`);
    }
    return fail(path, `found ${JSON.stringify(rest[0])}; expected ${wanted}`);
  };
  // Reads one JSON string (a key or a value) and returns its text.
  const string = (path: PropertyKey[]): string => {
    const m = /^"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/.exec(text.slice(i));
    if (!m) fail(path, 'found a string that is not closed or has a bad escape or a raw line break; close it with " and escape \\ as \\\\');
    i += m![0].length;
    return JSON.parse(m![0]) as string;
  };
  // Reads one JSON value of any kind; `path` is where it sits in the case.
  const value = (path: PropertyKey[]): void => {
    space();
    const ch = text[i];
    if (ch === '{') {
      i++;
      space();
      if (text[i] === '}') { i++; return; }
      for (;;) {
        space();
        if (text[i] !== '"') unexpected(path, 'a key in double quotes');
        const key = string(path);
        space();
        if (text[i] !== ':') unexpected([...path, key], `":" after the key "${key}"`);
        i++;
        value([...path, key]);
        space();
        if (text[i] === ',') { i++; continue; }
        if (text[i] === '}') { i++; return; }
        unexpected(path, '"," or "}"');
      }
    }
    if (ch === '[') {
      i++;
      space();
      if (text[i] === ']') { i++; return; }
      for (let k = 0; ; k++) {
        value([...path, k]);
        space();
        if (text[i] === ',') { i++; continue; }
        if (text[i] === ']') { i++; return; }
        unexpected([...path, k], '"," or "]"');
      }
    }
    if (ch === '"') { string(path); return; }
    const lit = /^(?:-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)(?![\w.])/.exec(text.slice(i));
    if (lit) { i += lit[0].length; return; }
    unexpected(path, 'a value: a number, "string", true, false, null, [array] or {object}');
  };
  try {
    value([]);
    space();
    if (i < text.length) fail([], `found more text after the end of the case object; remove it`);
    return null;
  } catch (f) {
    if (f && typeof f === 'object' && 'offset' in f) return f as SyntaxFault;
    throw f;
  }
}
