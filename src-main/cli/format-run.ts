// The terminal report of one saved run (`dsmc show`): case, adapter, throughput, phases, conservation, fields.
import { FACES, type Case } from '../common/case-schema.js';
import type { CaseRecord, FieldSet, PhaseRecord, RunRecord } from '../common/run-record.js';
import type { RunSummary } from '../common/run-summary.js';
import type { GasMeans } from '../common/reports/gas-means.js';
import { drift, dur, table } from './format-summary.js';
import { bodyLines, compositionLines, gasLines, reactionLines } from './format-results.js';
import { localTime } from './format-runs.js';
import { forTerminal } from './terminal-text.js';

/** What `dsmc show` reports about a run (also its --json). */
export interface RunDetails {
  database: string;
  run: RunRecord;
  case: CaseRecord;
  phases: PhaseRecord[];
  steps: { recorded: number; last: number };
  totalsRecorded: number;
  fields: Omit<FieldSet, 'values' | 'errors'> & { names: string[] } | null;
  /** The gas's mean density and temperatures with standard errors, from the stored fields (null without fields). */
  gas: GasMeans | null;
}

/** One line about the case: grid, species, particles, steps, dt, seed, boundaries. */
function caseLines(rec: CaseRecord): string[] {
  const c = rec.json as Partial<Case>;
  const lines = [`case ${rec.name} (sha256 ${rec.hash.slice(0, 16)}...)`];
  if (c.grid) lines.push(`  grid ${c.grid.cells.join(' x ')} cells of ${c.grid.cellSize.map((x) => x.toExponential(3)).join(' x ')} m`);
  if (c.species) lines.push(`  species ${c.species.map((s) => s.name).join(', ')}`);
  if (c.particles) lines.push(`  particles ${c.particles.perCell !== undefined ? `${c.particles.perCell} per cell` : `fnum ${c.particles.fnum}`}`);
  if (c.run) lines.push(`  ${c.run.steps} steps of dt ${c.run.dt.toExponential(3)} s, seed ${c.run.seed}, ${c.run.stepsPerSubmit} steps per submit`);
  const b = c.boundaries;
  if (b) lines.push(`  boundaries ${FACES.filter((f) => b[f]).map((f) => `${f} ${b[f].type}`).join(', ')}`);
  return lines;
}

/** Throughput, collisions and conservation from the summary. */
function summaryLines(s: RunSummary): string[] {
  return [
    `${s.steps} steps, ${s.particles} particles (mean ${s.meanParticles.toFixed(0)}), loop ${s.seconds.toFixed(3)} s`,
    `throughput: ${s.particleStepsPerSecond.toExponential(3)} particle-steps/s; ` +
      `collisions ${s.collisionsPerParticleStep.toFixed(5)} and candidates ${s.candidatesPerParticleStep.toFixed(5)} per particle per step`,
    `conservation: particles ${s.conservation.particlesStart} -> ${s.conservation.particlesEnd}; ` +
      `momentum drift ${drift(s.conservation.momentumRelDrift)}, energy drift ${drift(s.conservation.energyRelDrift)}`,
  ];
}

/** The phase table from the stored timings (a rank column when there are several ranks). */
function phaseTable(phases: PhaseRecord[], s: RunSummary | null): string {
  const ranks = new Set(phases.map((p) => p.rank)).size;
  const head = ['phase', 'calls', 'AVG x Call', 'min', 'max', 'total', '% of loop'];
  const rows = [ranks > 1 ? ['phase', 'rank', ...head.slice(1)] : head];
  for (const p of phases) {
    const pct = s && s.seconds > 0 ? ((100 * p.totalSeconds) / s.seconds).toFixed(1) : '-';
    const cells = [String(p.calls), dur(p.calls > 0 ? p.totalSeconds / p.calls : 0), dur(p.minSeconds), dur(p.maxSeconds), dur(p.totalSeconds), pct];
    rows.push(ranks > 1 ? [p.phase, String(p.rank), ...cells] : [p.phase, ...cells]);
  }
  if (s && ranks <= 1) rows.push(['other', '', '', '', '', dur(s.otherSeconds), s.seconds > 0 ? ((100 * s.otherSeconds) / s.seconds).toFixed(1) : '0']);
  return table(rows);
}

/** The `dsmc show` text. */
export function formatRunDetails(d: RunDetails): string {
  const r = d.run;
  const lines = [`run ${r.id}: ${r.caseName}, ${r.status} (project ${r.project})`];
  lines.push(`  started ${localTime(r.startedAt)}, ended ${localTime(r.endedAt)}`);
  if (r.reason) lines.push(`  reason: ${r.reason}`);
  lines.push(...caseLines(d.case));
  lines.push(`adapter: ${r.adapter.description} [${r.adapter.backend}]; ${r.ranks} rank(s) on ${r.gpus} GPU(s); dsmc ${r.productVersion}`);
  if (r.summary) lines.push(...summaryLines(r.summary), ...gasLines(d.gas), ...compositionLines(r.summary.composition), ...reactionLines(r.summary.reactions), ...bodyLines(r.summary.surface));
  else lines.push(`no summary (the run did not complete); steps recorded up to step ${d.steps.last}`);
  if (d.phases.length > 0) lines.push('', `phase timing (${r.summary?.timing ?? 'unknown source'}):`, phaseTable(d.phases, r.summary), '');
  lines.push(`step statistics: ${d.steps.recorded} steps (last ${d.steps.last}); particle totals at ${d.totalsRecorded} points`);
  if (d.fields) {
    lines.push(`fields: ${d.fields.names.join(', ')}`,
      `  ${d.fields.cells.join(' x ')} cells, ${d.fields.samples} samples, ${d.fields.blocks} batch-means blocks for the standard errors`,
      `  stored in ${d.database}; for ParaView: dsmc export vtk ${r.id} --out run-${r.id}.vti`);
  } else lines.push('fields: none stored');
  lines.push(`tags: ${r.tags.length ? r.tags.join(', ') : '(none)'}`);
  lines.push(`notes: ${r.notes ? r.notes : '(none)'}`);
  // names, tags, notes and reasons come from users: escape sequences in them are shown, never acted on
  return forTerminal(lines.join('\n'));
}
