// Surface distributions of several runs overlaid (compare): one quantity (Cp, Cf, Ch or a dimensional one) on the
// body of the same name in each run, against the same surface coordinate; each run's triangles as faint points and
// their area-weighted mean per bin as a line in the run's colour (per group facing, parallel to and sheltered from
// the flow along the stream, as on run detail).
import type { EChartsOption } from 'echarts';
import type { SurfaceView } from '../contract/types.js';
import { CHART_COLORS } from './chart-style.js';
import { binnedMeans, SURFACE_GROUPS, SURFACE_QUANTITY_INFO, surfaceChartFrame, surfacePoints, type SurfaceCoordinate, type SurfaceQuantityKey } from './surface-chart.js';

/** Line styles of the groups (one colour per run). */
const GROUP_LINES = ['solid', 'dotted', 'dashed'] as const;

/** The curves of each run that has the body: label, its points, and its mean lines; runs without the body are named in `missing`. */
export function overlaidSurfaceSeries(views: { label: string; view: SurfaceView }[], bodyName: string, quantity: SurfaceQuantityKey, coordinate: SurfaceCoordinate, bins = 30) {
  const runs = views.map(({ label, view }) => ({ label, body: view.bodyNames.indexOf(bodyName), view }))
    .map((r) => ({ ...r, points: r.body >= 0 ? surfacePoints(r.view, r.body, quantity, coordinate) : [] }));
  const hi = coordinate === 'angle' ? 180 : runs.reduce((m, r) => r.points.reduce((a, p) => Math.max(a, p.x), m), 0);
  return {
    hi,
    missing: runs.filter((r) => r.body < 0 || r.points.length === 0).map((r) => r.label),
    curves: runs.filter((r) => r.points.length > 0).map((r) => ({
      label: r.label,
      points: r.points,
      means: [0, 1, 2].map((g) => binnedMeans(r.points.filter((p) => p.group === g), 0, hi, bins)).map((data, g) => ({ group: g, data })).filter((m) => m.data.length > 0),
    })),
  };
}

/** The overlaid chart of `quantity` on body `bodyName` of every run that has it. */
export function overlaidSurfaceOption(views: { label: string; view: SurfaceView }[], opts: { body: string; quantity: SurfaceQuantityKey; coordinate: SurfaceCoordinate; bins?: number }): EChartsOption {
  const info = SURFACE_QUANTITY_INFO[opts.quantity];
  const { curves } = overlaidSurfaceSeries(views, opts.body, opts.quantity, opts.coordinate, opts.bins);
  const series: EChartsOption['series'] = [];
  curves.forEach((c, r) => {
    const color = CHART_COLORS[r % CHART_COLORS.length];
    series.push({ type: 'scatter', name: `${c.label} triangles`, data: c.points.map((p) => [p.x, p.y]), symbolSize: 3, itemStyle: { color, opacity: 0.25 } });
    for (const m of c.means) {
      const name = opts.coordinate === 'angle' ? c.label : `${c.label}, ${SURFACE_GROUPS[m.group]}`;
      series.push({ type: 'line', name, data: m.data, showSymbol: false, lineStyle: { color, width: 2, type: GROUP_LINES[m.group] }, itemStyle: { color } });
    }
  });
  return surfaceChartFrame(`${info.label} on ${opts.body}`, opts.quantity, opts.coordinate, series);
}
