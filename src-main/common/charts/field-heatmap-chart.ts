// Map of one field on a slice of the grid, in metres: one rectangle per cell on value axes (so zoom and pan keep
// cells, outline and ticks together), coloured over a range the user controls (robust percentiles, full, fixed;
// linear or log) with a colour bar that has ticks in the field's unit, the bodies' outline drawn over it, a hover
// readout with the unit and standard error, and zoom and pan (mouse wheel and drag, sliders, box zoom).
import type { EChartsOption } from 'echarts';
import type { FieldSlice } from '../contract/types.js';
import { formatGeneral } from '../reports/format-numbers.js';
import { axisNumber, baseOption } from './chart-style.js';
import { colourBarParts } from './colour-bar.js';
import { colourRange, colourValue, type ColourRange, type RangeChoice } from './colour-range.js';

/** Colours of the colour bar, low to high (viridis-like). */
export const RAMP = ['#440154', '#3b528b', '#21918c', '#5ec962', '#fde725'];
/** Colours of a signed map (difference in standard errors), negative to positive. */
const DIVERGING = ['#2166ac', '#92c5de', '#f7f7f7', '#f4a582', '#b2182b'];
/** Colour of the bodies' outline over the map. */
const OUTLINE_COLOR = '#ffffff';

/** Margins of the plot in the chart (px): y slider and axis name left, x axis name and slider below, title above, colour bar right. */
const MARGIN = { left: 95, right: 130, top: 50, bottom: 85 };

/** The in-plane cell size used for the axes (m), or 1 (cell units) when unknown; `metres` says which. */
export function planeScale(slice: FieldSlice): { du: number; dv: number; metres: boolean } {
  const cs = slice.cellSize;
  return cs && cs[0] > 0 && cs[1] > 0 ? { du: cs[0], dv: cs[1], metres: true } : { du: 1, dv: 1, metres: false };
}

/** Physical width / height of the slice's plane, or null when its cell size is unknown. */
export function sliceAspect(slice: FieldSlice): number | null {
  const { du, dv, metres } = planeScale(slice);
  return metres ? (slice.width * du) / (slice.height * dv) : null;
}

/** Chart height (px) at which a slice's plane keeps its proportions in a chart `width` px wide, within [min, max]. */
export function heatmapHeight(slice: FieldSlice, width: number, min = 300, max = 600): number {
  const aspect = sliceAspect(slice);
  if (aspect === null || !(width > 0)) return 420;
  const h = (width - MARGIN.left - MARGIN.right) / aspect + MARGIN.top + MARGIN.bottom;
  return Math.round(Math.min(max, Math.max(min, h)));
}

/** The plot's box in a frame of `frame` px (default 800 x 420): the margins, narrowed on one side so the plane keeps its proportions. */
function plotBox(slice: FieldSlice, frame = { width: 800, height: 420 }) {
  const aspect = sliceAspect(slice);
  const w = Math.max(50, frame.width - MARGIN.left - MARGIN.right), h = Math.max(50, frame.height - MARGIN.top - MARGIN.bottom);
  if (aspect === null) return { left: MARGIN.left, top: MARGIN.top, width: w, height: h };
  const pw = Math.min(w, h * aspect), ph = Math.min(h, w / aspect);
  return { left: MARGIN.left + (w - pw) / 2, top: MARGIN.top + (h - ph) / 2, width: pw, height: ph };
}

/** One data item per cell with a value: [x0, y0 (the cell's lower corner), colour value, value, standard error or null]. */
export function cellItems(slice: FieldSlice, range: ColourRange): (number | null)[][] {
  const { du, dv } = planeScale(slice);
  const out: (number | null)[][] = [];
  for (let v = 0; v < slice.height; v++) {
    for (let u = 0; u < slice.width; u++) {
      const k = v * slice.width + u;
      const c = colourValue(slice.values[k], range);
      if (c !== null) out.push([u * du, v * dv, c, slice.values[k], slice.errors?.[k] ?? null]);
    }
  }
  return out;
}

/** The outline's segments (cell units) as `lines` data on the map's axes (metres, or cells when the cell size is unknown). */
export function outlineData(slice: FieldSlice): { coords: [number, number][] }[] {
  const { du, dv } = planeScale(slice);
  const o = slice.outline ?? [];
  const out: { coords: [number, number][] }[] = [];
  for (let i = 0; i + 3 < o.length; i += 4) out.push({ coords: [[o[i] * du, o[i + 1] * dv], [o[i + 2] * du, o[i + 3] * dv]] });
  return out;
}

/** The hover readout of one cell: position of its centre, value with unit and standard error. */
export function cellReadout(slice: FieldSlice, item: readonly (number | null)[]): string {
  const { du, dv, metres } = planeScale(slice);
  const unit = metres ? ' m' : ' (cells)';
  const [x, y] = [Number(item[0]) + du / 2, Number(item[1]) + dv / 2];
  const se = item[4] === null || item[4] === undefined ? 'no standard error' : `± ${formatGeneral(item[4] as number)} ${slice.unit} (standard error)`;
  return `${slice.axes[0]} = ${axisNumber(x)}${unit}, ${slice.axes[1]} = ${axisNumber(y)}${unit}<br/>${slice.label}: ${formatGeneral(item[3] as number)} ${slice.unit} ${se}`;
}

/** A renderItem drawing one cell as a rectangle of the cell size, in the colour the visual map gives it. */
function cellRenderer(du: number, dv: number) {
  return (_params: unknown, api: { value: (d: number) => number; coord: (p: number[]) => number[]; visual: (k: string) => string }) => {
    const [x0, y0] = [api.value(0), api.value(1)];
    const a = api.coord([x0, y0]), b = api.coord([x0 + du, y0 + dv]);
    // a quarter pixel of overlap, so no seam of the background shows between neighbours
    return { type: 'rect', shape: { x: a[0] - 0.25, y: b[1] - 0.25, width: b[0] - a[0] + 0.5, height: a[1] - b[1] + 0.5 }, style: { fill: api.visual('color') } };
  };
}

/** The range a map of `slice` is coloured over for the user's choice (signed maps are symmetric about 0). */
export function sliceRange(slice: FieldSlice, choice: RangeChoice, signed = false): ColourRange {
  return colourRange(slice.values, choice, signed);
}

/** Options of a map: title, signed colours (z maps), the chart's frame (px) and the colour range chosen. */
export interface HeatmapOptions {
  title?: string;
  signed?: boolean;
  frame?: { width: number; height: number };
  range?: RangeChoice;
}

/**
 * The map option of a slice: axes in metres from the cell size (the box starts at 0), the plane's proportions kept in
 * the chart's `frame`, colours over the chosen range (robust by default) with a ticked colour bar, the outline on top.
 */
export function fieldHeatmapOption(slice: FieldSlice, opts: HeatmapOptions = {}): EChartsOption {
  const range = sliceRange(slice, opts.range ?? { mode: 'robust' }, opts.signed);
  const colors = opts.signed ? DIVERGING : RAMP;
  const { du, dv, metres } = planeScale(slice);
  const axisUnit = metres ? 'm' : 'cells';
  const title = opts.title ?? `${slice.label} [${slice.unit}], ${slice.axis} = cell ${slice.index}`;
  const box = plotBox(slice, opts.frame);
  const bar = colourBarParts(range, colors, slice.unit, { left: Math.round(box.left + box.width + 20), top: box.top, height: box.height }, 1, 1);
  const axis = (name: string, max: number, gap: number) => ({
    type: 'value' as const, gridIndex: 0, min: 0, max, name: `${name} [${axisUnit}]`, nameLocation: 'middle' as const, nameGap: gap,
    axisLabel: { formatter: (v: number) => axisNumber(v), hideOverlap: true }, splitLine: { show: false }, axisTick: { show: true },
  });
  return {
    ...baseOption(title),
    grid: [{ ...box }, bar.grid],
    tooltip: { trigger: 'item', formatter: (p: unknown) => cellReadout(slice, (p as { value: (number | null)[] }).value) },
    toolbox: { right: 10, top: 20, feature: { dataZoom: { xAxisIndex: 0, yAxisIndex: 0, title: { zoom: 'box zoom', back: 'undo zoom' } }, restore: { title: 'reset' } } },
    dataZoom: [
      { type: 'inside', xAxisIndex: 0, filterMode: 'none' },
      { type: 'inside', yAxisIndex: 0, filterMode: 'none' },
      { type: 'slider', xAxisIndex: 0, filterMode: 'none', bottom: 8, height: 14, showDetail: false },
      { type: 'slider', yAxisIndex: 0, filterMode: 'none', left: 8, width: 14, showDetail: false },
    ],
    xAxis: [axis(slice.axes[0], slice.width * du, 28), bar.xAxis],
    yAxis: [axis(slice.axes[1], slice.height * dv, 55), bar.yAxis],
    visualMap: {
      show: false, type: 'continuous', seriesIndex: 0, dimension: 2, inRange: { color: colors },
      min: range.log ? Math.log10(range.min) : range.min, max: range.log ? Math.log10(range.max) : range.max,
    },
    series: [
      { type: 'custom', name: slice.label, xAxisIndex: 0, yAxisIndex: 0, clip: true, data: cellItems(slice, range), renderItem: cellRenderer(du, dv) as never, encode: { x: 0, y: 1 } },
      ...bar.series,
      // the outline: a white line over a dark one, visible on every colour of the ramp (no SVG shadow
      // filter: its box is empty for horizontal and vertical segments, which then vanish); z above the map's,
      // so a map re-created on a field change (its name changes) is never drawn over the outline
      ...(slice.outline && slice.outline.length > 0
        ? (['#000000', OUTLINE_COLOR] as const).map((color, i) => ({
          type: 'lines' as const, name: 'body outline', z: 3, coordinateSystem: 'cartesian2d', xAxisIndex: 0, yAxisIndex: 0, silent: true, polyline: false,
          lineStyle: { color, width: i === 0 ? 3.5 : 1.5, opacity: i === 0 ? 0.6 : 1 },
          data: outlineData(slice),
        }))
        : []),
    ],
  } as EChartsOption;
}
