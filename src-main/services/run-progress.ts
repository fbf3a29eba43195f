// Progress of a run worked out from what the database holds (for runs followed through the database:
// multi-rank launches, or runs started before the server restarted).
import type { RunProgress } from '../common/contract/types.js';
import type { RunRecord, StepRecord } from '../common/run-record.js';

/** Seconds left at the current rate, or null before there is a rate. */
export function etaSeconds(step: number, steps: number, elapsedSeconds: number): number | null {
  if (step <= 0 || elapsedSeconds <= 0) return null;
  return Math.max(0, ((steps - step) * elapsedSeconds) / step);
}

/** A progress snapshot from the run record and its recorded steps. */
export function progressFromRecords(run: RunRecord, steps: StepRecord[], totalSteps: number, nowMs = Date.now()): RunProgress {
  const last = steps.at(-1);
  const endMs = run.endedAt ? Date.parse(run.endedAt) : nowMs;
  const elapsed = run.summary?.seconds ?? Math.max(0, (endMs - Date.parse(run.startedAt)) / 1000);
  const particleSteps = steps.reduce((s, x) => s + x.particles, 0);
  const step = last?.step ?? 0;
  return {
    runId: run.id,
    status: run.status,
    step: run.status === 'completed' ? (run.summary?.steps ?? step) : step,
    steps: totalSteps,
    particles: last?.particles ?? run.summary?.particles ?? 0,
    elapsedSeconds: elapsed,
    particleStepsPerSecond: run.summary?.particleStepsPerSecond ?? (elapsed > 0 ? particleSteps / elapsed : 0),
    etaSeconds: run.status === 'running' ? etaSeconds(step, totalSteps, elapsed) : null,
  };
}
