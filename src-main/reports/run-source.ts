// What the reports read from the run database, as an interface (RunStore implements it; tests can fake it),
// and the loaders that gather one run's records for a profile or a comparison.
import type { CompareInput } from '../common/reports/compare-model.js';
import type { ProfileInput } from '../common/reports/profile-model.js';
import type { CaseRecord, FieldSet, PhaseRecord, RunRecord, RunSurface, StepRecord, TotalsRecord } from '../common/run-record.js';

/** The read side of the run database that reports use. */
export interface RunSource {
  getRun(id: number): RunRecord;
  getCase(runId: number): CaseRecord;
  getPhases(runId: number): PhaseRecord[];
  getSteps(runId: number): StepRecord[];
  getTotals(runId: number): TotalsRecord[];
  getFields(runId: number): FieldSet | null;
  getSurface(runId: number): RunSurface | null;
}

/** Everything a profile report needs about one run. */
export function loadProfileInput(source: RunSource, id: number): ProfileInput {
  const run = source.getRun(id);
  return { run, caseRecord: source.getCase(id), phases: source.getPhases(id), steps: source.getSteps(id), totals: source.getTotals(id) };
}

/** Everything a comparison needs about one run. */
export function loadCompareInput(source: RunSource, id: number): CompareInput {
  const run = source.getRun(id);
  return { run, caseRecord: source.getCase(id), phases: source.getPhases(id), fields: source.getFields(id) };
}

/** The sampled fields of a run, or an error saying why there are none. */
export function requireFields(source: RunSource, id: number): FieldSet {
  const run = source.getRun(id);
  const fields = source.getFields(id);
  if (!fields) {
    const why = run.status !== 'completed' ? `it is ${run.status}${run.reason ? ` (${run.reason})` : ''}` : 'it kept no fields (sampling.enabled was false?)';
    throw new Error(`run ${id} has no sampled fields: ${why}; export a completed run that sampled its fields (dsmc runs --status completed), or one stopped with "Stop and keep" (Ctrl-C once) after it sampled`);
  }
  return fields;
}

/**
 * The sampled fields of a run with standard errors (2 or more batch-means blocks closed), or an error saying why
 * there are none: a run stopped early (stop and keep) closed fewer blocks than its sampling was planned in.
 */
export function requireStandardErrors(source: RunSource, id: number): FieldSet {
  const fields = requireFields(source, id);
  if (fields.blocks >= 2) return fields;
  const run = source.getRun(id);
  const fix = run.status === 'cancelled'
    ? `it was ${run.reason ?? 'cancelled'}; a run stopped later in its sampling (after about a tenth of it), or one that completed, has them`
    : 'sample more steps (an earlier sampling.start or more run.steps)';
  throw new Error(`run ${id} has no standard errors: it closed ${fields.blocks} batch-means block${fields.blocks === 1 ? '' : 's'} of its sampling and an error needs 2 or more; ${fix}`);
}
