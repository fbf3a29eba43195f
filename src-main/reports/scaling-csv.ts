// The scaling report as CSV tables (study, points, phases, ranks, rank_phases, rank_time, un_per_step, fit, fit_points,
// notes): one file of "# <name>" sections (a header row and data rows each, separated by one empty line) or a .zip of
// one CSV per table (csv-tables.ts). Numbers are written in full precision; unknown values are empty cells.
import type { ScalingReport } from '../common/reports/scaling-model.js';
import { csvSections, csvZip, type CsvCellValue, type CsvTable } from './csv-tables.js';

type Cell = CsvCellValue;

/** One table: name, header, rows. */
function section(name: string, header: string[], rows: Cell[][]): CsvTable {
  return { name, header, rows };
}

/** The study's fields as key/value rows. */
function studyRows(r: ScalingReport): Cell[][] {
  const s = r.study;
  return [['study_id', s.id], ['name', s.name], ['kind', s.kind], ['project', s.project], ['case', s.caseName], ['case_hash', s.caseHash],
    ['created_at', s.createdAt], ['notes', s.notes], ['baseline_gpus', r.baselineGpus]];
}

/** One row per GPU count. */
function pointRows(r: ScalingReport): Cell[][] {
  return r.points.map((p) => {
    const b = p.balance;
    return [p.gpus, p.runId, p.repeats.runIds.length, p.repeats.spreadPercent, p.repeats.runIds.join(';'), p.ranks, p.steps, p.meanParticles, p.particlesPerGpu, p.particleSteps, p.loopSeconds, p.scaledSeconds,
      p.particleStepsPerSecond, p.particleStepsPerSecondPerGpu, p.speedup, p.idealSpeedup, p.efficiency,
      b.loadNonUniformity?.meanPercent, b.loadNonUniformity?.maxPercent, b.communicated?.meanPerStep, b.communicated?.maxPerStep,
      b.communicated?.meanFractionOfParticles, b.waitSeconds?.mean, b.waitSeconds?.max, b.steps, p.otherSeconds];
  });
}

/** One row per phase and GPU count. */
function phaseRows(r: ScalingReport): Cell[][] {
  const rows: Cell[][] = [];
  for (const name of r.phaseNames) {
    for (const p of r.points) {
      const x = p.phases.find((q) => q.phase === name);
      if (x) rows.push([name, p.gpus, x.calls, x.avgPerCallSeconds, x.minSeconds, x.avgSeconds, x.maxSeconds, x.percentOfLoop]);
    }
  }
  return rows;
}

/** Per rank of each run: particles, traffic and waiting from the per-rank steps. */
function rankRows(r: ScalingReport): Cell[][] {
  return r.points.flatMap((p) => p.balance.perRank.map((t) => [p.gpus, t.rank, t.meanParticles, t.sentPerStep, t.receivedPerStep, t.waitSeconds]));
}

/** Per rank and phase of each run. */
function rankPhaseRows(r: ScalingReport): Cell[][] {
  return r.points.flatMap((p) => p.rankPhases.map((x) => [p.gpus, x.rank, x.phase, x.calls, x.totalSeconds, x.avgPerCallSeconds]));
}

/** Per rank of each run: its mean step as GPU working and waiting, and the host's exchange. */
function rankTimeRows(r: ScalingReport): Cell[][] {
  return r.points.flatMap((p) => p.rankTime.map((t) => [p.gpus, t.rank, t.stepSeconds, t.gpuSeconds, t.waitSeconds, t.exchangeSeconds]));
}

/** UN per step of each multi-rank run (every stride-th step). */
function unSeriesRows(r: ScalingReport): Cell[][] {
  return r.points.flatMap((p) => p.balance.unSeries.map(([step, un]) => [p.gpus, step, un]));
}

/** The fitted model as key/value rows (empty when there is none). */
function fitRows(r: ScalingReport): Cell[][] {
  const f = r.fit;
  if (!f) return [['note', r.fitNote]];
  return [['formula', f.formula], ['t1_seconds', f.t1Seconds], ['serial_fraction', f.serialFraction], ['comm_seconds', f.commSeconds],
    ['comm_term', f.commTerm], ['comm_fitted', f.commFitted], ['rms_residual_seconds', f.rmsResidualSeconds],
    ['relative_rms_residual', f.relativeRmsResidual], ['amdahl_limit', f.amdahlLimit], ['prediction_gpus', f.prediction.gpus],
    ['prediction_seconds', f.prediction.seconds], ['prediction_speedup', f.prediction.speedup], ['prediction_efficiency', f.prediction.efficiency],
    ...f.predictions.slice(1).flatMap((p): Cell[][] => [[`prediction_${p.gpus}_seconds`, p.seconds], [`prediction_${p.gpus}_speedup`, p.speedup], [`prediction_${p.gpus}_efficiency`, p.efficiency]]),
    ['note', r.fitNote]];
}

/** Every table of the report, in the order the files list them. */
export function scalingTables(r: ScalingReport): CsvTable[] {
  return [
    section('study', ['key', 'value'], studyRows(r)),
    section('points', ['gpus', 'run_id', 'runs', 'spread_percent', 'run_ids', 'ranks', 'steps', 'mean_particles', 'particles_per_gpu', 'particle_steps', 'loop_seconds', 'scaled_seconds',
      'particle_steps_per_second', 'particle_steps_per_second_per_gpu', 'speedup', 'ideal_speedup', 'efficiency', 'un_mean_percent',
      'un_max_percent', 'sent_per_step_mean', 'sent_per_step_max', 'sent_fraction_of_particles', 'wait_seconds_mean', 'wait_seconds_max',
      'rank_steps_used', 'other_seconds'], pointRows(r)),
    section('phases', ['phase', 'gpus', 'calls', 'avg_per_call_s', 'min_s', 'mean_s', 'max_s', 'percent_of_loop'], phaseRows(r)),
    section('ranks', ['gpus', 'rank', 'mean_particles', 'sent_per_step', 'received_per_step', 'wait_seconds'], rankRows(r)),
    section('rank_phases', ['gpus', 'rank', 'phase', 'calls', 'total_s', 'avg_per_call_s'], rankPhaseRows(r)),
    section('rank_time', ['gpus', 'rank', 'step_s', 'gpu_working_s', 'gpu_waiting_s', 'host_exchange_s'], rankTimeRows(r)),
    section('un_per_step', ['gpus', 'step', 'un_percent'], unSeriesRows(r)),
    section('fit', ['key', 'value'], fitRows(r)),
    section('fit_points', ['gpus', 'measured_seconds', 'model_seconds', 'residual_seconds'],
      (r.fit?.points ?? []).map((p) => [p.gpus, p.measuredSeconds, p.modelSeconds, p.residualSeconds])),
    section('notes', ['kind', 'text'], [...r.skipped.map((s) => ['skipped', `run ${s.runId} on ${s.gpus} GPU(s): ${s.reason}`]),
      ...r.warnings.map((w) => ['warning', w])]),
  ];
}

/** The whole report as one CSV text of sections. */
export function scalingCsv(r: ScalingReport): string {
  return csvSections(scalingTables(r));
}

/** The report as a .zip of one CSV file per table. */
export function scalingCsvZip(r: ScalingReport): Uint8Array {
  return csvZip(scalingTables(r));
}
