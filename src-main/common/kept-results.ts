// Which runs hold results (summary, profile, fields when sampled): completed runs, and runs the user stopped and
// kept (stop and keep: recorded cancelled, with what they sampled). Failed runs and plain cancels keep none.
import type { RunRecord } from './run-record.js';

/** True when the run kept results that can be viewed, exported and compared like a completed run's. */
export function keptResults(run: Pick<RunRecord, 'status' | 'summary'>): boolean {
  return run.status === 'completed' || (run.status === 'cancelled' && run.summary !== null);
}
