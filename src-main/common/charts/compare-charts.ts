// Charts of the compare view: per-step curves of several runs overlaid, phase times side by side, and the
// bodies' drag coefficients side by side.
import type { EChartsOption } from 'echarts';
import type { StepRecord } from '../run-record.js';
import { axisNumber, baseOption } from './chart-style.js';

/** One run's curve: its label and step records. */
export interface RunCurve {
  label: string;
  steps: StepRecord[];
}

/** Collisions per particle per step of each run, overlaid. */
export function overlaidCollisionsOption(curves: RunCurve[], title = 'Collisions per particle per step'): EChartsOption {
  return {
    ...baseOption(title),
    legend: { bottom: 0 },
    xAxis: { type: 'value', name: 'step', nameLocation: 'middle', nameGap: 25, min: 'dataMin', max: 'dataMax' },
    yAxis: { type: 'value', scale: true, axisLabel: { formatter: axisNumber } },
    series: curves.map((c) => ({
      type: 'line' as const, name: c.label, showSymbol: false, sampling: 'lttb' as const,
      data: c.steps.map((s) => [s.step, s.particles > 0 ? s.collisions / s.particles : 0]),
    })),
  };
}

/** AVG x Call of each phase, one bar per run. */
export function phaseSideBySideOption(phases: { phase: string; values: (number | null)[] }[], runLabels: string[], title = 'AVG x Call per phase (seconds)'): EChartsOption {
  return {
    ...baseOption(title),
    legend: { bottom: 0 },
    xAxis: { type: 'category', data: phases.map((p) => p.phase) },
    yAxis: { type: 'value', axisLabel: { formatter: axisNumber } },
    series: runLabels.map((label, i) => ({ type: 'bar' as const, name: label, data: phases.map((p) => p.values[i]) })),
  };
}

/** One value per body and run (null: absent or unknown, drawn as a gap), one bar per run. */
export function bodySideBySideOption(bodies: { body: string; values: (number | null)[] }[], runLabels: string[], title = 'Drag coefficient Cd per body'): EChartsOption {
  return {
    ...baseOption(title),
    legend: { bottom: 0 },
    xAxis: { type: 'category', data: bodies.map((b) => b.body) },
    yAxis: { type: 'value', axisLabel: { formatter: axisNumber } },
    series: runLabels.map((label, i) => ({ type: 'bar' as const, name: label, data: bodies.map((b) => b.values[i] ?? null) })),
  };
}
