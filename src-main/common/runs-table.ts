// The runs table's logic, shared by the projects view and the compare picker: wall time, the differing case
// parameters of each run, a text filter over every shown column, and sorting by any column.
import type { RunParameter } from './contract/types.js';
import type { RunRecord } from './run-record.js';

/** A run with what the table shows beside its record: wall time (s, null while unknown) and its differing parameters. */
export interface RunRow {
  run: RunRecord;
  wallSeconds: number | null;
  params: Record<string, string>;
}

/** Columns the table sorts by: the record's own, wall time, or a differing parameter ('param:PATH'). */
export type SortKey = 'id' | 'caseName' | 'status' | 'seed' | 'lastStep' | 'throughput' | 'startedAt' | 'wallSeconds' | 'tags' | `param:${string}`;

/** Seconds from start to end of a run; null until it ended or when a time does not parse. */
export function wallSeconds(run: RunRecord): number | null {
  if (!run.endedAt) return null;
  const s = (Date.parse(run.endedAt) - Date.parse(run.startedAt)) / 1000;
  return Number.isFinite(s) && s >= 0 ? s : null;
}

/** The rows of `runs` with their wall time and their values of the differing parameters (in the runs' order). */
export function runRows(runs: readonly RunRecord[], params: readonly RunParameter[]): RunRow[] {
  return runs.map((run, i) => ({ run, wallSeconds: wallSeconds(run), params: Object.fromEntries(params.map((p) => [p.path, p.values[i] ?? ''])) }));
}

/** The text a row is searched in: id, case, project, status, seed, tags, notes and parameter values. */
function haystack(row: RunRow): string {
  const r = row.run;
  return [`#${r.id}`, `run ${r.id}`, r.caseName, r.project, r.status, `seed ${r.seed}`, ...r.tags, r.notes, ...Object.entries(row.params).map(([k, v]) => `${k}=${v}`)]
    .join('\n').toLowerCase();
}

/** Rows matching every word of `text` (case-insensitive; 'path=value' words match a parameter); all rows when empty. */
export function filterRows(rows: readonly RunRow[], text: string): RunRow[] {
  const words = text.toLowerCase().split(/\s+/).filter((w) => w !== '');
  return words.length === 0 ? [...rows] : rows.filter((row) => { const h = haystack(row); return words.every((w) => h.includes(w)); });
}

/** The value a row sorts by in column `key` (numbers as numbers, parameters as numbers when they parse). */
function sortValue(row: RunRow, key: SortKey): number | string | null {
  const r = row.run;
  if (key.startsWith('param:')) {
    const v = row.params[key.slice(6)];
    return v === undefined || v === '(absent)' ? null : (Number.isFinite(Number(v)) && v.trim() !== '' ? Number(v) : v);
  }
  switch (key) {
    case 'throughput': return r.summary?.particleStepsPerSecond ?? null;
    case 'wallSeconds': return row.wallSeconds;
    case 'tags': return r.tags.join(', ') || null;
    default: return r[key as 'id'] ?? null;
  }
}

/** Rows sorted by `key`, ascending or descending; rows without a value last either way; stable. */
export function sortRows(rows: readonly RunRow[], key: SortKey, descending = false): RunRow[] {
  const sign = descending ? -1 : 1;
  return rows.map((row, i) => ({ row, i, v: sortValue(row, key) })).sort((a, b) => {
    if (a.v === null || b.v === null) return a.v === b.v ? a.i - b.i : a.v === null ? 1 : -1;
    const c = typeof a.v === 'number' && typeof b.v === 'number' ? a.v - b.v : String(a.v).localeCompare(String(b.v));
    return c !== 0 ? sign * c : a.i - b.i;
  }).map((x) => x.row);
}
