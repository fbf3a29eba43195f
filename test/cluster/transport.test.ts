// The transport in one process over real zeromq sockets: message validation (malformed headers, wrong fields,
// frame sizes, a rank claiming another rank's number), peer exchanges that arrive out of order, timeouts that
// name the missing ranks, stop, addresses and the rank environment.
import * as zmq from 'zeromq';
import { afterEach, describe, expect, it } from 'vitest';
import { parseTransportSpec } from '../../src-main/cluster/transport/endpoints.js';
import { MessageValidationError, StopRequestedError, TransportTimeoutError } from '../../src-main/cluster/transport/errors.js';
import { UNCHECKED_OUTGOING, decodeMessage, encodeMessage, frameAs, handedOver } from '../../src-main/cluster/transport/message-codec.js';
import { RANK_TO_ORCHESTRATOR } from '../../src-main/cluster/transport/messages.js';
import { OrchestratorChannel } from '../../src-main/cluster/transport/orchestrator-channel.js';
import { RankChannel } from '../../src-main/cluster/transport/rank-channel.js';
import { readRankEnvironment } from '../../src-main/cluster/transport/rank-environment.js';

const closers: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (closers.length > 0) await closers.pop()!();
});

/** An orchestrator channel and `n` in-process rank channels that said hello and were configured. */
async function world(n: number): Promise<{ orchestrator: OrchestratorChannel; ranks: RankChannel[] }> {
  const orchestrator = await OrchestratorChannel.open();
  closers.push(() => orchestrator.close());
  const ranks: RankChannel[] = [];
  for (let rank = 0; rank < n; rank++) {
    const env = orchestrator.rankEnvironment(rank, n, 0);
    const ch = await RankChannel.connect(readRankEnvironment(env));
    closers.push(() => ch.close());
    await ch.hello(null);
    ranks.push(ch);
  }
  await orchestrator.waitForHellos(n, 5000);
  await orchestrator.configureAll((rank: number) => ({ rank }));
  await Promise.all(ranks.map((ch) => ch.waitForConfigure(5000)));
  return { orchestrator, ranks };
}

/** A raw DEALER with a rank's routing id, to send what no RankChannel would. */
function rawDealer(address: string, identity: string): zmq.Dealer {
  const d = new zmq.Dealer({ routingId: identity, linger: 0 });
  d.connect(address);
  closers.push(() => d.close());
  return d;
}

describe('message validation', () => {
  it('names the kind and the field of a bad header', () => {
    const header = new TextEncoder().encode(JSON.stringify({ type: 'step-report', rank: 2, step: 'three', particles: 5, phases: {} }));
    expect(() => decodeMessage([header], 'rank 2', RANK_TO_ORCHESTRATOR)).toThrow(
      "invalid 'step-report' message from rank 2: field 'step': Invalid input: expected number, received string.",
    );
  });

  it('rejects unknown kinds, kinds not expected here, non-JSON headers and wrong frame sizes', () => {
    const enc = (o: unknown) => new TextEncoder().encode(JSON.stringify(o));
    expect(() => decodeMessage([enc({ type: 'launch' })], 'rank 0', RANK_TO_ORCHESTRATOR)).toThrow(/unknown message type "launch" \(expected one of hello, configure/);
    expect(() => decodeMessage([enc({ type: 'stop' })], 'rank 0', RANK_TO_ORCHESTRATOR)).toThrow(/'stop' is not expected here/);
    expect(() => decodeMessage([new Uint8Array([123, 0xff])], 'rank 0', RANK_TO_ORCHESTRATOR)).toThrow(/header frame is not UTF-8 JSON/);
    const migrate = { type: 'migrate', from: 0, to: 1, step: 0, particles: 2, frameBytes: [8] };
    expect(() => encodeMessage(migrate as never, [new Float32Array(3)])).toThrow(/field 'frameBytes.0': declares 8 bytes but the frame has 12/);
  });

  it('copies payloads unless they were handed over, which go as they are', () => {
    const go = { type: 'go', index: 3, decomposition: null, frameBytes: [8, 8] };
    const kept = new Float32Array([1, 2]);
    const given = handedOver(new Float32Array([3, 4]));
    const [, keptPart, givenPart] = encodeMessage(go as never, [kept, given]);
    kept[0] = 9;
    given[0] = 7;
    expect(Array.from(new Float32Array(keptPart.buffer, keptPart.byteOffset, 2))).toEqual([1, 2]);
    expect(givenPart.buffer).toBe(given.buffer);
    expect(Array.from(new Float32Array(givenPart.buffer, givenPart.byteOffset, 2))).toEqual([7, 4]);
  });

  it('a malformed message from a rank reaches the orchestrator as a clear validation error', async () => {
    const orchestrator = await OrchestratorChannel.open();
    closers.push(() => orchestrator.close());
    const d = rawDealer(orchestrator.address, 'rank-3');
    await d.send([JSON.stringify({ type: 'step-report', rank: 3, step: 1, particles: -4, phases: {} })]);
    const error = await orchestrator.receive({ timeoutMs: 5000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MessageValidationError);
    expect(error).toMatchObject({ sender: 'rank 3', kind: 'step-report', field: 'particles' });
    expect((error as Error).message).toMatch(/^invalid 'step-report' message from rank 3: field 'particles': .*>=0.*npm run build/);

    await d.send([JSON.stringify({ type: 'ready', rank: 1 })]);
    await expect(orchestrator.receive({ timeoutMs: 5000 })).rejects.toThrow(
      "invalid 'ready' message from rank 3: field 'rank': says rank 1 but came over the connection of rank 3",
    );

    const seen: MessageValidationError[] = [];
    orchestrator.onInvalid((e) => seen.push(e));
    await rawDealer(orchestrator.address, 'intruder').send([JSON.stringify({ type: 'ready', rank: 0 })]);
    while (seen.length === 0) await new Promise((r) => setTimeout(r, 10)); // two connections: no order between them
    await d.send(['not json']);
    await d.send([JSON.stringify({ type: 'ready', rank: 3 })]);
    const ok = await orchestrator.receive({ type: 'ready', timeoutMs: 5000 });
    expect(ok).toMatchObject({ rank: 3, message: { type: 'ready', rank: 3 } });
    expect(seen.map((e) => e.message.split(':')[0])).toEqual([
      "invalid message from a peer with routing id 'intruder'", 'invalid message from rank 3',
    ]);
  });

  it('a batch goes out unchecked by its rank (UNCHECKED_OUTGOING) and is still validated by the orchestrator', async () => {
    expect(UNCHECKED_OUTGOING.has('batch')).toBe(true);
    const bad = { type: 'batch', rank: 0, index: 0, steps: [{ step: 1, particlesBefore: -1 }], passes: 0, particles: 5, frameBytes: [] };
    expect(() => encodeMessage(bad as never)).toThrow(/field 'steps.0.particlesBefore'/);
    expect(() => encodeMessage(bad as never, [], 'rank 0', false)).not.toThrow();
    const { orchestrator, ranks } = await world(1);
    await ranks[0].send(bad as never);
    const error = await orchestrator.receive({ type: 'batch', timeoutMs: 5000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MessageValidationError);
    expect(error).toMatchObject({ sender: 'rank 0', kind: 'batch', field: 'steps.0.particlesBefore' });
    const good = { type: 'batch', index: 1, steps: [{ step: 2, particlesBefore: 5, injected: 0, particlesAfter: 5, collisions: 1, candidates: 2 }], passes: 0, particles: 5, frameBytes: [] };
    await ranks[0].send(good as never);
    await expect(orchestrator.receive({ type: 'batch', timeoutMs: 5000 })).resolves.toMatchObject({ rank: 0, message: { index: 1, steps: [{ step: 2 }] } });
  });

  it('a migrate message whose frames do not match its header fails the exchange, naming the field', async () => {
    const { ranks } = await world(2);
    const push = new zmq.Push({ linger: 0 });
    closers.push(() => push.close());
    push.connect(ranks[0].peerAddress);
    const header = { type: 'migrate', from: 1, to: 0, step: 0, particles: 1, frameBytes: [12] };
    await push.send([JSON.stringify(header), new Uint8Array(8)]);
    await expect(ranks[0].receiveFromPeers({ step: 0, from: [1], timeoutMs: 5000 })).rejects.toThrow(
      "invalid 'migrate' message from a peer rank: field 'frameBytes.0': declares 12 bytes but the frame has 8",
    );
  });
});

describe('peer exchange', () => {
  it('delivers each step complete and in order even when a neighbour runs ahead or sends out of order', async () => {
    const { ranks } = await world(3);
    const frame = (from: number, step: number) => Float64Array.from({ length: 1000 + step }, (_, i) => from * 1e6 + step * 1e3 + i);
    // rank 1 sends steps 2, 0, 1; rank 2 sends 0, 1, 2
    for (const step of [2, 0, 1]) await ranks[1].sendToPeer(0, { step, particles: 1000 + step }, [frame(1, step)]);
    for (const step of [0, 1, 2]) await ranks[2].sendToPeer(0, { step, particles: 1000 + step }, [frame(2, step)]);
    for (const step of [0, 1, 2]) {
      const got = await ranks[0].receiveFromPeers({ step, from: [1, 2], timeoutMs: 5000 });
      expect([...got.keys()].sort()).toEqual([1, 2]);
      for (const [from, { message, frames }] of got) {
        expect(message).toMatchObject({ from, to: 0, step, particles: 1000 + step, frameBytes: [(1000 + step) * 8] });
        expect(frameAs(frames[0], Float64Array)).toEqual(frame(from, step));
      }
    }
  });

  it('copies outgoing payloads, so the sender may overwrite its buffer right after send', async () => {
    const { ranks } = await world(2);
    const buffer = new Float32Array(10_000).fill(1);
    await ranks[0].sendToPeer(1, { step: 0, particles: 10_000 }, [buffer]);
    buffer.fill(2);
    const got = await ranks[1].receiveFromPeers({ step: 0, from: [0], timeoutMs: 5000 });
    expect(frameAs(got.get(0)!.frames[0], Float32Array).every((v) => v === 1)).toBe(true);
  });

  it('a timed-out exchange names the ranks that did not send', async () => {
    const { ranks } = await world(3);
    await ranks[1].sendToPeer(0, { step: 0, particles: 0 }, []);
    const error = await ranks[0].receiveFromPeers({ step: 0, from: [1, 2], timeoutMs: 300 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportTimeoutError);
    expect(error).toMatchObject({ missingRanks: [2] });
    expect((error as Error).message).toMatch(/^rank 0 waited 300 ms for the step 0 exchange: nothing came from rank 2 \(got rank 1\)/);
  });
});

describe('orchestrator channel', () => {
  it('collect names the ranks that did not answer in time', async () => {
    const { orchestrator, ranks } = await world(3);
    await ranks[0].send({ type: 'ready' });
    await ranks[2].send({ type: 'ready' });
    const error = await orchestrator.collect('ready', [0, 1, 2], 300).catch((e: unknown) => e);
    expect(error).toMatchObject({ missingRanks: [1] });
    expect((error as Error).message).toMatch(/^the orchestrator waited 300 ms for 'ready' from rank 1 \(got it from 2 of 3\)/);
  });

  it('for await yields queued messages tagged with their rank, in arrival order per rank', async () => {
    const { orchestrator, ranks } = await world(2);
    await ranks[1].report(0, 10, { move: 0.5 });
    await ranks[1].send({ type: 'done', summary: { ok: true } });
    const got: string[] = [];
    for await (const m of orchestrator) {
      got.push(`${m.rank}:${m.message.type}`);
      if (got.length === 2) break;
    }
    expect(got).toEqual(['1:step-report', '1:done']);
  });

  it('acknowledges a done: the rank receives done-ack once the orchestrator collected it', async () => {
    const { orchestrator, ranks } = await world(2);
    await ranks[0].send({ type: 'done', summary: { ok: true } });
    await ranks[1].send({ type: 'done', summary: { ok: true } });
    await orchestrator.collect('done', [0, 1], 2000);
    await Promise.all([0, 1].map((r) => orchestrator.send(r, { type: 'done-ack' })));
    for (const rank of ranks) expect((await rank.receive('done-ack', 2000)).message).toEqual({ type: 'done-ack' });
  });

  it('sending to a rank that is not connected fails clearly', async () => {
    const orchestrator = await OrchestratorChannel.open({ sendTimeoutMs: 300 });
    closers.push(() => orchestrator.close());
    await expect(orchestrator.send(7, { type: 'stop' })).rejects.toThrow(/^cannot send 'stop' to rank 7.*: it is not connected/);
    rawDealer(orchestrator.address, 'rank-0');
    await new Promise((r) => setTimeout(r, 100));
    await expect(orchestrator.send(7, { type: 'stop' })).rejects.toThrow(/^cannot send 'stop' to rank 7: it is not connected/);
  });

  it('stop ends the waits of a rank and aborts its stop signal; handlers take a kind out of the queue', async () => {
    const { orchestrator, ranks } = await world(2);
    const beats: number[] = [];
    orchestrator.on('heartbeat', (h) => beats.push(h.rank));
    await ranks[1].send({ type: 'heartbeat' });
    const waiting = ranks[0].receiveFromPeers({ step: 0, from: [1], timeoutMs: 5000 });
    await orchestrator.broadcast({ type: 'stop', reason: 'test' });
    await expect(waiting).rejects.toThrow(StopRequestedError);
    await expect(ranks[1].receive('configure', 5000)).rejects.toThrow('the orchestrator asked this rank to stop (test)');
    expect(ranks[0].stopSignal.aborted).toBe(true);
    expect(beats).toEqual([1]);
  });

  it('ranks bind where the plan says, and tcp addresses are connectable', async () => {
    const orchestrator = await OrchestratorChannel.open({ transport: parseTransportSpec('127.0.0.1:0') });
    closers.push(() => orchestrator.close());
    expect(orchestrator.address).toMatch(/^tcp:\/\/127\.0\.0\.1:\d+$/);
    const ch = await RankChannel.connect(readRankEnvironment(orchestrator.rankEnvironment(0, 1, 0)));
    closers.push(() => ch.close());
    expect(ch.peerAddress).toMatch(/^tcp:\/\/127\.0\.0\.1:\d+$/);
    await ch.hello({ description: 'x', backend: 'none' });
    const hellos = await orchestrator.waitForHellos(1, 5000);
    expect(hellos.get(0)).toMatchObject({ rank: 0, worldSize: 1, pid: process.pid, peerAddress: ch.peerAddress, adapter: { description: 'x' } });
  });
});

describe('addresses and environment', () => {
  it('parses transport specs and explains a bad one', () => {
    expect(parseTransportSpec('ipc')).toEqual({ kind: 'ipc' });
    expect(parseTransportSpec('node7:5555')).toEqual({ kind: 'tcp', host: 'node7', port: 5555 });
    expect(parseTransportSpec('tcp://10.0.0.2:*')).toEqual({ kind: 'tcp', host: '10.0.0.2', port: 0 });
    expect(() => parseTransportSpec('node7')).toThrow(/use 'ipc' \(one host\) or HOST:PORT/);
  });

  it('a rank started without the supervisor says which variable is missing', () => {
    expect(() => readRankEnvironment({ DSMC_RANK: '0', DSMC_WORLD_SIZE: '2' })).toThrow(
      /DSMC_ORCHESTRATOR=null is not usable .*started by the cluster supervisor/,
    );
    expect(() => readRankEnvironment({
      DSMC_RANK: '2', DSMC_WORLD_SIZE: '2', DSMC_ORCHESTRATOR: 'ipc:///x', DSMC_PEER_BIND: 'ipc:///y', DSMC_HEARTBEAT_MS: '0',
    })).toThrow('DSMC_RANK=2 is not below DSMC_WORLD_SIZE=2');
  });
});
