// `dsmc fields`: sampled values of a plane, a line or a point of a saved run, with their batch-means standard
// errors, as CSV (one row per cell: indices, cell centre in metres, then each field and its error) or JSON.
import { FIELD_INFO, fieldInfo, fieldNamesOf, isSpeciesFieldName, missingFieldMessage, type FieldName } from '../common/field-names.js';
import { selectedCells, type FieldSelection } from '../common/reports/field-selection.js';
import type { FieldSet } from '../common/run-record.js';
import { csvRow } from './csv.js';

/** One selected cell: indices, centre (m), the chosen fields' values and standard errors (null: no error, < 2 blocks). */
export interface FieldRow {
  i: number;
  j: number;
  k: number;
  x: number;
  y: number;
  z: number;
  values: Record<string, number>;
  errors: Record<string, number | null>;
}

/** The table of a selection. */
export interface FieldTable {
  run: number;
  selection: string;
  cells: [number, number, number];
  cellSize: [number, number, number];
  samples: number;
  blocks: number;
  fields: { name: FieldName; label: string; unit: string }[];
  rows: FieldRow[];
}

/** The fields named in --fields (all the run has when absent), checked against the run's. */
export function chosenFields(set: FieldSet, list: string | undefined): FieldName[] {
  const have = fieldNamesOf(set.values);
  if (list === undefined) return have;
  const names = list.split(',').map((s) => s.trim()).filter(Boolean);
  if (names.length === 0) throw new Error(`--fields: got "${list}", which names no field; e.g. --fields n,T (this run has ${have.join(', ')})`);
  for (const n of names) {
    if ((have as string[]).includes(n)) continue;
    if (n in FIELD_INFO || isSpeciesFieldName(n)) throw new Error(`--fields: ${missingFieldMessage(n as FieldName)}`);
    throw new Error(`--fields: no field "${n}"; this run has ${have.join(', ')}`);
  }
  return names as FieldName[];
}

/** The rows of the selected cells of a run's fields. */
export function fieldTable(run: number, set: FieldSet, sel: FieldSelection, names: FieldName[]): FieldTable {
  const [dx, dy, dz] = set.cellSize;
  const rows = selectedCells(sel, set.cells).map(({ i, j, k, id }) => {
    const values: Record<string, number> = {};
    const errors: Record<string, number | null> = {};
    for (const n of names) {
      values[n] = set.values[n]![id];
      const e = set.errors[n]?.[id];
      errors[n] = e === undefined || !Number.isFinite(e) ? null : e;
    }
    // cell centres to 12 digits: 0.075, not 0.07500000000000001
    const at = (index: number, size: number) => Number(((index + 0.5) * size).toPrecision(12));
    return { i, j, k, x: at(i, dx), y: at(j, dy), z: at(k, dz), values, errors };
  });
  return {
    run, selection: sel.text, cells: set.cells, cellSize: set.cellSize, samples: set.samples, blocks: set.blocks,
    fields: names.map((name) => ({ name, ...fieldInfo(name) })), rows,
  };
}

/** The table as CSV: a header of column names (errors as NAME_se, units in a comment line first). */
export function fieldTableCsv(t: FieldTable): string {
  const lines = [
    `# run ${t.run}, ${t.selection}: ${t.rows.length} cells of ${t.cells.join('x')}; ${t.samples} samples, ${t.blocks} batch-means blocks; ` +
      `units: x y z m, ${t.fields.map((f) => `${f.name} ${f.unit}`).join(', ')}; NAME_se: standard error (empty with fewer than 2 blocks)`,
    csvRow(['i', 'j', 'k', 'x', 'y', 'z', ...t.fields.flatMap((f) => [f.name, `${f.name}_se`])]),
  ];
  for (const r of t.rows) lines.push(csvRow([r.i, r.j, r.k, r.x, r.y, r.z, ...t.fields.flatMap((f) => [r.values[f.name], r.errors[f.name]])]));
  return lines.join('\n') + '\n';
}
