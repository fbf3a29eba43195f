// The orchestrator of a multi-rank run on one host: decomposes the grid, pins one rank process per GPU
// (or lets them share the default adapter, saying so), supervises them, configures them, assembles their
// submits into the run's step statistics and fields as they arrive, and builds the run's summary.
// A crash or hang of any rank stops the others and rejects with RankFailedError; an abort cancels; a stop and keep
// (stop-and-keep.ts) ends every rank after the same submit and returns the run so far as at a normal end.
import { join } from 'node:path';
import { isGpuWorkPhase } from '../../common/reports/rank-time.js';
import { SurfaceAccumulator } from '../../solver/surface-accumulator.js';
import { surfaceSummary } from '../../solver/surface-summary.js';
import type { SolverTables } from '../../solver/tables.js';
import type { SurfaceSums } from '../../common/surface-layout.js';
import { hostname } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { Case } from '../../common/case-schema.js';
import type { RunSummary, SampleKernelReport, TimingMode } from '../../common/run-summary.js';
import { RunCancelled, type LoopResult, type Progress, type SplitStats, type StepStats } from '../../solver/loop-types.js';
import { summarize } from '../../solver/summary.js';
import { compositionSummary } from '../../solver/composition-summary.js';
import type { SampleCounters } from '../../solver/field-accumulator.js';
import { frameAs } from '../transport/message-codec.js';
import type { FieldPlanesFile } from '../transport/field-planes-file.js';
import type { LiveFieldSource } from '../../solver/loop-types.js';
import type { PhaseTotals } from '../../solver/gpu/phase-totals.js';
import type { ParticleTotals } from '../../solver/phases/conservation.js';
import type { RankPayload } from '../../solver/rank-payload.js';
import { subdomainOf } from '../../solver/subdomain.js';
import { buildTablesOnThreads } from '../../solver/tables.js';
import type { Decomposition, Method } from '../decomposition/types.js';
import { assignGpus, discoverGpus, ranksPinnedTogether, ranksShareGpus, type GpuInfo } from '../gpus.js';
import { failureText } from '../supervisor/errors.js';
import { launchRanks } from '../supervisor/launch-ranks.js';
import type { LaunchOptions, RankGroup, RunOutcome } from '../supervisor/types.js';
import { OrchestratorChannel } from '../transport/orchestrator-channel.js';
import { PeerFolder } from '../transport/peer-folder.js';
import type { TransportSpec } from '../transport/endpoints.js';
import { BalanceCoordinator, type KeptGo } from './balance-coordinator.js';
import { balancePlan, firstSplit, type BalancePlan } from './balance-plan.js';
import { relayoutRoundBytes } from '../../solver/relayout-rounds.js';
import { RunAssembler, type RankStep } from './run-assembler.js';
import { LivePlanes } from './live-planes.js';
import { CheckpointKeeper } from './checkpoint-keeper.js';
import { StopAndKeep } from './stop-and-keep.js';
import { attachedCheckpointTarget, type CheckpointTarget } from '../../solver/checkpoint/checkpoint-target.js';
import type { ResumePoint } from '../../solver/checkpoint/checkpoint-load.js';
import { YoungCollections, collectAtFillFromEnvironment } from './young-collections.js';
import { RANK_OLD_SPACE_MB, oldCollectionsFromEnvironment } from './old-collections.js';

/**
 * Node flags of every rank process: young-generation semispaces of 64 MB from the start (V8 starts them at 1 MB and
 * grows them only as objects survive). A rank's host makes some garbage every step, and each scavenge (2-3 ms on a GPU
 * machine) holds up every rank, which wait for its migrants: on 4 x H100, scavenges came every ~90 steps on each rank,
 * some 60 ms of a 400-step 4-rank run. An old generation of RANK_OLD_SPACE_MB before V8 collects it on its own: the
 * binding's polls add some 25 KB a step there (old-collections.ts), which V8 collected every few hundred steps after
 * some 10 MB, in pauses of 13-18 ms that held every rank up; a full collection's pause grows with what lives, not with
 * the garbage. --expose-gc: the ranks collect together when the orchestrator asks (young-collections.ts,
 * old-collections.ts); without them (DSMC_OLD_COLLECTIONS=0) V8's own old generation.
 */
function rankNodeFlags(oldTogether: boolean): string[] {
  return ['--min-semi-space-size=64', '--max-semi-space-size=64', ...(oldTogether ? [`--initial-old-space-size=${RANK_OLD_SPACE_MB}`] : []), '--expose-gc'];
}

/** The compiled rank entry (out/src-main/solver/rank-main.js next to this file's out/ twin). */
export const RANK_SCRIPT = fileURLToPath(new URL('../../solver/rank-main.js', import.meta.url));

export interface DistributedOptions {
  ranks: number;
  /** The decomposition method; undefined: the case's default (balance-plan.ts defaultMethod). */
  method?: Method;
  /** GPU indices or PCI addresses, one per rank (default: rank r on GPU r when pinnable, else all share the default adapter). */
  gpus?: string[];
  /** The GPUs of this host when the caller has listed them already (discoverGpus spawns a process). */
  discovered?: GpuInfo[];
  timing?: TimingMode;
  detail?: boolean;
  warmupSteps?: number;
  /** Cancels: every rank stops at once and the run rejects with RunCancelled (nothing kept). */
  signal?: AbortSignal;
  /**
   * Stop and keep: an abort ends every rank's loop after the same submit (the ranks agree on it: stop-and-keep.ts) and
   * the run resolves with what it ran and sampled (DistributedRun.stoppedAtStep, summary.steps the steps run).
   */
  stopAndKeep?: AbortSignal;
  transport?: TransportSpec;
  /** Every rank log line, prefixed with rank, GPU and pid. */
  onLog?: (line: string) => void;
  /** Warnings before launch (e.g. ranks cannot be pinned). */
  onWarning?: (text: string) => void;
  onProgress?: (p: Progress) => void;
  /** Merged statistics of each submit, as every rank has reported it. */
  onSteps?: (steps: StepStats[]) => void;
  /** After each merged submit: the run's sampled fields so far (a live view; read it, do not keep it past the call). */
  /** Live fields after each merged submit of a sampling run: planes read from the ranks' GPUs on demand (live-planes.ts). */
  onFields?: (fields: LiveFieldSource) => void | Promise<void>;
  /** Called before the ranks are launched with how the run is balanced and why (the first split, rebalancing). */
  onBalancePlan?: (reason: string) => void;
  /** Called once the ranks are launched (for records: adapters, pids). */
  onLaunched?: (ranks: LaunchedRank[]) => void;
  /** Milliseconds a rank may stay silent before it counts as hung (default 60 s: shader compiles block the event loop). */
  heartbeatTimeoutMs?: number;
  /**
   * Starts and supervises the rank processes (default: launchRanks, child processes on this host). A cluster
   * launcher (Slurm) returns the same RankGroup for ranks started elsewhere; it gets the same options.
   */
  launcher?: (options: LaunchOptions) => RankGroup;
  /**
   * Rebalance when the load non-uniformity UN exceeds this many percent and a new split pays, checked after every
   * submit; null keeps the decomposition fixed, undefined takes the default (balance-plan.ts).
   */
  rebalancePercent?: number | null;
  /** Where checkpoints go when run.checkpointEvery > 0 (default: the target attached to the case object when the ranks are configured). */
  checkpoints?: CheckpointTarget;
  /** Continue from this checkpoint (its decomposition, on as many ranks as wrote it) instead of filling the box. */
  resume?: ResumePoint;
}

/** The decomposition of a run: the one a resumed checkpoint was written with, else a fresh one. */
function decompositionOf(c: Case, o: DistributedOptions, plan: BalancePlan): Decomposition {
  const r = o.resume;
  if (!r) return firstSplit(c, plan, o.ranks).decomposition;
  if (!r.loop.decomposition || r.loop.ranks !== o.ranks) {
    throw new Error(`checkpoint ${r.dir} was written by ${r.loop.ranks} rank${r.loop.ranks === 1 ? '' : 's'}; resume it on that many ranks`);
  }
  return r.loop.decomposition;
}

/** One launched rank as the run records it. */
export interface LaunchedRank {
  rank: number;
  gpu: string;
  pinned: boolean;
  pid: number | null;
  hostname: string;
  adapter: { description: string; backend: string };
}

/** What a rank reports in `done`. */
interface RankDone {
  /** The steps of the rank's loop (fewer than planned after a stop and keep; absent from older ranks). */
  steps?: number;
  seconds: number;
  timingSource: 'gpu-timestamps' | 'wall-clock' | 'off';
  /** GPU timestamps on one call in this many of each phase (absent from older ranks: every call). */
  timedEvery?: number;
  phases: ({ name: string } & PhaseTotals)[];
  /** The rank's sampling counters (passes, blocks) at the end. */
  sampleCounters?: SampleCounters;
  /** The names of the fields whose planes (then their errors') the rank sent with `done`, and the seconds it took to compute them. */
  fieldNames?: string[];
  fieldsSeconds?: number;
  /** Where the rank wrote those planes instead of sending them (the run's peer folder: field-planes-file.ts). */
  fieldsFile?: FieldPlanesFile;
  /** Its end of a sampled run: seconds reading back, evaluating (on `threads` threads) and writing the planes' file (absent from older ranks). */
  endOfRun?: { readSeconds: number; evaluateSeconds: number; threads: number; writeSeconds: number; rankSeconds?: number };
  start: ParticleTotals;
  end: ParticleTotals;
  capacity: number;
  particles: number;
  gpuBytes: number;
  host: { encodeSeconds: number; waitSeconds: number; readbackSeconds: number; submits: number };
  split: SplitStats | null;
  /** The garbage collections it took with the other ranks: after which submit, seconds, major ones marked (absent from older ranks). */
  youngCollections?: { index: number; seconds: number; major?: true }[];
  /** Seconds of the loop the rank spent balancing (waiting for decisions, cell counts, relayouts). */
  balanceSeconds?: number;
  /** Seconds and rounds of the rank's relayouts (part of balanceSeconds). */
  relayoutSeconds?: number;
  relayoutRounds?: number;
  /** Where the rank's set-up went, seconds per part (rank-main: SetupClock; absent from older ranks). */
  setupParts?: Record<string, number>;
  /** Where the balancing seconds went (rank-main balanceParts, Simulation.relayoutParts; absent from older ranks). */
  balanceParts?: Record<string, number>;
  /** Which of the message's frames holds the rank's exact surface sums (64-bit integers), and the sampled steps they cover. */
  surface: { frame: number; sampledSteps: number };
  /** Reacting runs: how many times each reaction happened on the rank. */
  reactionCounts?: number[];
  /** Sampled runs: which kernel sampled the rank and why (absent from older ranks). */
  sampleKernel?: SampleKernelReport;
}

/** The largest value of each part over the ranks (the slowest rank sets the pace). */
function mostPerPart(parts: Record<string, number>[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const p of parts) for (const [k, v] of Object.entries(p)) out[k] = Math.max(out[k] ?? 0, v);
  return out;
}

/** A finished multi-rank run. */
export interface DistributedRun {
  summary: RunSummary;
  assembler: RunAssembler;
  decomposition: Decomposition;
  ranks: LaunchedRank[];
  /** Phase totals of every rank (including 'exchange': host time moving migrants, waiting for peers included). */
  rankPhases: { rank: number; phases: ({ name: string } & PhaseTotals)[] }[];
  rankSteps: RankStep[];
  /** The solver tables of the case and the surface sums of all ranks. */
  tables: SolverTables;
  surface: SurfaceSums;
  /** The last step run when a stop and keep ended the run before its last step (as summary.steps counts); null when it ran to its end. */
  stoppedAtStep: number | null;
}

/** Sums particle totals over ranks. */
function addTotals(all: ParticleTotals[]): ParticleTotals {
  const out: ParticleTotals = { particles: 0, momentum: [0, 0, 0], kineticEnergy: 0, internalEnergy: 0, momentumMagnitudeSum: 0, meanSpeed: 0 };
  for (const t of all) {
    out.particles += t.particles;
    for (let a = 0; a < 3; a++) out.momentum[a] += t.momentum[a];
    out.kineticEnergy += t.kineticEnergy;
    out.internalEnergy! += t.internalEnergy ?? 0;
    out.momentumMagnitudeSum += t.momentumMagnitudeSum;
    out.meanSpeed += t.meanSpeed * t.particles;
    // particles per species (exact integers): the ranks' counts add up
    if (t.speciesCounts) out.speciesCounts = t.speciesCounts.map((k, i) => k + (out.speciesCounts?.[i] ?? 0));
  }
  out.meanSpeed = out.particles > 0 ? out.meanSpeed / out.particles : 0;
  return out;
}

/**
 * Phase totals of the run, SPARTA style: per phase the mean over ranks of its time (0 on a rank that never ran it: the
 * injection on a rank with no inflow face), the most calls of any rank (the ranks that run a phase run it alike), min
 * and max per call over all ranks.
 */
function meanPhases(dones: RankDone[]): Map<string, PhaseTotals> {
  const out = new Map<string, PhaseTotals>();
  for (const d of dones) {
    for (const p of d.phases) {
      const t = out.get(p.name) ?? { calls: 0, totalSeconds: 0, minSeconds: Infinity, maxSeconds: 0 };
      t.calls = Math.max(t.calls, p.calls);
      t.totalSeconds += p.totalSeconds / dones.length;
      t.minSeconds = Math.min(t.minSeconds, p.minSeconds);
      t.maxSeconds = Math.max(t.maxSeconds, p.maxSeconds);
      out.set(p.name, t);
    }
  }
  return out;
}

/** Waits for `promise`, but rejects once every rank has exited first (failed or cancelled at once; a completed group gets 5 s for its last messages). */
function guarded<T>(promise: Promise<T>, outcome: Promise<RunOutcome>): Promise<T> {
  const ended = outcome.then(async (o) => {
    if (o.status === 'completed') await new Promise((r) => setTimeout(r, 5000).unref());
    throw new Error(o.status === 'failed' ? o.failure.message : o.status === 'cancelled' ? o.reason : 'every rank exited before it reported');
  });
  ended.catch(() => undefined);
  return Promise.race([promise, ended]);
}

/**
 * The same-host fast path's private folder when every rank runs on this host (the local launcher over ipc, every
 * hello from this host name) and DSMC_PEER_SHM is not 0; null otherwise (migrants go through zeromq).
 */
async function peerFolderFor(o: DistributedOptions, rankHosts: readonly string[]): Promise<PeerFolder | null> {
  if (o.launcher || (o.transport?.kind ?? 'ipc') !== 'ipc' || o.ranks < 2) return null;
  if (rankHosts.some((h) => h !== hostname())) return null;
  return PeerFolder.create({ onWarning: o.onWarning });
}

/**
 * What the orchestrator decides before it configures the ranks: its solver tables, the balance plan and the split
 * (announced through onBalancePlan), the loop's blocks and the assembler of the ranks' results.
 */
async function orchestratorSetup(c: Case, o: DistributedOptions, sharedGpus: boolean) {
  // the ranks of this host build theirs at the same time: the cores are shared
  const tables = await buildTablesOnThreads(c, o.ranks + 1);
  const plan = balancePlan(c, tables, o.rebalancePercent, o.resume?.loop.decomposition?.method ?? o.method, o.resume !== undefined, sharedGpus);
  const decomposition = decompositionOf(c, o, plan);
  o.onBalancePlan?.(o.resume ? `the checkpoint's split: ${plan.reason}` : plan.reason);
  const subdomains = decomposition.boxes.map((_, r) => subdomainOf(decomposition, r));
  const warmup = o.resume ? 0 : o.warmupSteps ?? 0;
  const blockPlan = o.resume ? o.resume.loop.blockPlan : { from: warmup, steps: c.run.steps };
  const assembler = new RunAssembler(c, subdomains, blockPlan, tables);
  if (o.resume?.loop.fields) assembler.fields.counters = { ...o.resume.loop.fields };
  return { tables, plan, decomposition, warmup, blockPlan, assembler };
}

/** Runs a validated case over `o.ranks` rank processes on this host. */
export async function runDistributed(c: Case, o: DistributedOptions): Promise<DistributedRun> {
  // the ranks' major collections taken together (their old generations sized for it), unless DSMC_OLD_COLLECTIONS=0
  const oldCollections = oldCollectionsFromEnvironment();
  const startedAt = performance.now();
  // a cluster launcher places and pins its ranks on the nodes: this host's GPUs play no part then
  const gpus = assignGpus(o.ranks, !o.launcher && (o.gpus || o.ranks > 1) ? o.discovered ?? discoverGpus() : [], o.launcher ? undefined : o.gpus);
  for (const w of gpus.warnings) o.onWarning?.(w);
  const channel = await OrchestratorChannel.open({ transport: o.transport });
  const heartbeatTimeoutMs = o.heartbeatTimeoutMs ?? 60_000;
  let group: RankGroup;
  try {
    group = (o.launcher ?? launchRanks)({
      script: RANK_SCRIPT,
      // DSMC_RANK_NODE_ARGS: more Node flags for the rank processes (profiling: --trace-gc, --cpu-prof, ...)
      execArgv: [...rankNodeFlags(oldCollections !== null), ...(process.env.DSMC_RANK_NODE_ARGS ?? '').split(/\s+/).filter((a) => a.length > 0)],
      ranks: gpus.ranks.map((g) => ({ rank: g.rank, gpu: g.label, env: g.env })),
      channel,
      onLog: o.onLog,
      heartbeatTimeoutMs,
      heartbeatIntervalMs: Math.min(2000, heartbeatTimeoutMs / 4),
      startTimeoutMs: 120_000,
    });
  } catch (e) {
    await channel.close(); // a launcher that refuses at once (e.g. sbatch missing) leaves no socket open
    throw e;
  }
  // a rank that says why it fails: the run fails with its words, and the rank may exit without waiting for them to leave
  channel.on('error', (m) => {
    void group.fail(m.rank, m.message.message);
    void channel.send(m.rank, { type: 'error-ack' }).catch(() => undefined);
  });
  const onAbort = () => void group.cancel('cancelled (Ctrl-C or the app)');
  o.signal?.addEventListener('abort', onAbort, { once: true });
  const keep = new StopAndKeep(channel, gpus.ranks.map((g) => g.rank), (e) => {
    void group.cancel(`stop and keep failed: the ranks could not be told where to stop (${(e as Error).message}); the run keeps nothing`);
  });
  // before the ranks are configured nothing was sampled (a Slurm job may still wait in the queue): a stop then cancels
  let configured = false, cancelledBeforeStart = false;
  const onKeep = () => {
    if (configured) { keep.request(); return; }
    cancelledBeforeStart = true;
    void group.cancel('cancelled (Ctrl-C or the app) before the ranks started: nothing was sampled to keep');
  };
  if (o.stopAndKeep?.aborted) onKeep();
  else o.stopAndKeep?.addEventListener('abort', onKeep, { once: true });
  const t0 = performance.now();
  let moved = 0;
  let outcome: RunOutcome | null = null;
  let peerFolder: PeerFolder | null = null;
  let livePlanes: LivePlanes | null = null;
  // the orchestrator's own set-up failed (a case its tables refuse): that error, not the ranks' echo of it
  let ownSetupError = false;
  const collections = new YoungCollections(collectAtFillFromEnvironment());
  try {
    const hellos = await guarded(channel.waitForHellos(o.ranks, 180_000), group.outcome);
    const launchSeconds = (performance.now() - startedAt) / 1000;
    // every rank gets the case now and builds its solver tables (seconds for a case with bodies) while this process
    // builds its own and decides the split below, instead of after `configure`
    await channel.broadcast({ type: 'prepare', case: c as never });
    const ownFrom = performance.now();
    const setup = await orchestratorSetup(c, o, ranksPinnedTogether(gpus.ranks)).catch((e: unknown) => {
      ownSetupError = true;
      throw e;
    });
    const { tables, plan, decomposition, warmup, blockPlan, assembler } = setup;
    const orchestratorSeconds = (performance.now() - ownFrom) / 1000;
    let keeper: CheckpointKeeper | null = null;
    // with balancing, a submit's checkpoint opens once the layout at its end is known (the ranks write their files in
    // it, after the re-split they take there, if any): its merged steps wait here until then
    const awaitingDecision = new Map<number, StepStats[]>();
    const rebalanceState = () => (balance ? { thresholdPercent: balance.thresholdPercent, events: [...balance.events], policy: balance.policy } : null);
    // a resumed run goes on from the go its checkpoint kept (the ranks take it at the end of their first submit)
    const kept = (o.resume?.loop.rebalance?.kept ?? null) as KeptGo | null;
    const balance = plan.rebalancePercent === null ? null : new BalanceCoordinator(c, tables, decomposition, plan.rebalancePercent, assembler, channel, (index, layout, keptGo) => {
      const steps = awaitingDecision.get(index);
      awaitingDecision.delete(index);
      const state = rebalanceState();
      if (steps) keeper?.merged(steps, assembler, layout, state && { ...state, kept: keptGo as Record<string, unknown> | null });
    }, o.resume?.loop.rebalance?.events ?? [], blockPlan.from + blockPlan.steps, o.resume?.loop.rebalance?.policy, kept);
    livePlanes = o.onFields && c.sampling.enabled ? new LivePlanes(c, tables, channel, o.ranks, () => assembler.fields.samples) : null;
    const live = livePlanes;
    channel.on('batch', (m) => {
      const { index, steps, passes, particles, gpuSeconds, young, old } = m.message;
      collections.note(index, m.rank, young);
      oldCollections?.note(index, m.rank, old);
      const merged = assembler.add(m.rank, index, { steps, passes, particles, phases: [], gpuSeconds: gpuSeconds ?? 0 });
      if (!merged) return;
      // every rank scavenges after the same later submit once one's young generation fills
      const collectAfter = collections.decide(index);
      if (collectAfter !== null) for (let r = 0; r < o.ranks; r++) void channel.send(r, { type: 'collect', index: collectAfter }).catch(() => undefined);
      // and their old generations, once one's has grown by the budget (a pause for all instead of one for each)
      const collectOldAfter = oldCollections?.decide(index) ?? null;
      if (collectOldAfter !== null) for (let r = 0; r < o.ranks; r++) void channel.send(r, { type: 'collect', index: collectOldAfter, major: true }).catch(() => undefined);
      o.onSteps?.(merged);
      // the live view: a plane read from the ranks' GPUs (LiveFields paces the requests)
      if (live && assembler.fields.samples > 0) void Promise.resolve(o.onFields!(live)).catch(() => undefined);
      if (balance) {
        awaitingDecision.set(index, merged);
        // a submit that ends with a checkpoint: the checkpoint keeps the go after it (balance-coordinator.ts)
        balance.merged(index, merged[merged.length - 1].step, keeper?.due(merged) ?? false);
      } else {
        keeper?.merged(merged, assembler, decomposition);
      }
      for (const s of merged) moved += s.particlesBefore;
      const elapsed = (performance.now() - t0) / 1000;
      const last = merged[merged.length - 1];
      o.onProgress?.({ step: last.step - warmup, steps: c.run.steps, particles: last.particlesAfter, elapsedSeconds: elapsed, particleStepsPerSecond: moved / elapsed });
    });
    const ranks: LaunchedRank[] = gpus.ranks.map((g) => {
      const h = hellos.get(g.rank)!;
      return { rank: g.rank, gpu: g.label, pinned: g.pinned, pid: h.pid, hostname: h.hostname, adapter: { description: h.adapter?.description ?? 'unknown', backend: String(h.adapter?.backend ?? 'unknown') } };
    });
    o.onLaunched?.(ranks);
    // a relayout's cost in particle-steps depends on whether the ranks' adapters are GPUs or software (rebalancer.ts);
    // ranks of this host that share a GPU balance by counts (a cluster launcher gives each rank a GPU of its own)
    if (balance) {
      balance.setAdapters([...hellos.values()].every((h) => h.adapter?.software === true), !o.launcher && ranksShareGpus(gpus.ranks));
      // fewer, larger relayout rounds where every rank's adapter binds more than WebGPU's default
      balance.roundBytes = relayoutRoundBytes(Math.min(...[...hellos.values()].map((h) => h.adapter?.maxBinding ?? 0)));
    }
    // after onLaunched: a recorder attaches the run's checkpoint folder to the case there
    const target = c.run.checkpointEvery > 0 ? o.checkpoints ?? attachedCheckpointTarget(c) : undefined;
    if (target) keeper = new CheckpointKeeper(c, target, blockPlan, (w) => o.onWarning?.(w));
    else if (c.run.checkpointEvery > 0) o.onWarning?.('run.checkpointEvery is set but this run is not saved (--no-save), so no checkpoints are written; save the run to be able to resume it');
    const payload: RankPayload = {
      case: c, decomposition, timing: o.timing ?? 'auto', detail: !!o.detail, warmupSteps: warmup, exchangeTimeoutMs: 600_000,
      rebalancePercent: plan.rebalancePercent,
      ...(balance ? { balanceBlock: balance.block } : {}),
      checkpoints: target ? { folder: target.folder } : null,
      resume: o.resume ? { dir: o.resume.dir, endStep: blockPlan.from + blockPlan.steps, ...(kept ? { keptGo: kept.go } : {}) } : null,
      blockPlan,
    };
    peerFolder = await peerFolderFor(o, ranks.map((r) => r.hostname));
    await channel.configureAll(payload as unknown, { peerFolder: peerFolder?.path });
    configured = true;
    // while the ranks set up (seconds: buffers, pipelines), the orchestrator rehearses a re-split decision, so that the
    // first check does not run cold (decision-warm-up.ts); a resumed run's ranks read checkpoints meanwhile too
    if (balance) {
      setImmediate(() => {
        try {
          balance.rehearse();
        } catch (e) {
          o.onWarning?.(`the rehearsal of a re-split decision failed (${(e as Error).message}); the run goes on, its first check may take longer`);
        }
      });
    }
    await guarded(channel.collect('ready', ranks.map((r) => r.rank), 600_000), group.outcome);
    const setupSeconds = (performance.now() - startedAt) / 1000;
    const done = await guarded(channel.collect('done', ranks.map((r) => r.rank)), group.outcome);
    assembler.doneArrived();
    // every `done` is in: the ranks may exit at once (without it they wait a moment for their last messages to leave)
    await Promise.all(ranks.map((r) => channel.send(r.rank, { type: 'done-ack' }).catch(() => undefined)));
    const dones = ranks.map((r) => done.get(r.rank)!.message.summary as unknown as RankDone);
    const surfaces = ranks.map((r, k) => surfaceTotalsOf(done.get(r.rank)!.frames, dones[k], r.rank));
    // the planes are placed while the ranks exit (freeing a GPU's buffers and the host's arenas takes a while)
    const placing = assembler.finish(ranks.map((r, k) => {
      const m = done.get(r.rank)!;
      const names = dones[k].fieldNames ?? [];
      const file = dones[k].fieldsFile;
      if (file) {
        const f = checkedPlanesFile(file, r.rank, names.length, peerFolder?.path ?? null);
        return { names, file: f };
      }
      const planes = m.frames.filter((_, i) => i !== dones[k].surface.frame);
      return planes.length > 0 ? { names, planes: planes.map((x) => frameAs(x, Float64Array)) } : null;
    }));
    placing.catch(() => undefined); // awaited below, once the ranks' outcome is known
    outcome = await group.outcome;
    if (outcome.status === 'cancelled') throw new RunCancelled(outcome.reason);
    if (outcome.status === 'failed') throw new Error(outcome.failure.message);
    await placing;
    // the ranks' counters include their warm-up's passes; they agree with each other by construction
    if (dones[0].sampleCounters) assembler.fields.counters = { ...dones[0].sampleCounters };
    const run = finishRun(c, tables, o, assembler, balance?.decomposition ?? decomposition, ranks, dones, surfaces, warmup, keep.wanted);
    if (balance) run.summary.rebalances = balance.events;
    if (!o.resume) {
      run.summary.setupSeconds = setupSeconds;
      // side by side, not one after the other: the ranks' parts (each the most over the ranks) run while the
      // orchestrator builds its own tables and split
      run.summary.setupParts = { launch: launchSeconds, orchestrator: orchestratorSeconds, ...mostPerPart(dones.map((x) => x.setupParts ?? {})) };
    }
    run.summary.balance = {
      reason: plan.reason, rebalancePercent: plan.rebalancePercent, ...(balance ? { by: balance.by, ...(balance.costModel.prices ? { prices: balance.costModel.prices } : {}) } : {}), checks: balance?.checks ?? 0,
      ...(balance ? { fullChecks: balance.fullChecks, checkBlock: balance.block } : {}), orchestratorSeconds: balance?.seconds ?? 0,
      rankSeconds: Math.max(0, ...dones.map((x) => x.balanceSeconds ?? 0)),
      relayoutSeconds: Math.max(0, ...dones.map((x) => x.relayoutSeconds ?? 0)),
      relayoutRounds: Math.max(0, ...dones.map((x) => x.relayoutRounds ?? 0)),
      parts: mostPerPart(dones.map((x) => x.balanceParts ?? {})),
      ...(balance ? { orchestratorParts: { ...balance.parts } } : {}),
    };
    return run;
  } catch (e) {
    // the case failed the orchestrator's own set-up (its tables, its split): its error, with the ranks stopped
    if (ownSetupError) {
      outcome = await group.cancel(`the orchestrator could not set the run up: ${(e as Error).message}`);
      throw e;
    }
    // a failed or cancelled run: the supervisor's outcome says why better than a closed channel does
    // (the timer is unref'd: a failed run must not keep the process alive 15 s after its ranks ended)
    outcome ??= await Promise.race([group.outcome, new Promise<null>((r) => setTimeout(() => r(null), 15_000).unref())]);
    if (!outcome) outcome = await group.cancel('the orchestrator stopped after an error');
    if (outcome.status === 'cancelled' && (o.signal?.aborted || cancelledBeforeStart)) throw new RunCancelled(outcome.reason);
    if (outcome.status === 'failed') throw new Error(failureText(outcome.failure));
    throw e;
  } finally {
    livePlanes?.close();
    keep.close();
    o.signal?.removeEventListener('abort', onAbort);
    o.stopAndKeep?.removeEventListener('abort', onKeep);
    await channel.close();
    await peerFolder?.close(); // the ranks have ended here (or were cancelled): their migrant files go too
  }
}

/**
 * A rank's planes file as its `done` names it, checked: the file it was told to write (its own name in this run's peer
 * folder: the orchestrator reads and removes it, so no other path is taken) holding two planes per field.
 */
function checkedPlanesFile(file: FieldPlanesFile, rank: number, fields: number, folder: string | null): FieldPlanesFile {
  const expected = folder === null ? null : join(folder, `fields-${rank}.f64`);
  if (file.path !== expected) throw new Error(`rank ${rank} wrote its field planes to ${file.path}; expected ${expected ?? 'frames (this run has no peer folder)'}`);
  if (!Array.isArray(file.bytes) || file.bytes.length !== 2 * fields) throw new Error(`rank ${rank} wrote ${file.bytes?.length} field planes for ${fields} fields (and their errors)`);
  return file;
}

/** A rank's exact surface sums from the frame its `done` names (64-bit integers, one per element and quantity). */
function surfaceTotalsOf(frames: readonly Uint8Array[], done: RankDone, rank: number): BigInt64Array {
  const k = done.surface?.frame;
  if (typeof k !== 'number' || !(k >= 0 && k < frames.length)) throw new Error(`internal: rank ${rank}'s done names frame ${k} for its surface sums; it sent ${frames.length}`);
  return frameAs(frames[k], BigInt64Array);
}

/**
 * The steps every rank's loop ran: the planned ones, or fewer after a stop and keep (`kept`). Ranks that ran different
 * counts would have broken the agreement of stop-and-keep.ts: an internal error, never a result.
 */
function stepsRun(dones: RankDone[], planned: number, kept: boolean): number {
  const steps = dones.map((x) => x.steps ?? planned);
  if (steps.some((x) => x !== steps[0])) throw new Error(`internal: the ranks ran different numbers of steps (${steps.join(', ')})${kept ? ' after a stop and keep' : ''}; the run keeps nothing`);
  return steps[0];
}

/** The summary of a finished multi-rank run (or one stopped and kept: `kept`). */
function finishRun(c: Case, tables: SolverTables, o: DistributedOptions, a: RunAssembler, d: Decomposition, ranks: LaunchedRank[], dones: RankDone[], surfaces: BigInt64Array[], warmup: number, kept: boolean): DistributedRun {
  // the steps this process was to run (a resumed run's: those after its checkpoint), as on one rank
  const planned = o.resume ? o.resume.loop.blockPlan.from + o.resume.loop.blockPlan.steps - o.resume.loop.step : c.run.steps;
  const steps = stepsRun(dones, planned, kept);
  const lastStep = a.stepStats.at(-1)?.step ?? warmup + c.run.steps;
  const seconds = Math.max(...dones.map((x) => x.seconds));
  const start = addTotals(dones.map((x) => x.start));
  const end = addTotals(dones.map((x) => x.end));
  const host = {
    encodeSeconds: Math.max(...dones.map((x) => x.host.encodeSeconds)),
    waitSeconds: Math.max(...dones.map((x) => x.host.waitSeconds)),
    readbackSeconds: Math.max(...dones.map((x) => x.host.readbackSeconds)),
    // from the loops' end to the fields in global order: the ranks reading back and evaluating their cells (at once),
    // sending the planes, the orchestrator placing them
    foldSeconds: a.foldSeconds,
    submits: dones[0].host.submits,
  };
  const gpuBytes = dones.reduce((s, x) => s + x.gpuBytes, 0);
  // every rank saw the hits in its own cells: the exact integer sums add up to the one-rank totals
  const surface = new SurfaceAccumulator(tables.bodies.elements);
  dones.forEach((x, k) => surface.merge({ totals: surfaces[k], sampledSteps: x.surface.sampledSteps }));
  surface.sampledSteps = dones[0].surface.sampledSteps;
  const surfaceSums = surface.toSums(tables.bodies, c.run.dt);
  const result: LoopResult = {
    steps, seconds, stepStats: a.stepStats, phases: meanPhases(dones), timingSource: dones[0].timingSource, ...(dones[0].timedEvery ? { timedEvery: dones[0].timedEvery } : {}),
    start, startStep: warmup, end, samples: a.fields.samples, fields: a.fields.fields(), fieldErrors: a.fields.errors(), fieldBlocks: a.fields.blocks,
    sampleState: null, sampleCounters: a.fields.counters, totalsOverTime: [{ step: steps < planned ? lastStep : warmup + c.run.steps, totals: end }], capacity: dones.reduce((s, x) => s + x.capacity, 0),
    tables, host, surface: surfaceSums,
    ...(tables.reactions ? { reactionCounts: tables.reactions.reactions.map((_, k) => dones.reduce((s, x) => s + (x.reactionCounts?.[k] ?? 0), 0)) } : {}),
  };
  const summary = summarize(c.name, result, { description: ranks[0].adapter.description, backend: ranks[0].adapter.backend, vendor: '', architecture: '' }, gpuBytes);
  summary.composition = compositionSummary(c, result);
  const un = a.loadNonUniformity.map((x) => x.percent);
  summary.ranks = ranks.length;
  summary.decomposition = d.method;
  summary.particlesPerRank = dones.map((x) => x.particles);
  // each rank's GPU work in the loop (its passes' times, no host phases): where the time of an uneven run went
  if (dones[0].timingSource === 'gpu-timestamps') summary.gpuSecondsPerRank = dones.map((x) => x.phases.filter((p) => isGpuWorkPhase(p.name)).reduce((sum, p) => sum + p.totalSeconds, 0));
  summary.phaseSecondsPerRank = dones.map((x) => Object.fromEntries(x.phases.map((p) => [p.name, p.totalSeconds])));
  summary.loadNonUniformity = un.length > 0 ? un[un.length - 1] : 0;
  summary.loadNonUniformityMean = un.length > 0 ? un.reduce((s, x) => s + x, 0) / un.length : 0;
  summary.rankAdapters = ranks.map((r) => ({ rank: r.rank, gpu: r.gpu, pinned: r.pinned, description: r.adapter.description }));
  summary.splitSteps = dones.flatMap((x, rank) => (x.split ? [{ rank, ...x.split }] : []));
  summary.youngCollections = dones.flatMap((x, rank) => (x.youngCollections ?? []).map((g) => ({ rank, ...g })));
  // each rank chooses its sampling kernel by its own measured times (the same bits either way)
  if (tables.sampling) summary.sampleKernels = dones.flatMap((x, rank) => (x.sampleKernel ? [{ rank, ...x.sampleKernel }] : []));
  summary.surface = surfaceSummary(c, tables, surfaceSums);
  const ends = dones.map((x) => x.endOfRun);
  if (ends.every((x) => x !== undefined)) {
    summary.endOfRun = {
      readSeconds: ends.map((x) => x.readSeconds), evaluateSeconds: ends.map((x) => x.evaluateSeconds), threads: ends.map((x) => x.threads),
      writeSeconds: ends.map((x) => x.writeSeconds), rankSeconds: ends.map((x) => x.rankSeconds ?? 0), arrivedSeconds: a.arrivedSeconds, placeSeconds: a.placeSeconds,
    };
  }
  return { summary, assembler: a, decomposition: d, ranks, rankPhases: dones.map((x, rank) => ({ rank, phases: x.phases })), rankSteps: a.rankSteps, tables, surface: surfaceSums,
    stoppedAtStep: steps < planned ? lastStep : null };
}
