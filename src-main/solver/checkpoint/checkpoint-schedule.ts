// When checkpoints are written: after the first submit that ends at or after each multiple of
// run.checkpointEvery (checkpoints belong on submit boundaries, where batch-means blocks close), never
// after the loop's last submit (the finished run is recorded instead).
import type { Case } from '../../common/case-schema.js';

/** True when the submit that took the loop from step `prev` to step `step` (of `last`) ends with a checkpoint. */
export function checkpointDue(c: Case, prev: number, step: number, last: number): boolean {
  const every = c.run.checkpointEvery;
  if (every <= 0 || step >= last) return false;
  return Math.floor(step / every) > Math.floor(prev / every);
}
