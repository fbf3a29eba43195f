// Minor garbage collections taken by every rank at the end of the same submit (issue 24). A rank's scavenge holds its
// exchange up, and so every rank's step; ranks whose young generations fill at about the same rate still scavenge a
// few steps apart, and their stalls add up: on the 4-rank wedge (4 x H200) each round of scavenges (15-24 ms each)
// made three steps of 25-47 ms instead of one, some 0.2 s of a 6.7 s loop. Every batch report carries the rank's
// young-generation fill; once one is over COLLECT_AT_FILL the orchestrator asks every rank to scavenge after the
// submit COLLECT_AFTER_SUBMITS later (the request has a submit's time to arrive), where the stalls overlap.

/** The fill of a rank's young generation (a fraction) past which every rank is asked to scavenge, by default. */
export const COLLECT_AT_FILL = 0.5;
/** Submits between the one whose reports call for a collection and the one after which the ranks collect. */
export const COLLECT_AFTER_SUBMITS = 2;

/** The orchestrator's planning of the collections from the ranks' batch reports. */
export class YoungCollections {
  /** The highest fill reported so far for a submit not merged yet, by submit index. */
  private readonly fills = new Map<number, number>();
  /** The submit after which the last requested collection happens (-1: none yet). */
  private plannedAfter = -1;

  /** atFill: the fill that calls for a collection (collectAtFillFromEnvironment). */
  constructor(private readonly atFill = COLLECT_AT_FILL) {}

  /** Notes one rank's young-generation fill at the end of submit `index` (absent from ranks that do not say). */
  note(index: number, fill: number | undefined): void {
    if (fill === undefined) return;
    this.fills.set(index, Math.max(this.fills.get(index) ?? 0, fill));
  }

  /**
   * After submit `index` was merged from every rank: the submit after which every rank scavenges, or null. The reports
   * up to the planned submit were made before that collection, so they call for none.
   */
  decide(index: number): number | null {
    const fill = this.fills.get(index) ?? 0;
    this.fills.delete(index);
    if (fill < this.atFill || index <= this.plannedAfter) return null;
    this.plannedAfter = index + COLLECT_AFTER_SUBMITS;
    return this.plannedAfter;
  }
}

/** The fill from DSMC_COLLECT_AT_FILL (a fraction above 0, at most 1), or the default; a clear error for a bad value. */
export function collectAtFillFromEnvironment(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.DSMC_COLLECT_AT_FILL;
  if (raw === undefined || raw === '') return COLLECT_AT_FILL;
  const f = Number(raw);
  if (!Number.isFinite(f) || f <= 0 || f > 1) {
    throw new Error(`DSMC_COLLECT_AT_FILL is ${JSON.stringify(raw)}: give the young generation's fill that makes every rank collect, above 0 and at most 1, or leave it unset for ${COLLECT_AT_FILL}`);
  }
  return f;
}
