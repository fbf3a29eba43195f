// Charts of the live run view: throughput over time while the run goes.
import type { EChartsOption } from 'echarts';
import { axisNumber, baseOption } from './chart-style.js';

/** Particle-steps per second against elapsed seconds, one point per submit. */
export function throughputChartOption(points: [number, number][], title = 'Particle-steps per second'): EChartsOption {
  return {
    ...baseOption(title),
    xAxis: { type: 'value', name: 'elapsed s', nameLocation: 'middle', nameGap: 25, min: 0 },
    yAxis: { type: 'value', name: 'particle-steps/s', scale: true, axisLabel: { formatter: axisNumber } },
    series: [{ type: 'line', name: 'particle-steps/s', showSymbol: points.length < 40, data: points }],
  };
}
