// How a run's steps are grouped into submits and sampled-submits into batch-means blocks: the same on any
// number of ranks, so every rank and the orchestrator agree (solver/loop.ts records the submits).
import type { Case } from '../common/case-schema.js';
import { submitsPerBlock } from './field-statistics.js';

/** Batch-means blocks a sampled run aims for. */
const BLOCKS = 20;

/**
 * Most passes per step: move, inject, migrate, sort (four with detailed timing) and collide twice (a multi-rank
 * rank's split step: interior and halo), sample.
 */
export const PASSES_PER_STEP = 14;

/**
 * Steps recorded per submit: the case's stepsPerSubmit, capped so that one query set (4096
 * timestamps) times them all, and so that the sampled steps span at least BLOCKS submits (the
 * batch-means blocks behind the fields' standard errors; short sampled runs submit more often).
 */
export function stepsPerSubmit(c: Case): number {
  let chunk = Math.min(c.run.stepsPerSubmit, Math.floor(2048 / PASSES_PER_STEP));
  if (c.sampling.enabled) {
    const span = c.run.steps - Math.max(c.sampling.start, 1) + 1;
    if (span > 0) chunk = Math.min(chunk, Math.max(1, Math.floor(span / BLOCKS)));
  }
  return chunk;
}

/** True when step s (1-based) of a case is a sampling step. */
export function samplesAt(c: Case, s: number): boolean {
  const { enabled, start, interval } = c.sampling;
  return enabled && s >= start && (s - start) % interval === 0;
}

/** Sampled submits per batch-means block of a loop of `steps` steps after step `from` (the same on any number of ranks). */
export function blockSubmits(c: Case, from: number, steps: number): number {
  const chunk = stepsPerSubmit(c);
  let n = 0;
  for (let first = from + 1; first <= from + steps; first += chunk) {
    const last = Math.min(first + chunk - 1, from + steps);
    for (let s = first; s <= last; s++) if (samplesAt(c, s)) { n += 1; break; }
  }
  return submitsPerBlock(n, BLOCKS);
}
