// Paths into a case object: writing a value at ['grid', 'cells', 0], and the text form the checks use
// (`grid.cells[0]`, as src-main/common/case-errors.ts formatPath writes it).
export { formatPath } from '../../src-main/common/case-errors.js';

/** Sets obj[path[0]][path[1]]... = value, creating on the way an array before a numeric key, else an object; undefined deletes the key. */
export function setAtPath(obj: Record<string, unknown>, path: (string | number)[], value: unknown): void {
  let node = obj as Record<string | number, unknown>;
  for (const [i, key] of path.slice(0, -1).entries()) {
    if (typeof node[key] !== 'object' || node[key] === null) node[key] = typeof path[i + 1] === 'number' ? [] : {};
    node = node[key] as Record<string | number, unknown>;
  }
  const last = path[path.length - 1];
  if (value === undefined && !Array.isArray(node)) delete node[last];
  else node[last] = value;
}

/** A deep copy of JSON data (works on Vue's reactive proxies, unlike structuredClone). */
export function cloneJson<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
