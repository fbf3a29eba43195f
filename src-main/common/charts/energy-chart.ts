// Line chart of the energy of the particle system over the run (translation, plus rotation for rotating molecules),
// relative to its first value.
import type { EChartsOption } from 'echarts';
import type { TotalsRecord } from '../run-record.js';
import { axisNumber, baseOption } from './chart-style.js';

/** (E - E0) / E0 against the step, from the totals taken after every submit. */
export function energyChartOption(totals: TotalsRecord[], title = 'Energy relative to the start'): EChartsOption {
  const e0 = totals.length > 0 ? totals[0].kineticEnergy : 0;
  const data = totals.map((t) => [t.step, e0 !== 0 ? (t.kineticEnergy - e0) / e0 : 0]);
  return {
    ...baseOption(title),
    xAxis: { type: 'value', name: 'step', nameLocation: 'middle', nameGap: 25, min: 'dataMin', max: 'dataMax' },
    yAxis: { type: 'value', name: '(E - E0) / E0', scale: true, axisLabel: { formatter: axisNumber } },
    series: [{ type: 'line', name: 'relative energy change', showSymbol: false, sampling: 'lttb', data }],
  };
}
