// Reads a verified checkpoint back: the loop file and every rank's file, checked against the case.
import { join } from 'node:path';
import type { Case } from '../../common/case-schema.js';
import { CheckpointCorrupt } from './checkpoint-codec.js';
import { LOOP_FILE, rankFile, type VerifiedCheckpoint } from './checkpoint-folder.js';
import { decodeLoopSnapshot, decodeRankSnapshot, type LoopSnapshot, type RankSnapshot } from './checkpoint-state.js';
import { caseHash } from './checkpoint-target.js';

/** A checkpoint ready to resume from. */
export interface ResumePoint {
  dir: string;
  loop: LoopSnapshot;
  ranks: RankSnapshot[];
}

/** Decodes a verified checkpoint; throws CheckpointCorrupt naming the file when a part does not fit, Error when it is another case's. */
export function loadResumePoint(v: VerifiedCheckpoint, c: Case): ResumePoint {
  const bytesOf = (name: string) => {
    const b = v.files.get(name);
    if (!b) throw new CheckpointCorrupt(`checkpoint ${v.dir} does not list ${name} in its manifest`);
    return b;
  };
  const loop = decodeLoopSnapshot(bytesOf(LOOP_FILE), join(v.dir, LOOP_FILE));
  if (loop.step !== v.manifest.step || loop.ranks !== v.manifest.ranks) throw new CheckpointCorrupt(`checkpoint file ${join(v.dir, LOOP_FILE)} is of step ${loop.step} on ${loop.ranks} ranks, its manifest says step ${v.manifest.step} on ${v.manifest.ranks}`);
  if (loop.caseHash !== caseHash(c)) throw new Error(`checkpoint ${v.dir} was written for another case than the run's (case hash differs); it cannot resume this run`);
  const ranks = Array.from({ length: loop.ranks }, (_, r) => {
    const file = join(v.dir, rankFile(r));
    const s = decodeRankSnapshot(bytesOf(rankFile(r)), file);
    if (s.step !== loop.step || s.rank !== r) throw new CheckpointCorrupt(`checkpoint file ${file} holds rank ${s.rank} at step ${s.step}, expected rank ${r} at step ${loop.step}`);
    return s;
  });
  return { dir: v.dir, loop, ranks };
}
