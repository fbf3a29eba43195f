// Writes checkpoints: each rank's file into the step's folder, then the host's loop file and, last, the
// manifest that marks the checkpoint complete; then all but the newest two complete checkpoints are pruned.
import { join } from 'node:path';
import { writeFileDurable } from './atomic-file.js';
import { LOOP_FILE, completeCheckpoint, makeStepFolder, pruneOlder, rankFile } from './checkpoint-folder.js';
import { encodeLoopSnapshot, encodeRankSnapshot, type LoopSnapshot, type RankSnapshot } from './checkpoint-state.js';

/** Writes one rank's file of the checkpoint after `snap.step` (the folder is created if needed). */
export function writeRankFile(runFolder: string, snap: RankSnapshot): void {
  const dir = makeStepFolder(runFolder, snap.step);
  writeFileDurable(join(dir, rankFile(snap.rank)), encodeRankSnapshot(snap));
}

/** Writes the loop file and the manifest (every rank file must be there already), then prunes older checkpoints. */
export function completeWithLoop(runFolder: string, loop: LoopSnapshot): void {
  completeWithLoopBytes(runFolder, loop.step, loop.ranks, encodeLoopSnapshot(loop));
}

/** completeWithLoop with the loop file already encoded (the orchestrator encodes it when the submit merges, writes it later). */
export function completeWithLoopBytes(runFolder: string, step: number, ranks: number, loopBytes: Buffer): void {
  const dir = makeStepFolder(runFolder, step);
  writeFileDurable(join(dir, LOOP_FILE), loopBytes);
  const names = [...Array.from({ length: ranks }, (_, r) => rankFile(r)), LOOP_FILE];
  completeCheckpoint(dir, step, ranks, names);
  pruneOlder(runFolder, step);
}
