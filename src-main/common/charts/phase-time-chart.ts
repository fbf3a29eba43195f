// Bar chart of the time spent in each phase of the step loop (SPARTA's loop-time breakdown), "other" included.
import type { EChartsOption } from 'echarts';
import { baseOption } from './chart-style.js';

/** One bar: a phase (or "other"), its time in the loop and its share of the loop. */
export interface PhaseTimeBar {
  phase: string;
  seconds: number;
  /** Percent of the loop, or null when the loop time is unknown. */
  percentOfLoop: number | null;
}

/** Horizontal bars of seconds per phase, labelled with the percent of the loop. */
export function phaseTimeChartOption(bars: PhaseTimeBar[], title = 'Time per phase (average over ranks)'): EChartsOption {
  const rows = [...bars].reverse();
  return {
    ...baseOption(title),
    grid: { left: 90, right: 90, top: 50, bottom: 50 },
    xAxis: { type: 'value', name: 'seconds', nameLocation: 'middle', nameGap: 30 },
    yAxis: { type: 'category', data: rows.map((b) => b.phase) },
    series: [
      {
        type: 'bar',
        name: 'seconds',
        data: rows.map((b) => b.seconds),
        label: {
          show: true,
          position: 'right',
          formatter: (p: unknown) => {
            const i = (p as { dataIndex: number }).dataIndex;
            const pct = rows[i].percentOfLoop;
            return pct === null ? '' : `${pct.toFixed(1)} %`;
          },
        },
      },
    ],
  };
}
