// Writing and reading a run's sampled fields: one run_fields row and one run_field_arrays row per field.
import type Database from 'better-sqlite3';
import { fieldNamesOf, type FieldName, type Fields } from '../common/field-names.js';
import type { FieldSet } from '../common/run-record.js';
import { blobToFloat64, float64ToBlob } from './field-blobs.js';

/** Inserts the fields of a run (call inside the caller's transaction). */
export function insertFields(db: Database.Database, runId: number, f: FieldSet): void {
  db.prepare(`INSERT INTO run_fields (run_id, cells_x, cells_y, cells_z, cell_size_x, cell_size_y, cell_size_z, samples, blocks)
              VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`)
    .run(runId, ...f.cells, ...f.cellSize, f.samples, f.blocks);
  const add = db.prepare('INSERT INTO run_field_arrays (run_id, name, field_values, field_errors) VALUES (?, ?, ?, ?)');
  for (const name of fieldNamesOf(f.values)) add.run(runId, name, float64ToBlob(f.values[name]!), float64ToBlob(f.errors[name]!));
}

interface FieldsRow {
  cells_x: number; cells_y: number; cells_z: number;
  cell_size_x: number; cell_size_y: number; cell_size_z: number;
  samples: number; blocks: number;
}

/** The fields of a run, or null when it has none (fields a newer dsmc added are absent from older runs). */
export function readFields(db: Database.Database, runId: number): FieldSet | null {
  const row = db.prepare('SELECT * FROM run_fields WHERE run_id = ?').get(runId) as FieldsRow | undefined;
  if (!row) return null;
  const values = {} as Fields;
  const errors = {} as Fields;
  const arrays = db.prepare('SELECT name, field_values, field_errors FROM run_field_arrays WHERE run_id = ?')
    .all(runId) as { name: FieldName; field_values: Buffer; field_errors: Buffer }[];
  for (const a of arrays) {
    values[a.name] = blobToFloat64(a.field_values, `run ${runId} field ${a.name}`);
    errors[a.name] = blobToFloat64(a.field_errors, `run ${runId} field ${a.name} errors`);
  }
  return {
    cells: [row.cells_x, row.cells_y, row.cells_z],
    cellSize: [row.cell_size_x, row.cell_size_y, row.cell_size_z],
    samples: row.samples,
    blocks: row.blocks,
    values,
    errors,
  };
}
