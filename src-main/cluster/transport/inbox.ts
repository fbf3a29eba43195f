// A queue of received items that readers take from selectively (by a predicate), with timeouts. Errors pushed
// into it (an invalid message) reach the first reader whatever its predicate; fail() makes every pending and later
// take() reject once the matching queued items are used up; close() ends it.
import { ChannelClosedError, TransportTimeoutError } from './errors.js';

/** One queued entry: a value or an error to hand to the next reader. */
type Entry<T> = { ok: true; value: T } | { ok: false; error: Error };

/** One pending take(). */
interface Waiter<T> {
  match: (value: T) => boolean;
  resolve: (value: T) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout | null;
}

export class Inbox<T> {
  private readonly entries: Entry<T>[] = [];
  private readonly waiters: Waiter<T>[] = [];
  private failure: Error | null = null;

  /** `closedMessage`: the text of the error a reader gets after close(). */
  constructor(private readonly closedMessage: string) {}

  /** Hands a value to the first waiter that wants it, or queues it. */
  push(value: T): void {
    const i = this.waiters.findIndex((w) => w.match(value));
    if (i >= 0) this.settle(i).resolve(value);
    else this.entries.push({ ok: true, value });
  }

  /** Hands an error to the first waiter, or queues it for the next take(). */
  pushError(error: Error): void {
    if (this.waiters.length > 0) this.settle(0).reject(error);
    else this.entries.push({ ok: false, error });
  }

  /** The first queued value matching `match` (queued errors first), waiting up to timeoutMs (Infinity: no limit). */
  take(match: (value: T) => boolean, timeoutMs: number, onTimeout: () => Error): Promise<T> {
    const i = this.entries.findIndex((e) => !e.ok || match(e.value));
    if (i >= 0) {
      const [entry] = this.entries.splice(i, 1);
      return entry.ok ? Promise.resolve(entry.value) : Promise.reject(entry.error);
    }
    if (this.failure !== null) return Promise.reject(this.failure);
    return new Promise<T>((resolve, reject) => {
      const waiter: Waiter<T> = { match, resolve, reject, timer: null };
      if (Number.isFinite(timeoutMs)) {
        waiter.timer = setTimeout(() => {
          const at = this.waiters.indexOf(waiter);
          if (at >= 0) this.settle(at).reject(onTimeout());
        }, Math.max(0, timeoutMs));
      }
      this.waiters.push(waiter);
    });
  }

  /** Rejects every pending and later take() (once matching queued values are used up) with `error`. */
  fail(error: Error): void {
    if (this.failure === null) this.failure = error;
    while (this.waiters.length > 0) this.settle(0).reject(this.failure);
  }

  /** Ends the inbox: pending and later take() calls reject with ChannelClosedError. */
  close(): void {
    this.fail(new ChannelClosedError(this.closedMessage));
  }

  /** True once fail() or close() was called. */
  get ended(): boolean {
    return this.failure !== null;
  }

  /** Number of queued entries (values and errors). */
  get size(): number {
    return this.entries.length;
  }

  /** Removes waiter i and clears its timer. */
  private settle(i: number): Waiter<T> {
    const [w] = this.waiters.splice(i, 1);
    if (w.timer !== null) clearTimeout(w.timer);
    return w;
  }
}

/** A TransportTimeoutError factory for take(). */
export function timeoutError(message: string, missingRanks: number[] = []): () => Error {
  return () => new TransportTimeoutError(message, missingRanks);
}
