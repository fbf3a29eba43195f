// The charts of a scaling report (the seeds' figures 5.2-5.7 and more): speedup and efficiency against
// ideal with the fitted model and its prediction, time per phase per GPU count (stacked), AVG x Call per
// phase grouped by GPU count, UN per GPU count and per step, each rank's step as GPU work and waiting, and
// particle-steps/s per GPU.
import type { EChartsOption } from 'echarts';
import { modelSeconds, speedupAndEfficiency } from '../reports/scaling-fit.js';
import type { ScalingReport } from '../reports/scaling-model.js';
import { axisNumber, baseOption } from './chart-style.js';
import type { ReportChart } from './profile-charts.js';

/** GPU counts from n0 to nMax, 8 per doubling, for smooth model curves (log2 axis). */
function curveGpus(n0: number, nMax: number): number[] {
  const out: number[] = [];
  for (let k = 0; n0 * 2 ** (k / 8) <= nMax * (1 + 1e-12); k++) out.push(n0 * 2 ** (k / 8));
  return out;
}

/** The x axis of GPU counts (log2), covering the prediction. */
function gpuAxis(n0: number, nMax: number): EChartsOption['xAxis'] {
  return { type: 'log', logBase: 2, name: 'GPUs', nameLocation: 'middle', nameGap: 28, min: n0, max: nMax, axisLabel: { formatter: axisNumber } };
}

/** The model's speedup or efficiency curve from the baseline to the prediction, or [] without a fit. */
function modelCurve(r: ScalingReport, which: 'speedup' | 'efficiency', n0: number, nMax: number): [number, number][] {
  const fit = r.fit;
  if (!fit) return [];
  const t0 = modelSeconds(fit, n0);
  return curveGpus(n0, nMax).map((n) => [n, speedupAndEfficiency(r.study.kind, n0, t0, n, modelSeconds(fit, n))[which]]);
}

/** Measured speedup or efficiency against ideal and the model, the prediction marked. */
export function scalingLineOption(r: ScalingReport, which: 'speedup' | 'efficiency'): EChartsOption {
  const n0 = r.baselineGpus ?? 1;
  const nMax = r.fit ? r.fit.prediction.gpus : Math.max(n0 * 2, ...r.points.map((p) => p.gpus));
  const ideal = which === 'speedup' ? [[n0, n0], [nMax, nMax]] : [[n0, 1], [nMax, 1]];
  const label = r.study.kind === 'weak' && which === 'speedup' ? 'scaled speedup n E(n)' : which;
  const series: NonNullable<EChartsOption['series']> = [
    { type: 'line', name: 'measured', data: r.points.map((p) => [p.gpus, p[which]]), symbolSize: 8 },
    { type: 'line', name: 'ideal', data: ideal, showSymbol: false, lineStyle: { type: 'dashed' } },
  ];
  if (r.fit) {
    series.push({ type: 'line', name: 'model', data: modelCurve(r, which, n0, nMax), showSymbol: false, lineStyle: { type: 'dotted', width: 2 } });
    series.push({ type: 'scatter', name: `prediction (${r.fit.prediction.gpus} GPUs)`, data: [[r.fit.prediction.gpus, r.fit.prediction[which]]], symbol: 'diamond', symbolSize: 12 });
  }
  return {
    ...baseOption(`${which === 'speedup' ? 'Speedup' : 'Efficiency'} vs GPUs (${r.study.kind} scaling)`),
    legend: { bottom: 0 },
    xAxis: gpuAxis(n0, nMax),
    yAxis: { type: 'value', name: label, min: 0, axisLabel: { formatter: axisNumber } },
    series,
  };
}

/** Seconds per phase (mean over ranks) stacked per GPU count, "other" on top. */
export function phaseStackOption(r: ScalingReport): EChartsOption {
  const cats = r.points.map((p) => String(p.gpus));
  const series: NonNullable<EChartsOption['series']> = r.phaseNames.map((name) => ({
    type: 'bar', name, stack: 'loop', data: r.points.map((p) => p.phases.find((x) => x.phase === name)?.avgSeconds ?? 0),
  }));
  series.push({ type: 'bar', name: 'other', stack: 'loop', data: r.points.map((p) => p.otherSeconds) });
  return {
    ...baseOption('Loop time per phase vs GPUs (mean over ranks)'),
    legend: { bottom: 0 },
    xAxis: { type: 'category', data: cats, name: 'GPUs', nameLocation: 'middle', nameGap: 28 },
    yAxis: { type: 'value', name: 'seconds', axisLabel: { formatter: axisNumber } },
    series,
  };
}

/** AVG x Call of each phase, one bar per GPU count (the seeds' per-phase figures). */
export function avgPerCallOption(r: ScalingReport): EChartsOption {
  return {
    ...baseOption('AVG x Call per phase (mean over ranks)'),
    legend: { bottom: 0 },
    xAxis: { type: 'category', data: r.phaseNames },
    yAxis: { type: 'value', name: 'seconds per call', axisLabel: { formatter: axisNumber } },
    series: r.points.map((p) => ({
      type: 'bar', name: `${p.gpus} GPU${p.gpus === 1 ? '' : 's'}`,
      data: r.phaseNames.map((name) => p.phases.find((x) => x.phase === name)?.avgPerCallSeconds ?? 0),
    })),
  };
}

/** UN per GPU count: mean and max over steps (GPU counts without per-rank data are left empty). */
export function loadNonUniformityOption(r: ScalingReport): EChartsOption {
  const un = (k: 'meanPercent' | 'maxPercent') => r.points.map((p) => p.balance.loadNonUniformity?.[k] ?? null);
  return {
    ...baseOption('Load non-uniformity UN vs GPUs'),
    legend: { bottom: 0 },
    xAxis: { type: 'category', data: r.points.map((p) => String(p.gpus)), name: 'GPUs', nameLocation: 'middle', nameGap: 28 },
    yAxis: { type: 'value', name: 'UN (%)', min: 0, axisLabel: { formatter: axisNumber } },
    series: [{ type: 'bar', name: 'mean over steps', data: un('meanPercent') }, { type: 'bar', name: 'max over steps', data: un('maxPercent') }],
  };
}

/** UN at each recorded step, one line per GPU count (long runs: every k-th step, see RankBalance.unSeriesStride). */
export function unPerStepOption(r: ScalingReport): EChartsOption {
  return {
    ...baseOption('Load non-uniformity UN per step'),
    legend: { bottom: 0 },
    xAxis: { type: 'value', name: 'step', nameLocation: 'middle', nameGap: 25, min: 'dataMin', max: 'dataMax' },
    yAxis: { type: 'value', name: 'UN (%)', min: 0, axisLabel: { formatter: axisNumber } },
    series: r.points.filter((p) => p.balance.unSeries.length > 0 && p.ranks > 1).map((p) => ({
      type: 'line', name: `${p.gpus} GPUs`, showSymbol: false, data: p.balance.unSeries.map(([step, un]) => [step, un]),
    })),
  };
}

/** Particle-steps per second per GPU per GPU count, against the baseline's (ideal). */
export function throughputPerGpuOption(r: ScalingReport): EChartsOption {
  const base = r.points[0]?.particleStepsPerSecondPerGpu ?? 0;
  return {
    ...baseOption('Particle-steps per second per GPU'),
    legend: { bottom: 0 },
    xAxis: { type: 'category', data: r.points.map((p) => String(p.gpus)), name: 'GPUs', nameLocation: 'middle', nameGap: 28 },
    yAxis: { type: 'value', name: 'particle-steps/s/GPU', min: 0, axisLabel: { formatter: axisNumber } },
    series: [
      { type: 'bar', name: 'measured', data: r.points.map((p) => p.particleStepsPerSecondPerGpu) },
      { type: 'line', name: 'ideal (baseline)', data: r.points.map(() => base), showSymbol: false, lineStyle: { type: 'dashed' } },
    ],
  };
}

/** Per rank and GPU count, the mean step stacked as GPU work and GPU waiting, with the host's exchange time beside it. */
export function rankTimeOption(r: ScalingReport): EChartsOption {
  const rows = r.points.flatMap((p) => p.rankTime.map((t) => ({ label: `${p.gpus} GPU${p.gpus === 1 ? '' : 's'}, rank ${t.rank}`, t })));
  const ms = (x: number) => 1000 * x;
  return {
    ...baseOption('Per rank and step: GPU working and waiting (ms)'),
    legend: { bottom: 0 },
    xAxis: { type: 'category', data: rows.map((x) => x.label), axisLabel: { interval: 0, rotate: rows.length > 6 ? 30 : 0 } },
    yAxis: { type: 'value', name: 'ms per step', min: 0, axisLabel: { formatter: axisNumber } },
    series: [
      { type: 'bar', name: 'GPU working', stack: 'step', data: rows.map((x) => ms(x.t.gpuSeconds)) },
      { type: 'bar', name: 'GPU waiting', stack: 'step', data: rows.map((x) => ms(x.t.waitSeconds)) },
      { type: 'scatter', name: 'host exchange', data: rows.map((x) => ms(x.t.exchangeSeconds)), symbol: 'diamond', symbolSize: 10 },
    ],
  };
}

/** The charts of a scaling report, in the order the report shows them (each only when it has data). */
export function scalingCharts(r: ScalingReport): ReportChart[] {
  if (r.points.length === 0) return [];
  const charts: ReportChart[] = [
    { id: 'speedup', option: scalingLineOption(r, 'speedup'), width: 720, height: 360 },
    { id: 'efficiency', option: scalingLineOption(r, 'efficiency'), width: 720, height: 360 },
  ];
  if (r.phaseNames.length > 0) {
    charts.push({ id: 'phase-time', option: phaseStackOption(r), width: 720, height: 380 });
    charts.push({ id: 'avg-per-call', option: avgPerCallOption(r), width: 720, height: 360 });
  }
  if (r.points.some((p) => p.balance.loadNonUniformity !== null)) charts.push({ id: 'load-nonuniformity', option: loadNonUniformityOption(r), width: 720, height: 320 });
  if (r.points.some((p) => p.ranks > 1 && p.balance.unSeries.length > 0)) charts.push({ id: 'un-per-step', option: unPerStepOption(r), width: 720, height: 320 });
  if (r.points.some((p) => p.rankTime.length > 0)) charts.push({ id: 'rank-time', option: rankTimeOption(r), width: 720, height: 360 });
  charts.push({ id: 'throughput-per-gpu', option: throughputPerGpuOption(r), width: 720, height: 320 });
  return charts;
}
