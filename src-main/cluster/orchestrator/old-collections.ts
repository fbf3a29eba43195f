// Major garbage collections taken by every rank at the end of the same submit (issue 24), as young-collections.ts does
// for minor ones. The `webgpu` binding allocates a native function on every poll for finished GPU work
// (solver/gpu/poll-pacing.ts), which V8 puts in the old generation (some 25 KB a step). By default V8 collected it after
// some 10 MB, every few hundred steps, in a pause of 13-18 ms on an H200 host at a step of its choosing, while every
// other rank waited for that rank's migrants: on the full-size wedge on 2 x H200 (1500 steps), five such pauses on the
// two ranks made steps of 25-49 ms. Rank processes now start with an old generation of RANK_OLD_SPACE_MB
// (run-distributed.ts), so that V8 leaves it alone for thousands of steps, and every batch report carries the rank's
// old-generation bytes: once the growth a rank would reach since its last major collection by the end of the submit
// after the planned one passes the budget, the orchestrator asks every rank to collect after the submit
// COLLECT_AFTER_SUBMITS later, one pause for all ranks at a submit's end (a full collection's pause grows with what
// lives, some 12 MB, not with the garbage).
//
// V8's own threshold is not exposed. The budget starts at DEFAULT_OLD_BUDGET_BYTES, and a collection V8 takes on its
// own (old bytes that fall where none was planned) lowers it to LEARNED_SHARE of the growth that rank had reached by
// its report before: V8 collected after that growth, so a budget below it comes first.
import { COLLECT_AFTER_SUBMITS, CollectionPlan } from './young-collections.js';

/** The old generation (MB) a rank process starts with (--initial-old-space-size): V8 does not collect it below that. */
export const RANK_OLD_SPACE_MB = 512;
/** Growth of a rank's old generation since its last major collection (bytes) at which every rank collects, at first. */
export const DEFAULT_OLD_BUDGET_BYTES = (RANK_OLD_SPACE_MB / 2) * 2 ** 20;
/** The share of the growth before a collection V8 took on its own that the budget becomes. */
export const LEARNED_SHARE = 0.8;
/** The smallest budget learning makes (a collection every few submits would cost more than the pauses it spares). */
export const MIN_OLD_BUDGET_BYTES = 2 * 2 ** 20;

/** What the planner keeps of one rank. */
interface RankOld {
  /** Old bytes after its last major collection (its first report before any). */
  base: number;
  /** Old bytes at its last report. */
  last: number;
  /** Growth over its last submit (bytes; 0 after a collection). */
  growth: number;
}

/** The orchestrator's planning of the major collections from the ranks' batch reports. */
export class OldCollections {
  private readonly ranks = new Map<number, RankOld>();
  private readonly plan = new CollectionPlan();

  constructor(private budgetBytes = DEFAULT_OLD_BUDGET_BYTES) {}

  /** The growth since a rank's last major collection at which every rank is asked to collect now. */
  get budget(): number {
    return this.budgetBytes;
  }

  /**
   * Notes rank `rank`'s old-generation bytes at the end of submit `index` (absent from ranks that do not say): the
   * growth since its last major collection it would reach one submit after a collection planned now.
   */
  note(index: number, rank: number, bytes: number | undefined): void {
    if (bytes === undefined) return;
    const r = this.ranks.get(rank);
    if (!r) {
      this.ranks.set(rank, { base: bytes, last: bytes, growth: 0 });
      return;
    }
    if (bytes < r.last) {
      // a major collection since its last report: the planned one (taken before this report; none is planned again
      // until it is done), or V8's own after the growth of that report, which the budget must stay below
      if (index !== this.plan.lastPlanned) this.budgetBytes = Math.min(this.budgetBytes, Math.max(MIN_OLD_BUDGET_BYTES, LEARNED_SHARE * (r.last - r.base)));
      r.base = bytes;
      r.growth = 0;
    } else {
      r.growth = bytes - r.last;
    }
    r.last = bytes;
    this.plan.propose(index, r.last - r.base + (COLLECT_AFTER_SUBMITS + 1) * r.growth);
  }

  /**
   * After submit `index` was merged from every rank: the submit after which every rank takes a major collection, or
   * null. The reports up to the planned submit were made before that collection, so they call for none.
   */
  decide(index: number): number | null {
    return this.plan.decide(index, this.budgetBytes);
  }
}

/**
 * The planner a run's environment asks for: none with DSMC_OLD_COLLECTIONS=0 (each rank's V8 collects its old generation
 * on its own: for measuring without), else one whose first budget is DSMC_OLD_BUDGET_MB megabytes (default
 * DEFAULT_OLD_BUDGET_BYTES); a clear error for a bad value.
 */
export function oldCollectionsFromEnvironment(env: NodeJS.ProcessEnv = process.env): OldCollections | null {
  const on = env.DSMC_OLD_COLLECTIONS;
  if (on !== undefined && on !== '' && on !== '0' && on !== '1') {
    throw new Error(`DSMC_OLD_COLLECTIONS is ${JSON.stringify(on)}: give 0 (each rank's V8 collects its old generation on its own) or 1 (the ranks collect together, the default), or leave it unset`);
  }
  if (on === '0') return null;
  const raw = env.DSMC_OLD_BUDGET_MB;
  if (raw === undefined || raw === '') return new OldCollections();
  const mb = Number(raw);
  if (!Number.isFinite(mb) || mb <= 0 || mb > 4096) {
    throw new Error(`DSMC_OLD_BUDGET_MB is ${JSON.stringify(raw)}: give the growth of a rank's old generation (megabytes, above 0, at most 4096) after which every rank collects it, or leave it unset for ${DEFAULT_OLD_BUDGET_BYTES / 2 ** 20}`);
  }
  return new OldCollections(mb * 2 ** 20);
}
