// Surface results of one body against a surface coordinate: every triangle as a point (the scatter shows the
// statistical noise), and the area-weighted mean per bin as a line. The coordinate is the angle from the
// stagnation point (the angle between the surface's outward normal and the oncoming flow: 0 deg faces the flow,
// 90 deg is the shoulder, 180 deg the base; the natural axis of spheres and cylinders, on which a free-molecular
// Cp depends alone), or the distance along the free stream from the body's foremost triangle (for wedges, ramps,
// blocks), where triangles facing the flow, parallel to it and sheltered from it are separate series.
import type { EChartsOption } from 'echarts';
import type { SurfaceView } from '../contract/types.js';
import { axisNumber, baseOption, CHART_COLORS } from './chart-style.js';

/** Per-triangle quantities the chart can show. */
export type SurfaceQuantityKey = 'cp' | 'cf' | 'ch' | 'pressure' | 'shear' | 'heatFlux' | 'numberFlux';
/** Surface coordinates the chart can plot against. */
export type SurfaceCoordinate = 'angle' | 'streamwise';

/** Label, unit and whether the quantity is a free-stream coefficient (needs a moving free stream). */
export const SURFACE_QUANTITY_INFO: Record<SurfaceQuantityKey, { label: string; unit: string; coefficient: boolean }> = {
  cp: { label: 'pressure coefficient Cp', unit: '', coefficient: true },
  // signed: the shear along the stream's direction made tangent to each triangle (surface-results.ts), so the
  // noise of small triangles averages out instead of adding up as |tau| does
  cf: { label: 'Cf (signed, along the flow\'s tangential direction)', unit: '', coefficient: true },
  ch: { label: 'heat-transfer coefficient Ch', unit: '', coefficient: true },
  pressure: { label: 'pressure', unit: 'Pa', coefficient: false },
  shear: { label: 'shear stress |tau|', unit: 'Pa', coefficient: false },
  heatFlux: { label: 'heat flux into the wall', unit: 'W/m^2', coefficient: false },
  numberFlux: { label: 'incident number flux', unit: '1/(m^2 s)', coefficient: false },
};

/** Label of each coordinate (with unit) as the axis and the selector show it. */
export const SURFACE_COORDINATE_INFO: Record<SurfaceCoordinate, { label: string; needsFlow: boolean }> = {
  angle: { label: 'angle from the stagnation point (deg)', needsFlow: true },
  streamwise: { label: 'distance along the free stream from the body\'s front (m)', needsFlow: false },
};

/** The quantities a view has: the coefficients first when there is a moving free stream, then the dimensional ones. */
export function surfaceQuantities(view: SurfaceView): SurfaceQuantityKey[] {
  const all = Object.keys(SURFACE_QUANTITY_INFO) as SurfaceQuantityKey[];
  return all.filter((k) => !SURFACE_QUANTITY_INFO[k].coefficient || view[k as 'cp' | 'cf' | 'ch'] !== null);
}

/** The coordinates a view has (the angle needs a flow direction). */
export function surfaceCoordinates(view: SurfaceView): SurfaceCoordinate[] {
  return view.freeStreamVelocity ? ['angle', 'streamwise'] : ['streamwise'];
}

/** The coordinate that suits a body's shape type: the angle for spheres and cylinders (when there is a flow), else the distance. */
export function defaultSurfaceCoordinate(view: SurfaceView, shapeType: string | undefined): SurfaceCoordinate {
  return view.freeStreamVelocity && (shapeType === 'sphere' || shapeType === 'cylinder') ? 'angle' : 'streamwise';
}

/** The values of a quantity per triangle. */
function valuesOf(view: SurfaceView, q: SurfaceQuantityKey): (number | null)[] | null {
  return view[q];
}

/** Unit flow direction: the free stream's, else +x. */
function flowDirection(view: SurfaceView): [number, number, number] {
  const u = view.freeStreamVelocity;
  const s = u ? Math.hypot(u[0], u[1], u[2]) : 0;
  return u && s > 0 ? [u[0] / s, u[1] / s, u[2] / s] : [1, 0, 0];
}

/** Tolerance on normal . flow below which a triangle counts as parallel to the flow. */
const PARALLEL = 0.02;

/** One body's points: coordinate, value, area, and the group (0 facing the flow, 1 parallel, 2 sheltered; 0 for the angle). */
export function surfacePoints(view: SurfaceView, body: number, q: SurfaceQuantityKey, coordinate: SurfaceCoordinate): { x: number; y: number; area: number; group: number }[] {
  const values = valuesOf(view, q);
  if (!values) return [];
  const d = flowDirection(view);
  const tris: number[] = [];
  for (let t = 0; t < view.triangles; t++) if (view.body[t] === body) tris.push(t);
  const along = (t: number) => view.centroid[3 * t] * d[0] + view.centroid[3 * t + 1] * d[1] + view.centroid[3 * t + 2] * d[2];
  const front = tris.reduce((m, t) => Math.min(m, along(t)), Infinity);
  const out: { x: number; y: number; area: number; group: number }[] = [];
  for (const t of tris) {
    const y = values[t];
    if (y === null || !Number.isFinite(y)) continue;
    // normal . flow: < 0 the triangle faces the oncoming flow
    const nd = view.normal[3 * t] * d[0] + view.normal[3 * t + 1] * d[1] + view.normal[3 * t + 2] * d[2];
    if (coordinate === 'angle') {
      out.push({ x: (Math.acos(Math.max(-1, Math.min(1, -nd))) * 180) / Math.PI, y, area: view.area[t], group: 0 });
    } else {
      out.push({ x: along(t) - front, y, area: view.area[t], group: nd < -PARALLEL ? 0 : nd <= PARALLEL ? 1 : 2 });
    }
  }
  return out;
}

/** Area-weighted mean of the points per bin of x over [lo, hi]: [bin centre, mean] for bins with points (one bin at lo when hi <= lo). */
export function binnedMeans(points: { x: number; y: number; area: number }[], lo: number, hi: number, bins: number): [number, number][] {
  const n = hi > lo ? bins : 1;
  const width = hi > lo ? (hi - lo) / n : 0;
  const sum = new Float64Array(n), w = new Float64Array(n);
  for (const p of points) {
    const b = width > 0 ? Math.min(n - 1, Math.max(0, Math.floor((p.x - lo) / width))) : 0;
    sum[b] += p.y * p.area;
    w[b] += p.area;
  }
  const out: [number, number][] = [];
  for (let b = 0; b < n; b++) if (w[b] > 0) out.push([lo + (b + 0.5) * width, sum[b] / w[b]]);
  return out;
}

/** Names of the point groups of the streamwise coordinate. */
export const SURFACE_GROUPS = ['facing the flow', 'parallel to the flow', 'sheltered from the flow'];

/** The chart of one quantity on one body against a coordinate. */
export function surfaceChartOption(view: SurfaceView, opts: { body: number; quantity: SurfaceQuantityKey; coordinate: SurfaceCoordinate; bins?: number }): EChartsOption {
  const info = SURFACE_QUANTITY_INFO[opts.quantity];
  const points = surfacePoints(view, opts.body, opts.quantity, opts.coordinate);
  const bins = opts.bins ?? 30;
  const [lo, hi] = opts.coordinate === 'angle'
    ? [0, 180]
    : [0, points.reduce((m, p) => Math.max(m, p.x), 0)];
  const groups = opts.coordinate === 'angle' ? [0] : [0, 1, 2].filter((g) => points.some((p) => p.group === g));
  const series: EChartsOption['series'] = [];
  for (const g of groups) {
    const mine = points.filter((p) => p.group === g);
    const color = CHART_COLORS[g % CHART_COLORS.length];
    const name = opts.coordinate === 'angle' ? 'triangles' : `triangles ${SURFACE_GROUPS[g]}`;
    series.push({
      type: 'scatter', name, data: mine.map((p) => [p.x, p.y]), symbolSize: 4, itemStyle: { color, opacity: 0.35 },
    });
    series.push({
      type: 'line', name: opts.coordinate === 'angle' ? 'area-weighted mean per bin' : `mean, ${SURFACE_GROUPS[g]}`,
      data: binnedMeans(mine, lo, hi, bins), showSymbol: false, lineStyle: { color, width: 2 }, itemStyle: { color },
    });
  }
  const name = view.bodyNames[opts.body] ?? `body ${opts.body}`;
  return surfaceChartFrame(`${info.label} on ${name}`, opts.quantity, opts.coordinate, series);
}

/** The frame every surface distribution chart shares (title, legend, the coordinate's x axis, the quantity's y axis) around its series. */
export function surfaceChartFrame(title: string, quantity: SurfaceQuantityKey, coordinate: SurfaceCoordinate, series: EChartsOption['series']): EChartsOption {
  const info = SURFACE_QUANTITY_INFO[quantity];
  const unit = info.unit ? ` (${info.unit})` : '';
  return {
    ...baseOption(title),
    grid: { left: 80, right: 30, top: 50, bottom: 90 },
    legend: { bottom: 0, type: 'scroll' },
    tooltip: { trigger: 'item' },
    xAxis: {
      type: 'value', name: SURFACE_COORDINATE_INFO[coordinate].label, nameLocation: 'middle', nameGap: 28,
      ...(coordinate === 'angle' ? { min: 0, max: 180, interval: 30 } : { min: 0 }),
      axisLabel: { formatter: (v: number) => axisNumber(v) },
    },
    yAxis: { type: 'value', name: `${info.label}${unit}`, nameLocation: 'middle', nameGap: 60, scale: true, axisLabel: { formatter: (v: number) => axisNumber(v) } },
    series,
  };
}
