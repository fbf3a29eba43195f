// Minor garbage collections taken by every rank at the end of the same submit (issue 24). A rank's scavenge holds its
// exchange up, and so every rank's step; ranks whose young generations fill at about the same rate still scavenge a
// few steps apart, and their stalls add up: on the 4-rank wedge (4 x H200) each round of scavenges (15-24 ms each)
// made three steps of 25-47 ms instead of one, some 0.2 s of a 6.7 s loop. A scavenge costs about the same however
// full the young generation is (10-17 ms on that host at half full), so the ranks collect as late as they safely can:
// every batch report carries the rank's young-generation fill, and once the fill a rank would reach by the end of the
// submit after the planned one (its growth per submit so far) passes COLLECT_AT_FILL, the orchestrator asks every
// rank to scavenge after the submit COLLECT_AFTER_SUBMITS later (the request has a submit's time to arrive).

/** The projected fill of a rank's young generation (a fraction) at which every rank is asked to scavenge, by default. */
export const COLLECT_AT_FILL = 0.9;
/** Submits between the one whose reports call for a collection and the one after which the ranks collect. */
export const COLLECT_AFTER_SUBMITS = 2;

/**
 * What the young and the old planner (old-collections.ts) share: the highest projection the ranks reported for each
 * submit not merged yet, and the submit after which the last requested collection happens.
 */
export class CollectionPlan {
  private readonly projected = new Map<number, number>();
  /** The submit after which the last requested collection happens (-1: none yet). */
  lastPlanned = -1;

  /** Notes one rank's projection for submit `index` (the highest of the ranks' counts). */
  propose(index: number, value: number): void {
    this.projected.set(index, Math.max(this.projected.get(index) ?? 0, value));
  }

  /**
   * After submit `index` was merged from every rank: the submit COLLECT_AFTER_SUBMITS later, after which every rank
   * collects, when the highest projection reaches `threshold`; else null. The reports up to a planned submit were made
   * before that collection, so they call for none.
   */
  decide(index: number, threshold: number): number | null {
    const projected = this.projected.get(index) ?? 0;
    this.projected.delete(index);
    if (projected < threshold || index <= this.lastPlanned) return null;
    this.lastPlanned = index + COLLECT_AFTER_SUBMITS;
    return this.lastPlanned;
  }
}

/** The orchestrator's planning of the collections from the ranks' batch reports. */
export class YoungCollections {
  private readonly plan = new CollectionPlan();
  /** Each rank's last reported fill (its growth per submit is the difference to the next). */
  private readonly last = new Map<number, number>();

  /** atFill: the projected fill that calls for a collection (collectAtFillFromEnvironment). */
  constructor(private readonly atFill = COLLECT_AT_FILL) {}

  /**
   * Notes rank `rank`'s young-generation fill at the end of submit `index` (absent from ranks that do not say): what it
   * would reach one submit after a collection planned now, growing as it did over its last submit.
   */
  note(index: number, rank: number, fill: number | undefined): void {
    if (fill === undefined) return;
    const before = this.last.get(rank);
    this.last.set(rank, fill);
    // a fall is a collection (V8's own or a planned one): no growth known yet
    const growth = before !== undefined && fill >= before ? fill - before : 0;
    this.plan.propose(index, fill + (COLLECT_AFTER_SUBMITS + 1) * growth);
  }

  /**
   * After submit `index` was merged from every rank: the submit after which every rank scavenges, or null. The reports
   * up to the planned submit were made before that collection, so they call for none.
   */
  decide(index: number): number | null {
    return this.plan.decide(index, this.atFill);
  }
}

/** The fill from DSMC_COLLECT_AT_FILL (a fraction above 0, at most 1), or the default; a clear error for a bad value. */
export function collectAtFillFromEnvironment(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.DSMC_COLLECT_AT_FILL;
  if (raw === undefined || raw === '') return COLLECT_AT_FILL;
  const f = Number(raw);
  if (!Number.isFinite(f) || f <= 0 || f > 1) {
    throw new Error(`DSMC_COLLECT_AT_FILL is ${JSON.stringify(raw)}: give the projected young-generation fill that makes every rank collect, above 0 and at most 1, or leave it unset for ${COLLECT_AT_FILL}`);
  }
  return f;
}
