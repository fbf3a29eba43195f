// How a run's steps are grouped into submits, and into the units and batch-means blocks of its sampling: the same on
// any number of ranks, so every rank and the orchestrator agree (solver/loop.ts records the submits and the blocks'
// closes, which may fall inside a submit).
import type { Case } from '../common/case-schema.js';
import type { SampleCounters } from './field-accumulator.js';
import { submitsPerBlock } from './field-statistics.js';

/** Batch-means blocks a sampled run aims for. */
const BLOCKS = 20;

/**
 * Most passes per step: move (two with early moves), inject, migrate, sort (four with detailed timing, twice on a
 * multi-rank rank's split step: interior and halo), collide twice, sample, and a batch-means block's close.
 */
export const PASSES_PER_STEP = 15;

/** The largest submit of the time when a submit was a batch-means unit (one query set of 4096 timestamps at 14 passes a step). */
const UNIT_CAP = 146;

/** Where a loop's batch-means units are counted from and how many steps it runs (a resumed run keeps its first loop's). */
export interface BlockPlan {
  from: number;
  steps: number;
}

/**
 * Steps recorded per submit: the case's stepsPerSubmit, capped so that one query set (4096 timestamps) times them all.
 * Sampled runs submit as seldom as unsampled ones: a batch-means block may close inside a submit (blockUnitSteps).
 */
export function stepsPerSubmit(c: Case): number {
  return Math.min(c.run.stepsPerSubmit, Math.floor(2048 / PASSES_PER_STEP));
}

/**
 * Steps of one batch-means unit (blocks are made of units that sampled): the case's stepsPerSubmit, capped so that the
 * sampled steps span at least BLOCKS units (short sampled runs have shorter units). Units were submits once; their
 * length is still what those submits' was, so the blocks, and the fields' standard errors, are what they were.
 */
export function blockUnitSteps(c: Case): number {
  let unit = Math.min(c.run.stepsPerSubmit, UNIT_CAP);
  if (c.sampling.enabled) {
    const span = c.run.steps - Math.max(c.sampling.start, 1) + 1;
    if (span > 0) unit = Math.min(unit, Math.max(1, Math.floor(span / BLOCKS)));
  }
  return unit;
}

/** True when step s (1-based) of a case is a sampling step. */
export function samplesAt(c: Case, s: number): boolean {
  const { enabled, start, interval } = c.sampling;
  return enabled && s >= start && (s - start) % interval === 0;
}

/** Whether the unit of a loop planned as `plan` that step s ends (s is its last step) sampled: [its first step, s]. */
function unitSampled(c: Case, plan: BlockPlan, unit: number, s: number): boolean {
  const first = plan.from + Math.floor((s - plan.from - 1) / unit) * unit + 1;
  for (let t = first; t <= s; t++) if (samplesAt(c, t)) return true;
  return false;
}

/** Sampled units per batch-means block of a loop planned as `plan` (the same on any number of ranks). */
export function blockSubmits(c: Case, from: number, steps: number): number {
  const unit = blockUnitSteps(c);
  let n = 0;
  for (let first = from + 1; first <= from + steps; first += unit) {
    const last = Math.min(first + unit - 1, from + steps);
    for (let s = first; s <= last; s++) if (samplesAt(c, s)) { n += 1; break; }
  }
  return submitsPerBlock(n, BLOCKS);
}

/**
 * Counts step s (1-based) of a loop planned as `plan` into the sampling counters: a sampling step adds a pass; the last
 * step of a unit (or of the plan) counts the unit into the open block when it sampled. True when the block closes
 * after step s (it holds `perBlock` sampled units, or the plan ends and it holds any); the caller then records the close
 * and calls closeCounters. The ranks and the orchestrator count by this one rule.
 */
export function countStep(k: SampleCounters, c: Case, plan: BlockPlan, unit: number, perBlock: number, s: number): boolean {
  if (samplesAt(c, s)) {
    k.samples += 1;
    k.blockPasses += 1;
  }
  const end = plan.from + plan.steps;
  if ((s - plan.from) % unit !== 0 && s !== end) return false;
  if (unitSampled(c, plan, unit, s)) k.blockSubmits += 1;
  return k.blockSubmits > 0 && (s === end || k.blockSubmits >= perBlock);
}
