// Messages between the server (parent) and a run child process (src-main/services/run-child.ts).
import type { FieldSlice, SliceAxis } from '../common/contract/types.js';
import type { FieldName } from '../common/field-names.js';
import type { StepRecord } from '../common/run-record.js';

/** Which slice of which field the live view shows. */
export interface LiveView {
  field: FieldName;
  axis: SliceAxis;
  index?: number;
}

/** Parent -> child: what to run, then possibly a cancel. */
export type ToChild =
  | { type: 'start'; caseJson: unknown; project: string; dataDir: string }
  | { type: 'cancel' }
  | { type: 'view'; view: LiveView };

/** Child -> parent: the recorded run id, progress, steps, and how it ended. */
export type FromChild =
  | { type: 'started'; runId: number; steps: number }
  | { type: 'progress'; step: number; steps: number; particles: number; elapsedSeconds: number; particleStepsPerSecond: number }
  | { type: 'steps'; steps: StepRecord[] }
  | { type: 'phases'; phases: { phase: string; seconds: number }[] }
  | { type: 'field'; slice: FieldSlice }
  | { type: 'refused'; message: string }
  | { type: 'ended'; status: 'completed' | 'failed' | 'cancelled'; reason: string | null };
