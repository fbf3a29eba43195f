// Canonical JSON (object keys sorted, no whitespace) and its SHA-256: the identity of a case.
import { createHash } from 'node:crypto';

/** True for {} objects (not arrays, typed arrays, dates, maps or class instances). */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** JSON text with object keys sorted at every level; throws naming the path of a value JSON cannot hold. */
export function canonicalJson(value: unknown, path = '$'): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`case JSON at ${path} is ${value}; JSON holds only finite numbers`);
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map((v, i) => canonicalJson(v, `${path}[${i}]`)).join(',')}]`;
  if (isPlainObject(value)) {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v, `${path}.${k}`)}`).join(',')}}`;
  }
  throw new Error(`case JSON at ${path} is a ${typeof value === 'object' ? (value as object).constructor?.name ?? 'object' : typeof value}; only plain JSON values can be stored`);
}

/** Hex SHA-256 of a text (UTF-8). */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** The hash createRun stores for a case (RunRecord.caseHash): what createStudy wants before any run exists. */
export function caseHashOf(caseJson: unknown): string {
  return sha256Hex(canonicalJson(caseJson));
}
