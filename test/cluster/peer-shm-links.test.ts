// The same-host fast path of the peer links in one process over real zeromq ipc sockets: payloads through files
// in a private peer folder arrive intact over many exchanges of varying size (landing buffers grow), with a peer
// running an exchange ahead and relayout-like exchange numbers (2s, 2s+1, 2s+2); a caller that sends ahead of
// its peers falls back to zeromq frames; a missing or truncated file fails with the clear error; DSMC_PEER_SHM=0
// and no folder use frames; the folder is private and close() removes it; folders of killed orchestrators go.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync, existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as zmq from 'zeromq';
import { afterEach, describe, expect, it } from 'vitest';
import { TransportError } from '../../src-main/cluster/transport/errors.js';
import { OrchestratorChannel } from '../../src-main/cluster/transport/orchestrator-channel.js';
import { PeerFolder, peerShmEnabled } from '../../src-main/cluster/transport/peer-folder.js';
import { RankChannel } from '../../src-main/cluster/transport/rank-channel.js';
import { readRankEnvironment } from '../../src-main/cluster/transport/rank-environment.js';

const closers: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (closers.length > 0) await closers.pop()!();
});

/** A peer folder for one test, removed afterwards. */
async function folder(): Promise<PeerFolder> {
  const f = await PeerFolder.create({ env: {} });
  if (f === null) throw new Error('no peer folder could be made');
  closers.push(() => f.close());
  return f;
}

/** An orchestrator and `n` configured in-process rank channels; with `peerFolder`, the fast path is on. */
async function world(n: number, peerFolder?: string): Promise<{ orchestrator: OrchestratorChannel; ranks: RankChannel[] }> {
  const orchestrator = await OrchestratorChannel.open();
  closers.push(() => orchestrator.close());
  const ranks: RankChannel[] = [];
  for (let rank = 0; rank < n; rank++) {
    const ch = await RankChannel.connect(readRankEnvironment(orchestrator.rankEnvironment(rank, n, 0)));
    closers.push(() => ch.close());
    await ch.hello(null);
    ranks.push(ch);
  }
  await orchestrator.waitForHellos(n, 5000);
  await orchestrator.configureAll({}, { peerFolder });
  await Promise.all(ranks.map((ch) => ch.waitForConfigure(5000)));
  return { orchestrator, ranks };
}

/** The payload rank `from` sends `to` at exchange `step`: a size that varies (and grows) with the step, bytes that name all three. */
function payload(from: number, to: number, step: number): Uint32Array {
  const words = ((step * 7919 + from * 131 + to * 17) % 5000) + step * 300;
  const out = new Uint32Array(words);
  for (let i = 0; i < words; i++) out[i] = (from * 0x1000000 + to * 0x10000 + step * 7 + i * 2654435761) >>> 0;
  return out;
}

/** True when a received frame holds exactly `expected`. */
function same(frame: Uint8Array, expected: Uint32Array): boolean {
  return Buffer.from(frame).equals(Buffer.from(expected.buffer, expected.byteOffset, expected.byteLength));
}

/** Sleeps up to `ms` (random), so ranks drift apart and one runs ahead of another. */
function jitter(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, Math.floor(Math.random() * ms)));
}

/**
 * Every rank exchanges with every other over `steps` like the solver does: send to all, receive from all, check, repeat;
 * before the exchanges `prepared` names (a relayout's), each rank readies its links with the exact bytes of both ways.
 */
async function lockstep(ranks: RankChannel[], steps: number[], jitterMs: number, prepared: (step: number) => boolean = () => false): Promise<void> {
  await Promise.all(ranks.map(async (ch, rank) => {
    const others = ranks.map((_, r) => r).filter((r) => r !== rank);
    for (const step of steps) {
      if (jitterMs > 0) await jitter(jitterMs);
      if (prepared(step)) {
        const bytes = (from: number, to: number) => payload(from, to, step).byteLength;
        ch.preparePeers(new Map(others.map((to) => [to, bytes(rank, to)])), new Map(others.map((from) => [from, bytes(from, rank)])));
      }
      await Promise.all(others.map((to) => ch.sendToPeer(to, { step, particles: payload(rank, to, step).length }, [payload(rank, to, step)])));
      const got = await ch.receiveFromPeers({ step, from: others, timeoutMs: 10_000 });
      for (const from of others) {
        const m = got.get(from)!;
        expect(m.message.particles).toBe(payload(from, rank, step).length);
        expect(m.frames.length).toBe(1);
        expect(same(m.frames[0], payload(from, rank, step)), `step ${step} ${from} -> ${rank}`).toBe(true);
      }
    }
  }));
}

describe('peer links through files (same host)', () => {
  it('three ranks exchange 60 steps of growing payloads intact, every one through a file', async () => {
    const f = await folder();
    const { ranks } = await world(3, f.path);
    const steps = Array.from({ length: 60 }, (_, s) => s);
    await lockstep(ranks, steps, 0);
    for (const ch of ranks) expect(ch.peerSends).toEqual({ files: 120, frames: 0 });
    expect(readdirSync(f.path).sort()).toEqual(['0-1-0', '0-1-1', '0-2-0', '0-2-1', '1-0-0', '1-0-1', '1-2-0', '1-2-1', '2-0-0', '2-0-1', '2-1-0', '2-1-1']);
  });

  it('ranks drifting apart (a peer an exchange ahead) with relayout-like exchange numbers 2s, 2s+1, 2s+2', async () => {
    const f = await folder();
    const { ranks } = await world(3, f.path);
    // submits of 2 steps with a relayout exchange between: 0, 2, 3, 4, 6, 7, 8, ...
    const steps = Array.from({ length: 40 }, (_, s) => s).flatMap((s) => (s % 2 === 1 ? [2 * s, 2 * s + 1] : [2 * s]));
    await lockstep(ranks, steps, 4);
    for (const ch of ranks) expect(ch.peerSends.frames).toBe(0);
  });

  it('links readied ahead for big exchanges (a relayout\'s: files and landing buffers prefaulted) carry every payload intact', async () => {
    const f = await folder();
    const { ranks } = await world(3, f.path);
    // big exchanges every third one, with peers drifting an exchange apart (one may arrive before its receiver readies)
    const steps = Array.from({ length: 30 }, (_, s) => s);
    const big = (step: number) => step % 3 === 1;
    await lockstep(ranks, steps, 3, big);
    for (const ch of ranks) expect(ch.peerSends.frames).toBe(0);
    // a readied file holds at least the bytes asked for (zeros past its end), before anything is written there
    ranks[0].preparePeers(new Map([[1, 3_000_000]]), new Map());
    await ranks[0].peersPrepared();
    const sizes = [0, 1].map((slot) => statSync(join(f.path, `0-1-${slot}`)).size);
    expect(Math.max(...sizes)).toBeGreaterThanOrEqual(3_000_000);
    await lockstep(ranks, [30, 31], 0);
  });

  it('links readied for a big exchange some messages away (the files of both slots of every link: a relayout announced while the steps still exchange) carry every payload intact', async () => {
    const f = await folder();
    const { ranks } = await world(2, f.path);
    await lockstep(ranks, [0, 1, 2], 0);
    ranks[0].preparePeers(new Map([[1, 3_000_000]]), new Map([[1, 3_000_000]]), 'both');
    await ranks[0].peersPrepared();
    for (const slot of [0, 1]) expect(statSync(join(f.path, `0-1-${slot}`)).size).toBeGreaterThanOrEqual(3_000_000);
    // the other way was not asked for
    for (const slot of [0, 1]) expect(statSync(join(f.path, `1-0-${slot}`)).size).toBeLessThan(3_000_000);
    await lockstep(ranks, [3, 4, 5], 0);
    for (const ch of ranks) expect(ch.peerSends).toEqual({ files: 6, frames: 0 });
  });

  it('a big message sent while its file and landing buffer are still being prefaulted waits for their pages and arrives intact', async () => {
    const f = await folder();
    const { ranks } = await world(2, f.path);
    await lockstep(ranks, [0, 1], 0);
    // 24 MB each way, asked for 48 MB: the messages reach into the zeros the thread pool is still writing
    const big = (from: number, to: number) => {
      const out = new Uint32Array(6_000_000);
      for (let i = 0; i < out.length; i++) out[i] = (from * 0x1000000 + to * 0x10000 + i * 2654435761) >>> 0;
      return out;
    };
    for (const [rank, peer] of [[0, 1], [1, 0]]) ranks[rank].preparePeers(new Map([[peer, 48_000_000]]), new Map([[peer, 48_000_000]]));
    await Promise.all(ranks.map(async (ch, rank) => {
      const peer = 1 - rank;
      await ch.sendToPeer(peer, { step: 2, particles: 6_000_000 }, [big(rank, peer)]);
      const got = await ch.receiveFromPeers({ step: 2, from: [peer], timeoutMs: 20_000 });
      expect(same(got.get(peer)!.frames[0], big(peer, rank)), `${peer} -> ${rank}`).toBe(true);
    }));
    await Promise.all(ranks.map((ch) => ch.peersPrepared()));
    await lockstep(ranks, [3, 4], 0);
    for (const ch of ranks) expect(ch.peerSends).toEqual({ files: 5, frames: 0 });
  });

  it('the next message of a peer is read straight into a target of the caller where it fits (a relayout\'s arrivals into mapped upload memory), the others into landing buffers', async () => {
    const f = await folder();
    const { ranks } = await world(3, f.path);
    await lockstep(ranks, [0, 1], 0);
    // rank 0 wants step 2 from rank 1 in `fits` and from rank 2 in a target too small for it
    const memory = new ArrayBuffer(1 << 20);
    const fits = new Uint8Array(memory, 4096, payload(1, 0, 2).byteLength);
    const small = new Uint8Array(memory, 8192 + payload(1, 0, 2).byteLength, payload(2, 0, 2).byteLength - 4);
    ranks[0].landNextInto(new Map([[1, fits], [2, small]]));
    await lockstep(ranks, [2], 0);
    // the lockstep checked every payload intact; where they landed: step 2 from rank 1 in `fits`, nothing in `small`
    expect(Buffer.from(fits).equals(Buffer.from(payload(1, 0, 2).buffer))).toBe(true);
    expect(small.every((b) => b === 0)).toBe(true);
    // the target served one message only: step 3 from rank 1 goes to the landing buffer (`fits` keeps step 2)
    await lockstep(ranks, [3], 0);
    expect(Buffer.from(fits).equals(Buffer.from(payload(1, 0, 2).buffer))).toBe(true);
    for (const ch of ranks) expect(ch.peerSends.frames).toBe(0);
  });

  it('a rank one exchange ahead sends through its second slot before its peer has read the first', async () => {
    const f = await folder();
    const { ranks } = await world(2, f.path);
    // rank 1 sends step 0, gets rank 0's step 0, sends step 1 while rank 0 has not received yet
    await ranks[1].sendToPeer(0, { step: 0, particles: 1 }, [payload(1, 0, 0)]);
    await ranks[0].sendToPeer(1, { step: 0, particles: 1 }, [payload(0, 1, 0)]);
    const at1 = await ranks[1].receiveFromPeers({ step: 0, from: [0], timeoutMs: 5000 });
    expect(same(at1.get(0)!.frames[0], payload(0, 1, 0))).toBe(true);
    await ranks[1].sendToPeer(0, { step: 1, particles: 1 }, [payload(1, 0, 1)]);
    for (const step of [0, 1]) {
      const got = await ranks[0].receiveFromPeers({ step, from: [1], timeoutMs: 5000 });
      expect(same(got.get(1)!.frames[0], payload(1, 0, step)), `step ${step}`).toBe(true);
      if (step === 0) await ranks[0].sendToPeer(1, { step: 1, particles: 1 }, [payload(0, 1, 1)]);
    }
    expect(ranks[1].peerSends).toEqual({ files: 2, frames: 0 });
  });

  it('a caller sending several exchanges ahead of its peer gets zeromq frames for what no slot can hold, intact', async () => {
    const f = await folder();
    const { ranks } = await world(3, f.path);
    for (const step of [2, 0, 1, 3]) await ranks[1].sendToPeer(0, { step, particles: 1 }, [payload(1, 0, step)]);
    for (const step of [0, 1, 2, 3]) await ranks[2].sendToPeer(0, { step, particles: 1 }, [payload(2, 0, step)]);
    for (const step of [0, 1, 2, 3]) {
      const got = await ranks[0].receiveFromPeers({ step, from: [1, 2], timeoutMs: 5000 });
      for (const from of [1, 2]) expect(same(got.get(from)!.frames[0], payload(from, 0, step)), `step ${step} from ${from}`).toBe(true);
    }
    expect(ranks[1].peerSends).toEqual({ files: 2, frames: 2 });
    expect(ranks[2].peerSends).toEqual({ files: 2, frames: 2 });
  });

  it('several frames of one message share the file and arrive as separate frames', async () => {
    const f = await folder();
    const { ranks } = await world(2, f.path);
    const frames = [new Float32Array([1, 2, 3]), new Uint8Array([9, 8, 7, 6, 5]), new Uint32Array(0), new Uint32Array([0xdeadbeef, 42])];
    await ranks[0].sendToPeer(1, { step: 0, particles: 3 }, frames);
    const m = (await ranks[1].receiveFromPeers({ step: 0, from: [0], timeoutMs: 5000 })).get(0)!;
    expect(m.message.frameBytes).toEqual([12, 5, 0, 8]);
    expect(m.frames.map((x) => [...x])).toEqual(frames.map((x) => [...new Uint8Array(x.buffer, x.byteOffset, x.byteLength)]));
    expect(ranks[0].peerSends).toEqual({ files: 1, frames: 0 });
  });

  it('without a peer folder, or with DSMC_PEER_SHM=0, payloads go through zeromq frames', async () => {
    expect(peerShmEnabled({ DSMC_PEER_SHM: '0' })).toBe(false);
    expect(peerShmEnabled({})).toBe(true);
    expect(peerShmEnabled({ DSMC_PEER_SHM: '1' })).toBe(true);
    expect(await PeerFolder.create({ env: { DSMC_PEER_SHM: '0' } })).toBeNull();
    const { ranks } = await world(2);
    await lockstep(ranks, [0, 1, 2, 3], 0);
    for (const ch of ranks) expect(ch.peerSends).toEqual({ files: 0, frames: 4 });
  });
});

describe('peer file errors', () => {
  /** A raw PUSH to rank 0's peer socket, to send notes no PeerLinks would. */
  function rawPush(address: string): zmq.Push {
    const p = new zmq.Push({ linger: 0 });
    p.connect(address);
    closers.push(() => p.close());
    return p;
  }

  it('a note naming a missing file fails the receive naming the rank, the file and the fix', async () => {
    const f = await folder();
    const { ranks } = await world(3, f.path);
    const note = { type: 'migrate', from: 2, to: 0, step: 0, particles: 5, frameBytes: [100], seq: 0, ack: 0, file: { slot: 0 } };
    await rawPush(ranks[0].peerAddress).send([JSON.stringify(note)]);
    const error = await ranks[0].receiveFromPeers({ step: 0, from: [1, 2], timeoutMs: 5000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect((error as Error).message).toContain(`rank 0 could not read the step 0 migrants rank 2 put in ${join(f.path, '2-0-0')}`);
    expect((error as Error).message).toMatch(/DSMC_PEER_SHM=0/);
  });

  it('a truncated file fails the receive saying how many bytes were there', async () => {
    const f = await folder();
    const { ranks } = await world(3, f.path);
    writeFileSync(join(f.path, '2-0-1'), Buffer.alloc(40));
    const push = rawPush(ranks[0].peerAddress);
    await push.send([JSON.stringify({ type: 'migrate', from: 2, to: 0, step: 0, particles: 0, frameBytes: [0], seq: 0, ack: 0 }), Buffer.alloc(0)]);
    await push.send([JSON.stringify({ type: 'migrate', from: 2, to: 0, step: 1, particles: 5, frameBytes: [100], seq: 1, ack: 0, file: { slot: 1 } })]);
    await ranks[0].receiveFromPeers({ step: 0, from: [2], timeoutMs: 5000 });
    const error = await ranks[0].receiveFromPeers({ step: 1, from: [2], timeoutMs: 5000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect((error as Error).message).toContain(`rank 0 read only 40 of the 100 bytes of step 1 migrants rank 2 put in ${join(f.path, '2-0-1')}`);
    expect((error as Error).message).toMatch(/DSMC_PEER_SHM=0/);
  });

  it('strict notes: frames and a file at once, a wrong slot, a slot reused before it was released', async () => {
    const f = await folder();
    const { ranks } = await world(3, f.path);
    const base = { type: 'migrate', from: 2, to: 0, particles: 0, frameBytes: [0], ack: 0 };
    const cases: Array<[unknown[], RegExp]> = [
      [[JSON.stringify({ ...base, step: 0, seq: 0, file: { slot: 0 } }), Buffer.alloc(0)], /field 'file': says its payload is in file slot 0 but 1 binary frames came with it too/],
      [[JSON.stringify({ ...base, step: 0, seq: 0, file: { slot: 1 } })], /field 'file.slot': is 1 but message 0 of a link goes in slot 0/],
      [[JSON.stringify({ ...base, step: 0, file: { slot: 0 } })], /field 'seq': is missing/],
    ];
    for (const [parts, pattern] of cases) {
      const { ranks: fresh } = await world(3, f.path);
      await rawPush(fresh[0].peerAddress).send(parts as Buffer[]);
      await expect(fresh[0].receiveFromPeers({ step: 0, from: [2], timeoutMs: 5000 })).rejects.toThrow(pattern);
    }
    // messages 0 and 1 by file, then message 2 into slot 0 while rank 0 released nothing
    writeFileSync(join(f.path, '2-0-0'), Buffer.alloc(0));
    writeFileSync(join(f.path, '2-0-1'), Buffer.alloc(0));
    const push = rawPush(ranks[0].peerAddress);
    for (const seq of [0, 1, 2]) await push.send([JSON.stringify({ ...base, step: seq, seq, file: { slot: seq % 2 } })]);
    const error = await (async () => {
      for (const step of [0, 1, 2]) await ranks[0].receiveFromPeers({ step, from: [2], timeoutMs: 5000 });
    })().catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/field 'file': reuses file slot 0 for message 2 before rank 0 released message 0 \(it acknowledged 0\)/);
  });
});

describe('the peer folder', () => {
  it('is private (0700, files 0600), falls back to the temp folder without /dev/shm, and close() removes it with its files', async () => {
    const f = await folder();
    expect(f.path.startsWith(existsSync('/dev/shm') ? '/dev/shm/dsmc-peer-' : tmpdir())).toBe(true);
    expect(statSync(f.path).mode & 0o777).toBe(0o700);
    const { ranks } = await world(2, f.path);
    await lockstep(ranks, [0, 1], 0);
    for (const name of readdirSync(f.path)) expect(statSync(join(f.path, name)).mode & 0o777, name).toBe(0o600);

    const root = mkdtempSync(join(tmpdir(), 'peer-root-'));
    closers.push(() => rmSync(root, { recursive: true, force: true }));
    const warnings: string[] = [];
    const fallback = await PeerFolder.create({ env: {}, roots: [join(root, 'no-such-dir'), root], onWarning: (w) => warnings.push(w) });
    expect(fallback?.path.startsWith(join(root, 'dsmc-peer-'))).toBe(true);
    expect(warnings).toEqual([]);
    writeFileSync(join(fallback!.path, '0-1-0'), 'x');
    await fallback!.close();
    expect(existsSync(fallback!.path)).toBe(false);

    const none = await PeerFolder.create({ env: {}, roots: [join(root, 'no-such-dir')], onWarning: (w) => warnings.push(w) });
    expect(none).toBeNull();
    expect(warnings[0]).toMatch(/same-host fast path for migrants is off.*no-such-dir: missing or not writable.*DSMC_PEER_SHM=0/);
  });

  it('is named after the orchestrator\'s pid; creating one removes the folders of dead pids (killed runs), nothing else', async () => {
    const root = mkdtempSync(join(tmpdir(), 'peer-root-'));
    closers.push(() => rmSync(root, { recursive: true, force: true }));
    const dead = spawnSync(process.execPath, ['-e', '0']).pid; // exited: its pid is gone
    const stale = join(root, `dsmc-peer-${dead}-AbC123`);
    const live = join(root, `dsmc-peer-${process.pid}-XyZ789`);
    const foreign = join(root, 'dsmc-peer-notes');
    for (const dir of [stale, live, foreign]) mkdirSync(dir);
    writeFileSync(join(stale, '0-1-0'), 'x');
    const f = await PeerFolder.create({ env: {}, roots: [root] });
    closers.push(() => f?.close());
    expect(f!.path).toMatch(new RegExp(`/dsmc-peer-${process.pid}-[A-Za-z0-9]{6}$`));
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(live)).toBe(true);
    expect(existsSync(foreign)).toBe(true);
  });
});
