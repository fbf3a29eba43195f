// A rank's side of the garbage collections the ranks of a multi-rank run take together (issue 24): its young
// generation's fill and its old generation's bytes, reported with every submit, a scavenge or a major collection when
// the orchestrator asks for one after a submit (cluster/orchestrator/young-collections.ts and old-collections.ts say
// why and when), and a full collection before the loop.
import { getHeapSpaceStatistics } from 'node:v8';

/** This process's young generation in use, as a fraction of its capacity (0 when V8 does not say). */
export function youngFill(): number {
  const space = getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
  if (!space || space.space_used_size <= 0) return 0;
  // space_size counts both semispaces; objects are made in one
  const capacity = space.space_used_size + space.space_available_size;
  return capacity > 0 ? Math.min(1, space.space_used_size / capacity) : 0;
}

/** Bytes in use in this process's old generation: every heap space but the young generation's, the read-only and the shared ones. */
export function oldGenerationBytes(): number {
  let bytes = 0;
  for (const s of getHeapSpaceStatistics()) {
    if (s.space_name.startsWith('new_') || s.space_name.startsWith('shared_') || s.space_name === 'read_only_space') continue;
    bytes += s.space_used_size;
  }
  return bytes;
}

/**
 * V8's collector as --expose-gc gives it. In Node 20 (V8 11.3) any argument makes it a scavenge, whatever its `type`
 * says; only a call without one is a full (mark-compact) collection.
 */
type Collector = (options?: { type?: 'minor'; execution?: 'sync' }) => void;

/** The collector, or null without --expose-gc. */
function exposedGc(): Collector | null {
  const gc = (globalThis as { gc?: unknown }).gc;
  return typeof gc === 'function' ? (gc as Collector) : null;
}

/** A minor collection now; its seconds, or null when the process was started without --expose-gc (nothing done). */
export function collectYoung(): number | null {
  const gc = exposedGc();
  if (!gc) return null;
  const t = performance.now();
  gc({ type: 'minor', execution: 'sync' });
  return (performance.now() - t) / 1000;
}

/** A major collection now (it collects the young generation too); its seconds, or null without --expose-gc (nothing done). */
export function collectOld(): number | null {
  const gc = exposedGc();
  if (!gc) return null;
  const t = performance.now();
  gc();
  return (performance.now() - t) / 1000;
}

/**
 * A full collection before the loop (every rank, before the ranks start their clocks together): the loop starts with an
 * empty young generation, so that the set-up's garbage does not bring its first scavenge forward. Nothing without --expose-gc.
 */
export function collectBeforeLoop(): void {
  exposedGc()?.();
}
