// Line chart of the per-step statistics: particles (left axis), collisions and candidates per particle (right axis).
import type { EChartsOption } from 'echarts';
import type { StepRecord } from '../run-record.js';
import { axisNumber, baseOption } from './chart-style.js';

/** Particles, and collisions and NTC candidates per particle, against the step number. */
export function stepStatsChartOption(steps: StepRecord[], title = 'Particles and collisions per step'): EChartsOption {
  const perParticle = (k: 'collisions' | 'candidates') =>
    steps.map((s) => [s.step, s.particles > 0 ? s[k] / s.particles : 0]);
  return {
    ...baseOption(title),
    legend: { bottom: 0 },
    xAxis: { type: 'value', name: 'step', nameLocation: 'middle', nameGap: 25, min: 'dataMin', max: 'dataMax' },
    yAxis: [
      { type: 'value', name: 'particles', scale: true, axisLabel: { formatter: axisNumber } },
      { type: 'value', name: 'per particle per step', scale: true, axisLabel: { formatter: axisNumber }, splitLine: { show: false } },
    ],
    series: [
      { type: 'line', name: 'particles', yAxisIndex: 0, showSymbol: false, sampling: 'lttb', data: steps.map((s) => [s.step, s.particles]) },
      { type: 'line', name: 'collisions / particle', yAxisIndex: 1, showSymbol: false, sampling: 'lttb', data: perParticle('collisions') },
      { type: 'line', name: 'candidates / particle', yAxisIndex: 1, showSymbol: false, sampling: 'lttb', data: perParticle('candidates') },
    ],
  };
}
