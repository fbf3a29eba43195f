// A rank's batch reports sent off its loop's critical path: encoding a report and handing it to zeromq took about 5 ms
// of every rank's time at each submit's end on 2 x H200 (the GPUs idle meanwhile, the next submit not yet recorded).
// A report deferred here goes out at the next turn of the event loop, which comes as soon as the loop waits for its
// GPU; reports keep their order, and a failed send fails the run at the rank's next wait on settled() (nothing queued after
// it is sent).

/** Sends queued to run later, one after another, whose failure surfaces at settled(). */
export class DeferredSends {
  private pending: Promise<void> = Promise.resolve();

  /** Runs `send` at a later turn of the event loop, after every send queued before it. */
  later(send: () => Promise<void>): void {
    const before = this.pending;
    this.pending = new Promise<void>((resolve, reject) => {
      setImmediate(() => { before.then(send).then(resolve, reject); });
    });
    // handled here so that a failure waits for settled() instead of ending the process as an unhandled rejection
    this.pending.catch(() => undefined);
  }

  /** Resolves once every send queued so far went out; rejects with the first failure. */
  settled(): Promise<void> {
    return this.pending;
  }
}
