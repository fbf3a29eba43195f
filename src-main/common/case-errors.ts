// Errors of the case-file layer: one CaseError carrying every problem found, each naming the field
// path, the value received and what is allowed. Turns zod issues into that form.
import type { z } from 'zod';

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
