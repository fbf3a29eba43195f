// `--set path=value` overrides for case JSON (CLI): dotted paths, numeric segments index arrays,
// values parsed as JSON or else taken as plain strings. Works on a deep copy; the schema validates after.

const FORM = 'expected --set path=value, e.g. --set grid.cells=[100,100,160] or --set grid.cells.0=5 or --set name=foo';
const FORBIDDEN = new Set(['__proto__', 'prototype', 'constructor']);

// Applies each `path=value` in order to a deep copy of `json` and returns the copy.
export function applyOverrides(json: unknown, sets: string[]): unknown {
  const root = structuredClone(json);
  for (const set of sets) applyOne(root, set);
  return root;
}

// Splits `path=value` into path segments and the parsed value; throws on a malformed text.
export function parseSet(set: string): { path: string[]; value: unknown } {
  const eq = set.indexOf('=');
  if (eq < 0) throw new Error(`--set "${set}": no "=" found; ${FORM}`);
  const pathText = set.slice(0, eq).trim();
  if (pathText === '') throw new Error(`--set "${set}": the path before "=" is empty; ${FORM}`);
  const path = pathText.split('.');
  if (path.some((seg) => seg === '')) throw new Error(`--set "${set}": the path "${pathText}" has an empty segment; ${FORM}`);
  const bad = path.find((seg) => FORBIDDEN.has(seg));
  if (bad !== undefined) throw new Error(`--set "${set}": "${bad}" cannot be used as a key; ${FORM}`);
  return { path, value: parseValue(set.slice(eq + 1)) };
}

// Parses a value as JSON, or returns the text itself when it is not valid JSON.
function parseValue(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

// Writes one override into `root` in place, creating missing objects/arrays along the path.
function applyOne(root: unknown, set: string): void {
  const { path, value } = parseSet(set);
  let cur: unknown = root;
  for (let i = 0; i < path.length; i++) {
    const seg = path[i];
    const here = path.slice(0, i).join('.') || '(the case root)';
    if (cur === null || typeof cur !== 'object') {
      throw new Error(`--set "${set}": cannot index into ${here}, which is ${JSON.stringify(cur) ?? String(cur)} (not an object or array); ${FORM}`);
    }
    const last = i === path.length - 1;
    const key = arrayKey(cur, seg, set, here);
    const container = cur as Record<string | number, unknown>;
    if (last) {
      container[key] = value;
    } else {
      const next = Object.hasOwn(container, key) ? container[key] : undefined;
      if (next === undefined) container[key] = /^\d+$/.test(path[i + 1]) ? [] : {};
      cur = container[key];
    }
  }
}

// Checks a segment used on `cur`: arrays take a numeric index up to their length (append), objects any key.
function arrayKey(cur: object, seg: string, set: string, here: string): string | number {
  if (!Array.isArray(cur)) return seg;
  if (!/^\d+$/.test(seg)) throw new Error(`--set "${set}": ${here} is an array, so "${seg}" must be an index 0..${cur.length - 1}; ${FORM}`);
  const index = Number(seg);
  if (index > cur.length) throw new Error(`--set "${set}": index ${index} is past the end of ${here} (length ${cur.length}); ${FORM}`);
  return index;
}
