// The chart of a line probe (plot over a line): one field against the distance along the line, drawn as what it is,
// one constant value per cell crossed (a step at each cell face), with dashed lines one standard error above and
// below; several runs' probes of the same line overlaid in the run colours (compare).
import type { EChartsOption } from 'echarts';
import type { FieldName } from '../field-names.js';
import type { LineProbe } from '../probes/probe-types.js';
import { axisNumber, baseOption, CHART_COLORS } from './chart-style.js';

/** The piecewise-constant curve of per-piece values: [s0, v], [s1, v] per piece, a gap (null) where a value is missing. */
export function stepCurve(probe: LineProbe, valueAt: (n: number) => number | null): [number, number | null][] {
  const out: [number, number | null][] = [];
  for (let n = 0; n < probe.s.length; n++) {
    const v = valueAt(n);
    out.push([probe.s0[n], v], [probe.s1[n], v]);
  }
  return out;
}

/** Points a probe draws for a field: its pieces with a value. */
export function probePointCount(probe: LineProbe, field: FieldName): number {
  return (probe.values[field] ?? []).filter((v) => v !== null).length;
}

/** The chart of `field` along the line of each probe (label: how the legend names the run). */
export function lineProbeOption(probes: { label: string; probe: LineProbe }[], field: FieldName): EChartsOption {
  const info = probes[0]?.probe.fields.find((f) => f.name === field);
  const unit = info ? ` [${info.unit}]` : '';
  const series: EChartsOption['series'] = [];
  probes.forEach(({ label, probe }, r) => {
    const color = CHART_COLORS[r % CHART_COLORS.length];
    const v = probe.values[field] ?? [];
    const e = probe.errors[field] ?? [];
    const band = (sign: number) => (n: number) => (v[n] !== null && v[n] !== undefined && e[n] !== null && e[n] !== undefined ? v[n]! + sign * e[n]! : null);
    series.push({ type: 'line', name: label, data: stepCurve(probe, (n) => v[n] ?? null), showSymbol: false, lineStyle: { color, width: 2 }, itemStyle: { color } });
    for (const sign of [1, -1]) {
      series.push({
        type: 'line', name: `${label} ± standard error`, data: stepCurve(probe, band(sign)), showSymbol: false,
        lineStyle: { color, width: 1, type: 'dashed', opacity: 0.7 }, itemStyle: { color }, tooltip: { show: false },
      });
    }
  });
  return {
    ...baseOption(`${info?.label ?? field} along the line`),
    grid: { left: 80, right: 30, top: 50, bottom: 80 },
    legend: { bottom: 0, type: 'scroll' },
    tooltip: { trigger: 'axis', valueFormatter: (x) => (typeof x === 'number' ? `${axisNumber(x)}${unit}` : '–') },
    xAxis: { type: 'value', name: 'distance along the line [m]', nameLocation: 'middle', nameGap: 28, min: 0, axisLabel: { formatter: (x: number) => axisNumber(x) } },
    yAxis: { type: 'value', name: `${field}${unit}`, nameLocation: 'middle', nameGap: 60, scale: true, axisLabel: { formatter: (x: number) => axisNumber(x) } },
    series,
  };
}
