// The timestep loop of one rank, in the manner of SPARTA's Update::run: per step one call per
// phase (move, inject, [exchange, migrate,] sort, collide, sample), each timed; many steps per submit,
// and the host reads back only once per submit (step statistics, particle count, sampling sums). A
// rank of a multi-rank run also stops once per step after the move to exchange migrating particles.
import type { Case } from '../common/case-schema.js';
import { Readback, WORKGROUP_SIZE, makeBuffer, type ReadSource, type RecordedRead } from './gpu/buffers.js';
import { throwIfGpuError, type Gpu } from './gpu/device.js';
import { SAMPLED_TIMING_EVERY, TimestampRecorder, UntimedRecorder, WallClockRecorder, type PhaseRecorder } from './gpu/phase-timer.js';
import { addTime, gpuSecondsBetween, type PhaseTotals } from './gpu/phase-totals.js';
import { PipelineCache } from './gpu/pipeline-cache.js';
import { CELL_WORD, CTL, MIGRANT_CELL_WORD } from './gpu/struct-layouts.js';
import type { VelocityDistribution } from '../common/velocity-distribution.js';
import { countsWithProducts, firstSpeciesDistribution, readInternalEnergies, readParticleArrays, type InternalEnergies } from './particle-readers.js';
import { FieldAccumulator, closeCounters, fieldsOfGathered, momentUnscales, noSamples, type SampleCounters } from './field-accumulator.js';
import { partPlanes, sampleLayout, type SampleState } from './sample-buffers.js';
import { noFields, type Fields } from './fields.js';
import { MigrationExchange, type ExchangeResult } from './migration-exchange.js';
import { MigratePhase } from './phases/migrate.js';
import { cellShare, globalCellOf, localCellOf, wholeGrid, type Subdomain } from './subdomain.js';
import { particleTotals, type ParticleTotals } from './phases/conservation.js';
import { CollidePhase } from './phases/collide.js';
import { ProductsPhase } from './phases/products.js';
import { ReactionLedger } from './reaction-ledger.js';
import { encodeInit } from './phases/init.js';
import { InjectPhase } from './phases/inject.js';
import { MovePhase } from './phases/move.js';
import type { PhaseContext } from './phases/phase.js';
import { SamplePhase } from './phases/sample.js';
import { SampleKernelChoice, copyTotals, sampleKernelSetting, type SampleKernelName } from './sample-kernel-choice.js';
import { SortPhase, type SplitPass } from './phases/sort.js';
import { expectedMigrants } from './migrant-estimate.js';
import { DEEPEN_WINDOW, arrivalsOutsideHalo, globalHalo, haloBitWords, haloBits, haloList, initialHaloDepth, periodicAxes, type GlobalHalo } from './halo-split.js';
import { boxCells } from '../cluster/decomposition/box.js';
import { coarseGridWithBlock, coarseSumsOf, packCoarseSums } from '../cluster/decomposition/coarse-grid.js';
import { CoarseCounts } from './phases/coarse-counts.js';
import type { Int3 } from '../cluster/decomposition/types.js';
import type { ParticleAttribute } from './particle-attributes.js';
import { PARTICLE_ATTRIBUTES } from './particle-attributes.js';
import { checkpointDue } from './checkpoint/checkpoint-schedule.js';
import type { LoopHistory, RankSnapshot } from './checkpoint/checkpoint-state.js';
import { cellOrderMap, inCellOrder, reordered, savedCellStarts } from './checkpoint/cell-order.js';
import { SimState, capacityFactorFromEnvironment, injectionMargin, rankCapacity } from './state.js';
import { stepTimeline } from './step-timeline.js';
import { buildTables, type SolverTables } from './tables.js';
import { RunCancelled, type LoopOptions, type LoopResult, type RelayoutTraffic, type SimulationPlacement, type SplitStats, type StepStats } from './loop-types.js';
import { SurfaceAccumulator } from './surface-accumulator.js';
import { SAMPLE_OVERFLOW, overflowMessage, stepStatsOf } from './step-stats.js';
import { RELAYOUT_FIRST_EXCHANGE, betweenSteps, stepExchange } from './exchange-sequence.js';
import { RELAYOUT_ROUND_BYTES, relayoutPlan } from './relayout-rounds.js';
import type { PrefaultedArena } from './prefault.js';
import { endOfRunArena, endOfRunState } from './rank-fields.js';
import { evaluationThreads } from './field-evaluation-threads.js';
import { PASSES_PER_STEP, blockSubmits, blockUnitSteps, countStep, samplesAt, stepsPerSubmit, type BlockPlan } from './submit-plan.js';

/** Steps recorded between two early submits inside a batch (overlaps recording with the GPU). */
const FLUSH_EVERY = 8;

/** What a split pass records besides its sort and collide. */
interface SplitPart {
  /** The next step's interior part moves after the pass (interior pass only). */
  early?: boolean;
  /** The step samples: this pass's cells are sampled after their collisions. */
  sample?: boolean;
  /** The surface sums are kept before the early move (the next step samples its wall hits). */
  keepSurface?: boolean;
}

/** One simulation on one device: the whole grid, or one rank's subdomain of a multi-rank run. */
/** Bytes of a rank's per-cell state for a rebalance (counts, (sigma c_r)_max, remainders) over `nLocal` cells. */
function cellStateBytes(nLocal: number): number {
  return 3 * 4 * nLocal;
}

/** Room the staging of a full check's read keeps for cells a re-split adds to a rank (times its cells at the set-up). */
const CELL_STATE_ROOM = 1.5;

/** Headroom of links readied for a relayout a submit ahead (readyRelayoutLinks): the particles drift meanwhile. */
const RELAYOUT_LINK_HEADROOM = 0.1;

export class Simulation {
  readonly tables: SolverTables;
  readonly state: SimState;
  readonly cache: PipelineCache;
  private readonly ctx: PhaseContext;
  private readonly move: MovePhase;
  private readonly inject?: InjectPhase;
  private readonly migrate?: MigratePhase;
  private readonly exchange?: MigrationExchange;
  private sort: SortPhase;
  private readonly collide: CollidePhase;
  /** Reacting runs: the products phase (dissociations) and the account of reactions and products. */
  private products?: ProductsPhase;
  /** A rebalance check's block sums on the GPU (made at the first check). */
  private coarseCounts?: CoarseCounts;
  readonly reactions?: ReactionLedger;
  private readonly sample: SamplePhase;
  private readonly chunk: number;
  /** Steps of a batch-means unit (submit-plan.ts: blocks are made of sampled units, closed where a unit ends). */
  private readonly blockUnit: number;
  /** Sampled fields (one-rank runs; in a multi-rank run the orchestrator keeps them). */
  private readonly fieldsAcc: FieldAccumulator | null;
  /**
   * One rank, sampled: the end of a run's arena (prefault.ts), touched from the set-up on, and the state arrays
   * the read-backs after each run() fill (the accumulator keeps the latest); the fields and errors take theirs from it.
   */
  private endArena: PrefaultedArena | null = null;
  private endState: SampleState | null = null;
  /** The host copy of the surface sums that a read of them fills (kept: readSurface). */
  private surfaceWords: Uint8Array<ArrayBuffer> | null = null;
  /** Sampled steps whose surface sums are still on the GPU only (readSurface adds them to `surface`). */
  private surfaceStepsOnGpu = 0;
  /** Sampling passes and batch-means blocks so far (the sums themselves stay on the GPU). */
  private counters: SampleCounters = noSamples();
  /** Staging buffers reused by the read-back after every submit. */
  private readonly readback: Readback;
  /**
   * This rank's surface sums (bodies and domain faces) as exact integers, up to the last readSurface: the GPU's
   * 64-bit sums add up modulo 2^64, as the host's do, so they stay there for the whole loop and are read once at its
   * end and for a checkpoint (read after every sampled submit, 4.5 MB on the full-size wedge, they held a sampled
   * submit's end up by 3-7 ms on each rank).
   */
  readonly surface: SurfaceAccumulator;
  private particles: number;
  private step = 0;
  /** Exchange of each step of the current submit (multi-rank). */
  private readonly exchanges = new Map<number, ExchangeResult>();
  /**
   * Split steps (multi-rank): halo depth in cells per axis, steps redone whole so far, periodic axes, whether the
   * halo must be rewritten before the next step, and its bits over global cell ids (for checking arrivals; the cell
   * count is state.haloCells).
   */
  private readonly halo: {
    depth: Int3; redos: number; periodic: boolean[]; stale: boolean; global: GlobalHalo;
    /** The last step with an arrival beyond the halo (a second within DEEPEN_WINDOW steps deepens it). */
    lastOutside: number | null;
  } | null = null;
  /**
   * Whether a rank moves the next step's interior part while the host exchanges this step's migrants (move.ts
   * MovePart; on unless placement.earlyMove is false), and whether the live set's interior part has moved so (for
   * the step about to be recorded).
   */
  private readonly earlyMoves: boolean;
  private movedEarly = false;
  /**
   * The surface sums as they were before an early move of a sampled step (its wall hits are sampled as it moves): put
   * back when this step is redone, which moves that step again whole (created at the first such move).
   */
  private surfaceBackup: GPUBuffer | null = null;
  /** Invocations of the next 'rest' move (a guess from this step's halo part; its loop covers any count). */
  private restThreads = 0;
  /** A rank of several: the host's bound on its particles before the next step's move (the last read-back, then each exchange's count with its arrivals). */
  private liveBefore = 0;
  /** Steps whose interior part moved early so far (split statistics). */
  private earlyMoveCount = 0;
  /** Fixed size of the halo pass's per-particle dispatches (tests), else sized per step. */
  private readonly haloThreads?: number;
  /** Invocations of the injection's write and of the collect of injected migrants: the bound on a step's injection (or the placement's, in tests). */
  private readonly injectThreads: number;
  /** Bytes of migrant records one relayout round may emit (RELAYOUT_ROUND_BYTES unless a test sets it). */
  private readonly relayoutRoundBytes: number;
  /** Relayout rounds and seconds so far (rebalances), and where the seconds went (setup, rounds, the final sort). */
  relayoutRounds = 0;
  relayoutSeconds = 0;
  readonly relayoutParts = { setupSeconds: 0, roundSeconds: 0, exchangeSeconds: 0, sortSeconds: 0 };
  /** Which kernel samples (the pass or the collide kernel's walk), tried and chosen on the first sampled submits. */
  private readonly sampleChoice: SampleKernelChoice;
  /** The sampling kernel of the submit being recorded. */
  private submitKernel: SampleKernelName = 'pass';
  /** Host-side phases (the exchange of a multi-rank run and, with detail, its parts). */
  private readonly hostPhases = new Map<string, PhaseTotals>();
  /** Loop history restored from a checkpoint, continued by the next run(). */
  private carried: LoopHistory | null = null;
  /** History of the current run() so far (what snapshot() saves). */
  private history: LoopHistory | null = null;

  /** tables: the case's solver tables when the caller built them already (its pre-launch check did); else built here. */
  constructor(private readonly gpu: Gpu, readonly kase: Case, placement?: SimulationPlacement, tables?: SolverTables) {
    this.tables = tables ?? buildTables(kase);
    const subdomain = placement?.subdomain ?? wholeGrid(kase.grid.cells);
    const multi = subdomain.worldSize > 1;
    if (multi && !placement?.exchanger) throw new Error('internal: a rank of a multi-rank run needs an exchanger');
    this.chunk = stepsPerSubmit(kase);
    this.blockUnit = blockUnitSteps(kase);
    this.haloThreads = placement?.haloThreads;
    this.injectThreads = placement?.injectThreads ?? injectionMargin(this.tables.injectionPerStep);
    // (a dissociation's product takes the position its parent had at the collision: stage_parents keeps it before an early move)
    this.earlyMoves = multi && placement?.earlyMove !== false;
    this.relayoutRoundBytes = placement?.relayoutRoundBytes ?? RELAYOUT_ROUND_BYTES;
    const device = gpu.device;
    this.cache = new PipelineCache(device, {
      WG_SIZE: WORKGROUP_SIZE, MULTI_RANK: multi ? 1 : 0, HAS_BODIES: this.tables.bodies.nTris > 0 ? 1 : 0, HAS_ROTATION: this.tables.hasRotation ? 1 : 0, INTERNAL_WORDS: this.tables.internalWords, MIGRANT_WORDS: this.tables.migrantWords,
      REACTIONS: this.tables.reactions ? 1 : 0, GRID_NX: kase.grid.cells[0], GRID_NY: kase.grid.cells[1],
    });
    const share = cellShare(subdomain, this.tables.nCells);
    const limits = { maxBinding: Number(gpu.limits.maxStorageBufferBindingSize), maxBuffer: Number(gpu.limits.maxBufferSize) };
    const planned = rankCapacity(this.tables, this.chunk, share, subdomain.nLocal, subdomain.worldSize, limits);
    this.state = new SimState(device, this.tables, placement?.capacity ?? Math.ceil(capacityFactorFromEnvironment() * planned), this.chunk, subdomain, kase,
      Math.ceil((placement?.cellRoom ?? 1) * subdomain.nLocal));
    this.state.fixedParticleThreads = placement?.particleThreads;
    const setting = sampleKernelSetting(this.tables.sampling, gpu.adapter.software === true, this.tables.reactions !== null);
    this.sampleChoice = new SampleKernelChoice(setting);
    this.ctx = { device, cache: this.cache, state: this.state, sampleKernel: setting };
    this.readback = new Readback(device);
    this.move = new MovePhase(this.ctx);
    if (InjectPhase.needed(this.ctx)) this.inject = new InjectPhase(this.ctx, this.injectThreads);
    this.sort = new SortPhase(this.ctx);
    this.collide = new CollidePhase(this.ctx);
    if (this.tables.reactions) {
      this.reactions = new ReactionLedger(this.tables.reactions);
      this.products = new ProductsPhase(this.ctx);
    }
    this.sample = new SamplePhase(this.ctx);
    if (multi) {
      if (placement?.segmentCapacity !== undefined) this.state.growMigrants(placement.segmentCapacity);
      this.migrate = new MigratePhase(this.ctx);
      this.exchange = new MigrationExchange(gpu, this.state, this.migrate, placement!.exchanger!,
        (capacity, nAll) => this.growTo(capacity, nAll, nAll), () => this.bindAll(),
        // split steps: arrivals outside the halo, against the halo of the moment
        (records) => arrivalsOutsideHalo(records, this.halo!.global, this.tables.migrantWords, MIGRANT_CELL_WORD, CELL_WORD.MASK),
        // the next step's injection, and the products of this step and the next (ReactionLedger.room)
        () => injectionMargin(this.tables.injectionPerStep) + (this.reactions?.room(2) ?? 0));
      // the exchange's buffers sized for the expected migrants now, not in the first steps (bound below in bindAll)
      this.exchange.reserve(expectedMigrants(kase, subdomain, this.tables.fnum), placement?.segmentCapacity === undefined);
    }
    this.bindAll();
    if (multi) {
      this.halo = {
        depth: placement?.haloDepth ?? initialHaloDepth(kase, subdomain.worldSize), redos: 0, lastOutside: null, periodic: periodicAxes(kase), stale: false,
        global: { first: 0, bits: new Uint32Array(0) },
      };
      this.writeHalo();
    }
    this.fieldsAcc = multi ? null : new FieldAccumulator(kase, this.tables, null, (n) => this.endArena?.take(Float64Array, n) ?? new Float64Array(n));
    // one rank, sampled: the end of run's memory, its pages touched while the rest is set up (run() waits for them)
    if (this.fieldsAcc && this.tables.sampling) this.endArena = endOfRunArena(kase, this.tables, this.subdomain.nLocal);
    // every sampled rank reads its state back at the end: its staging buffers are made now, not then
    if (this.tables.sampling) this.state.sample.prepareRead();
    this.surface = new SurfaceAccumulator(this.tables.bodies.elements);
    this.particles = multi ? 0 : this.tables.initialParticles;
  }

  /** This rank's part of the grid as it is now (a rebalance moves it). */
  get subdomain(): Subdomain {
    return this.state.subdomain;
  }

  /** (Re)creates every phase's bind groups. */
  private bindAll(): void {
    for (const p of [this.move, this.inject, this.sort, this.collide, this.products, this.sample, this.migrate]) p?.bind();
  }

  /** Fills the box (step 0) and sorts it, so that the first step starts from cell-sorted particles. */
  async initialize(): Promise<void> {
    const device = this.gpu.device;
    const enc = device.createCommandEncoder({ label: 'init' });
    const pass = enc.beginComputePass({ label: 'init' });
    encodeInit(this.ctx, pass);
    this.sort.encode(pass, this.state.current);
    pass.end();
    device.queue.submit([enc.finish()]);
    this.state.current = this.state.current === 0 ? 1 : 0;
    const ctl = new Uint32Array(await this.readback.read(this.state.ctl, 4 * CTL.WORDS));
    throwIfGpuError(this.gpu);
    if (ctl[CTL.OVERFLOW] > 0) {
      throw new Error(
        `rank ${this.subdomain.rank}: ${ctl[CTL.N_ALL]} initial particles fell in this rank's cells, more than its buffers hold ` +
        `(${this.state.capacity}); please report this case (the capacity allows for 6 standard deviations).`,
      );
    }
    this.particles = ctl[CTL.N];
  }

  /** Reallocates the particle buffers (keeping `scratch` entries of the sort's scratch) and rebinds. */
  private growTo(capacity: number, live: number, scratch = 0): void {
    const maxBinding = Number(this.gpu.limits.maxStorageBufferBindingSize);
    if (4 * capacity > maxBinding) {
      throw new Error(
        `The particle count is heading for ${Math.round(capacity / 1.5)}, more than one buffer binding of this adapter holds ` +
        `(${Math.floor(maxBinding / 4)} particles at ${maxBinding} bytes). Use fewer particles (particles.fnum larger or ` +
        'particles.perCell smaller), more ranks, or an adapter with larger bindings.',
      );
    }
    this.state.grow(capacity, live, scratch);
    this.readback.release(); // the partials buffer was reallocated
    this.bindAll();
  }

  /** Particles the next `steps` could need at most (the count at the last read-back plus injection and dissociation products with margins). */
  private particlesNeeded(steps: number): number {
    return this.particles + injectionMargin(this.tables.injectionPerStep * steps) + (this.reactions?.room(steps) ?? 0);
  }

  /** Whether the next `steps` could exceed the particle buffers. */
  private needsGrowth(steps: number): boolean {
    return this.particlesNeeded(steps) > this.state.capacity;
  }

  /** Grows the particle buffers when the next `steps` could exceed them (never drops particles). */
  private ensureCapacity(steps: number, rec: PhaseRecorder): void {
    const room = this.reactions?.room(1) ?? 0;
    // the entries of one step's products (the particle buffers' room for them is in particlesNeeded)
    if (room > this.state.productCap) {
      rec.flush();
      if (this.state.ensureProducts(room)) this.bindAll();
    }
    if (!this.needsGrowth(steps)) return;
    const need = this.particlesNeeded(steps);
    rec.flush(); // recorded passes use the old buffers: submit them before those are replaced
    this.growTo(Math.ceil(1.5 * need), this.particles);
  }

  /**
   * Records one pass of a split step (multi-rank): sort and collide the interior cells (1, submitted at once) or
   * the halo cells (2; timed as the second part of the same sort and collide calls, or apart with detail).
   */
  private async recordSplit(rec: PhaseRecorder, set: 0 | 1, which: SplitPass, detail: boolean, part: SplitPart = {}): Promise<void> {
    const sorted = set === 0 ? 1 : 0;
    const { early = false, sample = false, keepSurface = false } = part;
    // a sampled step samples this pass's cells now (the interior ones before the next step's interior part moves): the
    // interior ones inside the collide kernel (the walk, timed as collide+sample) or in a pass of their own, the halo
    // ones in a pass (the halo pass of a walk's step is timed as collide+sample too, so that the kernel choice compares
    // like with like)
    const walk = sample && this.submitKernel === 'walk';
    const collideName = walk ? 'collide+sample' : 'collide';
    const collide = (p: GPUComputePassEncoder) => (walk && which === 1 ? this.collide.encodeInteriorSampled(p, sorted) : this.collide.encodeSplit(p, sorted, which));
    if (detail) {
      // detailed timing keeps the halo pass apart (stage.halo), to show what waits for the arrivals
      const suffix = which === 2 ? '.halo' : '';
      for (const stage of this.sort.stages) await rec.pass(`sort.${stage}${suffix}`, (p) => this.sort.encodeSplit(p, set, which, stage));
      await rec.pass(`${collideName}${suffix}`, collide);
    } else {
      const continues = which === 2;
      await rec.pass('sort', (p) => this.sort.encodeSplit(p, set, which), continues);
      await rec.pass(collideName, collide, continues);
    }
    if (sample && (!walk || which === 2)) {
      await rec.pass(detail && which === 2 ? 'sample.halo' : 'sample', (p) => this.sample.encodeSplit(p, sorted, which === 1 ? 'interior' : 'halo'), which === 2 && !detail);
    }
    if (early && keepSurface) {
      // the next step samples the wall hits of its move: keep the sums without them, for a redo of this step
      const sums = this.state.surfSums;
      this.surfaceBackup ??= makeBuffer(this.gpu.device, 'surface.backup', sums.size);
      rec.encoder.copyBufferToBuffer(sums, 0, this.surfaceBackup, 0, sums.size);
    }
    // the products made so far keep their parents' positions, then the next step's interior part moves now (timed with
    // this step's move), in the same submit
    if (early && this.products) await rec.pass('products', (p) => this.products!.encodeStage(p, sorted));
    if (early) await rec.pass(detail ? 'move.early' : 'move', (p) => this.move.encode(p, sorted, 'early'), !detail);
    if (which === 1) rec.flush();
  }

  /**
   * Before a split step whose interior cells were sampled is redone whole: the interior pass once more from the
   * untouched source set (the same particles as the first time; the early move changed that set's copy), and its
   * sums taken back exactly, so that the redone step samples every cell once.
   */
  private async recordSampleTakeBack(rec: PhaseRecorder, set: 0 | 1, detail: boolean): Promise<void> {
    const sorted = set === 0 ? 1 : 0;
    await rec.pass(detail ? 'sort.redo' : 'sort', (p) => this.sort.encodeRestore(p), !detail);
    await this.recordSplit(rec, set, 1, detail);
    await rec.pass(detail ? 'sample.redo' : 'sample', (p) => this.sample.encodeSplit(p, sorted, 'undoInterior'), !detail);
  }

  /** Writes the halo of the current subdomain and depth (bits, list, count) and sizes the halo pass (split steps). */
  private writeHalo(): void {
    const h = this.halo!;
    const queue = this.gpu.device.queue;
    const sub = this.state.subdomain;
    const t0 = performance.now();
    const bits = haloBits(this.kase.grid.cells, h.periodic, sub, h.depth);
    const list = haloList(bits);
    h.global = globalHalo(list, sub.nLocal, (l) => globalCellOf(sub, this.kase.grid.cells, l));
    this.state.haloCells = list.length;
    queue.writeBuffer(this.state.halo, 0, bits);
    if (list.length > 0) queue.writeBuffer(this.state.halo, 4 * haloBitWords(sub.nLocal), list);
    queue.writeBuffer(this.state.ctl, 4 * CTL.HALO_CELLS, new Uint32Array([list.length]));
    this.sort.sizeHaloPass();
    h.stale = false;
    stepTimeline?.hostEvent(`halo of ${list.length} cells written`, t0);
  }

  /** The split of this rank's steps (null on one rank). */
  splitStats(): SplitStats | null {
    const h = this.halo;
    if (!h) return null;
    return { depth: [...h.depth] as Int3, haloCells: this.state.haloCells, ownedCells: boxCells(this.state.subdomain.box), redos: h.redos, earlyMoves: this.earlyMoveCount };
  }

  /**
   * Records the rest of a split step whole (an arrival outside the halo, or buffers grown after the interior pass):
   * the interior pass's changes undone, then the plain sort and collide from the untouched source set.
   */
  private async recordRedo(rec: PhaseRecorder, set: 0 | 1, detail: boolean): Promise<void> {
    const sorted = set === 0 ? 1 : 0;
    await rec.pass(detail ? 'sort.redo' : 'sort', (p) => {
      this.sort.encodeRestore(p);
      this.sort.encode(p, set);
    }, !detail);
    await rec.pass(detail ? 'collide.redo' : 'collide', (p) => this.collide.encode(p, sorted), !detail);
  }

  /**
   * Records one timestep; returns whether it sampled. nextInSubmit: step s + 1 is recorded in the same submit (a
   * rank may then move that step's interior part early, while this step's migrants are exchanged).
   */
  private async recordStep(rec: PhaseRecorder, s: number, detail: boolean, nextInSubmit: boolean): Promise<boolean> {
    const st = this.state;
    // whether the interior pass recorded the products' staging (the products phase's first part)
    let stagedProducts = false;
    if (this.halo?.stale) {
      rec.flush(); // the passes recorded so far use the old halo
      this.writeHalo();
    }
    if (this.exchange) {
      // the capacity is checked against the count read back after the last submit: only its first step can grow
      if (this.movedEarly && this.needsGrowth(1)) throw new Error(`internal: rank ${this.subdomain.rank} would grow its particle buffers with step ${s} half moved`);
      this.ensureCapacity(1, rec);
      // the per-particle passes of this step (and the next step's early part): the particles after the last exchange,
      // this step's injection and the products of this step and the one before
      st.liveBound = this.liveBefore + injectionMargin(this.tables.injectionPerStep) + (this.reactions?.room(2) ?? 0);
    }
    const set = st.current;
    const part = this.movedEarly ? 'rest' : 'all';
    this.movedEarly = false;
    await rec.pass('move', (p) => this.move.encode(p, set, part, this.restThreads));
    if (this.inject?.injectsHere()) {
      await rec.pass('inject', (p) => {
        this.inject!.encode(p, set);
        this.migrate?.encodeCollectInjected(p, set, this.injectThreads);
      });
    }
    if (this.exchange) {
      // the status read of this move's migrants goes with it: one submit for both
      this.exchange.encodeStatus(rec.encoder, set);
      rec.flush();
      this.exchange.submitted(); // the step before's arrival copies were in that command buffer
      stepTimeline?.mark(2 * s, 'move-submit');
      stepTimeline?.markWhenDone(2 * s, 'move-done', this.gpu.device.queue);
      const h = this.halo!;
      // a sampled step samples its interior cells in the interior pass and its halo cells after the halo pass (a
      // step whose dissociations make products samples whole, after they joined)
      const sampled = samplesAt(this.kase, s);
      const splitSample = sampled && !this.products;
      // the next step's interior part moves early when that step is in this submit (after this step's interior cells
      // were sampled; the surface sums of a sampled next step are kept without its early hits, for a redo)
      const early = this.earlyMoves && nextInSubmit && (!sampled || splitSample);
      const keepSurface = early && samplesAt(this.kase, s + 1);
      stagedProducts = early && !!this.products;
      // exchange sequence numbers: 2 s for the step's migrants, 2 s + 1 for a relayout after step s;
      // the interior cells are sorted and collided on the GPU meanwhile (and the next step's interior part moved)
      const x = await this.exchange.run(stepExchange(s), set, async () => {
        await this.recordSplit(rec, set, 1, detail, { early, sample: splitSample, keepSurface });
        stepTimeline?.mark(2 * s, 'interior-submit');
        stepTimeline?.markWhenDone(2 * s, 'interior-done', this.gpu.device.queue);
      }, { timelineKey: 2 * s, encoder: () => rec.encoder });
      // arrivals outside the halo (counted as each peer's records arrived)
      const outside = x.flagged;
      // after the arrivals join: the bound of a redo's whole sort and of the next step's particles
      this.liveBefore = x.nAll + x.received;
      st.liveBound = Math.max(st.liveBound, this.liveBefore);
      this.exchanges.set(s, x);
      addTime(this.hostPhases, 'exchange', x.seconds);
      if (detail) for (const [part, sec] of Object.entries(x.parts)) addTime(this.hostPhases, `exchange.${part}`, sec);
      // a redo sorts the whole step again, which also undoes an early move of the next step's interior part (that
      // step then moves whole); regrown migrant buffers lost that part's migrants, so they need the redo too
      const redo = outside > 0 || x.grew || (early && x.regrew);
      // the interior cells' sums come back before the arrivals join the source set's counts
      if (redo && splitSample) await this.recordSampleTakeBack(rec, set, detail);
      if (redo && keepSurface) rec.encoder.copyBufferToBuffer(this.surfaceBackup!, 0, st.surfSums, 0, st.surfSums.size);
      await rec.pass('migrate', (p) => this.migrate!.encodeAppend(p, set, x.received));
      if (redo) {
        h.redos += 1;
        if (outside > 0) {
          // a second arrival beyond the halo soon after the last: one layer deeper on every axis from the next step on
          if (h.lastOutside !== null && s - h.lastOutside <= DEEPEN_WINDOW) {
            h.depth = h.depth.map((d) => d + 1) as Int3;
            h.stale = true;
          }
          h.lastOutside = s;
        }
        await this.recordRedo(rec, set, detail);
      } else {
        // the halo pass's per-particle dispatches, sized from the step before (plus the arrivals)
        this.sort.sizeHaloParticles(x.haloBefore + x.received, this.haloThreads);
        await this.recordSplit(rec, set, 2, detail, { sample: splitSample });
        this.movedEarly = early;
        if (early) this.earlyMoveCount += 1;
        // the rest of the next step's move takes this step's halo part (listed and arrived particles): a guess
        this.restThreads = this.haloThreads ?? Math.ceil(1.25 * (x.haloBefore + x.received)) + 4096;
      }
      stepTimeline?.mark(2 * s, 'halo-recorded');
      st.current = set === 0 ? 1 : 0;
      // sampled in the two passes (a redone step samples below, whole)
      if (splitSample && !redo) return true;
    } else {
      if (detail) {
        for (const stage of this.sort.stages) await rec.pass(`sort.${stage}`, (p) => this.sort.encode(p, set, stage));
      } else {
        await rec.pass('sort', (p) => this.sort.encode(p, set));
      }
      st.current = set === 0 ? 1 : 0;
      // the walk samples inside the collide kernel (timed as collide+sample)
      const fused = this.submitKernel === 'walk' && samplesAt(this.kase, s);
      await rec.pass(fused ? 'collide+sample' : 'collide', (p) => (fused ? this.collide.encodeSampled(p, st.current) : this.collide.encode(p, st.current)));
      if (fused) return true;
    }
    // the particles the step's dissociations made join the live ones before the step samples (the same call as the
    // staging of their parents' positions before an early move)
    if (this.products) await rec.pass('products', (p) => this.products!.encode(p, st.current), stagedProducts);
    if (!samplesAt(this.kase, s)) return false;
    await rec.pass('sample', (p) => this.sample.encode(p, st.current));
    return true;
  }

  /**
   * Counts step s into the sampling counters (countStep: its pass, the unit it ends) and, when the open batch-means
   * block closes after it, records the close (sample_close) right after the step, inside the submit being recorded
   * (a sampled run's submits are as long as an unsampled run's; its blocks close where their units end).
   */
  private async countStep(rec: PhaseRecorder, s: number, plan: BlockPlan, perBlock: number): Promise<void> {
    const k = this.counters;
    if (!countStep(k, this.kase, plan, this.blockUnit, perBlock, s)) return;
    const t = this.tables;
    const unscale = momentUnscales(t);
    this.sample.prepareClose({
      passes: k.blockPasses, block: k.blocks + 1,
      massRef: t.species[0].mass, unscale: [unscale[1], unscale[4], unscale[10], 1 / t.simParams.sampleScaleE],
    });
    await rec.pass('sample-close', (p) => this.sample.encodeClose(p));
    // the close's values went by queue.writeBuffer, which runs before the next command buffer submitted: hand this one
    // over now, so that the next close's values cannot overtake it
    rec.flush();
    closeCounters(k);
  }

  /**
   * Steps of the next submit: the whole chunk, or one batch-means unit while the sampling kernels are on trial and the
   * chunk would sample (a trial takes a unit's steps, so that the faster kernel still samples most of the run).
   */
  private submitSteps(): number {
    if (!this.sampleChoice.measuring) return this.chunk;
    for (let s = this.step + 1; s <= this.step + this.chunk; s++) {
      if (samplesAt(this.kase, s)) return Math.min(this.blockUnit, this.chunk);
    }
    return this.chunk;
  }

  /** One rank, sampled: the prefaulted arrays the read-back after a loop fills (undefined: fresh ones). */
  private async endOfRunState(): Promise<SampleState | undefined> {
    if (!this.endArena) return undefined;
    this.endState ??= endOfRunState(this.endArena, this.tables, this.subdomain.nLocal);
    return this.endState;
  }

  /**
   * Reads this rank's sampling state (every cell's sums and batch means) from the GPU, into `into` when its arrays
   * have this state's sizes (else fresh ones); stops on an overflow.
   */
  async readSampleState(into?: SampleState): Promise<SampleState> {
    const { state, overflow } = await this.state.sample.read({ blockEmpty: this.counters.blockPasses === 0, into });
    if (overflow) throw new Error(SAMPLE_OVERFLOW);
    return state;
  }

  /** Fields of a few of this rank's cells so far (local cell ids), read from the GPU at once: the live view's plane. */
  async liveFields(localCells: ArrayLike<number>): Promise<Fields> {
    const ids = Uint32Array.from(localCells);
    return fieldsOfGathered(this.kase, this.tables, await this.gatherSums(ids), ids, this.counters.samples);
  }

  /**
   * The run's and open block's sums of the given global cells as sample_gather lays them out, with zeros for cells
   * this rank does not own (so the ranks' answers add up to the whole plane): a multi-rank live view's part.
   */
  async gatherOwned(globalCells: Uint32Array): Promise<Uint32Array> {
    const local = Int32Array.from(globalCells, (g) => localCellOf(this.subdomain, this.kase.grid.cells, g));
    const ids = Uint32Array.from(local, (l) => Math.max(l, 0));
    const words = await this.gatherSums(ids);
    const K = globalCells.length;
    for (let k = 0; k < K; k++) {
      if (local[k] >= 0) continue;
      for (let q = k; q < words.length; q += K) words[q] = 0;
    }
    return words;
  }

  /** sample_gather of local cells (nothing to read for none). */
  private gatherSums(localCells: Uint32Array): Promise<Uint32Array> {
    return localCells.length > 0 ? this.sample.gather(localCells) : Promise.resolve(new Uint32Array(0));
  }

  /** Sampling passes so far (the live view's source). */
  get samples(): number {
    return this.counters.samples;
  }

  /** The live view's source on one rank: fields of global cells (local ids on one rank) so far. */
  fieldsOfCells(cellIds: ArrayLike<number>): Promise<Fields> {
    if (this.subdomain.worldSize > 1) throw new Error('internal: live fields of a rank of a multi-rank run');
    return this.liveFields(cellIds);
  }

  /** Sampling passes and blocks so far. */
  get sampleCounters(): SampleCounters {
    return { ...this.counters };
  }

  /** Reads the step ring and control words after a submit (and the surface sums when it sampled). */
  private async readBack(first: number, count: number, sampled: number, recorded: RecordedRead): Promise<{ steps: StepStats[]; blockSums?: Uint32Array }> {
    const device = this.gpu.device;
    const st = this.state;
    // one copy (recorded with the submit's last steps: readBackSources) and one map for the step ring, the control
    // words and (a rank of a rebalancing run) its block sums; the surface sums stay on the GPU (readSurface)
    const all = await this.readback.readRecorded(recorded);
    const [statsBytes, ctlBytes, blocksBytes] = all;
    const stats = new Uint32Array(statsBytes);
    const ctl = new Uint32Array(ctlBytes);
    if (ctl[CTL.OVERFLOW] > 0) throw new Error(overflowMessage(ctl[CTL.OVERFLOW], st.capacity, first, count));
    this.particles = ctl[CTL.N];
    this.surfaceStepsOnGpu += sampled;
    const out = stepStatsOf(stats, st.statsRing, first, count, this.exchanges, !!this.reactions);
    if (this.reactions) {
      this.reactions.absorb(stats, st.statsRing, out);
      device.queue.writeBuffer(st.stats, this.reactions.tallyOffset(st.statsRing), new Uint32Array(this.tables.reactions!.reactions.length));
    }
    return { steps: out, ...(blocksBytes ? { blockSums: new Uint32Array(blocksBytes) } : {}) };
  }

  /** What readBack() reads after a submit: the step ring and the control words. */
  private readBackSources(): ReadSource[] {
    const st = this.state;
    return [{ src: st.stats, bytes: st.stats.size }, { src: st.ctl, bytes: 4 * CTL.WORDS }];
  }

  /**
   * Reads what readBack() reads once before the clock starts, so that its staging buffer exists before the first submit
   * ends; and the surface sums, whose staging buffer readSurface takes at the loop's end (nothing is on the GPU then).
   */
  private async prepareReadBack(): Promise<void> {
    await this.readback.readAll(this.readBackSources());
    if (this.tables.sampling) await this.readSurface();
  }

  /**
   * Adds the surface sums on the GPU (those of surfaceStepsOnGpu sampled steps) to `surface`, exactly, and clears them
   * there: at the end of a loop and before a checkpoint's snapshot (or, with none on the GPU, only makes the staging).
   */
  private async readSurface(): Promise<void> {
    const st = this.state;
    // into a host array kept from read to read (a body case's sums are megabytes)
    if (this.surfaceWords?.byteLength !== st.surfSums.size) this.surfaceWords = new Uint8Array(st.surfSums.size);
    const words = await this.readback.readInto(st.surfSums, this.surfaceWords);
    if (this.surfaceStepsOnGpu === 0) return;
    this.surface.addRaw(new Uint32Array(words.buffer, words.byteOffset, words.byteLength / 4), this.surfaceStepsOnGpu);
    this.clearSurfaceOnGpu();
  }

  /** Zeroes the surface sums on the GPU (queued): none of them are left there. */
  private clearSurfaceOnGpu(): void {
    this.surfaceStepsOnGpu = 0;
    const enc = this.gpu.device.createCommandEncoder({ label: 'clear-surface-sums' });
    enc.clearBuffer(this.state.surfSums);
    this.gpu.device.queue.submit([enc.finish()]);
  }

  /** Submits between two particle-total reductions: about one per 4M particles, so they cost ~1 % of the loop. */
  private totalsEvery(): number {
    return Math.max(1, Math.round(this.particles / 4e6));
  }

  /** Totals of the live particles now. */
  totals(): Promise<ParticleTotals> {
    return particleTotals(this.ctx, this.particles);
  }

  /** Copies the live particles' arrays to the host (tests, exports); u32 arrays come back as bits to reinterpret. */
  readParticles(attrs: readonly ParticleAttribute[], limit = Infinity): Promise<Record<ParticleAttribute, ArrayBuffer>> {
    return readParticleArrays(this.gpu.device, this.state, attrs, Math.min(this.particles, limit));
  }

  /** Rotational and vibrational energies (J) of the live particles, in particle order (at most the first `limit`; zeros when nothing rotates or vibrates). */
  readInternalEnergy(limit = Infinity): Promise<InternalEnergies> {
    return readInternalEnergies(this.gpu.device, this.state, Math.min(this.particles, limit));
  }

  /** Rotational energies (J) of the live particles, in particle order (at most the first `limit`; zeros when nothing rotates). */
  async readRotationalEnergy(limit = Infinity): Promise<Float32Array> {
    return (await this.readInternalEnergy(limit)).rotational;
  }

  /** The velocity distribution of the first species from (at most the first `limit`, in cell order) live particles. */
  async velocityDistribution(limit = 2_000_000): Promise<VelocityDistribution | null> {
    return firstSpeciesDistribution(this.kase, this.tables, await this.readParticles(['vx', 'vy', 'vz', 'cell'], limit));
  }

  /** Current live particle count (as of the last read-back). */
  get liveParticles(): number {
    return this.particles;
  }

  /**
   * This rank's particle counts per local cell (a rebalance check's second round), through the read-back's kept staging
   * buffer (reserved by prepareRelayout: made inside the first check it cost 30-60 ms).
   */
  async cellCounts(): Promise<Uint32Array<ArrayBuffer>> {
    const [read] = await this.readback.readAll([{ src: this.state.lastCounts, bytes: 4 * this.state.nLocal }]);
    const counts = new Uint32Array(read);
    return countsWithProducts(this.gpu.device, this.state, counts, this.particles, this.reactions?.pending ?? 0, (g) => localCellOf(this.subdomain, this.kase.grid.cells, g));
  }

  /** The check's block sums on the GPU, made at first use. */
  private coarseSums(): CoarseCounts {
    this.coarseCounts ??= new CoarseCounts(this.ctx);
    return this.coarseCounts;
  }

  /** Encodes this rank's block sums (coarseCellSums' GPU part) into `enc`; returns the buffer they land in. */
  private encodeBlockSums(enc: GPUCommandEncoder, block: number): GPUBuffer {
    const cg = coarseGridWithBlock(this.kase.grid.cells, block);
    return this.coarseSums().encode(enc, this.state.lastCounts, this.subdomain.box, this.state.nLocal, block, cg.grid);
  }

  /**
   * This rank's particle counts and the sums of their squares over the blocks of `block` cells per side of the coarse
   * grid (a rebalance check's first round; coarse-grid.ts), packed as packCoarseSums packs them, summed on the GPU; with
   * products of the last step not yet in their cells (a reacting gas), from the cell counts on the host.
   */
  async coarseCellSums(block: number): Promise<Uint32Array> {
    const cg = coarseGridWithBlock(this.kase.grid.cells, block);
    if ((this.reactions?.pending ?? 0) > 0) {
      const cells = await this.cellCounts();
      return packCoarseSums(coarseSumsOf(cells, this.subdomain.box, cg));
    }
    const device = this.gpu.device;
    const enc = device.createCommandEncoder({ label: 'coarse-counts' });
    const blocks = this.encodeBlockSums(enc, block);
    device.queue.submit([enc.finish()]);
    return new Uint32Array(await this.readback.read(blocks, blocks.size));
  }

  /** This rank's per-cell state for a rebalance: particle counts, (sigma c_r)_max and NTC remainders of its local cells. */
  async cellState(): Promise<{ counts: Uint32Array<ArrayBuffer>; sigmaCrMax: Float32Array<ArrayBuffer>; remainder: Float32Array<ArrayBuffer> }> {
    const st = this.state;
    const bytes = 4 * st.nLocal;
    // the three in one copy and one map, through the read-back's kept staging buffer (reserved by prepareRelayout)
    const [counts, sigmaCrMax, remainder] = await this.readback.readAll([{ src: st.lastCounts, bytes }, { src: st.sigmaCrMax, bytes }, { src: st.remainder, bytes }]);
    const localOf = (g: number) => localCellOf(this.subdomain, this.kase.grid.cells, g);
    return {
      counts: await countsWithProducts(this.gpu.device, st, new Uint32Array(counts), this.particles, this.reactions?.pending ?? 0, localOf),
      sigmaCrMax: new Float32Array(sigmaCrMax),
      remainder: new Float32Array(remainder),
    };
  }

  /** The sampled-fields accumulator of a one-rank run (null in a rank of a multi-rank run). */
  get fieldAccumulator(): FieldAccumulator | null {
    return this.fieldsAcc;
  }

  /** This rank's state at the current submit boundary, for a checkpoint (reads the live set back). */
  async snapshot(): Promise<RankSnapshot> {
    const st = this.state;
    await this.readSurface();
    const raw = await this.readParticles(PARTICLE_ATTRIBUTES);
    const arrays = {} as RankSnapshot['arrays'];
    for (const a of PARTICLE_ATTRIBUTES) arrays[a] = a === 'cell' ? new Uint32Array(raw[a]) : new Float32Array(raw[a]);
    // the particles in cell order (a rank of several keeps its interior cells first), the internal energies alike
    const localOf = (g: number) => localCellOf(this.subdomain, this.kase.grid.cells, g);
    const to = cellOrderMap(arrays.cell as Uint32Array, localOf, st.nLocal);
    const ordered = to ? inCellOrder(arrays, localOf, st.nLocal) : arrays;
    const read = this.tables.hasRotation ? await this.readInternalEnergy() : null;
    const internal = read && to ? { rotational: reordered(read.rotational, to), vibrational: reordered(read.vibrational, to) } : read;
    const cells = await this.cellState();
    if (!this.history) throw new Error('internal: snapshot() outside run()');
    return {
      rank: this.subdomain.rank, worldSize: this.subdomain.worldSize, step: this.step, particles: this.particles,
      cellBase: this.subdomain.cellBase, nLocal: st.nLocal, arrays: ordered, sigmaCrMax: cells.sigmaCrMax, remainder: cells.remainder,
      history: structuredClone(this.history),
      surface: { totals: BigInt64Array.from(this.surface.totals), sampledSteps: this.surface.sampledSteps },
      sampling: this.tables.sampling ? await this.readSampleState() : null,
      ...(internal ? { erot: internal.rotational } : {}),
      ...(internal && this.tables.internalWords > 1 ? { evib: internal.vibrational } : {}),
    };
  }

  /**
   * Continues from a checkpoint instead of initialize(): writes the saved live set (already in cell order),
   * the per-cell state, the cells' starts (from the saved cell words) and the control words; the next
   * run() goes on with the saved loop history. The result is bitwise that of the run that was saved.
   */
  restore(s: RankSnapshot): void {
    const st = this.state;
    const sub = this.subdomain;
    if (s.rank !== sub.rank || s.worldSize !== sub.worldSize || s.cellBase !== sub.cellBase || s.nLocal !== st.nLocal) {
      throw new Error(`checkpoint of rank ${s.rank} of ${s.worldSize} (cells ${s.cellBase}..${s.cellBase + s.nLocal - 1}) does not fit rank ${sub.rank} of ${sub.worldSize} (cells ${sub.cellBase}..${sub.cellBase + st.nLocal - 1}); resume on the decomposition it was written with`);
    }
    const n = s.particles;
    if (n + 64 > st.capacity) this.growTo(Math.ceil(1.5 * (n + 64)), 0);
    const device = this.gpu.device;
    for (const a of PARTICLE_ATTRIBUTES) if (n > 0) device.queue.writeBuffer(st.live[a], 0, s.arrays[a]);
    if (this.tables.hasRotation) {
      if (!s.erot) throw new Error('the checkpoint holds no rotational energies, but the case has a rotating species: resume needs a checkpoint written with rotation');
      const w = this.tables.internalWords;
      if (w > 1 && !s.evib) throw new Error('the checkpoint holds no vibrational energies, but the case has a vibrating species: resume needs a checkpoint written with vibration');
      const words = new Float32Array(w * n);
      for (let i = 0; i < n; i++) {
        words[w * i] = s.erot[i];
        if (w > 1) words[w * i + 1] = s.evib![i];
      }
      if (n > 0) device.queue.writeBuffer(st.liveEint, 0, words);
    }
    // starts of the saved (cell-sorted) order: the move phase keys each particle by its rank in its cell
    const { counts, starts } = savedCellStarts(s.arrays.cell as Uint32Array, n, st.nLocal, (g) => localCellOf(sub, this.kase.grid.cells, g), sub.rank);
    device.queue.writeBuffer(st.lastCounts, 0, counts);
    device.queue.writeBuffer(st.starts, 0, starts);
    device.queue.writeBuffer(st.sigmaCrMax, 0, s.sigmaCrMax);
    device.queue.writeBuffer(st.remainder, 0, s.remainder);
    const ctl = new Uint32Array(CTL.WORDS);
    ctl[CTL.STEP] = s.step;
    ctl[CTL.N] = n;
    ctl[CTL.N_ALL] = n;
    ctl[CTL.N_MOVED] = n;
    device.queue.writeBuffer(st.ctl, 0, ctl);
    this.step = s.step;
    this.particles = n;
    if (this.halo) this.writeHalo(); // the control words above cleared its cell count
    this.counters = { ...s.history.sampling };
    if (s.sampling) {
      // a rotating gas's checkpoint written before its internal energies were sampled holds 13 sums per species
      const planes = partPlanes('runLo', sampleLayout(this.tables));
      if (s.sampling.runLo.length !== planes * st.nLocal) {
        throw new Error(`the checkpoint holds ${s.sampling.runLo.length / st.nLocal} sampled sums per cell, this case samples ${planes} ` +
          '(a checkpoint of a molecular gas written before the rotational and vibrational energies were sampled); it cannot be resumed: run the case again');
      }
      this.state.sample.write(s.sampling);
    }
    else if (this.tables.sampling && s.history.sampling.samples > 0) throw new Error('checkpoint holds sampling passes but no sampling state (damaged checkpoint)');
    this.carried = structuredClone(s.history);
    this.reactions?.restore(s.history.reactionCounts ?? []);
    this.surface.restore(s.surface);
    // the checkpoint's sums are all on the host: none on the GPU
    this.clearSurfaceOnGpu();
  }

  /** Steps done so far. */
  get stepsDone(): number {
    return this.step;
  }

  /** Compiles what a relayout uses only there (the move's relayout pipeline), so that a re-split does not wait for it. */
  prepareRelayout(): void {
    this.move.prepareRelayout();
    // a check's block sums, and the read of every cell's state (counts, collision state) in one staging buffer made
    // now, with room for the cells a re-split may add (made inside the first full check it cost 30-60 ms)
    this.coarseSums().prepare();
    this.readback.reserve(Math.ceil(CELL_STATE_ROOM * cellStateBytes(this.state.nLocal)));
  }

  /**
   * Moves this rank to a new subdomain between submits (a rebalance): per-cell state for the new cells comes
   * from the orchestrator, particles of cells that changed hands go to their new owners through the exchange,
   * in rounds that each take a slice of every rank's particles (so that no round's migrants or arrivals outgrow
   * a buffer binding; `largest`, the particles of the most loaded rank, `roundBytes` and `maxSend`, the most particles
   * one rank sends another, which every rank gets alike, set their number: one round when maxSend's records fit;
   * relayout-rounds.ts), and the sort rebuilds the cell order, keeping every cell's particle order.
   */
  async relayout(sub: Subdomain, sigmaCrMax: Float32Array, remainder: Float32Array, sample: SampleState | null, largest: number, roundBytes = this.relayoutRoundBytes, maxSend?: number,
    traffic?: RelayoutTraffic): Promise<void> {
    if (!this.exchange || !this.migrate) throw new Error('internal: only a rank of a multi-rank run can be rebalanced');
    const t0 = performance.now();
    const device = this.gpu.device;
    const st = this.state;
    if (this.tables.sampling && !sample && this.counters.samples > 0) throw new Error('internal: a rebalance of a run that has sampled needs the sampling state of the new cells');
    // the relayout's events go with the exchanges between steps in the timeline (DSMC_TIMELINE_DIR)
    const mark = (name: string) => stepTimeline?.mark(2 * this.step + 1, name);
    mark('relayout-start');
    const oldStarts = st.resubdomain(sub, sigmaCrMax, remainder);
    // the sort after the rounds takes the arrivals: dispatched over the capacity
    st.liveBound = Infinity;
    mark('relayout-resubdomain');
    this.readback.release(); // staging buffers of the replaced per-cell arrays
    this.sort = new SortPhase(this.ctx);
    if (this.products) {
      // its per-cell counts follow the new cells
      this.products.destroy();
      this.products = new ProductsPhase(this.ctx);
    }
    mark('relayout-phases');
    const plan = relayoutPlan(largest, sub.worldSize, this.tables.migrantWords, roundBytes, maxSend);
    const { perRound, rounds } = plan;
    const n = this.particles;
    // one round's migrants for any one destination fit a segment (no regrow, which would collect every round's again);
    // the segments go back to their size for steps afterwards (a round's worst case can be a gigabyte per set). With
    // the decision's exact sends, this rank's own largest: a rank that sends little grows nothing (every rank grew to
    // the largest send of any pair before: 40-105 ms each on the wedge's ranks, docs/PERFORMANCE.md)
    const stepSegments = st.segCap;
    const ownSegments = traffic ? Math.max(1, ...traffic.sendsTo.map((k, d) => (d === sub.rank ? 0 : Math.min(k, perRound)))) : plan.segments;
    const roundSegments = Math.max(1, Math.min(plan.segments, ownSegments, n));
    if (st.segCap < roundSegments) st.growMigrants(roundSegments);
    mark('relayout-grown');
    this.bindAll();
    mark('relayout-setup');
    // when the GPU has run what was queued so far (the new buffers' writes; buffers freed are released then too)
    stepTimeline?.markWhenDone(2 * this.step + 1, 'relayout-setup-gpu-done', device.queue);
    const tSetup = performance.now();
    this.relayoutParts.setupSeconds += (tSetup - t0) / 1000;
    const ctl = (word: number, value: number) => device.queue.writeBuffer(st.ctl, 4 * word, new Uint32Array([value]));
    ctl(CTL.N_ALL, n);
    // no moved particles: the sort orders every particle by the keys the relayout gives them (buffer order is not cell order after split steps)
    ctl(CTL.N_MOVED, 0);
    // and the buffer is in plain cell order after this sort: no interior part first for the next step's order
    ctl(CTL.N_INTERIOR, 0);
    const set = st.current;
    if (n > rounds * perRound) throw new Error(`internal: rank ${sub.rank} holds ${n} particles, more than the ${largest} of the most loaded rank the relayout was planned for`);
    for (let r = 0; r < rounds; r++) {
      device.queue.writeBuffer(st.ctl, 4 * CTL.RELAYOUT_FROM, new Uint32Array([r * perRound, (r + 1) * perRound]));
      device.queue.writeBuffer(st.migCountsOf(set), 0, new Uint32Array(sub.worldSize + 1));
      const enc = device.createCommandEncoder({ label: `relayout-${r}` });
      const pass = enc.beginComputePass({ label: `relayout-${r}` });
      // the particles of this round only (the last round of a rank holding fewer than the most loaded one is short or empty)
      this.move.encodeRelayout(pass, set, oldStarts, Math.max(1, Math.min(perRound, n - r * perRound)));
      pass.end();
      device.queue.submit([enc.finish()]);
      mark('relayout-emit-submitted');
      stepTimeline?.markWhenDone(2 * this.step + 1, 'relayout-emit-done', device.queue);
      // while the GPU sorts out the first round's leavers: the exchange's staging and links; once this rank's sends are
      // out, while it waits for the peers', what no pass of the rounds uses (the sampling state, the new box's halo)
      if (r === 0) this.relayoutAside(traffic, perRound);
      const whileWaiting = r === 0 ? () => this.relayoutWhileWaiting(sub, sample) : undefined;
      // exchange 0 between steps is the ranks' meeting before the clock, 1 their trade of the cells' collision state
      // (rank-main), the rounds follow
      const x = await this.exchange.run(betweenSteps(this.step, RELAYOUT_FIRST_EXCHANGE + r), set, undefined, { regrow: false, timelineKey: 2 * this.step + 1, whileWaiting });
      this.relayoutParts.exchangeSeconds += x.seconds;
      mark('relayout-exchanged');
      const append = device.createCommandEncoder({ label: `relayout-append-${r}` });
      const appendPass = append.beginComputePass({ label: `relayout-append-${r}` });
      this.migrate.encodeAppend(appendPass, set, x.received);
      appendPass.end();
      const appended = append.finish();
      mark('relayout-append-encoded');
      device.queue.submit([appended]);
    }
    const tSort = performance.now();
    mark('relayout-rounds');
    this.relayoutParts.roundSeconds += (tSort - tSetup) / 1000;
    const enc = device.createCommandEncoder({ label: 'relayout-sort' });
    const pass = enc.beginComputePass({ label: 'relayout-sort' });
    this.sort.encode(pass, set);
    pass.end();
    device.queue.submit([enc.finish()]);
    mark('relayout-sort-submitted');
    st.current = set === 0 ? 1 : 0;
    st.settleLayout();
    // the relayout's keys placed the last step's products in their cells: none is pending any more
    ctl(CTL.PRODUCTS, 0);
    if (this.reactions) this.reactions.pending = 0;
    const words = new Uint32Array(await this.readback.read(st.ctl, 4 * CTL.WORDS));
    mark('relayout-sorted');
    st.releaseOldStarts(oldStarts);
    if (st.segCap > stepSegments) {
      st.growMigrants(stepSegments);
      this.bindAll();
    }
    throwIfGpuError(this.gpu);
    this.particles = words[CTL.N];
    this.relayoutRounds += rounds;
    this.relayoutSeconds += (performance.now() - t0) / 1000;
    this.relayoutParts.sortSeconds += (performance.now() - tSort) / 1000;
    mark('relayout-end');
  }

  /**
   * Readies this rank's links for a relayout announced while the steps before it still run (the go with the split came):
   * sendsTo[r][d], the particles rank r sends rank d by the counts the split was made from, as the relayout's rounds
   * take them (`roundBytes`, relayoutPlan), with 10 % headroom for their drift: the files its sends go through (both
   * slots of every link), their pages taken off this thread; the relayout tops up what its exact counts need. (The
   * arrivals need nothing ahead: they are read straight into the upload staging the relayout makes.)
   */
  readyRelayoutLinks(sendsTo: readonly (readonly number[])[], roundBytes = this.relayoutRoundBytes): void {
    const { rank, worldSize } = this.state.subdomain;
    if (!this.exchange || sendsTo.length !== worldSize || sendsTo.some((row) => row.length !== worldSize)) return;
    const t0 = performance.now();
    const { perRound } = relayoutPlan(Number.MAX_SAFE_INTEGER, worldSize, this.tables.migrantWords, roundBytes, Math.max(0, ...sendsTo.flat()));
    this.exchange.prepareSendsAhead(sendsTo[rank].map((n) => Math.min(n, perRound)), RELAYOUT_LINK_HEADROOM);
    stepTimeline?.hostEvent('relayout sends readied ahead', t0);
    if (stepTimeline) void this.exchange.linksPrepared().then(() => stepTimeline?.hostEvent('relayout sends prefaulted ahead', t0));
  }

  /**
   * The host's part of a relayout that overlaps its first pass on the GPU (each took 30-90 ms on an H100 host,
   * docs/PERFORMANCE.md): the exchange's staging and peer links readied for this rank's sends and arrivals of one round
   * (`traffic`, exact from the orchestrator). The phases are bound again while the round waits for the peers
   * (relayoutWhileWaiting), before any pass uses the arrival buffer this may grow.
   */
  private relayoutAside(traffic: RelayoutTraffic | undefined, perRound: number): void {
    // one round sends at most its slice of this rank's particles to a peer, and takes at most a slice from each
    if (traffic) this.exchange?.prepare(traffic.sendsTo.map((n) => Math.min(n, perRound)), traffic.receivesFrom.map((n) => Math.min(n, perRound)));
    stepTimeline?.mark(2 * this.step + 1, 'relayout-aside');
  }

  /**
   * What a relayout's rounds do not use, done while the first round waits for the peers' migrants (this rank's are sent):
   * the sampling state reallocated for the new cells (and written, once sampling has begun) and the new box's halo
   * (the sort after the rounds and the steps read them); then every phase bound again.
   */
  private relayoutWhileWaiting(sub: Subdomain, sample: SampleState | null): void {
    const st = this.state;
    st.sample.reallocate(sub.nLocal);
    if (sample) st.sample.write(sample);
    this.writeHalo();
    this.bindAll();
    stepTimeline?.mark(2 * this.step + 1, 'relayout-while-waiting');
  }

  /** Phase totals of the recorder plus the host-side ones (multi-rank exchange). */
  private phaseTotals(rec: PhaseRecorder): LoopResult['phases'] {
    const out = new Map(rec.totals());
    for (const [k, v] of this.hostPhases) out.set(k, { ...v });
    return out;
  }

  /**
   * Runs `steps` timesteps (default: the case's run.steps) and returns everything measured. blockPlan: the
   * loop the batch-means blocks are planned for (a resumed run passes the original loop's).
   */
  async run(options: LoopOptions = {}, steps = this.kase.run.steps, blockPlan = { from: this.step, steps }): Promise<LoopResult> {
    const device = this.gpu.device;
    // GPU timestamps on every SAMPLED_TIMING_EVERY-th call of each phase, on every one with --timing full, --detail or
    // the GPU's gaps booked (DSMC_GPU_GAPS=1: they are only known between consecutive timed passes)
    const gaps = process.env.DSMC_GPU_GAPS === '1';
    const every = options.timing === 'full' || options.detail || gaps ? 1 : SAMPLED_TIMING_EVERY;
    const stamps = this.gpu.hasTimestamps && options.timing !== 'wall' && options.timing !== 'off'
      ? new TimestampRecorder(device, this.chunk * PASSES_PER_STEP, { every, gaps })
      : null;
    const rec: PhaseRecorder = options.timing === 'off' ? new UntimedRecorder(device) : stamps ?? new WallClockRecorder(device);
    this.hostPhases.clear();
    const carried = this.carried;
    this.carried = null;
    // a loop's reaction counts start with it (a resumed loop goes on with the counts its checkpoint kept)
    if (!carried) this.reactions?.restore([]);
    const start = carried ? carried.start : await this.totals();
    const startStep = carried ? carried.startStep : this.step;
    const stepStats: StepStats[] = [];
    const totalsOverTime: LoopResult['totalsOverTime'] = carried ? carried.totalsOverTime : [];
    const perBlock = blockSubmits(this.kase, blockPlan.from, blockPlan.steps);
    let submits = carried ? carried.submits : 0;
    // the periodic totals in flight: the reduction is queued at a submit's end and read while the next submit runs
    let totalsPending: Promise<void> = Promise.resolve();
    this.history = { sampling: { ...this.counters }, submits, startStep, start, totalsOverTime, ...this.reactions?.history() };
    await this.prepareReadBack();
    // the end of run's pages are touched before the clock starts: touching them while the GPU runs slows the loop
    await this.endArena?.touched;
    await options.beforeClock?.();
    const t0 = performance.now();
    let moved = 0;
    const host = { encodeSeconds: 0, waitSeconds: 0, readbackSeconds: 0, foldSeconds: 0, submits: 0 };
    const last = this.step + steps;
    let gpuBefore = copyTotals(rec.totals());
    while (this.step < last) {
      if (options.signal?.aborted && options.keepOnStop) break; // stop and keep: what ran so far is the result
      if (options.signal?.aborted) throw new RunCancelled(`cancelled at step ${this.step}`);
      const batch = Math.min(this.submitSteps(), last - this.step);
      if (!this.exchange) {
        this.ensureCapacity(batch, rec);
        // one rank: the per-particle passes of the batch are dispatched for the most particles it can reach
        this.state.liveBound = this.particlesNeeded(batch);
      } else {
        this.liveBefore = this.particles;
      }
      let passes = 0;
      this.submitKernel = this.sampleChoice.next();
      // the submits that compare the sampling kernels time every call of their phases
      stamps?.timeEvery(this.sampleChoice.measuring ? 1 : every);
      const tEncode = performance.now();
      for (let k = 1; k <= batch; k++) {
        if (await this.recordStep(rec, this.step + k, !!options.detail, k < batch)) passes += 1;
        // a full batch-means block (or the plan's last open one) is closed on the GPU after its last step
        if (this.tables.sampling) await this.countStep(rec, this.step + k, blockPlan, perBlock);
        // hand the GPU work early so that it runs while the rest of the batch is recorded
        if (k % FLUSH_EVERY === 0 && k < batch) rec.flush();
      }
      const tSubmit = performance.now();
      const timesBefore = passes > 0 && this.sampleChoice.measuring ? copyTotals(rec.totals()) : null;
      // the read-back's copies go in the batch's last command buffer: once the GPU is done, the read is one map
      // a rank of a rebalancing run: its block sums after the submit, read with it (none where products of the last step
      // are not in their cells yet: coarseCellSums reads those on its own)
      const blocks = options.blockSums !== undefined && !this.reactions ? this.encodeBlockSums(rec.encoder, options.blockSums) : null;
      const reading = this.readback.recordAll(rec.encoder, [...this.readBackSources(), ...(blocks ? [{ src: blocks, bytes: blocks.size }] : [])]);
      await rec.submit();
      // the batch's end in the timeline (between its last step and the next: key 2 s + 1)
      const boundary = 2 * (this.step + batch) + 1;
      stepTimeline?.mark(boundary, 'batch-gpu-done');
      this.exchange?.submitted();
      throwIfGpuError(this.gpu);
      if (timesBefore) this.sampleChoice.record(this.submitKernel, timesBefore, rec.totals());
      const tRead = performance.now();
      const got = await this.readBack(this.step + 1, batch, passes, reading);
      stepTimeline?.mark(boundary, 'batch-read');
      host.encodeSeconds += (tSubmit - tEncode) / 1000;
      host.waitSeconds += (tRead - tSubmit) / 1000;
      host.readbackSeconds += (performance.now() - tRead) / 1000;
      host.submits += 1;
      this.step += batch;
      const gpuNow = copyTotals(rec.totals());
      await options.onBatch?.({
        steps: got.steps, passes, particles: this.particles,
        phases: [...this.phaseTotals(rec)].map(([phase, t]) => ({ phase, seconds: t.totalSeconds })),
        gpuSeconds: gpuSecondsBetween(gpuBefore, gpuNow),
        ...(got.blockSums ? { blockSums: got.blockSums } : {}),
      });
      stepTimeline?.mark(boundary, 'batch-reported');
      gpuBefore = gpuNow;
      // a reduction over every particle: every submit for small runs, less often for big ones
      submits += 1;
      if (submits % this.totalsEvery() === 0 && this.step < last) {
        // queued now (the particles as this submit left them), read back while the GPU runs the next submit: no wait
        // here (it took 5-35 ms of every rank's time at its submit's end, the others waiting for its migrants); the
        // one before is read by now (a submit ago), and its staging buffer free again
        await totalsPending;
        const entry = { step: this.step, totals: start };
        totalsOverTime.push(entry);
        const reading = this.totals();
        totalsPending = reading.then((t) => { entry.totals = t; });
        totalsPending.catch(() => undefined); // handled where it is awaited (a failed read fails the run there)
      }
      for (const s of got.steps) moved += s.particlesBefore;
      stepStats.push(...got.steps);
      options.onSteps?.(got.steps);
      this.history = { sampling: { ...this.counters }, submits, startStep, start, totalsOverTime, ...this.reactions?.history() };
      if (options.onCheckpoint && checkpointDue(this.kase, this.step - batch, this.step, last)) {
        await totalsPending;
        await options.onCheckpoint(this.step);
      }
      const elapsed = (performance.now() - t0) / 1000;
      options.onProgress?.({ step: this.step, steps: last, particles: this.particles, elapsedSeconds: elapsed, particleStepsPerSecond: moved / elapsed });
    }
    await totalsPending;
    const clockStoppedAt = performance.now();
    // the surface sums come back once, after the clock stops (readSurface)
    if (this.tables.sampling) await this.readSurface();
    const seconds = (clockStoppedAt - t0) / 1000;
    steps -= last - this.step; // fewer when stopped and kept (keepOnStop)
    // the sampled fields come back once, after the clock stops: every cell's exact sums and batch means
    const tRead = performance.now();
    const sampleState = this.tables.sampling && steps > 0 ? await this.readSampleState(options.sampleInto ? await options.sampleInto() : await this.endOfRunState()) : null;
    const tEvaluate = performance.now();
    if (sampleState && this.fieldsAcc) {
      this.fieldsAcc.place(sampleState, this.subdomain);
      this.fieldsAcc.counters = { ...this.counters };
    }
    // one rank evaluates every cell here, on threads (a rank of several: rank-main, once its loop ended)
    const acc = this.fieldsAcc;
    const evaluated = acc ? await acc.evaluate(evaluationThreads(this.tables.nCells)) : { fields: noFields(), errors: noFields(), threads: 0 };
    const fields = evaluated.fields;
    const fieldErrors = evaluated.errors;
    const tEnd = performance.now();
    host.foldSeconds += (tEnd - tRead) / 1000;
    const endOfRun = sampleState
      ? { readSeconds: [(tEvaluate - tRead) / 1000], evaluateSeconds: acc ? [(tEnd - tEvaluate) / 1000] : [], threads: acc ? [evaluated.threads] : [] }
      : undefined;
    // the final totals (conservation) are taken after the clock stops, as the first were before it started
    const end = steps > 0 ? await this.totals() : start;
    if (steps > 0) totalsOverTime.push({ step: this.step, totals: end });
    return {
      steps, seconds, stepStats, start, startStep, end,
      phases: this.phaseTotals(rec),
      timingSource: rec.source,
      ...(stamps ? { timedEvery: every } : {}),
      samples: this.counters.samples,
      fields,
      fieldErrors,
      fieldBlocks: this.counters.blocks,
      sampleState: acc ? null : sampleState,
      sampleCounters: { ...this.counters },
      totalsOverTime,
      capacity: this.state.capacity,
      tables: this.tables,
      host,
      ...(endOfRun ? { endOfRun } : {}),
      clockStoppedAt,
      surface: this.surface.toSums(this.tables.bodies, this.kase.run.dt),
      sampleKernel: this.sampleChoice.report(),
      ...(this.reactions ? { reactionCounts: [...this.reactions.counts] } : {}),
    };
  }
}
