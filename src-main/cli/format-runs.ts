// Terminal tables of saved runs and projects (`dsmc runs`, `dsmc projects`).
import type { ProjectRecord, RunRecord } from '../common/run-record.js';
import { table } from './format-summary.js';

/** A stored ISO time as local "YYYY-MM-DD HH:MM:SS". */
export function localTime(iso: string | null): string {
  if (iso === null) return '-';
  const d = new Date(iso);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

/** Steps of a run: the summary's when completed, else how far it got. */
export function stepsOf(r: RunRecord): number {
  return r.summary?.steps ?? r.lastStep;
}

/** The table of `dsmc runs`. */
export function formatRuns(runs: RunRecord[]): string {
  const rows = [['id', 'project', 'case', 'status', 'started', 'steps', 'particles', 'particle-steps/s', 'tags']];
  for (const r of runs) {
    rows.push([
      String(r.id), r.project, r.caseName, r.status, localTime(r.startedAt), String(stepsOf(r)),
      r.summary ? String(r.summary.particles) : '-',
      r.summary ? r.summary.particleStepsPerSecond.toExponential(3) : '-',
      r.tags.join(','),
    ]);
  }
  // the id column reads better right-aligned: pad it here, the table left-aligns the first column
  const width = Math.max(...rows.map((r) => r[0].length));
  return table(rows.map((r, i) => (i === 0 ? r : [r[0].padStart(width), ...r.slice(1)])));
}

/** The table of `dsmc projects`. */
export function formatProjects(projects: ProjectRecord[]): string {
  const rows = [['project', 'runs', 'created']];
  for (const p of projects) rows.push([p.name + (p.archived ? ' (archived)' : ''), String(p.runCount), localTime(p.createdAt)]);
  return table(rows);
}
