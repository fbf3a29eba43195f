// The profile report's figure sections in HTML: the field maps of one plane (inline SVG with the cells as an
// embedded image) and, for runs with bodies, each body's surface distributions as charts and a table of the
// binned means. Every user text is escaped; number cells carry their exact value in data-value.
import type { EChartsOption } from 'echarts';
import {
  surfaceChartOption, SURFACE_COORDINATE_INFO, SURFACE_QUANTITY_INFO, type SurfaceCoordinate, type SurfaceQuantityKey,
} from '../common/charts/surface-chart.js';
import type { SurfaceView } from '../common/contract/types.js';
import { axisNumber } from '../common/charts/chart-style.js';
import { formatGeneral } from '../common/reports/format-numbers.js';
import { MIN_CELL_SAMPLES } from '../common/field-mask.js';
import { surfaceDistribution } from './figure-tables.js';
import { escapeHtml } from './html-escape.js';
import { reportMapOption } from './map-image.js';
import type { ReportFigures } from './report-figures.js';
import { renderChartSvg } from './svg-chart.js';

/** Width and height of a surface chart (px). */
const SURFACE_CHART = { width: 760, height: 380 };

/** The quantities charted per body: the coefficients when there is a moving free stream, else the dimensional ones. */
const CHARTED: [SurfaceQuantityKey[], SurfaceQuantityKey[]] = [['cp', 'cf', 'ch'], ['pressure', 'shear', 'heatFlux']];

/** An SVG string with its embedded images drawn with hard cell edges (no smoothing between cells). */
function sharpImages(svg: string): string {
  return svg.replace(/<image /g, '<image style="image-rendering:pixelated;image-rendering:crisp-edges" ');
}

/** Most triangles a report's scatter draws (every k-th beyond; the binned means use them all). */
export const MAX_SCATTER_POINTS = 10_000;

/**
 * The app's surface chart for paper: no tooltip, a legend without a pager, each scatter drawn as one SVG path (a mesh
 * of 5000 triangles would otherwise be 5000 elements per chart) of at most MAX_SCATTER_POINTS points.
 */
export function staticSurfaceOption(view: SurfaceView, body: number, q: SurfaceQuantityKey, coordinate: SurfaceCoordinate): EChartsOption {
  const option = surfaceChartOption(view, { body, quantity: q, coordinate });
  const thin = (data: unknown[]) => (data.length > MAX_SCATTER_POINTS ? data.filter((_, i) => i % Math.ceil(data.length / MAX_SCATTER_POINTS) === 0) : data);
  const series = (option.series as { type?: string; data?: unknown[] }[])
    .map((s) => (s.type === 'scatter' ? { ...s, data: thin(s.data ?? []), large: true, largeThreshold: 0 } : s));
  return { ...option, series: series as EChartsOption['series'], tooltip: undefined, legend: { bottom: 0, type: 'plain' } };
}

/** A number cell with its exact value. */
function num(v: number | null): string {
  return `<td class="num" data-value="${v === null || !Number.isFinite(v) ? '' : String(v)}">${v === null ? '' : escapeHtml(formatGeneral(v))}</td>`;
}

/** The field maps section: one map per field on the report's plane, with what the blank cells and lines mean. */
export function fieldMapsSection(f: ReportFigures): string {
  if (f.maps.length === 0 || !f.plane) return f.mapNote ? `<h2>Field maps</h2><p>Not available: ${escapeHtml(f.mapNote)}.</p>` : '';
  const p = f.plane;
  const outline = f.maps.some((m) => (m.outline?.length ?? 0) > 0);
  const masked = f.maps.reduce((n, m) => Math.max(n, m.maskedCells ?? 0), 0);
  const note = `The plane ${p.axis} = ${axisNumber(p.position)} m (cell layer ${p.index}), axes in metres; colours over the 2nd to 98th ` +
    `percentile of each map (cells beyond saturate), the colour bar in the field's unit. Cells with fewer than ${MIN_CELL_SAMPLES} ` +
    `particle samples are blank${masked > 0 ? ` (up to ${masked} per map)` : ''}` +
    (outline ? '; cells inside a body are blank and the white lines are where the plane cuts the bodies' : '') + '.' +
    (f.mapNote ? ` Note: ${f.mapNote}.` : '');
  const figs = f.maps.map((m) => {
    const { option, width, height } = reportMapOption(m, `${m.label} [${m.unit}]`);
    return `<figure id="map-${escapeHtml(m.field)}" data-field="${escapeHtml(m.field)}">${sharpImages(renderChartSvg(option, width, height))}</figure>`;
  });
  return `<h2>Field maps</h2><p class="note">${escapeHtml(note)}</p>${figs.join('')}`;
}

/** The surface distributions section: per body, charts of the charted quantities and a table of the binned means. */
export function surfaceDistributionSection(f: ReportFigures): string {
  const view = f.surface;
  if (!view) return f.surfaceNote ? `<h2>Surface distributions</h2><p>Not available: ${escapeHtml(f.surfaceNote)}.</p>` : '';
  const charted = view.cp !== null ? CHARTED[0] : CHARTED[1];
  const parts = ['<h2>Surface distributions</h2><p class="note">Each point is one body triangle (the scatter is the statistical noise); ' +
    'lines and the tables are area-weighted means per bin. Spheres and cylinders use the angle from the stagnation point, other ' +
    `shapes the distance along the free stream from the body's front, split into triangles facing, parallel to and sheltered from the flow. ` +
    `${view.triangles} triangles${view.triangles > MAX_SCATTER_POINTS ? ` (the charts draw every k-th of them, at most ${MAX_SCATTER_POINTS} points per group; the means use all)` : ''}.</p>`];
  view.bodyNames.forEach((name, body) => {
    const d = surfaceDistribution(view, body, f.shapeTypes[body]);
    parts.push(`<h3>${escapeHtml(name)}</h3>`);
    for (const q of charted) {
      if (view[q] === null) continue;
      parts.push(`<figure id="surface-${body}-${q}">${renderChartSvg(staticSurfaceOption(view, body, q, d.coordinate), SURFACE_CHART.width, SURFACE_CHART.height)}</figure>`);
    }
    const head = `<tr><th>${escapeHtml(SURFACE_COORDINATE_INFO[d.coordinate].label)}</th><th>group</th>` +
      d.quantities.map((q) => `<th>${escapeHtml(SURFACE_QUANTITY_INFO[q].label)}${SURFACE_QUANTITY_INFO[q].unit ? ` (${escapeHtml(SURFACE_QUANTITY_INFO[q].unit)})` : ''}</th>`).join('') + '</tr>';
    const rows = d.rows.map((r) => `<tr>${num(r.x)}<td>${escapeHtml(r.group)}</td>${r.values.map(num).join('')}</tr>`);
    parts.push(`<table id="surface-distribution-${body}" class="distribution">${head}${rows.join('')}</table>`);
  });
  return parts.join('');
}
