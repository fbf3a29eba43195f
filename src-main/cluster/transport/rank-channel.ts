// A rank's end of the transport: a DEALER (routing id 'rank-N') connected to the orchestrator's ROUTER, a
// heartbeat timer on it, and the peer links (PULL bound here, PUSH to each peer) for rank-to-rank data.
// A `stop` from the orchestrator aborts `stopSignal` and makes pending and later receives reject with
// StopRequestedError, so a rank loop can end cleanly wherever it waits.
import { hostname } from 'node:os';
import * as zmq from 'zeromq';
import { StopRequestedError, TransportError, TransportTimeoutError } from './errors.js';
import { HandlerTable } from './handler-table.js';
import { Inbox } from './inbox.js';
import { UNCHECKED_OUTGOING, decodeMessage, encodeMessage, type Decoded, type Frame } from './message-codec.js';
import {
  ORCHESTRATOR_TO_RANK, type AdapterInfo, type ConfigureMessage, type MessageOf, type OrchestratorToRankMessage,
  type RankToOrchestratorMessage,
} from './messages.js';
import { PeerLinks, type PeerIncoming, type PrepareSlots } from './peer-links.js';
import { readRankEnvironment, type RankEnvironment } from './rank-environment.js';
import { rankIdentity } from './rank-identity.js';
import { SerialSender } from './serial-sender.js';
import { settleWithin } from './settle-within.js';

/** Linger of the peer sockets when closing after a stop: long enough for libzmq to finish in-flight
 * frames (with 0 it can abort on a session assertion, EAGAIN in session_base.cpp), short enough for a quick cancel. */
const STOP_LINGER_MS = 100;

type OrchestratorKind = OrchestratorToRankMessage['type'];
/** A rank message as the caller writes it: `rank` is filled in. */
type Outgoing = RankToOrchestratorMessage extends infer M ? (M extends RankToOrchestratorMessage ? Omit<M, 'rank'> : never) : never;

export interface RankChannelOptions extends RankEnvironment {
  /** How long close() lets unsent messages (the final `done`) go out, in ms (default 2000). */
  lingerMs?: number;
}

export class RankChannel {
  readonly rank: number;
  readonly worldSize: number;
  /** Aborted when the orchestrator sends `stop` (reason: the StopRequestedError). */
  readonly stopSignal: AbortSignal;
  private readonly stopController = new AbortController();
  private readonly sender: SerialSender;
  private readonly inbox: Inbox<Decoded<OrchestratorToRankMessage>>;
  private readonly handlers: HandlerTable<Decoded<OrchestratorToRankMessage>>;
  /** Called with every message of their type as it arrives, which still queues for receive() (a look ahead). */
  private readonly arrivals: HandlerTable<Decoded<OrchestratorToRankMessage>>;
  private readonly heartbeat: NodeJS.Timeout | null;
  private readonly receiving: Promise<void>;
  private readonly lingerMs: number;
  private lastStep: number | undefined;
  private closed = false;

  private constructor(
    settings: RankChannelOptions,
    private readonly dealer: zmq.Dealer,
    private readonly peers: PeerLinks,
  ) {
    this.rank = settings.rank;
    this.worldSize = settings.worldSize;
    this.lingerMs = settings.lingerMs ?? 2000;
    this.stopSignal = this.stopController.signal;
    this.sender = new SerialSender(dealer);
    this.inbox = new Inbox(`rank ${this.rank}: the channel to the orchestrator was closed`);
    this.handlers = new HandlerTable((e) => this.inbox.pushError(e));
    this.arrivals = new HandlerTable((e) => this.inbox.pushError(e));
    this.receiving = this.receiveLoop();
    this.heartbeat = settings.heartbeatIntervalMs > 0
      ? setInterval(() => void this.sendHeartbeat(), settings.heartbeatIntervalMs).unref()
      : null;
  }

  /** Binds this rank's peer socket and connects to the orchestrator. */
  static async connect(settings: RankChannelOptions): Promise<RankChannel> {
    const peers = await PeerLinks.bind(settings.rank, settings.peerBindAddress, settings.lingerMs ?? 2000);
    const dealer = new zmq.Dealer({ routingId: rankIdentity(settings.rank), linger: 0 });
    try {
      dealer.connect(settings.orchestratorAddress);
    } catch (e) {
      dealer.close();
      await peers.close(0);
      throw new TransportError(`rank ${settings.rank} could not connect to the orchestrator at ${settings.orchestratorAddress} (${(e as Error).message}); the address comes from DSMC_ORCHESTRATOR, set by the supervisor`);
    }
    return new RankChannel(settings, dealer, peers);
  }

  /** connect() with the settings the supervisor put in the environment (DSMC_RANK, ...). */
  static fromEnvironment(env: NodeJS.ProcessEnv = process.env): Promise<RankChannel> {
    return RankChannel.connect(readRankEnvironment(env));
  }

  /** The run's peer folder on this host (configure named it), null when the ranks exchange through zeromq. */
  get peerFolder(): string | null {
    return this.peers.folderPath;
  }

  /** Where peers reach this rank (handed to the orchestrator in hello). */
  get peerAddress(): string {
    return this.peers.address;
  }

  /** Migrate messages sent so far, by how their payload went: through the same-host files, or zeromq frames. */
  get peerSends(): { readonly files: number; readonly frames: number } {
    return this.peers.sentVia;
  }

  /** Says hello: rank, world size, pid, host name, adapter (null before the device is open) and the peer address. */
  hello(adapter: AdapterInfo | null): Promise<void> {
    return this.send({ type: 'hello', worldSize: this.worldSize, pid: process.pid, hostname: hostname(), adapter, peerAddress: this.peerAddress });
  }

  /** Sends a message to the orchestrator (`rank` is filled in), with optional binary frames (copied). */
  async send(message: Outgoing, frames: readonly Frame[] = []): Promise<void> {
    const full = { ...message, rank: this.rank } as RankToOrchestratorMessage;
    if (full.type === 'step-report') this.lastStep = full.step;
    await this.sender.send(encodeMessage(full, frames, `rank ${this.rank} (outgoing)`, !UNCHECKED_OUTGOING.has(full.type)));
  }

  /** Reports one step: particle count and phase times in seconds; the step also goes into later heartbeats. */
  report(step: number, particles: number, phases: Record<string, number>): Promise<void> {
    return this.send({ type: 'step-report', step, particles, phases });
  }

  /** Handles every message of `type` from the orchestrator (such messages no longer queue for receive()). */
  on<K extends OrchestratorKind>(type: K, handler: (incoming: Decoded<MessageOf<K>>) => void): () => void {
    return this.handlers.on(type, handler as (incoming: Decoded<OrchestratorToRankMessage>) => void);
  }

  /**
   * Calls `watch` with every message of `type` as it arrives, before receive() takes it (it still queues): work it
   * announces can start while the rank is busy elsewhere. Returns the function that stops it.
   */
  onArrival<K extends OrchestratorKind>(type: K, watch: (incoming: Decoded<MessageOf<K>>) => void): () => void {
    return this.arrivals.on(type, watch as (incoming: Decoded<OrchestratorToRankMessage>) => void);
  }

  /** The next message from the orchestrator (of `type` when given); rejects on timeout, stop or close. */
  receive<K extends OrchestratorKind = OrchestratorKind>(type?: K, timeoutMs = Infinity): Promise<Decoded<MessageOf<K>>> {
    return this.inbox.take(
      (m) => type === undefined || m.message.type === type,
      timeoutMs,
      () => new TransportTimeoutError(`rank ${this.rank} waited ${timeoutMs} ms for ${type ? `'${type}'` : 'a message'} from the orchestrator; is it still running?`),
    ) as Promise<Decoded<MessageOf<K>>>;
  }

  /** Waits for `configure`, connects to every other rank's peer address in it (and to the peer folder, when it names one) and returns it. */
  async waitForConfigure(timeoutMs = Infinity): Promise<ConfigureMessage> {
    const { message } = await this.receive('configure', timeoutMs);
    const peers = new Map(Object.entries(message.peers).map(([r, address]) => [Number(r), address]));
    const missing = Array.from({ length: this.worldSize }, (_, r) => r).filter((r) => !peers.has(r));
    if (missing.length > 0) {
      throw new TransportError(`rank ${this.rank}: the configure message has no peer address for rank(s) ${missing.join(', ')}; the orchestrator must wait for every hello before configuring`);
    }
    peers.delete(this.rank);
    this.peers.connect(peers);
    if (message.peerFolder !== undefined) this.peers.useFolder(message.peerFolder);
    return message;
  }

  /** Connects to peers directly (rank -> address), when not taken from `configure`. */
  connectPeers(peers: ReadonlyMap<number, string>): void {
    this.peers.connect(peers);
  }

  /** Sends particles leaving this rank for `to` at `step` (frames copied, so buffers may be reused at once); releases the frames received from `to` so far. */
  sendToPeer(to: number, header: { step: number; particles: number }, frames: readonly Frame[]): Promise<void> {
    return this.peers.send(to, header, frames);
  }

  /**
   * One migrate message for `step` from each rank in `from`; the timeout error names the missing ranks. The frames
   * of rank p's message are valid until this rank's next sendToPeer(p) (same host: views of a reused landing
   * buffer): use them (the solver's queue.writeBuffer copies) or copy them before sending p the next step.
   */
  receiveFromPeers(options: { step: number; from: readonly number[]; timeoutMs?: number }): Promise<Map<number, PeerIncoming>> {
    return this.peers.receive(options.step, options.from, options.timeoutMs ?? Infinity);
  }

  /** Readies the peer links for one big exchange known ahead (bytes to and from each peer; which message: PeerLinks.prepare). */
  preparePeers(sendBytes: ReadonlyMap<number, number>, receiveBytes: ReadonlyMap<number, number>, slots: PrepareSlots = 'next'): void {
    this.peers.prepare(sendBytes, receiveBytes, slots);
  }

  /** The next message from each peer in `targets` is read into that peer's target when it fits (PeerLinks.landNextInto). */
  landNextInto(targets: ReadonlyMap<number, Uint8Array>): void {
    this.peers.landNextInto(targets);
  }

  /** When the pages preparePeers asked for are all taken. */
  peersPrepared(): Promise<void> {
    return this.peers.prepared();
  }

  /** Calls `watch` with every peer message as it arrives (before receiveFromPeers hands it out); null stops it. */
  watchPeerMessages(watch: ((m: PeerIncoming) => void) | null): void {
    this.peers.watch(watch);
  }

  /** Tells the orchestrator this rank failed (message and last log lines); best effort: close() before exiting flushes it. */
  async reportError(error: unknown, lastLines: string[] = []): Promise<void> {
    const message = error instanceof Error ? error.message : String(error);
    await settleWithin(this.send({ type: 'error', message, lastLines }), 1000);
  }

  /**
   * Stops heartbeats, lets unsent messages go out for up to lingerMs and closes every socket. After a stop,
   * unsent peer data is dropped at once (the peers are stopping too, and would keep it waiting for lingerMs).
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.heartbeat !== null) clearInterval(this.heartbeat);
    this.inbox.close();
    await settleWithin(this.sender.drain(), this.lingerMs);
    await this.peers.close(this.stopSignal.aborted ? Math.min(STOP_LINGER_MS, this.lingerMs) : this.lingerMs);
    this.dealer.linger = this.lingerMs;
    this.dealer.close();
    await this.receiving;
  }

  /** Sends one heartbeat (with the last reported step); failures are ignored (the supervisor notices silence). */
  private async sendHeartbeat(): Promise<void> {
    if (this.closed) return;
    try {
      await this.send({ type: 'heartbeat', ...(this.lastStep === undefined ? {} : { step: this.lastStep }) });
    } catch {
      // a closing socket: nothing to do
    }
  }

  /** Reads the DEALER until it closes. */
  private async receiveLoop(): Promise<void> {
    try {
      for await (const parts of this.dealer) this.dispatch(parts);
    } catch (e) {
      if (!this.closed) this.inbox.fail(new TransportError(`rank ${this.rank}: the socket to the orchestrator failed: ${(e as Error).message}`));
    }
  }

  /** Validates one message from the orchestrator and hands it on; `stop` also ends every wait. */
  private dispatch(parts: Buffer[]): void {
    let decoded: Decoded<OrchestratorToRankMessage>;
    try {
      decoded = decodeMessage(parts, 'the orchestrator', ORCHESTRATOR_TO_RANK) as Decoded<OrchestratorToRankMessage>;
    } catch (e) {
      this.inbox.pushError(e as Error);
      return;
    }
    this.arrivals.deliver(decoded.message.type, decoded);
    if (!this.handlers.deliver(decoded.message.type, decoded)) this.inbox.push(decoded);
    if (decoded.message.type === 'stop') this.requestStop(new StopRequestedError(decoded.message.reason));
  }

  /** Aborts stopSignal and fails pending and later receives with the stop request. */
  private requestStop(error: StopRequestedError): void {
    if (this.stopSignal.aborted) return;
    this.stopController.abort(error);
    this.inbox.fail(error);
    this.peers.fail(error);
  }
}
