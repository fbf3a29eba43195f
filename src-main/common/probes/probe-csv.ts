// Line and point probes as CSV (RFC 4180, one header row, a `run` column first so several runs' probes stack in one
// file that pandas or a spreadsheet reads as one table). Empty cells where a value is missing (too few samples, inside
// a body, no standard error).
import type { LineProbe, PointProbe } from './probe-types.js';

/** A CSV field: quoted when it holds a comma, quote or line break. */
function quote(x: string): string {
  return /[",\r\n]/.test(x) ? `"${x.replace(/"/g, '""')}"` : x;
}

/** A number as CSV text: full precision, empty for null. */
function num(x: number | null | undefined): string {
  return x === null || x === undefined || !Number.isFinite(x) ? '' : String(x);
}

/** Joins rows of fields into CSV text (CRLF line ends, as RFC 4180 has them). */
function csv(rows: string[][]): string {
  return rows.map((r) => r.map(quote).join(',')).join('\r\n') + '\r\n';
}

/** Line probes (one or several runs) as one table: run, distance, the piece's middle and cell, then each field and its standard error. */
export function lineProbeCsv(probes: LineProbe[]): string {
  if (probes.length === 0) throw new Error('line probe CSV: there is no probe to write; probe a line first');
  // the fields every probe has (runs of a monatomic and a molecular gas share all but Trot, Tvib, Tall)
  const fields = probes[0].fields.filter((f) => probes.every((p) => p.fields.some((g) => g.name === f.name)));
  const header = ['run', 'distance (m)', 'x (m)', 'y (m)', 'z (m)', 'i', 'j', 'k', 'enters at (m)', 'leaves at (m)',
    ...fields.flatMap((f) => [`${f.name} (${f.unit})`, `${f.name} standard error (${f.unit})`])];
  const rows = [header];
  for (const p of probes) {
    for (let n = 0; n < p.s.length; n++) {
      rows.push([String(p.runId), num(p.s[n]), num(p.points[3 * n]), num(p.points[3 * n + 1]), num(p.points[3 * n + 2]),
        String(p.cells[3 * n]), String(p.cells[3 * n + 1]), String(p.cells[3 * n + 2]), num(p.s0[n]), num(p.s1[n]),
        ...fields.flatMap((f) => [num(p.values[f.name]?.[n]), num(p.errors[f.name]?.[n])])]);
    }
  }
  return csv(rows);
}

/** Point probes (one or several runs) as one table: one row per run and field with the point, its cell, value and standard error. */
export function pointProbeCsv(probes: PointProbe[]): string {
  if (probes.length === 0) throw new Error('point probe CSV: there is no probe to write; probe a point first');
  const rows = [['run', 'x (m)', 'y (m)', 'z (m)', 'i', 'j', 'k', 'field', 'label', 'unit', 'value', 'standard error']];
  for (const p of probes) {
    for (const r of p.rows) {
      rows.push([String(p.runId), num(p.at[0]), num(p.at[1]), num(p.at[2]), ...p.cell.map(String), r.name, r.label, r.unit, num(r.value), num(r.error)]);
    }
  }
  return csv(rows);
}
