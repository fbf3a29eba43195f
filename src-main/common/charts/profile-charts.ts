// The charts of a profiling report, in the order the report shows them (HTML now, the renderer later).
import type { EChartsOption } from 'echarts';
import type { ProfileReport } from '../reports/profile-model.js';
import { compositionChartOption } from './composition-chart.js';
import { energyChartOption } from './energy-chart.js';
import { phaseTimeChartOption } from './phase-time-chart.js';
import { stepStatsChartOption } from './step-stats-chart.js';

/** One chart of the report: a stable id, its option and the size it is drawn at. */
export interface ReportChart {
  id: string;
  option: EChartsOption;
  width: number;
  height: number;
}

/** Phase times, per-step particles and collisions, energy, and a mixture's composition over time (each only when it has data). */
export function profileCharts(report: ProfileReport): ReportChart[] {
  const charts: ReportChart[] = [];
  const t = report.phaseTable;
  if (t.rows.length > 0) {
    const bars = t.rows.map((r) => ({ phase: r.phase, seconds: r.avgSeconds, percentOfLoop: r.percentOfLoop }));
    if (t.loopSeconds !== null) bars.push({ phase: 'other', seconds: t.other.seconds, percentOfLoop: t.other.percentOfLoop });
    charts.push({ id: 'phase-time', option: phaseTimeChartOption(bars), width: 720, height: 60 + 36 * bars.length + 50 });
  }
  if (report.steps.length > 0) charts.push({ id: 'step-stats', option: stepStatsChartOption(report.steps), width: 720, height: 340 });
  if (report.totals.length > 0) charts.push({ id: 'energy', option: energyChartOption(report.totals), width: 720, height: 300 });
  const c = report.composition;
  if (c && c.species.length > 1 && c.overTime.length > 1) charts.push({ id: 'composition', option: compositionChartOption(c), width: 720, height: 300 });
  return charts;
}
