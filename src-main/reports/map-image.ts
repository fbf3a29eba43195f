// A field map for a static report: the app's map option (axes in metres, the plane's proportions, the ticked
// colour bar in the field's unit, the bodies' outline) with its cells drawn as one embedded PNG instead of one SVG
// rectangle per cell, and without the interactive parts (tooltip, zoom sliders, toolbox).
import type { EChartsOption } from 'echarts';
import { fieldHeatmapOption, heatmapHeight, planeScale, RAMP, sliceRange } from '../common/charts/field-heatmap-chart.js';
import { colourValue, type ColourRange } from '../common/charts/colour-range.js';
import type { FieldSlice } from '../common/contract/types.js';
import { encodePng } from './png-image.js';

/** Width of a report map (px); its height keeps the plane's proportions. */
export const REPORT_MAP_WIDTH = 760;

/** Longest side (px) the cell image is scaled up to at least, so viewers that smooth images still show sharp cells. */
const MIN_IMAGE_SIDE = 480;

/** '#rrggbb' as [r, g, b]. */
function rgbOf(hex: string): [number, number, number] {
  return [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)) as [number, number, number];
}

/** The colour of t in [0, 1] on a ramp of evenly spaced stops, interpolated linearly in RGB (as ECharts' visual map). */
export function rampColour(t: number, ramp: readonly string[] = RAMP): [number, number, number] {
  const stops = ramp.map(rgbOf);
  const x = Math.min(1, Math.max(0, t)) * (stops.length - 1);
  const i = Math.min(stops.length - 2, Math.floor(x));
  const f = x - i;
  return [0, 1, 2].map((c) => Math.round(stops[i][c] + f * (stops[i + 1][c] - stops[i][c]))) as [number, number, number];
}

/** The slice's cells as an RGBA PNG (top row = highest v; blank cells transparent), each cell `scale` px square. */
export function sliceImagePng(slice: FieldSlice, range: ColourRange): Uint8Array {
  const scale = Math.max(1, Math.min(32, Math.ceil(MIN_IMAGE_SIDE / Math.max(slice.width, slice.height))));
  const [w, h] = [slice.width * scale, slice.height * scale];
  const rgba = new Uint8Array(4 * w * h);
  const [lo, hi] = range.log ? [Math.log10(range.min), Math.log10(range.max)] : [range.min, range.max];
  for (let v = 0; v < slice.height; v++) {
    for (let u = 0; u < slice.width; u++) {
      const c = colourValue(slice.values[v * slice.width + u], range);
      if (c === null) continue;
      const [r, g, b] = rampColour(hi > lo ? (c - lo) / (hi - lo) : 0.5);
      for (let y = (slice.height - 1 - v) * scale; y < (slice.height - v) * scale; y++) {
        for (let x = u * scale; x < (u + 1) * scale; x++) rgba.set([r, g, b, 255], 4 * (y * w + x));
      }
    }
  }
  return encodePng(w, h, rgba);
}

/** The report map option of a slice in a frame `width` px wide, and the height that keeps its proportions. */
export function reportMapOption(slice: FieldSlice, title: string, width = REPORT_MAP_WIDTH): { option: EChartsOption; width: number; height: number } {
  const height = heatmapHeight(slice, width);
  const range = sliceRange(slice, { mode: 'robust' });
  const base = fieldHeatmapOption(slice, { title, frame: { width, height }, range: { mode: 'robust' } });
  const image = `data:image/png;base64,${Buffer.from(sliceImagePng(slice, range)).toString('base64')}`;
  const { du, dv } = planeScale(slice);
  const [W, H] = [slice.width * du, slice.height * dv];
  const cells = {
    type: 'custom', name: slice.label, xAxisIndex: 0, yAxisIndex: 0, silent: true, data: [[0, 0]], encode: { x: 0, y: 1 },
    renderItem: (_p: unknown, api: { coord: (p: number[]) => number[] }) => {
      const a = api.coord([0, 0]), b = api.coord([W, H]);
      return { type: 'image', style: { image, x: a[0], y: b[1], width: b[0] - a[0], height: a[1] - b[1] } };
    },
  };
  const option: Record<string, unknown> = { ...base, series: [cells, ...(base.series as unknown as object[]).slice(1)] };
  for (const interactive of ['tooltip', 'toolbox', 'dataZoom', 'visualMap']) delete option[interactive];
  return { option: option as EChartsOption, width, height };
}
