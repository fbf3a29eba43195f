// Heatmap of one field on a slice of the grid, with a continuous colour bar (visualMap) labelled with the unit,
// and the outline of the bodies the plane cuts drawn over it (cells inside a body come without a value: blank).
import type { EChartsOption } from 'echarts';
import type { FieldSlice } from '../contract/types.js';
import { axisNumber, baseOption } from './chart-style.js';

/** Colours of the colour bar, low to high (viridis-like). */
const RAMP = ['#440154', '#3b528b', '#21918c', '#5ec962', '#fde725'];
/** Colours of a signed map (difference in standard errors), negative to positive. */
const DIVERGING = ['#2166ac', '#92c5de', '#f7f7f7', '#f4a582', '#b2182b'];

/** [u, v, value] triples of the slice's cells that have a value. */
function cells(slice: FieldSlice): [number, number, number][] {
  const out: [number, number, number][] = [];
  for (let v = 0; v < slice.height; v++) {
    for (let u = 0; u < slice.width; u++) {
      const x = slice.values[v * slice.width + u];
      if (x !== null) out.push([u, v, x]);
    }
  }
  return out;
}

/** Colour of the bodies' outline over the map. */
const OUTLINE_COLOR = '#ffffff';

/** The outline's segments as `lines` data (coordinates in cell units on the hidden value axes). */
function outlineData(outline: number[]): { coords: [number, number][] }[] {
  const out: { coords: [number, number][] }[] = [];
  for (let i = 0; i + 3 < outline.length; i += 4) out.push({ coords: [[outline[i], outline[i + 1]], [outline[i + 2], outline[i + 3]]] });
  return out;
}

/** Margins of the plot in the chart (px): axis names left and below, title above, colour bar right. */
const MARGIN = { left: 60, right: 110, top: 50, bottom: 50 };

/** Physical width / height of the slice's plane, or null when its cell size is unknown. */
export function sliceAspect(slice: FieldSlice): number | null {
  const cs = slice.cellSize;
  return cs && cs[0] > 0 && cs[1] > 0 ? (slice.width * cs[0]) / (slice.height * cs[1]) : null;
}

/** Chart height (px) at which a slice's plane keeps its proportions in a chart `width` px wide, within [min, max]. */
export function heatmapHeight(slice: FieldSlice, width: number, min = 260, max = 560): number {
  const aspect = sliceAspect(slice);
  if (aspect === null || !(width > 0)) return 380;
  const h = (width - MARGIN.left - MARGIN.right) / aspect + MARGIN.top + MARGIN.bottom;
  return Math.round(Math.min(max, Math.max(min, h)));
}

/** The plot's box in a frame of `frame` px: the margins, narrowed on one side so the plane keeps its proportions. */
function plotGrid(slice: FieldSlice, frame: { width: number; height: number } | undefined) {
  const aspect = sliceAspect(slice);
  if (!frame || aspect === null) return { ...MARGIN };
  const w = frame.width - MARGIN.left - MARGIN.right, h = frame.height - MARGIN.top - MARGIN.bottom;
  if (!(w > 0 && h > 0)) return { ...MARGIN };
  const pw = Math.min(w, h * aspect), ph = Math.min(h, w / aspect);
  return { left: MARGIN.left + (w - pw) / 2, top: MARGIN.top + (h - ph) / 2, width: pw, height: ph };
}

/**
 * The heatmap option of a slice; `signed` centres the colours on 0 (for z maps); with the chart's `frame`
 * (px) and the slice's cell size, the plot keeps the plane's proportions (a sphere's outline stays round).
 */
export function fieldHeatmapOption(slice: FieldSlice, opts: { title?: string; signed?: boolean; frame?: { width: number; height: number } } = {}): EChartsOption {
  const range = opts.signed ? Math.max(Math.abs(slice.min), Math.abs(slice.max), 3) : 0;
  const [min, max] = opts.signed ? [-range, range] : [slice.min, slice.max === slice.min ? slice.min + 1 : slice.max];
  const title = opts.title ?? `${slice.label} [${slice.unit}], ${slice.axis} = cell ${slice.index}`;
  const grid = plotGrid(slice, opts.frame);
  // the colour bar beside the plot (a plot narrowed to keep the plane's proportions leaves room on the right)
  const barAt = 'width' in grid && grid.width !== undefined ? { left: Math.round(grid.left + grid.width + 25) } : { right: 20 };
  return {
    ...baseOption(title),
    grid,
    tooltip: { position: 'top' },
    // category axes: one column per cell; hidden value axes over the same grid span [0, cells] for the outline
    xAxis: [
      { type: 'category', name: slice.axes[0], nameLocation: 'middle', nameGap: 28, data: Array.from({ length: slice.width }, (_, i) => i), splitArea: { show: false } },
      { type: 'value', min: 0, max: slice.width, show: false },
    ],
    yAxis: [
      { type: 'category', name: slice.axes[1], nameLocation: 'middle', nameGap: 35, data: Array.from({ length: slice.height }, (_, i) => i) },
      { type: 'value', min: 0, max: slice.height, show: false },
    ],
    visualMap: {
      type: 'continuous', min, max, calculable: false, orient: 'vertical', ...barAt, top: 'middle', itemHeight: 200,
      text: [axisNumber(max), axisNumber(min)],
      inRange: { color: opts.signed ? DIVERGING : RAMP },
      seriesIndex: 0,
    },
    series: [
      { type: 'heatmap', name: slice.label, data: cells(slice), progressive: 0 },
      // the outline: a white line over a dark one, visible on every colour of the ramp (no SVG shadow
      // filter: its box is empty for horizontal and vertical segments, which then vanish); z above the heatmap's,
      // so a heatmap re-created on a field change (its name changes) is never drawn over the outline
      ...(slice.outline && slice.outline.length > 0
        ? (['#000000', OUTLINE_COLOR] as const).map((color, i) => ({
          type: 'lines' as const, name: 'body outline', z: 3, coordinateSystem: 'cartesian2d', xAxisIndex: 1, yAxisIndex: 1, silent: true, polyline: false,
          lineStyle: { color, width: i === 0 ? 3.5 : 1.5, opacity: i === 0 ? 0.6 : 1 },
          data: outlineData(slice.outline!),
        }))
        : []),
    ],
  };
}
