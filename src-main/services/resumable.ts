// Whether a run can be resumed from the app: a failed or cancelled run with a complete checkpoint on disk.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { RunRecord } from '../common/run-record.js';
import { checkpointSteps, runCheckpointFolder, stepFolder } from '../solver/checkpoint/checkpoint-folder.js';

/** The step of the newest checkpoint with its manifest (written last), for a failed or cancelled run; null otherwise. */
export function resumableStep(dataDir: string, run: RunRecord): number | null {
  if (run.status !== 'failed' && run.status !== 'cancelled') return null;
  const folder = runCheckpointFolder(dataDir, run.id);
  const complete = checkpointSteps(folder).filter((s) => existsSync(join(stepFolder(folder, s), 'manifest.json')));
  return complete.length > 0 ? Math.max(...complete) : null;
}
