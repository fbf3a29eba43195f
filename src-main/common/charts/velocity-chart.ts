// The velocity distribution of a run against Maxwell-Boltzmann: the sampled density of the peculiar v_x
// (or speed) as bars, the Maxwell-Boltzmann density at the sample's temperature as a line.
import type { EChartsOption } from 'echarts';
import { maxwellComponentPdf, maxwellSpeedPdf, type VelocityDistribution } from '../velocity-distribution.js';
import { axisNumber, baseOption } from './chart-style.js';

/** Sampled density and Maxwell-Boltzmann density of the peculiar x velocity ('component') or the peculiar speed ('speed'). */
export function velocityChartOption(d: VelocityDistribution, which: 'component' | 'speed'): EChartsOption {
  const bins = which === 'component' ? d.component : { lo: 0, ...d.speed };
  const pdf = (v: number) => (which === 'component' ? maxwellComponentPdf(v, d.mass, d.temperature) : maxwellSpeedPdf(v, d.mass, d.temperature));
  const centres = bins.counts.map((_, k) => bins.lo + (k + 0.5) * bins.binWidth);
  const sampled = bins.counts.map((n, k) => [centres[k], n / (d.sampled * bins.binWidth)]);
  const theory = centres.map((v) => [v, pdf(v)]);
  const label = which === 'component' ? 'peculiar v_x [m/s]' : 'peculiar speed |c| [m/s]';
  return {
    ...baseOption(`${d.species}: ${which === 'component' ? 'x velocity' : 'speed'} distribution, ${d.sampled} molecules, T = ${d.temperature.toFixed(1)} K`),
    legend: { bottom: 0 },
    xAxis: { type: 'value', name: label, nameLocation: 'middle', nameGap: 25, min: 'dataMin', max: 'dataMax', axisLabel: { formatter: axisNumber } },
    yAxis: { type: 'value', name: 'probability density [s/m]', axisLabel: { formatter: axisNumber } },
    series: [
      { type: 'bar', name: 'sampled', data: sampled, barCategoryGap: '0%' },
      { type: 'line', name: 'Maxwell-Boltzmann', showSymbol: false, data: theory },
    ],
  };
}
