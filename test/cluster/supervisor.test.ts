// Rank processes under the supervisor, talking through the real transport (zeromq, no mocks): ring exchanges of
// binary payloads on 1, 2 and 4 ranks over ipc and 2 over tcp; a crash, a hang and a rank that never starts fail
// the run with that rank's reason and last lines and stop the others; cancel stops all cleanly.
// The ranks run fixtures/ring-rank.mjs on the compiled out/ (npm test builds it first; else npx tsc -p tsconfig.json).
import { spawn } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { RankFailedError } from '../../src-main/cluster/supervisor/errors.js';
import { processRuns } from '../helpers/process-alive.js';
import { configureRing, range, startRing, type Ring, type RingOptions } from './ring-harness.js';

const STEPS = 5;
let current: Ring | null = null;

/** Starts a ring and remembers it so afterEach can clean up whatever a failed assertion left running. */
async function start(o: RingOptions): Promise<Ring> {
  current = await startRing(o);
  return current;
}

afterEach(async () => {
  if (current === null) return;
  const ring = current;
  current = null;
  await ring.group.cancel('test cleanup');
  await ring.channel.close();
});

/** Bytes rank `from` sends to `to` at `step` (mirror of the fixture's particleCount: 12 + 4 bytes per particle). */
function migrationBytes(from: number, to: number, step: number): number {
  return (2000 + 13 * step + 7 * from + to) * 16;
}

/** The ring neighbours of a rank, as the fixture picks them. */
function neighbours(rank: number, n: number): number[] {
  return [...new Set([(rank + 1) % n, (rank + n - 1) % n])].filter((r) => r !== rank);
}

/** Runs a full ring and checks every payload, step order, reports, exits and log prefixes. */
async function expectCleanRing(o: RingOptions): Promise<Ring> {
  const ring = await start({ ...o, steps: STEPS });
  await configureRing(ring, { ...o, steps: STEPS });
  const done = await ring.channel.collect('done', range(o.ranks), 20_000);
  const outcome = await ring.group.outcome;
  expect(outcome.status, JSON.stringify(outcome)).toBe('completed');
  expect(outcome.exits.map((e) => [e.code, e.signal])).toEqual(range(o.ranks).map(() => [0, null]));
  for (const rank of range(o.ranks)) {
    const summary = done.get(rank)!.message.summary as { order: number[]; bytesReceived: number };
    expect(summary.order).toEqual(range(STEPS));
    const expected = neighbours(rank, o.ranks).reduce((sum, from) => sum + range(STEPS).reduce((s, step) => s + migrationBytes(from, rank, step), 0), 0);
    expect(summary.bytesReceived).toBe(expected);
    const steps = ring.reports.filter((r) => r.rank === rank).map((r) => r.message.step);
    expect(steps).toEqual(range(STEPS));
  }
  const { pid } = ring.group.processes[0];
  expect(ring.logs).toContain(`[rank 0 gpu 0 pid ${pid}] rank 0 of ${o.ranks} started`);
  expect(ring.channel.helloRanks.size).toBe(o.ranks);
  return ring;
}

describe('rank processes over the transport', () => {
  it.each([1, 2, 4])('%i rank(s) over ipc exchange intact payloads in step order', async (n) => {
    const ring = await expectCleanRing({ ranks: n });
    expect(ring.channel.address).toMatch(/^ipc:\/\//);
    const folder = dirname(ring.channel.address.slice('ipc://'.length));
    await ring.channel.close();
    expect(existsSync(folder)).toBe(false);
  });

  it('2 ranks over tcp on 127.0.0.1 (ephemeral ports)', async () => {
    const ring = await expectCleanRing({ ranks: 2, transport: { kind: 'tcp', host: '127.0.0.1', port: 0 } });
    expect(ring.channel.address).toMatch(/^tcp:\/\/127\.0\.0\.1:\d+$/);
    for (const hello of ring.channel.helloRanks.values()) expect(hello.peerAddress).toMatch(/^tcp:\/\/127\.0\.0\.1:\d+$/);
  });
});

describe('supervision', () => {
  it('a rank that crashes mid-run fails the run with its exit code and last lines; the others stop within 3 s', async () => {
    const o: RingOptions = { ranks: 3, mode: 'crash', badRank: 1, badStep: 2, steps: 10 };
    const ring = await start(o);
    await configureRing(ring, o);
    const waiting = ring.channel.collect('done', range(3), 20_000);
    await expect(waiting).rejects.toThrow(RankFailedError);
    const failure = await ring.group.failed;
    const detected = Date.now();
    const outcome = await ring.group.outcome;
    expect(Date.now() - detected).toBeLessThan(3000);
    expect(outcome.status).toBe('failed');
    expect(failure).toMatchObject({ rank: 1, reason: 'exit', code: 3, signal: null });
    expect(failure.message).toMatch(/^rank 1 \(gpu 1, pid \d+\) exited with code 3 \(its last log lines say why\)$/);
    expect(failure.lastLines).toContain('rank 1: simulated failure: out of particles at step 2');
    const others = outcome.exits.filter((e) => e.rank !== 1);
    expect(others.every((e) => e.stoppedBySupervisor && e.stopMs! < 3000)).toBe(true);
    await expect(waiting).rejects.toThrow(/rank 1 \(gpu 1, pid \d+\) exited with code 3[\s\S]*simulated failure/);
  });

  it('a rank that stops heartbeating is detected as hung and every rank is stopped', async () => {
    const o: RingOptions = {
      ranks: 2, mode: 'hang', badRank: 1, badStep: 1, steps: 10,
      supervisor: { heartbeatTimeoutMs: 1000, heartbeatIntervalMs: 100, killGraceMs: 1000 },
    };
    const ring = await start(o);
    await configureRing(ring, o);
    const failure = await ring.group.failed;
    const outcome = await ring.group.outcome;
    expect(failure).toMatchObject({ rank: 1, reason: 'hang' });
    expect(failure.message).toContain('sent nothing for 1000 ms and was stopped as hung');
    expect(failure.lastLines).toContain('rank 1: hanging at step 1');
    expect(outcome.status).toBe('failed');
    expect(outcome.exits.every((e) => e.stoppedBySupervisor && e.stopMs! < 3000)).toBe(true);
    // its SIGTERM handler cannot run in a blocked event loop: killed after killGraceMs
    expect(outcome.exits[1]).toMatchObject({ code: null, signal: 'SIGKILL' });
    expect(outcome.exits[0]).toMatchObject({ code: null, signal: 'SIGTERM' });
  });

  it('a rank that never says hello fails the run with start-timeout', async () => {
    const o: RingOptions = { ranks: 2, mode: 'silent', badRank: 0, supervisor: { startTimeoutMs: 1500 } };
    const ring = await start(o);
    await expect(ring.channel.waitForHellos(2, 10_000)).rejects.toThrow(/rank 0 .*did not say hello within 1500 ms/);
    const outcome = await ring.group.outcome;
    expect(outcome.status).toBe('failed');
    if (outcome.status === 'failed') expect(outcome.failure).toMatchObject({ rank: 0, reason: 'start-timeout' });
    expect(outcome.exits.every((e) => e.stoppedBySupervisor)).toBe(true);
  });

  it('cancel sends stop and every rank exits cleanly on its own', async () => {
    const o: RingOptions = { ranks: 2, mode: 'forever', stepDelayMs: 10 };
    const ring = await start(o);
    await configureRing(ring, o);
    while (ring.reports.length < 6) await new Promise((r) => setTimeout(r, 20));
    const t0 = Date.now();
    const outcome = await ring.group.cancel('the user pressed Ctrl-C');
    const context = JSON.stringify({ outcome, logs: ring.logs }, null, 1);
    expect(Date.now() - t0, context).toBeLessThan(2000);
    expect(outcome, context).toMatchObject({ status: 'cancelled', reason: 'the user pressed Ctrl-C' });
    expect(outcome.exits.map((e) => [e.code, e.signal]), context).toEqual([[0, null], [0, null]]);
    const done = await ring.channel.collect('done', range(2), 1000);
    expect([...done.values()].map((d) => d.message.summary)).toEqual([{ stopped: true }, { stopped: true }]);
    expect(ring.logs.some((l) => l.includes('asked this rank to stop (the user pressed Ctrl-C); exiting cleanly')), context).toBe(true);
  });

  it('ranks do not outlive an orchestrator that is killed (SIGKILL: no chance to stop them)', async () => {
    const script = fileURLToPath(new URL('./fixtures/orchestrator.mjs', import.meta.url));
    const orchestrator = spawn(process.execPath, [script], { stdio: ['ignore', 'pipe', 'inherit'] });
    const [line] = await createInterface({ input: orchestrator.stdout })[Symbol.asyncIterator]().next().then((r) => [r.value as string]);
    const { pids, address } = JSON.parse(line) as { pids: number[]; address: string };
    expect(pids.every(processRuns)).toBe(true);
    orchestrator.kill('SIGKILL');
    const t0 = Date.now();
    while (pids.some(processRuns) && Date.now() - t0 < 5000) await new Promise((r) => setTimeout(r, 50));
    expect(pids.filter(processRuns)).toEqual([]);
    expect(Date.now() - t0).toBeLessThan(2000);
    rmSync(dirname(address.slice('ipc://'.length)), { recursive: true, force: true }); // SIGKILL left its ipc folder
  });
});
