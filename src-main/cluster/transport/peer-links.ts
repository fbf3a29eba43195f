// Rank-to-rank data links: each rank binds one PULL socket and PUSHes to each peer's PULL. Received migrate
// messages are kept by step and sender, so a fast neighbour may run a step ahead; receive(step, from) returns
// when one message from each expected peer for that step is there. With a peer folder (useFolder: every rank on
// this host) payloads travel through files and zeromq carries only the header (peer-files.ts says why that is
// safe with two file slots per link); the frames a receive() hands out are then views of reused landing buffers,
// valid until this rank's next send() to their sender.
import * as zmq from 'zeromq';
import { settleWithin } from './settle-within.js';
import { connectableAddress } from './endpoints.js';
import { MessageValidationError, TransportError, TransportTimeoutError, describeRanks } from './errors.js';
import { decodeMessage, encodeMessage, type Decoded, type Frame } from './message-codec.js';
import { RANK_TO_RANK, type MigrateMessage } from './messages.js';
import { LandingFiles, OutgoingFiles, PEER_FILE_SLOTS } from './peer-files.js';
import { SerialSender } from './serial-sender.js';

/** Which message of each link prepare() readies: the next, or (files only) both slots. */
export type PrepareSlots = 'next' | 'both';

/** One received migrate message with its binary frames. */
export type PeerIncoming = Decoded<MigrateMessage>;

/** Message bookkeeping of this rank with one peer, both directions. */
interface LinkState {
  /** Messages sent to the peer (the next one's seq). */
  sent: number;
  /** The peer's latest ack: how many of this rank's messages (seq 0..acked-1) it handed to its caller before its last send here. */
  acked: number;
  /** The largest ack this rank sent to the peer (a file message must not come before the ack that frees its slot). */
  ackSent: number;
  /** Messages accepted from the peer (the next one's expected seq). */
  accepted: number;
  /** The peer's messages handed out by receive(), as a gapless prefix of seqs... */
  delivered: number;
  /** ...and the ones handed out beyond it (steps may be received in another order than they were sent). */
  deliveredAhead: Set<number>;
  /** The files of the link to the peer (null: no peer folder, or writing failed and the link went back to frames). */
  files: OutgoingFiles | null;
  /** Writing a file failed once: this link's payloads go through zeromq from then on. */
  filesFailed: boolean;
}

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
  /** Called with every accepted message as it arrives (before receive() hands it out). */
  private watcher: ((m: PeerIncoming) => void) | null = null;
  private failure: Error | null = null;
  private readonly receiving: Promise<void>;
  private closed = false;
  private readonly links = new Map<number, LinkState>();
  /** The run's peer folder (same-host fast path), null when payloads go through zeromq. */
  private folder: string | null = null;
  private landing: LandingFiles | null = null;
  /** Where the next message of a peer is read instead of a landing buffer (landNextInto): its seq and the bytes. */
  private readonly landTargets = new Map<number, { seq: number; target: Uint8Array }>();
  /** Migrate messages sent so far, by how their payload went (through a file, or zeromq frames). */
  readonly sentVia = { files: 0, frames: 0 };

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

  /** The run's peer folder (every rank on the orchestrator's host), null when payloads go through zeromq. */
  get folderPath(): string | null {
    return this.folder;
  }

  /** Sends payloads to peers through files in `folder` (every rank on this host; see peer-files.ts) from now on. */
  useFolder(folder: string): void {
    if (this.folder !== null) {
      if (this.folder === folder) return;
      throw new TransportError(`rank ${this.rank}: the peer folder was ${this.folder} and is now said to be ${folder}; a run has one peer folder, configure once`);
    }
    this.folder = folder;
    this.landing = new LandingFiles(folder, this.rank);
  }

  /**
   * Sends a migrate message to `to` (from, to, frameBytes, seq and ack are filled in); payload frames are copied
   * (into zeromq frames, or into the link's file slot) before it returns, so buffers may be reused at once. Sending
   * to `to` also releases the frames of every message received from `to` so far (see receive()).
   */
  async send(to: number, header: { step: number; particles: number }, frames: readonly Frame[]): Promise<void> {
    const link = this.pushes.get(to);
    if (!link) {
      throw new TransportError(`rank ${this.rank} has no link to rank ${to}: it was not in the configure message's peers (connected: ${[...this.pushes.keys()].join(', ') || 'none'})`);
    }
    const state = this.link(to);
    const seq = state.sent++;
    const ack = state.delivered;
    state.ackSent = Math.max(state.ackSent, ack);
    const message: MigrateMessage = {
      type: 'migrate', from: this.rank, to, step: header.step, particles: header.particles,
      frameBytes: frames.map((f) => f.byteLength), seq, ack,
    };
    const sender = `rank ${this.rank} (outgoing)`;
    // a message that would reach into zeros a prefault is still writing there waits for them (prepare())
    const pending = state.files?.pendingFor(seq % PEER_FILE_SLOTS, frames.reduce((sum, f) => sum + f.byteLength, 0));
    if (pending) await pending;
    const viaFile = this.writeFile(state, to, seq, frames);
    const parts = viaFile
      ? encodeMessage({ ...message, file: { slot: seq % PEER_FILE_SLOTS === 0 ? 0 : 1 } }, [], sender)
      : encodeMessage(message, frames, sender);
    this.sentVia[viaFile ? 'files' : 'frames']++;
    await link.sender.send(parts);
  }

  /**
   * Writes message `seq` to `to` into its file slot when the link has files and the peer has released the slot's
   * previous message (acked >= seq - 1); false means: send the frames through zeromq. A failed write (a full
   * /dev/shm) warns once and turns the link's files off.
   */
  private writeFile(state: LinkState, to: number, seq: number, frames: readonly Frame[]): boolean {
    if (this.folder === null || state.filesFailed || seq - state.acked > PEER_FILE_SLOTS - 1) return false;
    state.files ??= new OutgoingFiles(this.folder, this.rank, to);
    try {
      state.files.write(seq % PEER_FILE_SLOTS, frames.map(bytesOf));
      return true;
    } catch (e) {
      state.filesFailed = true;
      state.files.close();
      process.emitWarning(`rank ${this.rank}: migrants for rank ${to} now go through zeromq (slower): writing them to ${this.folder} failed ` +
        `(${(e as Error).message}); give /dev/shm more room (docker: --shm-size) or set DSMC_PEER_SHM=0`);
      return false;
    }
  }

  /**
   * Readies the links for one big exchange known ahead (a relayout's): the file of each peer's message holds
   * sendBytes[p] and the landing buffer of each peer's message receiveBytes[p], their pages taken by the thread pool
   * (this thread goes on; a message that needs them waits for them). A failed prefault turns nothing off (the send
   * decides). `slots` says which message: 'next' (only where it will go through a file: a link without files, or
   * whose slot is not yet released, is left alone); 'both', the files of both slots of every link, for a big exchange
   * some messages away (a relayout announced while the steps before it still exchange), and no landing buffer:
   * hundreds of megabytes of new pages taken in a rank's process mid-submit made V8's full collections take 110-120 ms
   * on an H200 host (docs/PERFORMANCE.md), which stalls the steps. A slot whose message the peer has not released yet
   * is only grown past its end (zeros after what it holds: the peer reads no further than the message).
   */
  prepare(sendBytes: ReadonlyMap<number, number>, receiveBytes: ReadonlyMap<number, number>, slots: PrepareSlots = 'next'): void {
    if (this.folder === null) return;
    for (const [to, bytes] of sendBytes) {
      const state = this.link(to);
      if (bytes === 0 || state.filesFailed || (slots === 'next' && state.sent - state.acked > PEER_FILE_SLOTS - 1)) continue;
      state.files ??= new OutgoingFiles(this.folder, this.rank, to);
      for (const slot of slots === 'both' ? [0, 1] : [state.sent % PEER_FILE_SLOTS]) {
        try {
          state.files.prefault(slot, bytes);
        } catch {
          // the send writes (or falls back to frames) as ever
        }
      }
    }
    if (slots === 'both') return;
    // the peer's next message to come out of receive() (one of it may have arrived already: not `accepted`)
    for (const [from, bytes] of receiveBytes) if (bytes > 0) this.landing?.prefault(from, this.link(from).delivered % PEER_FILE_SLOTS, bytes);
  }

  /**
   * The next message to come out of receive() from each peer in `targets` is read from its file into that peer's
   * target (a relayout's arrivals straight into mapped upload memory: no landing buffer's pages, no copy) when its
   * payload fits; otherwise into the landing buffer as ever. Its frames are then views of the target.
   */
  landNextInto(targets: ReadonlyMap<number, Uint8Array>): void {
    for (const [from, target] of targets) this.landTargets.set(from, { seq: this.link(from).delivered, target });
  }

  /** When every prefault prepare() started is done (tests; the sends and reads wait for what they need by themselves). */
  async prepared(): Promise<void> {
    await Promise.all([...this.links.values()].map((s) => s.files?.settled()));
    await this.landing?.settled();
  }

  /** The bookkeeping of the link with `peer`, made on first use. */
  private link(peer: number): LinkState {
    let state = this.links.get(peer);
    if (!state) {
      state = { sent: 0, acked: 0, ackSent: 0, accepted: 0, delivered: 0, deliveredAhead: new Set(), files: null, filesFailed: false };
      this.links.set(peer, state);
    }
    return state;
  }

  /**
   * One message for `step` from each rank in `from`, by rank; the timeout error names the ranks still missing.
   * The frames of a message from rank p are valid until this rank's next send() to p (they may be views of a
   * landing buffer that p's later messages reuse): use or copy them before.
   */
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

  /**
   * Calls `watch` with every peer message as it arrives, possibly a step ahead of receive() (work on one peer's
   * payload overlaps waiting for the others); an exception from it fails the links like a bad message.
   */
  watch(watch: ((m: PeerIncoming) => void) | null): void {
    this.watcher = watch;
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
    for (const state of this.links.values()) state.files?.close();
    this.landing?.close();
  }

  /** Reads the PULL socket until it closes. */
  private async receiveLoop(): Promise<void> {
    try {
      for await (const parts of this.pull) await this.accept(parts);
    } catch (e) {
      if (!this.closed) this.fail(new TransportError(`rank ${this.rank}: the peer socket failed: ${(e as Error).message}`));
    }
  }

  /**
   * Validates one peer message, reads its payload file if it has one (once the landing buffer readied for it has its
   * pages, prepare()), and files it under its step and sender.
   */
  private async accept(parts: Buffer[]): Promise<void> {
    try {
      const decoded = decodeMessage(parts, 'a peer rank', RANK_TO_RANK) as PeerIncoming;
      const m = decoded.message;
      const sender = `rank ${m.from}`;
      if (m.to !== this.rank) throw new MessageValidationError(sender, m.type, 'to', `is addressed to rank ${m.to} but reached rank ${this.rank}`);
      if (m.step < this.nextStep) {
        throw new MessageValidationError(sender, m.type, 'step', `step ${m.step} arrived after rank ${this.rank} finished exchanging step ${this.nextStep - 1} (sent late or twice)`);
      }
      if (this.arrived.get(m.step)?.has(m.from)) throw new MessageValidationError(sender, m.type, 'step', `sent two messages for step ${m.step}`);
      this.track(m);
      const total = m.frameBytes.reduce((sum, n) => sum + n, 0);
      const wanted = this.landTargets.get(m.from);
      if (wanted && m.seq !== undefined && m.seq >= wanted.seq) this.landTargets.delete(m.from);
      const into = wanted && m.seq === wanted.seq && total <= wanted.target.byteLength ? wanted.target : undefined;
      if (m.file !== undefined) {
        const pending = into ? null : this.landing!.pendingFor(m.from, m.file.slot, total);
        if (pending) await pending;
        decoded.frames = this.landing!.read(m.from, m.file.slot, m.frameBytes, m.step, into);
      }
      let byRank = this.arrived.get(m.step);
      if (!byRank) this.arrived.set(m.step, (byRank = new Map()));
      byRank.set(m.from, decoded);
      this.watcher?.(decoded);
    } catch (e) {
      if (this.failure === null) this.failure = e as Error;
    }
    this.check();
  }

  /** Checks a message's seq, ack and file slot against the link's bookkeeping and records them. */
  private track(m: MigrateMessage): void {
    const sender = `rank ${m.from}`;
    const state = this.link(m.from);
    if (m.seq !== undefined) {
      if (m.seq !== state.accepted) throw new MessageValidationError(sender, m.type, 'seq', `is ${m.seq} but message ${state.accepted} of its link to rank ${this.rank} was due (lost or reordered)`);
      state.accepted++;
    }
    if (m.ack !== undefined) {
      if (m.ack > state.sent) throw new MessageValidationError(sender, m.type, 'ack', `acknowledges ${m.ack} messages but rank ${this.rank} sent it only ${state.sent}`);
      state.acked = Math.max(state.acked, m.ack);
    }
    if (m.file === undefined) return;
    if (this.landing === null) {
      throw new TransportError(`rank ${this.rank}: rank ${m.from} sent step ${m.step} migrants through a file, but this rank was given no peer folder; ` +
        'every rank of a run must get the same configure message (run every process from the same build)');
    }
    const seq = m.seq as number; // the codec requires seq with file
    if (seq >= PEER_FILE_SLOTS && state.ackSent < seq - (PEER_FILE_SLOTS - 1)) {
      throw new MessageValidationError(sender, m.type, 'file', `reuses file slot ${m.file.slot} for message ${seq} before rank ${this.rank} released message ${seq - PEER_FILE_SLOTS} (it acknowledged ${state.ackSent})`);
    }
  }

  /** Records that the message from `from` was handed out (advances the gapless prefix acknowledged in later sends). */
  private delivered(from: number, m: MigrateMessage): void {
    if (m.seq === undefined) return;
    const state = this.link(from);
    state.deliveredAhead.add(m.seq);
    while (state.deliveredAhead.delete(state.delivered)) state.delivered++;
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
    for (const [r, m] of out) {
      byRank!.delete(r);
      this.delivered(r, m.message);
    }
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

/** The bytes of a payload as a Uint8Array view (no copy). */
function bytesOf(frame: Frame): Uint8Array {
  return frame instanceof ArrayBuffer ? new Uint8Array(frame) : new Uint8Array(frame.buffer, frame.byteOffset, frame.byteLength);
}
