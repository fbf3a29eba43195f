// Messages between the server (parent) and a run child process (src-main/services/run-child.ts).
import type { StepRecord } from '../common/run-record.js';

/** Parent -> child: what to run, then possibly a cancel. */
export type ToChild =
  | { type: 'start'; caseJson: unknown; project: string; dataDir: string }
  | { type: 'cancel' };

/** Child -> parent: the recorded run id, progress, steps, and how it ended. */
export type FromChild =
  | { type: 'started'; runId: number; steps: number }
  | { type: 'progress'; step: number; steps: number; particles: number; elapsedSeconds: number; particleStepsPerSecond: number }
  | { type: 'steps'; steps: StepRecord[] }
  | { type: 'refused'; message: string }
  | { type: 'ended'; status: 'completed' | 'failed' | 'cancelled'; reason: string | null };
