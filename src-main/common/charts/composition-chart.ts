// Line chart of the gas's composition over the run: each species' mole fraction (its particles over all particles)
// at the steps of the totals (RunSummary.composition.overTime).
import type { EChartsOption } from 'echarts';
import type { CompositionSummary } from '../run-summary.js';
import { axisNumber, baseOption } from './chart-style.js';

/** Mole fraction of each species against the step, from the particles counted per species over time. */
export function compositionChartOption(c: CompositionSummary, title = 'Mole fractions over time (particles per species)'): EChartsOption {
  const fraction = (counts: number[], s: number) => {
    const total = counts.reduce((a, b) => a + b, 0);
    return total > 0 ? counts[s] / total : 0;
  };
  const base = baseOption(title);
  return {
    ...base,
    legend: { top: 26 },
    grid: { ...(base.grid as object), top: 64 },
    xAxis: { type: 'value', name: 'step', nameLocation: 'middle', nameGap: 25, min: 'dataMin', max: 'dataMax' },
    yAxis: { type: 'value', name: 'mole fraction', min: 0, axisLabel: { formatter: axisNumber } },
    series: c.species.map((name, s) => ({
      type: 'line', name, showSymbol: c.overTime.length < 40, data: c.overTime.map((e) => [e.step, fraction(e.speciesCounts, s)]),
    })),
  };
}
