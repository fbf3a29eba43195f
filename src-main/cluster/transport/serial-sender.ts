// zeromq allows one send() in flight per socket (a second one fails with EBUSY while the first waits):
// this queues sends on one socket so timers (heartbeats) and the caller can send at the same time.
import type { Writable } from 'zeromq';

export class SerialSender {
  private tail: Promise<unknown> = Promise.resolve();

  constructor(private readonly socket: Writable) {}

  /** Sends one multipart message after every earlier one; resolves when zeromq has queued it. */
  send(parts: Array<Uint8Array | string>): Promise<void> {
    const next = this.tail.then(() => this.socket.send(parts));
    this.tail = next.catch(() => undefined);
    return next;
  }

  /** Resolves when every send queued so far has finished (successfully or not). */
  drain(): Promise<void> {
    return this.tail.then(() => undefined);
  }
}
