// The surface part of a finished run: its summary section and the record the run database keeps, from the
// solver tables' meshed bodies (the math is in common/surface/run-surface-results.ts).
import type { Case } from '../common/case-schema.js';
import type { RunSurface } from '../common/run-record.js';
import type { SurfaceSummary } from '../common/run-summary.js';
import type { SurfaceSums } from '../common/surface-layout.js';
import { surfaceResultsOf, surfaceSummaryOf, type BodyMesh } from '../common/surface/run-surface-results.js';
import type { SurfaceResults } from '../common/surface/surface-results.js';
import type { SolverTables } from './tables.js';

/** The bodies' triangles of the tables. */
function meshOf(t: SolverTables): BodyMesh {
  return { triangles: t.bodies.tris, triangleBody: t.bodies.triBody };
}

/** Per-element results of a run's surface sums. */
export function surfaceResults(c: Case, t: SolverTables, sums: SurfaceSums): SurfaceResults {
  return surfaceResultsOf(c, meshOf(t), sums);
}

/** The summary's surface section: loads per body and per domain face. */
export function surfaceSummary(c: Case, t: SolverTables, sums: SurfaceSums): SurfaceSummary {
  return surfaceSummaryOf(c, meshOf(t), sums);
}

/** What the run database keeps of a run's surfaces: the sums, the triangles as meshed and the cell marks. */
export function runSurfaceRecord(c: Case, t: SolverTables, sums: SurfaceSums): RunSurface {
  const b = t.bodies;
  return {
    sums, triangles: b.tris, triangleBody: b.triBody, bodyNames: c.bodies.map((x) => x.name),
    cellKind: b.cellKind, volumeFraction: b.volumeFraction,
  };
}
