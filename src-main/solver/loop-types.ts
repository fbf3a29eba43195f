// The loop's data types: the statistics of a step, what a submit reports, the options of a run, where a
// Simulation runs and what a finished loop returns (solver/loop.ts runs it).
import type { SurfaceSums } from '../common/surface-layout.js';
import type { Int3 } from '../cluster/decomposition/types.js';
import type { EndOfRunSeconds, TimingMode, TimingSource } from '../common/run-summary.js';
import type { Fields } from './fields.js';
import type { SampleCounters } from './field-accumulator.js';
import type { SampleState } from './sample-buffers.js';
import type { Exchanger } from './migration-exchange.js';
import type { SampleKernelReport } from '../common/run-summary.js';
import type { ParticleTotals } from './phases/conservation.js';
import type { Subdomain } from './subdomain.js';
import type { SolverTables } from './tables.js';

/** Statistics of one step, read back from the GPU's ring. */
export interface StepStats {
  step: number;
  particlesBefore: number;
  injected: number;
  particlesAfter: number;
  collisions: number;
  candidates: number;
  /** Reacting runs: reactions this step, and the particles its dissociations made. */
  reactions?: number;
  products?: number;
  /** Multi-rank runs: particles this rank sent to and received from others, and the host time of the exchange. */
  sent?: number;
  received?: number;
  exchangeSeconds?: number;
}

/** What one submit produced, for a multi-rank run's orchestrator (the rank forwards it). */
export interface BatchReport {
  steps: StepStats[];
  /** Sampling passes in this submit. */
  passes: number;
  /** Live particles on this rank after the submit. */
  particles: number;
  /** Seconds per phase so far in this loop (for live views; GPU timestamps or wall clock, empty with timing off). */
  phases: { phase: string; seconds: number }[];
  /** Seconds the GPU worked in this submit (the recorded passes' times, no host phases; 0 with timing off). */
  gpuSeconds: number;
  /** With LoopOptions.blockSums: the rank's counts and squared counts over the coarse grid's blocks after the submit (packCoarseSums). */
  blockSums?: Uint32Array;
}

/** Progress reported after every submit. */
export interface Progress {
  step: number;
  steps: number;
  particles: number;
  elapsedSeconds: number;
  particleStepsPerSecond: number;
}

/** Options of a run beyond the case. */
export interface LoopOptions {
  /** 'auto': GPU timestamps on every SAMPLED_TIMING_EVERY-th call of each phase when the adapter has them, else wall clock; 'full': on every call; 'off': no phase times. */
  timing?: TimingMode;
  onProgress?: (p: Progress) => void;
  /** Called with the statistics of every step as they are read back. */
  onSteps?: (s: StepStats[]) => void;
  signal?: AbortSignal;
  /**
   * Stop and keep: an abort of `signal` ends the loop after the current submit and returns what it ran (result.steps
   * the steps done, the fields sampled so far) instead of throwing RunCancelled.
   */
  keepOnStop?: boolean;
  /** Time each stage of a multi-stage phase (sort.count, sort.scan, ...) as its own pass. */
  detail?: boolean;
  /** Called after every submit with its statistics and raw sampling sums (awaited before the next submit). */
  onBatch?: (b: BatchReport) => void | Promise<void>;
  /**
   * A rank of a rebalancing run: cells per side of the coarse grid's blocks, whose counts it sums on the GPU at the end
   * of every submit, read with the submit's own read-back (BatchReport.blockSums: no round trip of their own).
   */
  blockSums?: number;
  /**
   * Called (and awaited) after a submit that ends a checkpoint interval of run.checkpointEvery (checkpointDue),
   * after onSteps, with the step reached: the caller takes snapshot() and writes it.
   */
  onCheckpoint?: (step: number) => Promise<void>;
  /**
   * Awaited just before the loop's clock starts (after the starting totals): a multi-rank run's ranks meet here, so
   * that one rank's later start is not timed as the others' wait in their first step.
   */
  beforeClock?: () => Promise<void>;
  /**
   * Where the sampling state read back after the loop goes (host arrays of this rank's cells, prefaulted while the GPU
   * ran: prefault.ts), instead of fresh arrays; awaited first.
   */
  sampleInto?: () => Promise<SampleState>;
}

/** Where a Simulation runs: a subdomain of a multi-rank run, with the exchanger that moves its migrants. */
/** A rank's particles to send to and to receive from each rank in a relayout (exact, from the orchestrator's split; 0 for itself). */
export interface RelayoutTraffic {
  sendsTo: readonly number[];
  receivesFrom: readonly number[];
}

export interface SimulationPlacement {
  subdomain: Subdomain;
  exchanger?: Exchanger;
  /** Halo depth in cells per axis instead of the first guess from the case (tests of split steps). */
  haloDepth?: Int3;
  /** Particle capacity to start with instead of the planned one (tests of buffer growth; it still grows as needed). */
  capacity?: number;
  /** Migrant slots per destination to start with instead of the planned ones (tests of migrant buffer growth). */
  segmentCapacity?: number;
  /** Invocations of the halo pass's per-particle dispatches instead of the guess from the step before (tests of its loops). */
  haloThreads?: number;
  /** Invocations of the injection's write and of the collect of injected migrants instead of the bound on a step's injection (tests of their loops). */
  injectThreads?: number;
  /** Invocations of every pass over the live particles (move, sort, collect) instead of the live bound (tests of their loops). */
  particleThreads?: number;
  /**
   * Whether the next step's interior particles move while this step's migrants are exchanged (default true; false
   * moves every step whole after its halo pass, as before: for measuring what the overlap gains).
   */
  earlyMove?: boolean;
  /** Bytes of migrant records per relayout round instead of RELAYOUT_ROUND_BYTES (tests of relayouts in many rounds; every rank the same). */
  relayoutRoundBytes?: number;
  /**
   * Cells the per-cell buffers hold, as a multiple of the rank's cells (default 1): a run that may re-split gives its ranks
   * room (CELL_ROOM_FOR_REBALANCING), so that a re-split that leaves a rank within it makes no per-cell buffers.
   */
  cellRoom?: number;
}

/**
 * How a rank splits its steps: halo depth per axis, halo and owned cells, steps redone whole so far, and steps
 * whose interior part moved while the step before's migrants were exchanged.
 */
export type SplitStats = {
  depth: Int3;
  haloCells: number;
  ownedCells: number;
  redos: number;
  earlyMoves: number;
};

/** What a finished loop hands to the summary. */
export interface LoopResult {
  steps: number;
  seconds: number;
  stepStats: StepStats[];
  phases: Map<string, { calls: number; totalSeconds: number; minSeconds: number; maxSeconds: number }>;
  timingSource: TimingSource;
  /** GPU timestamps on one call in this many of each phase (1: every call; absent without timestamps). */
  timedEvery?: number;
  start: ParticleTotals;
  /** The step `start` was taken at (before the loop's first step; a resumed loop's is the original loop's). */
  startStep: number;
  end: ParticleTotals;
  samples: number;
  /** Fields of a one-rank run (empty arrays in a rank of a multi-rank run: the orchestrator assembles them). */
  fields: Fields;
  /** Standard errors of `fields` per cell by batch means over `fieldBlocks` blocks (NaN when fewer than 2). */
  fieldErrors: Fields;
  fieldBlocks: number;
  /** A rank of a multi-rank run: its sampling state (local cells), for the orchestrator; null on one rank or when nothing is sampled. */
  sampleState: SampleState | null;
  /** Sampling passes and batch-means blocks. */
  sampleCounters: SampleCounters;
  /** Totals of the particle system after every submit (for step statistics over time). */
  totalsOverTime: { step: number; totals: ParticleTotals }[];
  capacity: number;
  tables: SolverTables;
  /** Host side of the loop: recording commands, waiting for the GPU, reading results back. */
  /** Host time per loop: recording, waiting for the GPU, read-backs, the sampled fields after the loop (one rank: read back and evaluated), submits. */
  host: { encodeSeconds: number; waitSeconds: number; readbackSeconds: number; foldSeconds: number; submits: number };
  /** A sampled run: the read-back of its state and (one rank) its evaluation, seconds and threads (run-summary.ts EndOfRunSeconds). */
  endOfRun?: EndOfRunSeconds;
  /** When the loop's clock stopped (performance.now(), ms; absent where no loop ran): a rank times its end of run from it. */
  clockStoppedAt?: number;
  /** This rank's surface sums over the sampled steps of the run (bodies' triangles, then the six domain faces). */
  surface: SurfaceSums;
  /** Which kernel sampled (one rank; sample-kernel-choice.ts; absent in a multi-rank run, which uses the pass). */
  sampleKernel?: SampleKernelReport;
  /** Reacting runs: how many times each reaction happened on this rank (the case's reaction order; counted, not made, when reactions.perform is false). */
  reactionCounts?: number[];
}

/** Thrown when a run is cancelled through its AbortSignal. */
export class RunCancelled extends Error {}

/** The fields of a run so far for the live view: passes so far, and the fields of a list of (global) cells. */
export interface LiveFieldSource {
  readonly samples: number;
  fieldsOfCells(cellIds: ArrayLike<number>): Promise<Fields>;
}
