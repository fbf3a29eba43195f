// The profiling report as CSV tables: metrics, phases, steps, totals; for runs with surface results also surface,
// surface_bodies and surface_walls; with the report's figures the surface distributions (per triangle and binned)
// and the field plane the maps show. Either one file of "# <name>" sections or a .zip of one CSV per table
// (csv-tables.ts). Numbers are written in full precision; unknown values are empty cells; column names end in their unit.
import type { ProfileReport } from '../common/reports/profile-model.js';
import { BODY_QUANTITIES, FACE_QUANTITIES } from '../common/reports/surface-loads.js';
import { compositionTables, reactionTables } from './composition-report.js';
import { csvSections, csvZip, type CsvCellValue, type CsvTable } from './csv-tables.js';
import { figureTables } from './figure-tables.js';
import type { ReportFigures } from './report-figures.js';

type Cell = CsvCellValue;

/** The key/value metrics of the run. */
function metricRows(r: ProfileReport): Cell[][] {
  const t = r.throughput;
  const c = r.conservation;
  return [
    ['run_id', r.run.id], ['project', r.run.project], ['case', r.case.name], ['status', r.run.status], ['seed', r.run.seed],
    ['ranks', r.run.ranks], ['adapter', r.adapter.description], ['backend', r.adapter.backend], ['timing', r.timing], ['timed_every', r.timedEvery],
    ['tags', r.run.tags.join(';')], ['notes', r.run.notes],
    ['steps', t.steps], ['mean_particles', t.meanParticles], ['particle_steps', t.particleSteps],
    ['loop_seconds', r.phaseTable.loopSeconds], ['particle_steps_per_second', t.particleStepsPerSecond],
    ['seconds_per_particle_step', t.secondsPerParticleStep], ['loop_seconds_per_particle', t.loopSecondsPerParticle],
    ['collisions_per_particle_step', t.collisionsPerParticleStep], ['candidates_per_particle_step', t.candidatesPerParticleStep],
    ['particles_start', c?.particlesStart ?? null], ['particles_end', c?.particlesEnd ?? null],
    ['momentum_rel_drift', c?.momentumRelDrift ?? null], ['energy_rel_drift', c?.energyRelDrift ?? null],
    ['host_submits', r.host?.submits ?? null], ['host_encode_seconds', r.host?.encodeSeconds ?? null],
    ['host_wait_seconds', r.host?.waitSeconds ?? null], ['host_readback_seconds', r.host?.readbackSeconds ?? null],
    ['host_fold_seconds', r.host?.foldSeconds ?? null],
  ];
}

/** The phase table, "other" last. */
function phaseRows(r: ProfileReport): Cell[][] {
  const rows: Cell[][] = r.phaseTable.rows.map((p) => [p.phase, p.calls, p.avgPerCallSeconds, p.minSeconds, p.avgSeconds, p.maxSeconds,
    p.percentOfLoop, p.secondsPerParticle, p.callMinSeconds, p.callMaxSeconds]);
  if (r.phaseTable.loopSeconds !== null) rows.push(['other', null, null, null, r.phaseTable.other.seconds, null, r.phaseTable.other.percentOfLoop, null, null, null]);
  return rows;
}

/** The surface tables (none for runs without surface results): sampled time and free stream, one row per body, one per wall face. */
function surfaceSections(r: ProfileReport): CsvTable[] {
  const s = r.surface;
  if (!s) return [];
  const fs = s.freeStream;
  return [
    section('surface', ['key', 'value'], [
      ['sampled_time_s', s.sampledTime],
      ['free_stream_number_density_per_m3', fs?.numberDensity ?? null], ['free_stream_temperature_K', fs?.temperature ?? null],
      ['free_stream_velocity_x_m_s', fs?.velocity[0] ?? null], ['free_stream_velocity_y_m_s', fs?.velocity[1] ?? null],
      ['free_stream_velocity_z_m_s', fs?.velocity[2] ?? null],
    ]),
    section('surface_bodies', ['body', ...BODY_QUANTITIES.map((q) => q.csv)], s.bodies.map((b) => [b.name, ...BODY_QUANTITIES.map((q) => q.value(b))])),
    section('surface_walls', ['face', 'boundary', ...FACE_QUANTITIES.map((q) => q.csv)],
      s.faces.filter((f) => f.wall).map((f) => [f.face, f.boundary, ...FACE_QUANTITIES.map((q) => q.value(f))])),
  ];
}

/** One table: name, header, rows. */
function section(name: string, header: string[], rows: Cell[][]): CsvTable {
  return { name, header, rows };
}

/** Every table of the report (and of its figures, when given), in the order the files list them. */
export function profileTables(r: ProfileReport, figures: ReportFigures | null = null): CsvTable[] {
  return [
    section('metrics', ['key', 'value'], metricRows(r)),
    section('phases', ['phase', 'calls', 'avg_per_call_s', 'min_s', 'avg_s', 'max_s', 'percent_of_loop', 's_per_particle', 'call_min_s', 'call_max_s'], phaseRows(r)),
    section('steps', ['step', 'particles', 'injected', 'collisions', 'candidates', 'collisions_per_particle', 'candidates_per_particle'],
      r.steps.map((s) => [s.step, s.particles, s.injected, s.collisions, s.candidates,
        s.particles > 0 ? s.collisions / s.particles : null, s.particles > 0 ? s.candidates / s.particles : null])),
    section('totals', ['step', 'particles', 'kinetic_energy_J', 'momentum_x', 'momentum_y', 'momentum_z'],
      r.totals.map((t) => [t.step, t.particles, t.kineticEnergy, ...t.momentum])),
    ...surfaceSections(r),
    ...compositionTables(r.composition),
    ...reactionTables(r.reactions),
    ...(figures ? figureTables(figures) : []),
  ];
}

/** The whole report as one CSV text of sections. */
export function profileCsv(r: ProfileReport, figures: ReportFigures | null = null): string {
  return csvSections(profileTables(r, figures));
}

/** The report as a .zip of one CSV file per table. */
export function profileCsvZip(r: ProfileReport, figures: ReportFigures | null = null): Uint8Array {
  return csvZip(profileTables(r, figures));
}
