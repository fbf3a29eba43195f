// Rank-to-rank data links: each rank binds one PULL socket and PUSHes to each peer's PULL. Received migrate
// messages are kept by step and sender, so a fast neighbour may run a step ahead; receive(step, from) returns
// when one message from each expected peer for that step is there.
import * as zmq from 'zeromq';
import { settleWithin } from './settle-within.js';
import { connectableAddress } from './endpoints.js';
import { MessageValidationError, TransportError, TransportTimeoutError, describeRanks } from './errors.js';
import { decodeMessage, encodeMessage, type Decoded, type Frame } from './message-codec.js';
import { RANK_TO_RANK, type MigrateMessage } from './messages.js';
import { SerialSender } from './serial-sender.js';

/** One received migrate message with its binary frames. */
export type PeerIncoming = Decoded<MigrateMessage>;

/** The one pending receive(). */
interface StepWaiter {
  step: number;
  from: number[];
  resolve: (got: Map<number, PeerIncoming>) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout | null;
}

export class PeerLinks {
  private readonly pushes = new Map<number, { socket: zmq.Push; sender: SerialSender }>();
  /** step -> sender rank -> message */
  private readonly arrived = new Map<number, Map<number, PeerIncoming>>();
  /** Every step below this was handed out already. */
  private nextStep = 0;
  private waiter: StepWaiter | null = null;
  private failure: Error | null = null;
  private readonly receiving: Promise<void>;
  private closed = false;

  private constructor(
    readonly rank: number,
    private readonly pull: zmq.Pull,
    /** Where peers connect to reach this rank. */
    readonly address: string,
    private readonly lingerMs: number,
  ) {
    this.receiving = this.receiveLoop();
  }

  /** Binds this rank's PULL socket at `bindAddress`. */
  static async bind(rank: number, bindAddress: string, lingerMs: number): Promise<PeerLinks> {
    const pull = new zmq.Pull({ linger: 0 });
    try {
      await pull.bind(bindAddress);
    } catch (e) {
      pull.close();
      throw new TransportError(`rank ${rank} could not listen for peers on ${bindAddress} (${(e as Error).message}): ` +
        'the address is taken or not on this host; for tcp give a host name of this machine');
    }
    return new PeerLinks(rank, pull, connectableAddress(pull.lastEndpoint ?? bindAddress), lingerMs);
  }

  /** Connects a PUSH socket to each peer in `peers` (rank -> address); already connected ranks are kept. */
  connect(peers: ReadonlyMap<number, string>): void {
    for (const [peer, address] of peers) {
      if (this.pushes.has(peer)) continue;
      // linger 0 until close() sets it: a rank that exits abruptly must not wait for peers that are gone
      const socket = new zmq.Push({ linger: 0 });
      socket.connect(address);
      this.pushes.set(peer, { socket, sender: new SerialSender(socket) });
    }
  }

  /** Sends a migrate message to `to` (from, to and frameBytes are filled in); payload frames are copied. */
  async send(to: number, header: { step: number; particles: number }, frames: readonly Frame[]): Promise<void> {
    const link = this.pushes.get(to);
    if (!link) {
      throw new TransportError(`rank ${this.rank} has no link to rank ${to}: it was not in the configure message's peers (connected: ${[...this.pushes.keys()].join(', ') || 'none'})`);
    }
    const message: MigrateMessage = {
      type: 'migrate', from: this.rank, to, step: header.step, particles: header.particles,
      frameBytes: frames.map((f) => f.byteLength),
    };
    await link.sender.send(encodeMessage(message, frames, `rank ${this.rank} (outgoing)`));
  }

  /** One message for `step` from each rank in `from`, by rank; the timeout error names the ranks still missing. */
  receive(step: number, from: readonly number[], timeoutMs: number): Promise<Map<number, PeerIncoming>> {
    if (this.waiter !== null) {
      return Promise.reject(new TransportError(`rank ${this.rank}: receiveFromPeers for step ${step} called while step ${this.waiter.step} is still awaited; await one exchange at a time`));
    }
    if (step < this.nextStep) {
      return Promise.reject(new TransportError(`rank ${this.rank}: receiveFromPeers for step ${step} after step ${this.nextStep - 1}; steps must increase`));
    }
    return new Promise((resolve, reject) => {
      const waiter: StepWaiter = { step, from: [...from], resolve, reject, timer: null };
      if (Number.isFinite(timeoutMs)) {
        waiter.timer = setTimeout(() => this.timeout(waiter, timeoutMs), Math.max(0, timeoutMs));
      }
      this.waiter = waiter;
      this.check();
    });
  }

  /** Fails the pending and every later receive() with `error` (a stop request, a closed channel). */
  fail(error: Error): void {
    if (this.failure === null) this.failure = error;
    this.check();
  }

  /** Closes the PULL and every PUSH socket; unsent data gets lingerMs (default: the one given to bind). */
  async close(lingerMs = this.lingerMs): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.fail(new TransportError(`rank ${this.rank}: the peer links were closed`));
    await settleWithin(Promise.all([...this.pushes.values()].map((l) => l.sender.drain())), lingerMs);
    for (const { socket } of this.pushes.values()) {
      socket.linger = lingerMs;
      socket.close();
    }
    this.pull.close();
    await this.receiving;
  }

  /** Reads the PULL socket until it closes. */
  private async receiveLoop(): Promise<void> {
    try {
      for await (const parts of this.pull) this.accept(parts);
    } catch (e) {
      if (!this.closed) this.fail(new TransportError(`rank ${this.rank}: the peer socket failed: ${(e as Error).message}`));
    }
  }

  /** Validates one peer message and files it under its step and sender. */
  private accept(parts: Buffer[]): void {
    try {
      const decoded = decodeMessage(parts, 'a peer rank', RANK_TO_RANK) as PeerIncoming;
      const m = decoded.message;
      const sender = `rank ${m.from}`;
      if (m.to !== this.rank) throw new MessageValidationError(sender, m.type, 'to', `is addressed to rank ${m.to} but reached rank ${this.rank}`);
      if (m.step < this.nextStep) {
        throw new MessageValidationError(sender, m.type, 'step', `step ${m.step} arrived after rank ${this.rank} finished exchanging step ${this.nextStep - 1} (sent late or twice)`);
      }
      let byRank = this.arrived.get(m.step);
      if (!byRank) this.arrived.set(m.step, (byRank = new Map()));
      if (byRank.has(m.from)) throw new MessageValidationError(sender, m.type, 'step', `sent two messages for step ${m.step}`);
      byRank.set(m.from, decoded);
    } catch (e) {
      if (this.failure === null) this.failure = e as Error;
    }
    this.check();
  }

  /** Settles the waiter when its step is complete or the links failed. */
  private check(): void {
    const w = this.waiter;
    if (w === null) return;
    if (this.failure !== null) {
      this.settle().reject(this.failure);
      return;
    }
    const byRank = this.arrived.get(w.step);
    if (!w.from.every((r) => byRank?.has(r))) return;
    const out = new Map(w.from.map((r) => [r, byRank!.get(r)!]));
    for (const r of w.from) byRank!.delete(r);
    const unexpected = [...(byRank?.keys() ?? [])];
    this.arrived.delete(w.step);
    this.nextStep = w.step + 1;
    if (unexpected.length > 0) {
      this.settle().reject(new TransportError(`rank ${this.rank}: step ${w.step} brought messages from ${describeRanks(unexpected)}, which were not expected (expected ${describeRanks(w.from)})`));
      return;
    }
    this.settle().resolve(out);
  }

  /** Rejects the waiter with a timeout naming the missing ranks. */
  private timeout(w: StepWaiter, timeoutMs: number): void {
    if (this.waiter !== w) return;
    const byRank = this.arrived.get(w.step);
    const missing = w.from.filter((r) => !byRank?.has(r));
    const got = w.from.filter((r) => byRank?.has(r));
    this.settle().reject(new TransportTimeoutError(
      `rank ${this.rank} waited ${timeoutMs} ms for the step ${w.step} exchange: nothing came from ${describeRanks(missing)}` +
        `${got.length > 0 ? ` (got ${describeRanks(got)})` : ''}; ` +
        'is that rank alive? (the supervisor reports crashed and hung ranks); allow more time for slow steps',
      missing,
    ));
  }

  /** Clears the waiter and its timer, returning it. */
  private settle(): StepWaiter {
    const w = this.waiter!;
    this.waiter = null;
    if (w.timer !== null) clearTimeout(w.timer);
    return w;
  }
}
