// The summary of a finished run, as `dsmc run --json` prints it and the run database keeps it.
// Environment-free: the renderer reads the same type.
import type { VelocityDistribution } from './velocity-distribution.js';
import type { BodyForces } from './surface/surface-results.js';

/** How phase times were measured. */
export type TimingSource = 'gpu-timestamps' | 'wall-clock' | 'off';

/**
 * How a run times its phases: 'auto' GPU timestamps on every SAMPLED_TIMING_EVERY-th call of each phase (wall clock
 * where the adapter has no timestamps), 'full' on every call, 'wall' the wall clock (each phase submitted alone), 'off'
 * none (the fastest loop).
 */
export const TIMING_MODES = ['auto', 'full', 'wall', 'off'] as const;
export type TimingMode = (typeof TIMING_MODES)[number];

/** Time of one phase in the summary. */
export interface PhaseSummary {
  calls: number;
  totalSeconds: number;
  avgSeconds: number;
  minSeconds: number;
  maxSeconds: number;
  percentOfLoop: number;
  secondsPerParticleStep: number;
}

/**
 * Which kernel sampled a one-rank run: the sampling pass or the collide kernel's walk (the same bits), fixed
 * (DSMC_SAMPLE_KERNEL, a CPU adapter) or measured on the first sampled submits (the costs per sampled step, seconds:
 * the pass, and the walk beyond a plain collide), or still in its trials when the run ended.
 */
export interface SampleKernelReport {
  kernel: 'pass' | 'walk';
  how: 'fixed' | 'measured' | 'trial';
  passSeconds?: number;
  walkExtraSeconds?: number;
}

/** The `--json` summary of a run. */
/**
 * Where the end of a sampled run went (host.foldSeconds), per rank (one entry on one rank): reading its sampling state
 * back from the GPU, evaluating its cells' fields and errors on `threads` threads; on several ranks also writing the
 * planes to the peer folder's file (0 where they went as frames), the rank's whole end from its loop's clock to its
 * `done` sent (rankSeconds), the orchestrator's wait from the last merged submit until every `done` was in
 * (arrivedSeconds) and its placing of every rank's planes in global order.
 */
export interface EndOfRunSeconds {
  readSeconds: number[];
  evaluateSeconds: number[];
  threads: number[];
  writeSeconds?: number[];
  rankSeconds?: number[];
  arrivedSeconds?: number;
  placeSeconds?: number;
}

export interface RunSummary {
  case: string;
  /** Timesteps of the run (run.steps), resumed or not, on any number of ranks. */
  steps: number;
  particles: number;
  meanParticles: number;
  particleSteps: number;
  seconds: number;
  particleStepsPerSecond: number;
  collisionsPerParticleStep: number;
  candidatesPerParticleStep: number;
  /** Where phase times come from; 'off': not measured (one pass per submit, the fastest loop). */
  timing: TimingSource;
  /** GPU timestamps on one call in this many of each phase (the phases' seconds are estimates from those); absent: every call. */
  timedEvery?: number;
  phases: Record<string, PhaseSummary>;
  otherSeconds: number;
  /** Host side of the loop (encoding, waiting for the GPU, read-back) and the number of submits. */
  /**
   * foldSeconds: the end of a sampled run, from the loop's end to the fields and standard errors in global order (read
   * back, evaluated; on several ranks also sent and placed); absent in runs recorded before it was measured, and before
   * the twelfth session it counted less (one rank: the read-back only; several: the evaluation and the placing).
   */
  host: { encodeSeconds: number; waitSeconds: number; readbackSeconds: number; foldSeconds?: number; submits: number };
  /** Sampled runs: where host.foldSeconds went (absent in unsampled runs and older summaries). */
  endOfRun?: EndOfRunSeconds;
  /**
   * Seconds from the run's start (its case parsed) to its loop: the solver tables (bodies meshed and cut), the
   * pre-launch check, the buffers, the fill and first sort, a benchmark's warm-up steps; on several ranks until every
   * rank is ready (their processes started and set up). Absent in runs recorded before it was measured and in resumed
   * runs' parts.
   */
  setupSeconds?: number;
  /**
   * Where setupSeconds went, seconds per part: device (opening the adapter), tables (bodies meshed and cut), check,
   * buffers, pipelines (compiling them), fill (the box filled and first sorted), warm-up, restore. On several ranks:
   * launch (the rank processes started until every one said hello), orchestrator (its tables and split, while the
   * ranks build theirs), and each rank part's most over the ranks (rank-ready: the last rank's wait for the others).
   * Absent where setupSeconds is.
   */
  setupParts?: Record<string, number>;
  /**
   * Seconds from the loop's end to the summary (one rank): the sampled fields (host.foldSeconds), the final totals, the
   * velocity distribution, the surface loads. Absent in runs recorded before it was measured and in multi-rank runs.
   */
  finishSeconds?: number;
  /** Drifts are null where the boundaries exchange momentum (any wall or open face) or energy (diffuse, inflow, outflow). */
  conservation: { particlesStart: number; particlesEnd: number; momentumRelDrift: number | null; energyRelDrift: number | null };
  samples: number;
  /** Which kernel sampled a one-rank run and why (absent before it was reported, and in multi-rank runs). */
  sampleKernel?: SampleKernelReport;
  /** Sampled multi-rank runs: which kernel sampled each rank and why (each rank measures its own). */
  sampleKernels?: ({ rank: number } & SampleKernelReport)[];
  fieldsSha256: string;
  /** Particles the buffers hold before they grow. */
  capacity: number;
  /** GPU memory of the run divided by the final particle count. */
  bytesPerParticle: number;
  adapter: { description: string; backend: string };
  /** Multi-rank runs (absent on one rank): rank count, decomposition method, live particles per rank at the end. */
  ranks?: number;
  decomposition?: string;
  particlesPerRank?: number[];
  /** Multi-rank runs: seconds each rank's GPU worked in the loop (its passes' times; absent when untimed). */
  gpuSecondsPerRank?: number[];
  /** Multi-rank runs: each rank's seconds per phase in the loop (GPU passes and host phases; absent in older summaries). */
  phaseSecondsPerRank?: Record<string, number>[];
  /** Load non-uniformity UN = (max - min) / mean * 100 % of the ranks' particles after the last step, and its mean over steps. */
  loadNonUniformity?: number;
  loadNonUniformityMean?: number;
  /** Rebalancing runs: the steps after which the grid was re-decomposed, with UN (percent) before and (from the cell counts) after, and particles moved. */
  rebalances?: { step: number; unBefore: number; unAfter?: number; moved?: number }[];
  /**
   * Multi-rank runs: how the run was balanced and why (initial split, rebalance threshold or null for none), how often
   * the ranks' cell counts were gathered to consider a new split, the orchestrator's seconds deciding and moving
   * sampling state, the most any rank's loop spent balancing (waiting for decisions, cell counts, relayouts), and of
   * that the most seconds and rounds of relayouts.
   */
  /**
   * parts: where a rank's balancing seconds went, the most over the ranks: waiting for the orchestrator's answer after
   * each submit, checks (cell state out, decision back), the sampling state moved, and the relayouts' setup, rounds
   * (their exchanges among them) and final sort (absent in older summaries). by: what re-splits balance, the ranks'
   * measured GPU time (the default on GPUs; prices: what a cell of n particles weighed besides n in the last fit,
   * cellWeight + squareWeight n^2 particle-equivalents) or their particle counts (absent in older summaries). orchestratorParts: the orchestrator's side of the checks,
   * seconds: gathering the ranks' coarse counts and full cell states (first arrival to last), proposing and committing a
   * split, answering the ranks with it (absent in older summaries).
   */
  balance?: { reason: string; rebalancePercent: number | null; by?: 'particles' | 'time'; prices?: { cellWeight: number; squareWeight: number }; checks: number; fullChecks?: number; checkBlock?: number; orchestratorSeconds: number; rankSeconds: number; relayoutSeconds?: number; relayoutRounds?: number; parts?: Record<string, number>; orchestratorParts?: Record<string, number> };
  /** A sample of the first species' velocities at the end, binned, for comparison with Maxwell-Boltzmann (one-rank runs). */
  velocityDistribution?: VelocityDistribution;
  /** The adapter (and pinned GPU) of every rank. */
  rankAdapters?: { rank: number; gpu: string; pinned: boolean; description: string }[];
  /**
   * Multi-rank runs: how each rank split its steps (interior cells sorted and collided while migrants were
   * exchanged): halo depth in cells per axis, halo and owned cells, steps redone whole (an arrival beyond the halo).
   */
  /** earlyMoves: steps whose interior part moved while the step before's migrants were exchanged (absent in older summaries). */
  splitSteps?: { rank: number; depth: [number, number, number]; haloCells: number; ownedCells: number; redos: number; earlyMoves?: number }[];
  /**
   * Multi-rank runs: the garbage collections the ranks took together at a submit's end (minor ones as their young
   * generations filled: cluster/orchestrator/young-collections.ts; major ones, `major`, as their old generations grew:
   * old-collections.ts), per rank: after which submit, seconds.
   */
  youngCollections?: { rank: number; index: number; seconds: number; major?: true }[];
  /**
   * A run finished by `dsmc resume`: the step of the checkpoint it went on from and the steps run after it. Then
   * seconds, particleSteps, meanParticles, the throughput and the phase and host times cover the resumed part only.
   */
  resumed?: { fromStep: number; steps: number };
  /** Surface results over the sampled steps: loads per body and mean loads per domain face (absent in older runs). */
  surface?: SurfaceSummary;
  /** Reacting runs: the reactions and their counts (solver/reaction-summary.ts). */
  reactions?: ReactionsSummary;
  /** The gas's composition: mean mole fractions and particles per species over time (absent in older runs). */
  composition?: CompositionSummary;
}

/**
 * The gas's composition (solver/composition-summary.ts). moleFractions: the box's mean mole fraction of each species,
 * molecules of the species over all molecules, from the sampled fields over the sampling window (from: 'fields') or,
 * without samples, from the particles at the end of the run (from: 'particles'). overTime: the simulated particles
 * of each species at the run's first step and where the totals were taken (every few submits, and the last step).
 */
export interface CompositionSummary {
  species: string[];
  moleFractions: number[];
  from: 'fields' | 'particles';
  overTime: { step: number; speciesCounts: number[] }[];
}

/** Integrated loads on one body (surface-results.ts BodyForces) with its triangles, wetted area and references. */
export interface BodySummary extends BodyForces {
  triangles: number;
  /** Wetted area, m^2. */
  area: number;
  referenceArea: number;
  momentCenter: [number, number, number];
}

/** Mean loads on one domain face (walls; open faces give the outgoing flux only). */
export interface FaceSurfaceSummary {
  face: string;
  /** Mean pressure (Pa), shear stress vector (Pa), heat flux into the wall (W/m^2), incident number flux (1/(m^2 s)). */
  pressure: number;
  shear: [number, number, number];
  heatFlux: number;
  numberFlux: number;
}

/** Surface results of a run: the simulated time they cover, per body and per domain face. */
export interface SurfaceSummary {
  sampledTime: number;
  freeStream: { numberDensity: number; temperature: number; velocity: [number, number, number] } | null;
  bodies: BodySummary[];
  faces: FaceSurfaceSummary[];
}

/** A reacting run's reactions: each one's count of simulated events, and the energy the reactions took from the gas. */
export interface ReactionsSummary {
  /** False when the run counted the reactions without making them (reactions.perform false: heat-bath rates). */
  performed: boolean;
  reactions: { equation: string; kind: string; source: string; count: number }[];
  /** Energy the reactions took from the gas, J (real molecules: counts x fnum x -reaction energy; 0 when only counted). */
  chemicalEnergy: number;
}
