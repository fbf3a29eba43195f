// Entry of a rank process of a multi-rank run (started by the cluster supervisor, one per GPU): opens
// the device, says hello, takes its subdomain from `configure`, runs the step loop exchanging migrants
// with the other ranks through the transport, streams each submit's statistics and sampling sums to
// the orchestrator, and says done with its timings; on any error it reports it and exits non-zero. A stop and keep
// (rank-keep-stop.ts) ends the loop after the submit every rank agreed on and says done as at a normal end.
import { RankChannel } from '../cluster/transport/rank-channel.js';
import { DeferredSends } from './deferred-sends.js';
import { collectBeforeLoop, collectOld, collectYoung, oldGenerationBytes, youngFill } from './young-collection.js';
import { frameAs } from '../cluster/transport/message-codec.js';
import { StopRequestedError } from '../cluster/transport/errors.js';
import { writeFieldPlanes } from '../cluster/transport/field-planes-file.js';
import { exitWhenSupervisorGone } from '../cluster/supervisor/supervisor-watch.js';
import { openGpu, type Gpu } from './gpu/device.js';
import { addTime, type PhaseTotals } from './gpu/phase-totals.js';
import { migrantWordsOf } from './tables.js';
import { RankTables } from './rank-tables.js';
import { SetupClock } from './setup-clock.js';
import { endOfRunArena, endOfRunState, rankFields } from './rank-fields.js';
import { evaluationThreads } from './field-evaluation-threads.js';
import { Simulation } from './loop.js';
import { RunCancelled } from './loop-types.js';
import type { Exchanger } from './migration-exchange.js';
import { parseRankPayload } from './rank-payload.js';
import { checkRankBuffers } from './rank-prelaunch.js';
import { bufferPlan, CELL_ROOM_FOR_REBALANCING } from './state.js';
import { subdomainOf } from './subdomain.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { rankFile } from './checkpoint/checkpoint-folder.js';
import { decodeRankSnapshot } from './checkpoint/checkpoint-state.js';
import { writeRankFile } from './checkpoint/checkpoint-writer.js';
import { stepTimeline } from './step-timeline.js';
import { MEETING_EXCHANGE, betweenSteps, isStepExchange } from './exchange-sequence.js';
import { RankBalance } from './rank-balance.js';
import { RankKeepStop } from './rank-keep-stop.js';

/** How long a rank that said hello waits for `configure` (the orchestrator builds its solver tables first: minutes for the largest cases). */
const CONFIGURE_WAIT_MS = 600_000;

/** Host time of the transport: handing migrants to zeromq, then waiting until every peer's arrived (their lateness included). */
const transportTime = new Map<string, PhaseTotals>();

/** DSMC_EXCHANGE_TRACE=1: every exchange's send and receive times (ms), printed as percentiles when the rank ends. */
const exchangeTrace = process.env.DSMC_EXCHANGE_TRACE ? { send: [] as number[], receive: [] as number[] } : null;

/** One line of percentiles of the traced exchange times (for DSMC_RANK_LOGS=1 to show). */
function traceLine(rank: number, t: { send: number[]; receive: number[] }): string {
  const pct = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]?.toFixed(3) ?? '-';
  const row = (name: string, xs: number[]) => `${name} p50 ${pct(xs, 0.5)} p90 ${pct(xs, 0.9)} p99 ${pct(xs, 0.99)} max ${pct(xs, 1)}`;
  return `rank ${rank} exchange ms over ${t.receive.length} steps: ${row('send', t.send)}; ${row('receive', t.receive)}`;
}

/** Every rank of the run but this one. */
function otherRanks(ch: RankChannel): number[] {
  return Array.from({ length: ch.worldSize }, (_, r) => r).filter((r) => r !== ch.rank);
}

/** Moves migrants through the peer links: one message to every other rank per step, then waits for theirs. */
function peerExchanger(ch: RankChannel, timeoutMs: number, recordWords: number): Exchanger {
  const others = otherRanks(ch);
  // the solver's check of each peer's records, run as the message arrives; sums by exchange number
  const counted = new Map<number, number>();
  return {
    inspectArrivals(count) {
      ch.watchPeerMessages((m) => {
        stepTimeline?.mark(m.message.step, `arrived-${m.message.from}`);
        // a relayout's arrivals go to cells of this rank's new box, not its halo: nothing to check (millions of records)
        if (!isStepExchange(m.message.step)) return;
        const n = count(m.frames[0] ?? new Uint8Array(0));
        if (n > 0) counted.set(m.message.step, (counted.get(m.message.step) ?? 0) + n);
      });
    },
    inspected(step) {
      const n = counted.get(step) ?? 0;
      counted.delete(step);
      return n;
    },
    prepare(sendBytes, receiveBytes, slots) {
      const bytesOf = (list: readonly number[]) => new Map(others.map((p) => [p, list[p]]));
      ch.preparePeers(bytesOf(sendBytes), bytesOf(receiveBytes), slots);
    },
    prepared: () => ch.peersPrepared(),
    landInto: (targets) => ch.landNextInto(new Map(others.map((p) => [p, targets[p]]).filter((e): e is [number, Uint8Array] => e[1] !== null))),
    async exchange(step, outgoing, afterSend) {
      const t0 = performance.now();
      await Promise.all(others.map((to) => ch.sendToPeer(to, { step, particles: outgoing[to].length / recordWords }, [outgoing[to]])));
      const t1 = performance.now();
      stepTimeline?.mark(step, 'sent');
      afterSend?.();
      const got = await ch.receiveFromPeers({ step, from: others, timeoutMs });
      const t2 = performance.now();
      addTime(transportTime, 'exchange.send', (t1 - t0) / 1000);
      addTime(transportTime, 'exchange.receive', (t2 - t1) / 1000);
      exchangeTrace?.send.push(t1 - t0);
      exchangeTrace?.receive.push(t2 - t1);
      return others.map((from) => got.get(from)!.frames[0]);
    },
  };
}

/**
 * Waits until every other rank reached this point too: an empty peer message to each, one from each, under exchange
 * number `sequence` (2 x the step + 1, which no relayout uses before the next step's exchange).
 */
async function peerBarrier(ch: RankChannel, sequence: number, timeoutMs: number): Promise<void> {
  const others = otherRanks(ch);
  await Promise.all(others.map((to) => ch.sendToPeer(to, { step: sequence, particles: 0 }, [new Uint8Array(0)])));
  await ch.receiveFromPeers({ step: sequence, from: others, timeoutMs });
}

/**
 * DSMC_EARLY_MOVE=0 moves every step whole after its halo pass instead of moving the next step's interior part while
 * this step's migrants are exchanged (the default, 1): for measuring what that overlap gains; results are the same.
 */
export function earlyMoveFromEnvironment(env: NodeJS.ProcessEnv = process.env): boolean {
  const raw = env.DSMC_EARLY_MOVE;
  if (raw === undefined || raw === '' || raw === '1') return true;
  if (raw === '0') return false;
  throw new Error(`DSMC_EARLY_MOVE is ${JSON.stringify(raw)}: give 1 (the next step's interior part moves during the exchange, the default) or 0 (every step moves whole), or leave it unset`);
}

/** The rank's life from hello to done; true when the orchestrator acknowledged the `done`. */
async function main(ch: RankChannel): Promise<boolean> {
  let gpu: Gpu | null = null;
  // stop and keep: answered from the first message on (a request during the set-up or warm-up holds after submit 0)
  const keep = new RankKeepStop((index) => ch.send({ type: 'keep-point', index }), ch.stopSignal);
  ch.on('keep-request', () => keep.request());
  ch.on('keep-at', (m) => keep.decide(m.message.index));
  try {
    // where this rank's set-up goes (the orchestrator's summary: setupParts, each part's most over the ranks)
    const setup = new SetupClock();
    gpu = await setup.timeAsync('device', () => openGpu());
    // the case may come ahead of `configure` (prepare): its tables are built while the orchestrator builds its own
    // (every rank of this host and the orchestrator build their tables at once: they share its cores)
    const rankTables = new RankTables(ch, ch.worldSize + 1);
    const waitFrom = performance.now();
    await ch.hello({ description: gpu.adapter.description, backend: gpu.adapter.backend, software: gpu.adapter.software === true, maxBinding: Number(gpu.limits.maxStorageBufferBindingSize) });
    // configure follows the orchestrator's own tables and split (as long as ours, built meanwhile, for a large case)
    const { payload } = await ch.waitForConfigure(CONFIGURE_WAIT_MS);
    const configuredAt = performance.now();
    const p = parseRankPayload(payload);
    const subdomain = subdomainOf(p.decomposition, ch.rank);
    // one build of the solver tables for the check and the rank (a case with bodies takes seconds to mesh and cut)
    const tables = await rankTables.forCase((payload as { case?: unknown }).case, p.case);
    // the build (begun at prepare, or now), and the wait for configure once the tables were ready (none if it came first)
    setup.add('tables', rankTables.buildSeconds);
    setup.add('configure-wait', Math.max(0, configuredAt - Math.max(waitFrom, rankTables.builtAt ?? configuredAt)) / 1000);
    setup.time('check', () => checkRankBuffers(p.case, gpu!, subdomain, tables));
    // a run that may re-split: room in the per-cell buffers for the cells a re-split may give this rank
    const cellRoom = p.rebalancePercent !== null ? CELL_ROOM_FOR_REBALANCING : 1;
    const sim = setup.time('buffers', () => new Simulation(gpu!, p.case, { subdomain, exchanger: peerExchanger(ch, p.exchangeTimeoutMs, migrantWordsOf(p.case)), earlyMove: earlyMoveFromEnvironment(), cellRoom }, tables));
    setup.followPipelines('buffers', sim.cache);
    // a run that may re-split compiles the relayout's pipeline now, not inside its first re-split (60-90 ms on an H100)
    if (p.rebalancePercent !== null) setup.time('buffers', () => sim.prepareRelayout());
    // the end of a sampled run reads the state back and evaluates the fields into memory prefaulted during the set-up
    const arena = sim.tables.sampling ? setup.time('end-of-run arena', () => endOfRunArena(sim.kase, sim.tables, subdomain.nLocal)) : null;
    if (p.resume) {
      // the orchestrator verified the checkpoint's manifest and hashes; the decoder checks this file's structure
      const file = join(p.resume.dir, rankFile(ch.rank));
      setup.time('restore', () => sim.restore(decodeRankSnapshot(readFileSync(file), file)));
    } else {
      await setup.timeAsync('fill', () => sim.initialize());
    }
    await ch.send({ type: 'ready' });
    if (p.warmupSteps > 0 && !p.resume) await sim.run({ timing: p.timing, signal: ch.stopSignal }, p.warmupSteps);
    transportTime.clear();
    if (exchangeTrace) exchangeTrace.send.length = exchangeTrace.receive.length = 0;
    stepTimeline?.clear();
    let balanceSeconds = 0;
    const balance = p.rebalancePercent !== null ? new RankBalance(ch, sim, p.decomposition, p.balanceBlock ?? 1, p.exchangeTimeoutMs, p.resume?.keptGo ?? null) : null;
    const folder = p.checkpoints?.folder;
    const steps = p.resume ? p.resume.endStep - sim.stepsDone : p.case.run.steps;
    // live view of the app: the orchestrator asks for a plane's sums; the answer goes after the next submit
    let planeRequest: { id: number; cells: Uint32Array } | null = null;
    ch.on('plane-request', (m) => { planeRequest = { id: m.message.id, cells: Uint32Array.from(frameAs(m.frames[0], Uint32Array)) }; });
    // the submits after which every rank scavenges (orchestrator/young-collections.ts) or collects its old generation
    // too (old-collections.ts), and the collections taken
    let collectAfter: number | null = null;
    let collectOldAfter: number | null = null;
    const collections: { index: number; seconds: number; major?: true }[] = [];
    ch.on('collect', (m) => {
      if (m.message.major) collectOldAfter = m.message.index;
      else collectAfter = m.message.index;
    });
    // batch reports sent while the next submit runs
    const reports = new DeferredSends();
    const answerPlane = async () => {
      const req = planeRequest as { id: number; cells: Uint32Array } | null;
      if (!req || !sim.tables.sampling) return;
      planeRequest = null;
      const words = await sim.gatherOwned(req.cells);
      await ch.send({ type: 'plane-sums', id: req.id, samples: sim.samples, frameBytes: [words.byteLength] }, [words]);
    };
    // its pages touched before the clock starts (touching them while the GPUs run slows the exchange)
    await arena?.touched;
    const result = await sim.run({
      sampleInto: arena ? async () => endOfRunState(arena, sim.tables, sim.subdomain.nLocal) : undefined,
      // the orchestrator's stop (a cancel) fails this rank's waits with StopRequestedError; a stop and keep ends the
      // loop after the agreed submit (keep.signal) and keeps what it ran
      timing: p.timing, detail: p.detail, signal: keep.signal, keepOnStop: true,
      // a rebalancing run's block sums, read with every submit (rank-balance.ts sends them)
      ...(balance ? { blockSums: p.balanceBlock ?? 1 } : {}),
      // the ranks start the clock together (a rank that starts late would be timed as the others' wait)
      // (each first collects the set-up's garbage, so that the loop's first scavenge comes late)
      beforeClock: () => {
        collectBeforeLoop();
        return peerBarrier(ch, betweenSteps(sim.stepsDone, MEETING_EXCHANGE), p.exchangeTimeoutMs);
      },
      // this rank's file of a checkpoint; the orchestrator completes it once every rank's next submit arrived
      onCheckpoint: folder ? async () => writeRankFile(folder, await sim.snapshot()) : undefined,
      onBatch: async (b) => {
        if (ch.stopSignal.aborted) throw ch.stopSignal.reason;
        const k = keep.begin();
        // with the other ranks, at a submit's end: a scavenge on its own would hold them up at another step
        if (collectOldAfter !== null && k >= collectOldAfter) {
          // a major collection takes the young generation too
          collectOldAfter = null;
          if (collectAfter !== null && k >= collectAfter) collectAfter = null;
          const seconds = collectOld();
          if (seconds !== null) collections.push({ index: k, seconds, major: true });
        }
        if (collectAfter !== null && k >= collectAfter) {
          collectAfter = null;
          const seconds = collectYoung();
          if (seconds !== null) collections.push({ index: k, seconds });
        }
        const young = youngFill();
        const old = oldGenerationBytes();
        // the report goes out while the next submit runs (sending it here held every rank's GPU idle for some 5 ms)
        await reports.settled();
        reports.later(() => ch.send({ type: 'batch', index: k, steps: b.steps, passes: b.passes, particles: b.particles, gpuSeconds: b.gpuSeconds, young, old, frameBytes: [] }, []));
        await answerPlane();
        if (balance) {
          // inside the loop clock: the time balancing costs this rank (the go after the submit before, decided while
          // this one ran: cell counts, relayout; rank-balance.ts)
          const t = performance.now();
          await balance.atSubmitEnd(k, b.blockSums);
          balanceSeconds += (performance.now() - t) / 1000;
        }
        // stop and keep: waits here (after this submit's report) for the agreed last submit, ends the loop after it
        await keep.end(k);
      },
      // the ranks close the batch-means blocks on their GPUs by the plan of the whole loop (a resumed run's too)
    }, steps, p.blockPlan ?? { from: sim.stepsDone, steps });
    // every batch report is out before `done` (the orchestrator merges them first)
    await reports.settled();
    if (exchangeTrace) process.stdout.write(`${traceLine(ch.rank, exchangeTrace)}\n`);
    stepTimeline?.write(ch.rank);
    const gpuBytes = bufferPlan(sim.tables, sim.state.capacity, subdomain.nLocal, subdomain.worldSize).reduce((s, x) => s + x.bytes, 0);
    // the sampled fields leave the GPU once, at the end; this rank turns its cells' sums and batch means into fields and
    // standard errors (the ranks at once) and sends those
    const tFields = performance.now();
    const fields = result.sampleState ? await rankFields(sim.kase, sim.tables, sim.subdomain, result.sampleState, result.sampleCounters, arena?.f64(), evaluationThreads(sim.subdomain.nLocal, subdomain.worldSize)) : null;
    const fieldsSeconds = (performance.now() - tFields) / 1000;
    // on the orchestrator's host the planes go through a file of the peer folder (read straight into place), else frames
    const tWrite = performance.now();
    const planesFile = fields && ch.peerFolder ? writeFieldPlanes(ch.peerFolder, ch.rank, fields.planes) : null;
    const writeSeconds = planesFile ? (performance.now() - tWrite) / 1000 : 0;
    // where this rank's end of the run went (the orchestrator's summary: endOfRun)
    const endOfRun = fields
      ? { readSeconds: result.endOfRun?.readSeconds[0] ?? 0, evaluateSeconds: fieldsSeconds, threads: fields.threads, writeSeconds, rankSeconds: (performance.now() - (result.clockStoppedAt ?? tFields)) / 1000 }
      : null;
    const sampleFrames = fields && !planesFile ? fields.planes : [];
    // the exact surface sums go as their bytes, the last frame (as decimal strings in the JSON they cost the wedge's
    // orchestrator about a second to parse and add)
    const totals = sim.surface.totals;
    const frames: ArrayBufferView[] = [...sampleFrames, new Uint8Array(totals.buffer, totals.byteOffset, totals.byteLength)];
    await ch.send({
      type: 'done',
      summary: {
        // the loop's steps: fewer than planned after a stop and keep (every rank the same)
        steps: result.steps,
        seconds: result.seconds,
        timingSource: result.timingSource,
        ...(result.timedEvery ? { timedEvery: result.timedEvery } : {}),
        phases: [...result.phases, ...(p.detail ? transportTime : [])].map(([name, t]) => ({ name, ...t, minSeconds: Number.isFinite(t.minSeconds) ? t.minSeconds : 0 })),
        start: { ...result.start }, end: { ...result.end },
        capacity: result.capacity, particles: sim.liveParticles, gpuBytes, host: result.host,
        split: sim.splitStats(),
        youngCollections: collections,
        setupParts: { ...setup.parts },
        balanceSeconds, relayoutSeconds: sim.relayoutSeconds, relayoutRounds: sim.relayoutRounds, balanceParts: { ...balance?.parts, ...sim.relayoutParts },
        // exact integer surface sums (decimal strings: JSON has no 64-bit integers); the orchestrator adds them up
        surface: { frame: frames.length - 1, sampledSteps: sim.surface.sampledSteps },
        ...(result.reactionCounts ? { reactionCounts: result.reactionCounts } : {}),
        ...(result.sampleKernel ? { sampleKernel: definedMembers(result.sampleKernel) } : {}),
        sampleCounters: { ...result.sampleCounters },
        ...(fields ? { fieldNames: [...fields.names], fieldsSeconds } : {}),
        ...(planesFile ? { fieldsFile: { ...planesFile } } : {}),
        ...(endOfRun ? { endOfRun } : {}),
        subdomain: { cellBase: sim.subdomain.cellBase, nLocal: sim.subdomain.nLocal },
      },
      frameBytes: frames.map((f) => f.byteLength),
    }, frames);
    // the orchestrator acknowledges once every rank's `done` is in; then nothing of this rank is still in flight
    return await ch.receive('done-ack', DONE_ACK_TIMEOUT_MS).then(() => true, () => false);
  } finally {
    gpu?.device.destroy();
  }
}

/**
 * Milliseconds a rank waits after closing its channel before it exits when its last message was not acknowledged
 * (stops, or an `error` or `done` the orchestrator did not confirm). zeromq hands queued messages to the kernel on its
 * own I/O thread after close(); process.exit() right away lost the final `done` on a loaded machine (6 of 12
 * `dsmc run --ranks 4` under two busy loops failed "every rank exited before it reported"; 0 of 10 with this wait).
 */
const EXIT_FLUSH_MS = 300;

/** How long a rank waits for the orchestrator to acknowledge its `done`. */
const DONE_ACK_TIMEOUT_MS = 10_000;

/** How long a failing rank waits for the orchestrator to acknowledge its `error` (it then exits anyway, after EXIT_FLUSH_MS). */
const ERROR_ACK_TIMEOUT_MS = 2000;

/** Closes the channel, lets its last messages leave (unless they were acknowledged), and exits with `code`. */
async function closeAndExit(ch: RankChannel, code: number, acknowledged = false): Promise<never> {
  await ch.close().catch(() => undefined);
  if (!acknowledged) await new Promise((r) => setTimeout(r, EXIT_FLUSH_MS));
  process.exit(code);
}

exitWhenSupervisorGone();
const channel = await RankChannel.fromEnvironment();
try {
  const acknowledged = await main(channel);
  await closeAndExit(channel, 0, acknowledged);
} catch (e) {
  if (e instanceof StopRequestedError || e instanceof RunCancelled) await closeAndExit(channel, 0);
  const message = e instanceof Error ? e.message : String(e);
  process.stderr.write(`rank ${channel.rank}: ${message}\n`);
  await channel.reportError(e).catch(() => undefined);
  // the orchestrator acknowledges the report once the run is marked failed with it; without that, the exit waits a moment
  const acknowledged = await channel.receive('error-ack', ERROR_ACK_TIMEOUT_MS).then(() => true, () => false);
  await closeAndExit(channel, 1, acknowledged);
}

/** An object's members that are not undefined (a message's JSON has no undefined). */
function definedMembers(o: object): Record<string, string | number | boolean> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Record<string, string | number | boolean>;
}
