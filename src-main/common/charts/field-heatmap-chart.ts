// Heatmap of one field on a slice of the grid, with a continuous colour bar (visualMap) labelled with the unit.
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

/** The heatmap option of a slice; `signed` centres the colours on 0 (for z maps). */
export function fieldHeatmapOption(slice: FieldSlice, opts: { title?: string; signed?: boolean } = {}): EChartsOption {
  const range = opts.signed ? Math.max(Math.abs(slice.min), Math.abs(slice.max), 3) : 0;
  const [min, max] = opts.signed ? [-range, range] : [slice.min, slice.max === slice.min ? slice.min + 1 : slice.max];
  const title = opts.title ?? `${slice.label} [${slice.unit}], ${slice.axis} = cell ${slice.index}`;
  return {
    ...baseOption(title),
    grid: { left: 60, right: 110, top: 50, bottom: 50 },
    tooltip: { position: 'top' },
    xAxis: { type: 'category', name: slice.axes[0], nameLocation: 'middle', nameGap: 28, data: Array.from({ length: slice.width }, (_, i) => i), splitArea: { show: false } },
    yAxis: { type: 'category', name: slice.axes[1], nameLocation: 'middle', nameGap: 35, data: Array.from({ length: slice.height }, (_, i) => i) },
    visualMap: {
      type: 'continuous', min, max, calculable: false, orient: 'vertical', right: 20, top: 'middle', itemHeight: 200,
      text: [axisNumber(max), axisNumber(min)],
      inRange: { color: opts.signed ? DIVERGING : RAMP },
    },
    series: [{ type: 'heatmap', name: slice.label, data: cells(slice), progressive: 0 }],
  };
}
