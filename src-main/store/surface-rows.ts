// Writing and reading a run's surfaces: one run_surfaces row (sums, triangles, bodies, cell marks).
import type Database from 'better-sqlite3';
import type { RunSurface } from '../common/run-record.js';
import { SURFACE_Q } from '../common/surface-layout.js';
import { blobToFloat64, float64ToBlob } from './field-blobs.js';

/** The cut cells' gas fractions in cell order (kind 1), the only fractions not implied by the kind. */
function cutFractions(kind: Uint8Array, fraction: Float64Array): Float64Array {
  const out: number[] = [];
  for (let c = 0; c < kind.length; c++) if (kind[c] === 1) out.push(fraction[c]);
  return Float64Array.from(out);
}

/** Every cell's gas fraction from the kinds and the cut cells' fractions. */
function allFractions(kind: Uint8Array, cut: Float64Array, what: string): Float64Array {
  const out = new Float64Array(kind.length);
  let k = 0;
  for (let c = 0; c < kind.length; c++) {
    if (kind[c] === 0) out[c] = 1;
    else if (kind[c] === 1) {
      if (k >= cut.length) throw new Error(`${what}: more cut cells than stored fractions; the database is damaged`);
      out[c] = cut[k++];
    }
  }
  return out;
}

/** Inserts the surfaces of a run (call inside the caller's transaction). */
export function insertSurface(db: Database.Database, runId: number, s: RunSurface): void {
  const tb = Buffer.from(s.triangleBody.buffer, s.triangleBody.byteOffset, s.triangleBody.byteLength);
  const kind = s.cellKind ? Buffer.from(s.cellKind.buffer, s.cellKind.byteOffset, s.cellKind.byteLength) : null;
  const cut = s.cellKind && s.volumeFraction ? float64ToBlob(cutFractions(s.cellKind, s.volumeFraction)) : null;
  db.prepare(`INSERT INTO run_surfaces (run_id, elements, sampled_time, sums, triangles, triangle_body, body_names, cell_kind, cut_fraction)
              VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`)
    .run(runId, s.sums.elements, s.sums.sampledTime, float64ToBlob(s.sums.values), float64ToBlob(s.triangles), tb, JSON.stringify(s.bodyNames), kind, cut);
}

interface SurfaceRow {
  elements: number; sampled_time: number; sums: Buffer; triangles: Buffer; triangle_body: Buffer; body_names: string;
  cell_kind: Buffer | null; cut_fraction: Buffer | null;
}

/** The surfaces of a run, or null when it has none (runs recorded before surfaces were kept). */
export function readSurface(db: Database.Database, runId: number): RunSurface | null {
  const row = db.prepare('SELECT * FROM run_surfaces WHERE run_id = ?').get(runId) as SurfaceRow | undefined;
  if (!row) return null;
  const what = `run ${runId} surfaces`;
  const values = blobToFloat64(row.sums, what);
  const triangles = blobToFloat64(row.triangles, what);
  if (values.length !== row.elements * SURFACE_Q || triangles.length % 9 !== 0 || row.triangle_body.byteLength !== (triangles.length / 9) * 4) {
    throw new Error(`${what}: the stored arrays do not fit ${row.elements} elements; the database is damaged`);
  }
  const triangleBody = new Int32Array(triangles.length / 9);
  new Uint8Array(triangleBody.buffer).set(row.triangle_body);
  const cellKind = row.cell_kind ? Uint8Array.from(row.cell_kind) : null;
  const volumeFraction = cellKind && row.cut_fraction ? allFractions(cellKind, blobToFloat64(row.cut_fraction, what), what) : null;
  return {
    sums: { elements: row.elements, values, sampledTime: row.sampled_time },
    triangles, triangleBody, bodyNames: JSON.parse(row.body_names) as string[], cellKind, volumeFraction,
  };
}
