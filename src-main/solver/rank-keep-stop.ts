// A rank's part of "stop and keep" in a multi-rank run: every rank must end its loop after the SAME submit (they
// exchange migrants every step: a rank that stopped alone would leave the others waiting for its migrants forever),
// then report `done` with its sampling state as at a normal end. The orchestrator's part is
// ../cluster/orchestrator/stop-and-keep.ts; the messages are keep-request, keep-point and keep-at (messages.ts).
//
// The protocol, with submits numbered from 0 in the order every rank runs them:
//  1. The orchestrator sends keep-request to every rank.
//  2. A rank answers AT ONCE, from the message handler (wherever its loop is: recording, waiting for a peer's
//     migrants, waiting for a balancing decision), with keep-point p_r = the number of the submit in progress or
//     about to start (the submits whose onBatch has begun: `entered`). From then on it does not start submit p_r + 1
//     before the decision: it waits at the end of its onBatch(p_r).
//  3. The orchestrator, once it has every p_r, sends keep-at K = max_r p_r to every rank.
//  4. Every rank runs through submit K and ends its loop there (its signal aborts after onBatch(K); the loop breaks at
//     the next submit boundary, LoopOptions.keepOnStop).
// Why no rank stops at another submit: rank r has begun at most p_r + 1 submits (0..p_r) when it answers and begins
// no other before the decision, so every rank's onBatch(K) is still ahead of it or is where it waits (p_r <= K); each
// runs exactly submits 0..K and no other. Why nothing hangs: the answers of step 2 need no progress of any other rank
// (an event handler answers while the loop waits), so the orchestrator always gets all of them; until the decision, a
// rank can wait only for migrants of a submit <= p_s + 1 of a rank s that holds at p_s (when p_r > p_s), which
// the decision releases (s runs on to K); after the decision the ranks run submits ..K together like a run whose
// last submit is K, which a normal run shows cannot hang. A K past the loop's last submit means the ranks simply
// finish (the request came too late to shorten the run). test/cluster/keep-stop-protocol.test.ts checks this under
// random schedules; test/cluster/multi-rank-keep.test.ts on real rank processes.

/** How a rank's loop learns when to stop and keep; `signal` goes to Simulation.run with keepOnStop. */
export class RankKeepStop {
  private readonly controller = new AbortController();
  /** Aborted after the onBatch of the agreed last submit: the loop ends at its next submit boundary and keeps what it ran. */
  readonly signal = this.controller.signal;
  /** Submits whose onBatch has begun. */
  private entered = 0;
  /** The keep-point this rank answered (it waits at the end of that submit's onBatch), or null before a request. */
  private holdAt: number | null = null;
  /** The agreed last submit (keep-at), or null before the decision. */
  private lastSubmit: number | null = null;
  private decided: () => void = () => undefined;
  private readonly decision = new Promise<void>((resolve) => { this.decided = resolve; });

  /**
   * reply: sends keep-point with the submit number (failures are ignored: the orchestrator then fails the run);
   * stopped: the hard stop (the orchestrator's `stop`): a rank waiting for the decision gives up with its reason.
   */
  constructor(private readonly reply: (index: number) => Promise<void>, private readonly stopped?: AbortSignal) {}

  /** keep-request arrived: answer with the submit in progress or about to start, and hold after it (once). */
  request(): void {
    if (this.holdAt !== null) return;
    this.holdAt = this.entered;
    void this.reply(this.holdAt).catch(() => undefined);
  }

  /** keep-at arrived: the last submit every rank runs. */
  decide(index: number): void {
    if (this.lastSubmit !== null) return;
    this.lastSubmit = index;
    this.decided();
  }

  /** Call first thing in onBatch: the number of this submit (0, 1, ...). */
  begin(): number {
    return this.entered++;
  }

  /** Call last thing in onBatch(k): waits for the decision at the hold point, and aborts `signal` when k is the agreed last submit. */
  async end(k: number): Promise<void> {
    if (this.lastSubmit === null && this.holdAt !== null && k >= this.holdAt) await this.waitForDecision();
    if (this.lastSubmit !== null && k >= this.lastSubmit) this.controller.abort();
  }

  /** The decision, or the hard stop's error. */
  private waitForDecision(): Promise<void> {
    const stop = this.stopped;
    if (!stop) return this.decision;
    if (stop.aborted) return Promise.reject(stop.reason);
    return new Promise<void>((resolve, reject) => {
      const onStop = () => reject(stop.reason);
      stop.addEventListener('abort', onStop, { once: true });
      void this.decision.then(() => { stop.removeEventListener('abort', onStop); resolve(); });
    });
  }
}
