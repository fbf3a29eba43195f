// The orchestrator's part of "stop and keep" in a multi-rank run: on the user's stop it asks every rank for the
// submit it will hold after (keep-request -> keep-point), and answers every rank with the largest (keep-at), the
// submit after which all of them end their loops and report `done` as at a normal end. The protocol and why no rank
// can stop at another submit, or hang, are in ../../solver/rank-keep-stop.ts (the ranks' part).
import type { OrchestratorChannel } from '../transport/orchestrator-channel.js';

/** The submit every rank runs last: the largest of the ranks' keep-points (each rank has begun no submit after its own). */
export function keepDecision(points: readonly number[]): number {
  if (points.length === 0) throw new Error('internal: a stop-and-keep decision without any rank\'s keep-point');
  return Math.max(...points);
}

export class StopAndKeep {
  private requested = false;
  private readonly points = new Map<number, number>();
  private allPoints: () => void = () => undefined;
  private readonly everyPoint = new Promise<void>((resolve) => { this.allPoints = resolve; });
  private readonly unsubscribe: () => void;
  /** The agreed last submit once decided (null before). */
  lastSubmit: number | null = null;

  /** onFailure: the request or the decision could not be sent (the run then fails through the ranks' outcome). */
  constructor(private readonly channel: OrchestratorChannel, private readonly ranks: readonly number[], private readonly onFailure: (e: unknown) => void = () => undefined) {
    this.unsubscribe = channel.on('keep-point', (m) => {
      if (!this.points.has(m.rank)) this.points.set(m.rank, m.message.index);
      if (this.points.size === this.ranks.length) this.allPoints();
    });
  }

  /** True once the user asked to stop and keep. */
  get wanted(): boolean {
    return this.requested;
  }

  /**
   * The user's stop: starts the agreement (once; the caller asks only after every rank got `configure`, from when
   * its keep handlers are installed; a stop before that cancels the run instead).
   */
  request(): void {
    if (this.requested) return;
    this.requested = true;
    this.agree().catch((e: unknown) => this.onFailure(e));
  }

  /** Stops listening (the run ended). */
  close(): void {
    this.unsubscribe();
  }

  /** keep-request to every rank, every keep-point back, keep-at with the decision to every rank. */
  private async agree(): Promise<void> {
    await Promise.all(this.ranks.map((r) => this.channel.send(r, { type: 'keep-request' })));
    await this.everyPoint;
    const last = keepDecision(this.ranks.map((r) => this.points.get(r)!));
    this.lastSubmit = last;
    await Promise.all(this.ranks.map((r) => this.channel.send(r, { type: 'keep-at', index: last })));
  }
}
