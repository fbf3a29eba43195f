// The colour bar of a field map: a narrow grid of its own whose value axis (linear, or log10 for a log scale)
// carries ticks and labels in the field's unit, filled by a gradient of the map's colours from bottom to top.
import type { EChartsOption } from 'echarts';
import type { ColourRange } from './colour-range.js';
import { axisNumber } from './chart-style.js';

/** Width of the bar (px). */
export const BAR_WIDTH = 16;

/** Where the bar stands: left edge, top and height in px (the plot's top and height). */
export interface BarBox {
  left: number;
  top: number;
  height: number;
}

/** A gradient from the first colour (bottom) to the last (top), as ECharts takes it in a style. */
function gradient(colors: readonly string[]) {
  return {
    type: 'linear' as const, x: 0, y: 1, x2: 0, y2: 0,
    colorStops: colors.map((color, i) => ({ offset: i / (colors.length - 1), color })),
  };
}

/**
 * The bar's grid, axes and series (to append to the map's own: `axisIndex` is the index the bar's axes get in the
 * option's xAxis / yAxis lists, `gridIndex` its grid's): ticks and labels in `unit` over the colour range.
 */
export function colourBarParts(range: ColourRange, colors: readonly string[], unit: string, box: BarBox, gridIndex: number, axisIndex: number) {
  const grid = { left: box.left, top: box.top, height: box.height, width: BAR_WIDTH };
  const xAxis = { type: 'value' as const, gridIndex, min: 0, max: 1, show: false };
  const yAxis = {
    type: range.log ? ('log' as const) : ('value' as const), gridIndex, min: range.min, max: range.max, position: 'right' as const,
    name: unit, nameLocation: 'end' as const, nameGap: 10, nameTextStyle: { align: 'left' as const },
    axisLine: { show: true }, axisTick: { show: true, length: 5 }, splitLine: { show: false },
    axisLabel: { formatter: (v: number) => axisNumber(v), showMinLabel: true, showMaxLabel: true },
  };
  const series: NonNullable<EChartsOption['series']> = [{
    type: 'custom', name: 'colour bar', xAxisIndex: axisIndex, yAxisIndex: axisIndex, silent: true, data: [[0, 0]],
    renderItem: (params: unknown) => {
      const cs = (params as { coordSys: { x: number; y: number; width: number; height: number } }).coordSys;
      return { type: 'rect', shape: { x: cs.x, y: cs.y, width: cs.width, height: cs.height }, style: { fill: gradient(colors), stroke: '#555', lineWidth: 0.5 } };
    },
  } as never];
  return { grid, xAxis, yAxis, series };
}
