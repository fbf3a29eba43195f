// The orchestrator's end of the transport: a zeromq ROUTER every rank's DEALER (routing id 'rank-N') connects to.
// Incoming messages are validated and tagged with the sender's rank; handlers registered with on(type) get them,
// other kinds queue for receive()/collect()/for-await. Heartbeats are never queued (activity listeners see them).
import * as zmq from 'zeromq';
import { settleWithin } from './settle-within.js';
import { EndpointPlan, connectableAddress, type TransportSpec } from './endpoints.js';
import { MessageValidationError, TransportError, TransportTimeoutError, describeRanks } from './errors.js';
import { HandlerTable } from './handler-table.js';
import { Inbox } from './inbox.js';
import { decodeMessage, encodeMessage, type Frame } from './message-codec.js';
import {
  RANK_TO_ORCHESTRATOR, type HelloMessage, type MessageOf, type OrchestratorToRankMessage, type RankToOrchestratorMessage,
} from './messages.js';
import { rankEnvironmentVariables } from './rank-environment.js';
import { rankIdentity, rankOfIdentity } from './rank-identity.js';
import { SerialSender } from './serial-sender.js';

/** A message from a rank, tagged with the rank (from its connection, checked against the header). */
export interface Incoming<M extends RankToOrchestratorMessage = RankToOrchestratorMessage> {
  rank: number;
  message: M;
  frames: Uint8Array[];
}

type RankKind = RankToOrchestratorMessage['type'];

export interface OrchestratorChannelOptions {
  /** ipc (default) or tcp on a host and port (0: any free port). */
  transport?: TransportSpec;
  /** How long close() lets unsent messages (a final `stop`) go out, in ms (default 500). */
  lingerMs?: number;
  /** How long send() may wait for a rank's connection to take the message, in ms (default 10000). */
  sendTimeoutMs?: number;
}

/** Filter of receive(). */
export interface ReceiveFilter<K extends RankKind> {
  type?: K;
  rank?: number;
  /** Default: no limit. */
  timeoutMs?: number;
}

export class OrchestratorChannel implements AsyncIterable<Incoming> {
  private readonly sender: SerialSender;
  private readonly inbox = new Inbox<Incoming>('the orchestrator channel was closed');
  private readonly handlers = new HandlerTable<Incoming>((e) => this.inbox.pushError(e));
  private readonly invalidHandlers = new Set<(error: MessageValidationError) => void>();
  private readonly activityListeners = new Set<(rank: number, type: RankKind) => void>();
  private readonly hellos = new Map<number, HelloMessage>();
  private readonly receiving: Promise<void>;
  private closed = false;

  private constructor(
    private readonly router: zmq.Router,
    private readonly plan: EndpointPlan,
    /** The address ranks connect to. */
    readonly address: string,
    private readonly lingerMs: number,
    private readonly sendTimeoutMs: number,
  ) {
    this.sender = new SerialSender(router);
    this.receiving = this.receiveLoop();
  }

  /** Creates the run's endpoints and binds the ROUTER; close() undoes both. */
  static async open(options: OrchestratorChannelOptions = {}): Promise<OrchestratorChannel> {
    const plan = await EndpointPlan.create(options.transport);
    const sendTimeoutMs = options.sendTimeoutMs ?? 10_000;
    const router = new zmq.Router({ mandatory: true, linger: 0, sendTimeout: sendTimeoutMs });
    const bindAddress = plan.orchestratorBindAddress();
    try {
      await router.bind(bindAddress);
    } catch (e) {
      router.close();
      await plan.close();
      throw new TransportError(
        `the orchestrator could not listen on ${bindAddress} (${(e as Error).message}): ` +
          'for tcp give a free port or port 0, and a host name of this machine',
      );
    }
    const address = connectableAddress(router.lastEndpoint ?? bindAddress);
    return new OrchestratorChannel(router, plan, address, options.lingerMs ?? 500, sendTimeoutMs);
  }

  /** Where rank `rank` binds its peer socket. */
  peerBindAddress(rank: number): string {
    return this.plan.peerBindAddress(rank);
  }

  /** The environment variables that tell rank `rank` of `worldSize` how to join (read by RankChannel.fromEnvironment). */
  rankEnvironment(rank: number, worldSize: number, heartbeatIntervalMs: number): Record<string, string> {
    return rankEnvironmentVariables({
      rank, worldSize, heartbeatIntervalMs, orchestratorAddress: this.address, peerBindAddress: this.peerBindAddress(rank),
    });
  }

  /** The hello of every rank that said hello so far, by rank. */
  get helloRanks(): ReadonlyMap<number, HelloMessage> {
    return this.hellos;
  }

  /** Sends a message (and binary frames) to one rank; fails clearly when that rank is not connected. */
  async send(rank: number, message: OrchestratorToRankMessage, frames: readonly Frame[] = []): Promise<void> {
    const parts = encodeMessage(message, frames, 'the orchestrator (outgoing)');
    try {
      await this.sender.send([rankIdentity(rank), ...parts]);
    } catch (e) {
      const code = (e as { code?: string }).code;
      if (code === 'EHOSTUNREACH' || code === 'EAGAIN') {
        const why = code === 'EAGAIN' ? `within ${this.sendTimeoutMs} ms (no rank is connected, or rank ${rank} stopped reading)` : '';
        throw new TransportError(
          `cannot send '${message.type}' to rank ${rank}${why ? ` ${why}` : ''}: it is not connected to ${this.address} ` +
            '(not started yet, exited, or connected elsewhere); wait for its hello first',
        );
      }
      throw e;
    }
  }

  /** Sends the same message to every rank in `ranks` (default: every rank that said hello). */
  async broadcast(message: OrchestratorToRankMessage, frames: readonly Frame[] = [], ranks?: Iterable<number>): Promise<void> {
    const targets = [...(ranks ?? this.hellos.keys())];
    await Promise.all(targets.map((r) => this.send(r, message, frames)));
  }

  /** Handles every message of `type` (such messages no longer queue for receive()); returns the unsubscribe function. */
  on<K extends RankKind>(type: K, handler: (incoming: Incoming<MessageOf<K>>) => void): () => void {
    return this.handlers.on(type, handler as (incoming: Incoming) => void);
  }

  /** Handles messages that fail validation (otherwise the next receive() rejects with the error). */
  onInvalid(handler: (error: MessageValidationError) => void): () => void {
    this.invalidHandlers.add(handler);
    return () => void this.invalidHandlers.delete(handler);
  }

  /** Calls `listener(rank, type)` on every valid message from a rank, heartbeats included (liveness). */
  onActivity(listener: (rank: number, type: RankKind) => void): () => void {
    this.activityListeners.add(listener);
    return () => void this.activityListeners.delete(listener);
  }

  /** The next queued message matching the filter; rejects on timeout, on an invalid message, after abort() or close(). */
  receive<K extends RankKind = RankKind>(filter: ReceiveFilter<K> = {}): Promise<Incoming<MessageOf<K>>> {
    const { type, rank, timeoutMs = Infinity } = filter;
    const what = `${type ? `'${type}'` : 'a message'} from ${rank === undefined ? 'any rank' : `rank ${rank}`}`;
    return this.inbox.take(
      (m) => (type === undefined || m.message.type === type) && (rank === undefined || m.rank === rank),
      timeoutMs,
      () => new TransportTimeoutError(`the orchestrator waited ${timeoutMs} ms for ${what}`, rank === undefined ? [] : [rank]),
    ) as Promise<Incoming<MessageOf<K>>>;
  }

  /** One message of `type` from each of `ranks`, by rank; the timeout error names the ranks that did not send. */
  async collect<K extends RankKind>(type: K, ranks: Iterable<number>, timeoutMs = Infinity): Promise<Map<number, Incoming<MessageOf<K>>>> {
    const pending = new Set(ranks);
    const out = new Map<number, Incoming<MessageOf<K>>>();
    const deadline = Date.now() + timeoutMs;
    while (pending.size > 0) {
      const got = await this.inbox.take(
        (m) => m.message.type === type && pending.has(m.rank),
        deadline - Date.now(),
        () => new TransportTimeoutError(
          `the orchestrator waited ${timeoutMs} ms for '${type}' from ${describeRanks([...pending])} ` +
            `(got it from ${out.size} of ${out.size + pending.size}): check that rank's log lines, or allow more time`,
          [...pending],
        ),
      );
      pending.delete(got.rank);
      out.set(got.rank, got as Incoming<MessageOf<K>>);
    }
    return out;
  }

  /** Waits for the hello of ranks 0..worldSize-1 and checks they agree on the world size. */
  async waitForHellos(worldSize: number, timeoutMs = Infinity): Promise<Map<number, HelloMessage>> {
    const got = await this.collect('hello', Array.from({ length: worldSize }, (_, r) => r), timeoutMs);
    const hellos = new Map([...got].map(([r, m]) => [r, m.message]));
    for (const [r, hello] of hellos) {
      if (hello.worldSize !== worldSize) {
        throw new TransportError(`rank ${r} thinks the run has ${hello.worldSize} ranks, the orchestrator ${worldSize}: it was started with a wrong DSMC_WORLD_SIZE`);
      }
    }
    return hellos;
  }

  /**
   * Sends `configure` to every rank that said hello, with every rank's peer address; payload may differ per rank.
   * peerFolder (every rank on this host) turns on the same-host fast path for migrants (peer-folder.ts).
   */
  async configureAll(payload: unknown | ((rank: number) => unknown), options: { peerFolder?: string | null } = {}): Promise<void> {
    const peers = Object.fromEntries([...this.hellos].map(([r, h]) => [String(r), h.peerAddress]));
    const folder = options.peerFolder ? { peerFolder: options.peerFolder } : {};
    await Promise.all([...this.hellos.keys()].map((r) => {
      const body = typeof payload === 'function' ? (payload as (rank: number) => unknown)(r) : payload;
      return this.send(r, { type: 'configure', payload: body as never, peers, ...folder });
    }));
  }

  /** Makes every pending and later receive() reject with `error` (a rank failed: stop waiting for it). */
  abort(error: Error): void {
    this.inbox.fail(error);
  }

  /** Every queued message in arrival order; ends when the channel closes. */
  async *[Symbol.asyncIterator](): AsyncIterator<Incoming> {
    while (!this.closed) {
      try {
        yield await this.inbox.take(() => true, Infinity, () => new Error('unreachable'));
      } catch (e) {
        if (this.closed) return;
        throw e;
      }
    }
  }

  /** Closes the socket (unsent messages get lingerMs) and removes the ipc folder. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.inbox.close();
    await settleWithin(this.sender.drain(), this.lingerMs);
    this.router.linger = this.lingerMs;
    this.router.close();
    await this.receiving;
    await this.plan.close();
  }

  /** Reads the ROUTER until it closes. */
  private async receiveLoop(): Promise<void> {
    try {
      for await (const parts of this.router) this.dispatch(parts);
    } catch (e) {
      if (!this.closed) this.inbox.fail(new TransportError(`the orchestrator socket failed: ${(e as Error).message}`));
    }
  }

  /** Validates one message (identity frame + header + frames) and hands it to handlers or the queue. */
  private dispatch(parts: Buffer[]): void {
    const identity = parts[0].toString('utf8');
    const rank = rankOfIdentity(identity);
    if (rank === null) {
      this.invalid(new MessageValidationError(`a peer with routing id '${identity}'`, null, null,
        "only rank processes (RankChannel, routing id 'rank-N') may connect to the orchestrator"));
      return;
    }
    let incoming: Incoming;
    try {
      const { message, frames } = decodeMessage(parts.slice(1), `rank ${rank}`, RANK_TO_ORCHESTRATOR);
      const m = message as RankToOrchestratorMessage;
      if (m.rank !== rank) {
        throw new MessageValidationError(`rank ${rank}`, m.type, 'rank',
          `says rank ${m.rank} but came over the connection of rank ${rank}`);
      }
      incoming = { rank, message: m, frames };
    } catch (e) {
      this.invalid(e as Error);
      return;
    }
    for (const listener of this.activityListeners) listener(rank, incoming.message.type);
    if (incoming.message.type === 'hello') this.hellos.set(rank, incoming.message);
    const handled = this.handlers.deliver(incoming.message.type, incoming);
    if (!handled && incoming.message.type !== 'heartbeat') this.inbox.push(incoming);
  }

  /** Routes a validation error to onInvalid handlers, or to the next receive(). */
  private invalid(error: Error): void {
    if (!(error instanceof MessageValidationError) || this.invalidHandlers.size === 0) {
      this.inbox.pushError(error);
      return;
    }
    for (const handler of this.invalidHandlers) handler(error);
  }
}
