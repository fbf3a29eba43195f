// Where a run's checkpoints live and how one is declared complete: <dataDir>/checkpoints/run-<id>/step-<n>/
// holds one file per rank (rank-<r>.bin), the loop's host state (loop.bin) and, written last, manifest.json
// with the size and SHA-256 of every file. A folder without a manifest is incomplete and never resumed from.
// Once a checkpoint completes, all but it and the complete one before it are pruned: the one before is
// what resume falls back to when the newest turns out damaged.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { CheckpointCorrupt } from './checkpoint-codec.js';
import { fsyncFolder, writeFileDurable } from './atomic-file.js';

/** Name of the file that marks a checkpoint folder complete. */
export const MANIFEST = 'manifest.json';
/** Name of the host-side state file (field sums, loop history, decomposition). */
export const LOOP_FILE = 'loop.bin';

/** File name of rank r's particles and per-cell state. */
export function rankFile(rank: number): string {
  return `rank-${rank}.bin`;
}

/** The folder of every checkpoint of run `runId` in a data folder. */
export function runCheckpointFolder(dataDir: string, runId: number): string {
  return join(dataDir, 'checkpoints', `run-${runId}`);
}

/** The folder of the checkpoint after step `step` (zero-padded so names sort by step). */
export function stepFolder(runFolder: string, step: number): string {
  return join(runFolder, `step-${String(step).padStart(10, '0')}`);
}

/** Creates a checkpoint folder (and its parents). */
export function makeStepFolder(runFolder: string, step: number): string {
  const dir = stepFolder(runFolder, step);
  mkdirSync(dir, { recursive: true });
  return dir;
}

const manifestSchema = z.object({
  format: z.literal(1),
  step: z.number().int().min(0),
  ranks: z.number().int().min(1),
  files: z.array(z.object({ name: z.string(), bytes: z.number().int().min(0), sha256: z.string().regex(/^[0-9a-f]{64}$/) })),
});
/** What manifest.json says about a complete checkpoint. */
export type Manifest = z.infer<typeof manifestSchema>;

/** SHA-256 of bytes as hex. */
function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Marks a checkpoint folder complete: hashes its files (which must all exist) and writes the manifest last. */
export function completeCheckpoint(dir: string, step: number, ranks: number, names: string[]): Manifest {
  const files = names.map((name) => {
    const path = join(dir, name);
    if (!existsSync(path)) throw new Error(`checkpoint of step ${step}: ${path} is missing; it cannot be marked complete`);
    const bytes = readFileSync(path);
    return { name, bytes: bytes.length, sha256: sha256(bytes) };
  });
  const manifest: Manifest = { format: 1, step, ranks, files };
  writeFileDurable(join(dir, MANIFEST), Buffer.from(JSON.stringify(manifest, null, 2) + '\n'));
  return manifest;
}

/** Steps of the checkpoint folders of a run, newest first (complete or not). */
export function checkpointSteps(runFolder: string): number[] {
  if (!existsSync(runFolder)) return [];
  return readdirSync(runFolder)
    .map((n) => /^step-(\d{10})$/.exec(n))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => Number(m[1]))
    .sort((a, b) => b - a);
}

/** Complete checkpoints kept after pruning: the newest and one to fall back to. */
export const KEEP_COMPLETE = 2;

/** After the checkpoint of step `newest` completed: removes every folder older than the KEEP_COMPLETE newest complete ones. */
export function pruneOlder(runFolder: string, newest: number): void {
  const steps = checkpointSteps(runFolder).filter((s) => s <= newest);
  const complete = steps.filter((s) => existsSync(join(stepFolder(runFolder, s), MANIFEST)));
  if (complete.length < KEEP_COMPLETE) return;
  const oldestKept = complete[KEEP_COMPLETE - 1];
  for (const step of steps) if (step < oldestKept) rmSync(stepFolder(runFolder, step), { recursive: true, force: true });
  fsyncFolder(runFolder);
}

/** Removes every checkpoint of a run (once it completed: a completed run is not resumed). */
export function removeRunCheckpoints(runFolder: string): void {
  rmSync(runFolder, { recursive: true, force: true });
}

/** Removes checkpoint folders newer than `step` (left by an interrupted process; the resumed run writes them again). */
export function removeNewer(runFolder: string, step: number): void {
  for (const s of checkpointSteps(runFolder)) if (s > step) rmSync(stepFolder(runFolder, s), { recursive: true, force: true });
}

/** A verified checkpoint: its manifest and the bytes of every file it lists. */
export interface VerifiedCheckpoint {
  dir: string;
  manifest: Manifest;
  files: Map<string, Buffer>;
}

/** Reads a checkpoint folder and checks every file against its manifest; throws CheckpointCorrupt naming the file. */
export function verifyCheckpoint(dir: string): VerifiedCheckpoint {
  const manifestPath = join(dir, MANIFEST);
  if (!existsSync(manifestPath)) throw new CheckpointIncomplete(`checkpoint ${dir} is incomplete: ${manifestPath} is missing (the run stopped while writing it)`);
  let manifest: Manifest;
  try {
    manifest = manifestSchema.parse(JSON.parse(readFileSync(manifestPath, 'utf8')));
  } catch (e) {
    throw new CheckpointCorrupt(`checkpoint manifest ${manifestPath} is damaged (${(e as Error).message.split('\n')[0]})`);
  }
  const files = new Map<string, Buffer>();
  for (const f of manifest.files) {
    const path = join(dir, f.name);
    if (!existsSync(path)) throw new CheckpointCorrupt(`checkpoint file ${path} is missing (listed in ${manifestPath})`);
    const bytes = readFileSync(path);
    if (bytes.length !== f.bytes) throw new CheckpointCorrupt(`checkpoint file ${path} has ${bytes.length} bytes, its manifest says ${f.bytes} (truncated or overwritten)`);
    if (sha256(bytes) !== f.sha256) throw new CheckpointCorrupt(`checkpoint file ${path} does not match the SHA-256 in ${manifestPath} (damaged)`);
    files.set(f.name, bytes);
  }
  return { dir, manifest, files };
}

/** Thrown by verifyCheckpoint for a folder without a manifest (the run stopped before it completed it). */
export class CheckpointIncomplete extends CheckpointCorrupt {}

/**
 * The newest checkpoint of a run that verifies, falling back to older ones; every damaged one goes to
 * `onRefused` (its error names the file), every incomplete one (no manifest: the run stopped while writing
 * it, a normal end of a killed run) to `onSkipped`. Throws naming the folder when none is usable.
 */
export function latestCheckpoint(runFolder: string, onRefused: (e: CheckpointCorrupt) => void, onSkipped: (e: CheckpointIncomplete) => void = () => undefined): VerifiedCheckpoint {
  const steps = checkpointSteps(runFolder);
  const refused: string[] = [];
  for (const step of steps) {
    try {
      return verifyCheckpoint(stepFolder(runFolder, step));
    } catch (e) {
      if (e instanceof CheckpointIncomplete) {
        onSkipped(e);
        continue;
      }
      if (!(e instanceof CheckpointCorrupt)) throw e;
      refused.push(e.message);
      onRefused(e);
    }
  }
  if (refused.length === 0) {
    throw new Error(`no complete checkpoint in ${runFolder}: the run stopped before its first checkpoint completed, or its case has run.checkpointEvery 0; ` +
      'run the case again, with checkpoints on (e.g. --set run.checkpointEvery=100)');
  }
  throw new CheckpointCorrupt(`no usable checkpoint in ${runFolder}:\n  ${refused.join('\n  ')}\nRun the case again (dsmc run).`);
}
