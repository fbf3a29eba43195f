// Limits on a case file as a whole, checked before anything else reads it: its size in bytes, how deep its
// arrays and objects nest, and the byte-order mark some editors write. A case is a few kilobytes and nests
// about six levels; these limits keep a hostile or broken file from exhausting memory or the stack.
import { CaseError, ROOT_PATH, formatPath } from './case-errors.js';

/** Largest case file read, in bytes (bodies' meshes live in their own STL files). */
export const MAX_CASE_BYTES = 4 * 1024 * 1024;
/** Deepest nesting of arrays and objects in a case (the schema's own deepest is 5). */
export const MAX_CASE_DEPTH = 32;
/** Longest `description` of a case, in characters. */
export const MAX_DESCRIPTION_CHARS = 20_000;

/** Text without C0 or C1 control characters, DEL, line separators or bidirectional overrides (for names). */
export const NO_CONTROL_CHARS = /^[^\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]*$/;

/** Removes a leading UTF-8 byte-order mark (U+FEFF), which JSON does not allow but some editors write. */
export function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** A size in bytes for a message: `4.00 MB (4194304 bytes)`. */
export function formatBytes(n: number): string {
  return `${(n / 1e6).toFixed(2)} MB (${n} bytes)`;
}

/** The error for a case text or file over MAX_CASE_BYTES. */
export function tooBigError(bytes: number, what = 'the case file'): CaseError {
  return new CaseError([{
    path: ROOT_PATH,
    message: `${what} is ${formatBytes(bytes)}; a case is at most ${formatBytes(MAX_CASE_BYTES)}: ` +
      'remove what does not belong in it (put meshes in STL files under bodies[i].shape.file, long notes in dsmc note)',
  }]);
}

/** The first top-level key path and line/column where the text nests deeper than the limit, or null (iterative scan, no recursion). */
export function textNestingFault(text: string, limit = MAX_CASE_DEPTH): { path: PropertyKey[]; line: number; column: number } | null {
  let depth = 0;
  let topKey: string | null = null;
  let pendingKey: string | null = null;
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 0x22) {
      // a string: skip to its closing quote; at depth 1, remember it as the current top-level key
      let j = i + 1;
      while (j < text.length && text.charCodeAt(j) !== 0x22) j += text.charCodeAt(j) === 0x5c ? 2 : 1;
      if (depth === 1) pendingKey = text.slice(i + 1, Math.min(j, i + 1 + 200));
      i = j;
    } else if (ch === 0x3a) {
      if (depth === 1) topKey = pendingKey;
    } else if (ch === 0x5b || ch === 0x7b) {
      depth++;
      if (depth > limit) return { path: depth > 1 && topKey !== null ? [topKey] : [], line, column: i - lineStart + 1 };
    } else if (ch === 0x5d || ch === 0x7d) {
      depth = Math.max(0, depth - 1);
      if (depth === 0) topKey = null;
    } else if (ch === 0x0a) {
      line++;
      lineStart = i + 1;
    }
  }
  return null;
}

/** Throws a CaseError naming the field when the text nests deeper than MAX_CASE_DEPTH (before JSON.parse). */
export function checkTextNesting(text: string): void {
  const f = textNestingFault(text);
  if (!f) return;
  throw new CaseError([{
    path: formatPath(f.path),
    message: `arrays and objects nest more than ${MAX_CASE_DEPTH} levels deep (at line ${f.line} column ${f.column}); ` +
      `a case nests at most ${MAX_CASE_DEPTH}: remove the extra [ and { (no field of a case needs more than 5)`,
  }]);
}

/** The top-level key under which a parsed value nests deeper than the limit ([] for the root), or null; iterative. */
export function valueNestingFault(value: unknown, limit = MAX_CASE_DEPTH): PropertyKey[] | null {
  const stack: { v: unknown; depth: number; top: PropertyKey | null }[] = [{ v: value, depth: 0, top: null }];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const { v, depth, top } = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth + 1 > limit) return top === null ? [] : [top];
    if (seen.has(v)) continue; // a shared or cyclic object counts once (JSON text cannot make one)
    seen.add(v);
    for (const [k, child] of Object.entries(v)) stack.push({ v: child, depth: depth + 1, top: top ?? (Array.isArray(v) ? Number(k) : k) });
  }
  return null;
}

/** Throws a CaseError naming the field when a parsed case nests deeper than MAX_CASE_DEPTH. */
export function checkValueNesting(value: unknown): void {
  const path = valueNestingFault(value);
  if (!path) return;
  throw new CaseError([{
    path: formatPath(path),
    message: `got arrays and objects nested more than ${MAX_CASE_DEPTH} levels deep; ` +
      `expected at most ${MAX_CASE_DEPTH}: remove the extra nesting (no field of a case needs more than 5)`,
  }]);
}
