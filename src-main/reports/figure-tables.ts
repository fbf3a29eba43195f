// The report figures as tables: the surface distribution of each body (area-weighted means per bin of the
// surface coordinate the app's surface chart uses, per group of triangles), every body triangle's results, and
// the cells of the field maps' plane with each mapped field and its standard error.
import type { SurfaceView } from '../common/contract/types.js';
import {
  binnedMeans, defaultSurfaceCoordinate, SURFACE_QUANTITY_INFO, surfacePoints, surfaceQuantities,
  type SurfaceCoordinate, type SurfaceQuantityKey,
} from '../common/charts/surface-chart.js';
import type { CsvCellValue, CsvTable } from './csv-tables.js';
import type { ReportFigures } from './report-figures.js';

/** Bins of the surface distributions (as the app's chart). */
export const DISTRIBUTION_BINS = 30;

/** Names of the triangle groups along the stream (the surface chart's). */
const GROUP_NAMES = ['facing the flow', 'parallel to the flow', 'sheltered from the flow'];

/** One body's binned distribution: the coordinate, the quantities, and rows [group, bin centre, mean per quantity]. */
export interface SurfaceDistribution {
  body: number;
  name: string;
  coordinate: SurfaceCoordinate;
  quantities: SurfaceQuantityKey[];
  rows: { group: string; x: number; values: (number | null)[] }[];
}

/** The area-weighted means per bin of every quantity on one body, against the coordinate the app uses for its shape. */
export function surfaceDistribution(view: SurfaceView, body: number, shapeType: string | undefined, bins = DISTRIBUTION_BINS): SurfaceDistribution {
  const coordinate = defaultSurfaceCoordinate(view, shapeType);
  const quantities = surfaceQuantities(view);
  const points = quantities.map((q) => surfacePoints(view, body, q, coordinate));
  const hi = coordinate === 'angle' ? 180 : points.reduce((m, ps) => ps.reduce((mm, p) => Math.max(mm, p.x), m), 0);
  const groups = coordinate === 'angle' ? [0] : [0, 1, 2];
  const rows: SurfaceDistribution['rows'] = [];
  for (const g of groups) {
    const byQuantity = points.map((ps) => new Map(binnedMeans(ps.filter((p) => p.group === g), 0, hi, bins)));
    const xs = [...new Set(byQuantity.flatMap((m) => [...m.keys()]))].sort((a, b) => a - b);
    for (const x of xs) rows.push({ group: coordinate === 'angle' ? 'all' : GROUP_NAMES[g], x, values: byQuantity.map((m) => m.get(x) ?? null) });
  }
  return { body, name: view.bodyNames[body] ?? `body ${body}`, coordinate, quantities, rows };
}

/** Column name of a quantity: its key and unit (cp, pressure_Pa, heatFlux_W_m2). */
export function quantityColumn(q: SurfaceQuantityKey): string {
  const unit = SURFACE_QUANTITY_INFO[q].unit.replace(/\^/g, '').replace(/[/() ]+/g, '_').replace(/_+$/, '');
  return unit ? `${q}_${unit}` : q;
}

/** Column name of a coordinate with its unit. */
function coordinateColumn(c: SurfaceCoordinate): string {
  return c === 'angle' ? 'angle_from_stagnation_deg' : 'distance_along_stream_m';
}

/** Every body's distribution as one long table (one row per body, group and bin). */
function distributionTable(view: SurfaceView, shapeTypes: (string | undefined)[]): CsvTable {
  const dists = view.bodyNames.map((_, b) => surfaceDistribution(view, b, shapeTypes[b]));
  const quantities = surfaceQuantities(view);
  const rows: CsvCellValue[][] = dists.flatMap((d) => d.rows.map((r) => [d.name, coordinateColumn(d.coordinate), r.group, r.x, ...r.values]));
  return { name: 'surface_distribution', header: ['body', 'coordinate', 'group', 'coordinate_value', ...quantities.map(quantityColumn)], rows };
}

/** Every body triangle: body, centroid, normal, area and each quantity. */
function triangleTable(view: SurfaceView): CsvTable {
  const quantities = surfaceQuantities(view);
  const rows: CsvCellValue[][] = [];
  for (let t = 0; t < view.triangles; t++) {
    rows.push([view.bodyNames[view.body[t]] ?? view.body[t], ...view.centroid.slice(3 * t, 3 * t + 3), ...view.normal.slice(3 * t, 3 * t + 3), view.area[t],
      ...quantities.map((q) => view[q]?.[t] ?? null)]);
  }
  return { name: 'surface_triangles', header: ['body', 'x_m', 'y_m', 'z_m', 'normal_x', 'normal_y', 'normal_z', 'area_m2', ...quantities.map(quantityColumn)], rows };
}

/** The maps' plane: one row per cell (centre in metres), each mapped field and its standard error (empty where blank). */
function planeTable(figures: ReportFigures): CsvTable | null {
  const maps = figures.maps;
  if (maps.length === 0 || !figures.plane) return null;
  const first = maps[0];
  const [du, dv] = first.cellSize ?? [1, 1];
  const rows: CsvCellValue[][] = [];
  for (let v = 0; v < first.height; v++) {
    for (let u = 0; u < first.width; u++) {
      const k = v * first.width + u;
      rows.push([u, v, (u + 0.5) * du, (v + 0.5) * dv, ...maps.flatMap((m) => [m.values[k], m.errors?.[k] ?? null])]);
    }
  }
  const unitOf = (unit: string) => unit.replace(/\^/g, '').replace(/[/ ]+/g, '_');
  return {
    name: 'field_plane',
    header: [`${first.axes[0]}_cell`, `${first.axes[1]}_cell`, `${first.axes[0]}_m`, `${first.axes[1]}_m`,
      ...maps.flatMap((m) => [`${m.field}_${unitOf(m.unit)}`, `${m.field}_se`])],
    rows,
  };
}

/** The figures' tables: the maps' plane, then (runs with bodies) the surface distribution and the triangles. */
export function figureTables(figures: ReportFigures): CsvTable[] {
  const out: CsvTable[] = [];
  const plane = planeTable(figures);
  if (plane) out.push(plane);
  if (figures.surface) out.push(distributionTable(figures.surface, figures.shapeTypes), triangleTable(figures.surface));
  return out;
}
