// What the static profile reports draw beside their tables: the run's field maps on one plane (the same slices
// the app's maps show: cells with too few samples and cells inside bodies blank, the bodies' outline) and its
// surface results per body triangle (the app's surface chart data, at full precision and every triangle).
// A part that cannot be built leaves a note saying why instead of failing the report.
import { parseCase } from '../common/case-schema.js';
import { blankBodyCells, planeCellSize, sliceBodyOutline } from '../common/charts/slice-bodies.js';
import type { FieldSlice, SliceAxis, SurfaceView } from '../common/contract/types.js';
import { fieldNamesOf, type FieldName } from '../common/field-names.js';
import { surfaceLoadsOf } from '../common/reports/surface-loads.js';
import type { FieldSet, RunSurface } from '../common/run-record.js';
import { freeStreamOf, surfaceResultsOf, surfaceSummaryOf } from '../common/surface/run-surface-results.js';
import { triangleAreas, triangleCentroids, triangleNormals } from '../common/geometry/index.js';
import { fieldSlice } from '../services/field-slice.js';
import type { RunSource } from './run-source.js';

/** The plane the maps show: normal axis, cell layer and the layer's centre along the axis (m). */
export interface ReportPlane {
  axis: SliceAxis;
  index: number;
  position: number;
}

/** Field maps and surface results of one run for a report; a note says why a part is missing. */
export interface ReportFigures {
  plane: ReportPlane | null;
  maps: FieldSlice[];
  mapNote: string | null;
  surface: SurfaceView | null;
  /** Shape type of each body (sphere, wedge, ...), which picks the surface coordinate as the app does. */
  shapeTypes: (string | undefined)[];
  surfaceNote: string | null;
}

/** Fields a report maps, in this order, where the run has them (a mixture's x_<species> follow). */
export const REPORT_MAP_FIELDS: readonly FieldName[] = ['n', 'T', 'p', 'ux', 'uy', 'uz', 'Trot', 'Tvib', 'Tall'];

const AXES: SliceAxis[] = ['x', 'y', 'z'];

/** The plane of the maps: normal to the axis with the fewest cells (z on a tie, so a quasi-2D x-y case shows its plane), middle layer. */
export function reportPlane(fields: Pick<FieldSet, 'cells' | 'cellSize'>): ReportPlane {
  let a = 2;
  for (const k of [1, 0]) if (fields.cells[k] < fields.cells[a]) a = k;
  const index = Math.floor(fields.cells[a] / 2);
  return { axis: AXES[a], index, position: (index + 0.5) * fields.cellSize[a] };
}

/** The mapped fields the run has, a mixture's mole fractions last; the velocity along the normal of a one-cell-thick plane (zero by construction) left out. */
function mappedFields(fields: FieldSet, plane: ReportPlane): FieldName[] {
  const a = AXES.indexOf(plane.axis);
  const normalVelocity = (['ux', 'uy', 'uz'] as const)[a];
  const fixed = REPORT_MAP_FIELDS.filter((f) => fields.values[f] !== undefined && !(f === normalVelocity && fields.cells[a] === 1));
  // a mixture's mole fractions after them (its species' number densities are n times those)
  return [...fixed, ...fieldNamesOf(fields.values).filter((f) => f.startsWith('x_'))];
}

/** The slices of the report's plane, with the bodies' outline and the cells inside them blank when the run kept its surfaces. */
function planeMaps(fields: FieldSet, surface: RunSurface | null, plane: ReportPlane): FieldSlice[] {
  const tris = surface && surface.triangles.length > 0 ? surface.triangles : null;
  return mappedFields(fields, plane).map((f) => {
    const slice: FieldSlice = { ...fieldSlice(fields, f, plane.axis, plane.index), cellSize: planeCellSize(fields.cellSize, plane.axis) };
    if (!tris || !surface) return slice;
    const blank = surface.cellKind ? blankBodyCells(slice, surface.cellKind, fields.cells, surface.volumeFraction) : slice;
    return { ...blank, outline: sliceBodyOutline(tris, fields.cellSize, plane.axis, plane.index) };
  });
}

/** Every body triangle's geometry and results (full precision), as the app's SurfaceView without thinning. */
export function fullSurfaceView(runId: number, caseJson: unknown, surface: RunSurface, summary: Parameters<typeof surfaceLoadsOf>[0]): SurfaceView {
  const c = parseCase(caseJson);
  const res = surfaceResultsOf(c, surface, surface.sums);
  const n = surface.triangleBody.length;
  const head = (a: Float64Array | null): (number | null)[] | null => (a ? Array.from(a.subarray(0, n), (x) => (Number.isFinite(x) ? x : null)) : null);
  return {
    runId, bodyNames: surface.bodyNames, sampledTime: surface.sums.sampledTime,
    freeStreamVelocity: res.cp ? freeStreamOf(c)?.velocity ?? null : null,
    triangles: n, stride: 1, body: Array.from(surface.triangleBody),
    centroid: Array.from(triangleCentroids(surface.triangles)), normal: Array.from(triangleNormals(surface.triangles)),
    area: Array.from(triangleAreas(surface.triangles)),
    pressure: head(res.pressure)!, shear: head(res.shearMagnitude)!, heatFlux: head(res.heatFlux)!, numberFlux: head(res.numberFlux)!,
    cp: head(res.cp), cf: head(res.cf), ch: head(res.ch),
    loads: surfaceLoadsOf(summary ?? surfaceSummaryOf(c, surface, surface.sums), caseJson),
  };
}

/** The message of an error, for a note. */
function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** The field maps and surface results of a stored run for its report. */
export function loadReportFigures(source: RunSource, runId: number): ReportFigures {
  const out: ReportFigures = { plane: null, maps: [], mapNote: null, surface: null, shapeTypes: [], surfaceNote: null };
  const run = source.getRun(runId);
  const caseJson = source.getCase(runId).json as { bodies?: { shape?: { type?: string } }[] };
  out.shapeTypes = (caseJson.bodies ?? []).map((b) => b.shape?.type);
  let surface: RunSurface | null = null;
  try {
    surface = source.getSurface(runId);
  } catch (e) {
    out.surfaceNote = `the surface results could not be read: ${messageOf(e)}`;
  }
  const fields = source.getFields(runId);
  if (!fields) {
    out.mapNote = `run ${runId} kept no sampled fields (it is ${run.status}); a completed run that sampled, or one stopped with "Stop and keep", has maps`;
  } else {
    try {
      out.plane = reportPlane(fields);
      out.maps = planeMaps(fields, surface, out.plane);
      if (out.shapeTypes.length > 0 && !(surface && surface.triangles.length > 0)) out.mapNote = 'the run kept no body triangles (recorded before runs kept their surfaces), so the maps have no body outline';
    } catch (e) {
      out.mapNote = `the field maps could not be drawn: ${messageOf(e)}`;
    }
  }
  if (surface && surface.triangleBody.length > 0) {
    try {
      out.surface = fullSurfaceView(runId, caseJson, surface, run.summary?.surface);
    } catch (e) {
      out.surfaceNote = `the surface distributions could not be computed: ${messageOf(e)}`;
    }
  } else if (out.shapeTypes.length > 0 && !out.surfaceNote) {
    out.surfaceNote = `run ${runId} kept no surface results (it is ${run.status}, or was recorded before runs kept them)`;
  }
  return out;
}
