// Where a run's checkpoints go. A recorded run attaches its target to the case object it runs (the
// recorder knows the data folder and run id; the loop only the case), so that `dsmc run` writes
// checkpoints without the command passing anything new; an explicit option wins over the attached one.
import { createHash } from 'node:crypto';
import type { Case } from '../../common/case-schema.js';

/** The folder of one run's checkpoints (checkpoint-folder.ts: runCheckpointFolder). */
export interface CheckpointTarget {
  folder: string;
}

const attached = new WeakMap<Case, CheckpointTarget>();

/** Makes runs of this case object write their checkpoints to `target`. */
export function attachCheckpointTarget(c: Case, target: CheckpointTarget): void {
  attached.set(c, target);
}

/** The target attached to this case object, if any. */
export function attachedCheckpointTarget(c: Case): CheckpointTarget | undefined {
  return attached.get(c);
}

/** SHA-256 of a parsed case's JSON (a checkpoint resumes only the case it was written for). */
export function caseHash(c: Case): string {
  return createHash('sha256').update(JSON.stringify(c)).digest('hex');
}
