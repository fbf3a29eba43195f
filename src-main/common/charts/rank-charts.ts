// Charts of a multi-rank run's balance for the live view: particles per rank, and the load
// non-uniformity UN per step.
import type { EChartsOption } from 'echarts';
import type { RankBalance } from '../reports/rank-balance.js';
import { axisNumber, baseOption } from './chart-style.js';

/** Mean particles of each rank over the steps recorded so far. */
export function rankParticlesOption(b: RankBalance, title = 'Particles per rank (mean over steps)'): EChartsOption {
  return {
    ...baseOption(title),
    xAxis: { type: 'category', name: 'rank', nameLocation: 'middle', nameGap: 25, data: b.perRank.map((r) => String(r.rank)) },
    yAxis: { type: 'value', axisLabel: { formatter: axisNumber } },
    series: [{ type: 'bar', name: 'particles', data: b.perRank.map((r) => r.meanParticles) }],
  };
}

/** UN = (Pmax - Pmin) / Pavg in percent against the step. */
export function unSeriesOption(b: RankBalance, title = 'Load non-uniformity UN (%)'): EChartsOption {
  return {
    ...baseOption(title),
    xAxis: { type: 'value', name: 'step', nameLocation: 'middle', nameGap: 25, min: 'dataMin', max: 'dataMax' },
    yAxis: { type: 'value', name: '%', min: 0 },
    series: [{ type: 'line', name: 'UN', showSymbol: false, data: b.unSeries }],
  };
}
