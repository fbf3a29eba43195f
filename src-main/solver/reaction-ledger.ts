// The host's account of a reacting run (one rank): how many times each reaction happened (read back after every
// submit from the stats buffer's tallies, which are then cleared), and how many particles the dissociations make per
// step, which sizes the particle and product buffers ahead of each submit.
import { REACTION_WORDS, STATS } from './gpu/struct-layouts.js';
import type { ReactionTables } from './reaction-tables.js';
import type { StepStats } from './loop-types.js';

export class ReactionLedger {
  /** Reactions of each kind so far (the case's reaction order). */
  readonly counts: number[];
  /** Products of the last step read back: the last live particles, not yet in their cells' counts (until the next sort). */
  pending = 0;
  /** The most products one step made so far (measured), and the Arrhenius estimate the run started with. */
  private measuredPerStep = 0;
  private readonly estimatedPerStep: number;

  constructor(readonly tables: ReactionTables, counts?: readonly number[]) {
    this.counts = tables.reactions.map((_, k) => counts?.[k] ?? 0);
    this.estimatedPerStep = tables.productsPerStep;
  }

  /** The counts a checkpoint's loop history keeps. */
  history(): { reactionCounts: number[] } {
    return { reactionCounts: [...this.counts] };
  }

  /** Takes the counts a checkpoint kept (a resumed run continues them). */
  restore(counts: readonly number[]): void {
    for (let k = 0; k < this.counts.length; k++) this.counts[k] = counts[k] ?? 0;
  }

  /** First byte of the submit's tallies in the stats buffer (cleared after each read). */
  tallyOffset(statsRing: number): number {
    return 4 * (STATS.WORDS * statsRing + REACTION_WORDS.RUN_TALLY);
  }

  /** Adds a submit's tallies (the stats buffer as read back) and its steps' products to the account. */
  absorb(stats: Uint32Array, statsRing: number, steps: readonly StepStats[]): void {
    const at = STATS.WORDS * statsRing + REACTION_WORDS.RUN_TALLY;
    for (let k = 0; k < this.counts.length; k++) this.counts[k] += stats[at + k];
    for (const s of steps) this.measuredPerStep = Math.max(this.measuredPerStep, s.products ?? 0);
    this.pending = steps.at(-1)?.products ?? this.pending;
  }

  /**
   * Products to make room for in `steps` steps: twice the most one step made so far or the starting estimate, whichever
   * is larger, per step, plus 10 standard deviations and 1024 (a step's products are Poisson counts; a hot start makes
   * the most).
   */
  room(steps: number): number {
    if (!this.tables.dissociates) return 0;
    const m = steps * Math.max(2 * this.measuredPerStep, this.estimatedPerStep);
    return Math.ceil(m + 10 * Math.sqrt(m) + 1024);
  }

  /** The run summary's reaction counts: each reaction's equation and count. */
  summary(): { equation: string; kind: string; count: number }[] {
    return this.tables.reactions.map((r, k) => ({ equation: r.equation, kind: r.kind, count: this.counts[k] }));
  }
}
