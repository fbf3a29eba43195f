// Runs one case on one device, start to finish: parse, pre-launch check, fill, step loop, summary.
// Used in-process by `dsmc run` and `dsmc bench`; the multi-GPU rank process will wrap the same loop.
import { formatPrelaunch, type PrelaunchReport } from '../cases/prelaunch.js';
import { parseCase, type Case } from '../common/case-schema.js';
import { applyOverrides } from '../common/case-overrides.js';
import type { LiveFieldSource } from './loop-types.js';
import { openGpu, type Gpu } from './gpu/device.js';
import { Simulation } from './loop.js';
import type { LoopOptions, LoopResult } from './loop-types.js';
import { stepsPerSubmit } from './submit-plan.js';
import { bufferPlan, initialCapacity } from './state.js';
import { summarize, type RunSummary } from './summary.js';
import { prelaunchOn } from './rank-prelaunch.js';
import { compositionSummary } from './composition-summary.js';
import { surfaceSummary } from './surface-summary.js';
import { SetupClock, type SetupStart } from './setup-clock.js';
import { buildTables, buildTablesOnThreads, type SolverTables } from './tables.js';
import { liveStatsHook, type LiveStatsOptions } from './live-stats.js';
import { attachedCheckpointTarget, caseHash, type CheckpointTarget } from './checkpoint/checkpoint-target.js';
import type { ResumePoint } from './checkpoint/checkpoint-load.js';
import { completeWithLoop, writeRankFile } from './checkpoint/checkpoint-writer.js';

/** Thrown when the pre-launch check refuses a case; the message lists the errors. */
export class PrelaunchRefused extends Error {
  constructor(readonly report: PrelaunchReport) {
    super(`The case cannot run on this adapter:\n${formatPrelaunch(report)}`);
  }
}

/** Parses a case file's JSON with --set overrides applied (throws CaseError naming fields). */
export function loadCase(json: unknown, sets: string[] = []): Case {
  return parseCase(applyOverrides(json, sets));
}

/** The pre-launch report of a case on an open device (`tables`: the case's, when the caller built them already). */
export function checkCase(c: Case, gpu: Gpu, tables: SolverTables = buildTables(c)): PrelaunchReport {
  return prelaunchOn(c, gpu, tables, bufferPlan(tables, initialCapacity(tables, stepsPerSubmit(c))));
}

/** A finished run: the summary and the raw loop result (fields, step statistics). */
export interface CaseRun {
  summary: RunSummary;
  result: LoopResult;
  prelaunch: PrelaunchReport;
}

/** Options of runCase beyond the loop's. */
export interface RunCaseOptions extends LoopOptions {
  gpu?: Gpu;
  onPrelaunch?: (r: PrelaunchReport) => void;
  warmupSteps?: number;
  /** Where checkpoints go when run.checkpointEvery > 0 (default: the target attached to the case object, else none). */
  checkpoints?: CheckpointTarget;
  /** Continue from this checkpoint instead of filling the box (no warm-up). */
  resume?: ResumePoint;
  /** After each submit of a sampling run: the fields sampled so far, read on demand (a resumed run's include the checkpoint's). */
  onFields?: (fields: LiveFieldSource) => void | Promise<void>;
  /** A stats line every few seconds of wall time (live-stats.ts): step, particles, collisions per step, T. */
  stats?: LiveStatsOptions;
  /**
   * The case's solver tables, when the caller built them for its own pre-launch check: a case with bodies takes seconds
   * to mesh and cut (the full-size hypersonic wedge 6 s on an idle 2-core CPU), so the check and the run share one build.
   */
  tables?: SolverTables;
  /**
   * The set-up's clock and start (performance.now()) when the caller began it (its table build and pre-launch check
   * count); else runCase starts both.
   */
  setup?: SetupStart;
}

/** Writes the one-rank checkpoint after the current submit: rank-0.bin, loop.bin, then the manifest. */
async function writeCheckpoint(target: CheckpointTarget, sim: Simulation, c: Case, blockPlan: { from: number; steps: number }): Promise<void> {
  const snap = await sim.snapshot();
  writeRankFile(target.folder, snap);
  completeWithLoop(target.folder, {
    step: snap.step, ranks: 1, caseHash: caseHash(c), decomposition: null, blockPlan, fields: c.sampling.enabled ? sim.sampleCounters : null,
  });
}

/** Runs a parsed case on `gpu` (or the default adapter) and summarizes it; warmupSteps run untimed first. */
export async function runCase(c: Case, options: RunCaseOptions = {}): Promise<CaseRun> {
  const { clock, from: t0 } = options.setup ?? { clock: new SetupClock(), from: performance.now() };
  const gpu = options.gpu ?? (await clock.timeAsync('device', () => openGpu()));
  try {
    const tables = options.tables ?? (await clock.timeAsync('tables', () => buildTablesOnThreads(c)));
    const prelaunch = clock.time('check', () => checkCase(c, gpu, tables));
    options.onPrelaunch?.(prelaunch);
    if (!prelaunch.ok) throw new PrelaunchRefused(prelaunch);
    const sim = clock.time('buffers', () => new Simulation(gpu, c, undefined, tables));
    clock.followPipelines('buffers', sim.cache);
    let blockPlan: { from: number; steps: number };
    if (options.resume) {
      const r = options.resume;
      if (r.ranks.length !== 1) throw new Error(`checkpoint ${r.dir} was written by ${r.ranks.length} ranks; resume it on ${r.ranks.length} ranks`);
      sim.restore(r.ranks[0]);
      blockPlan = r.loop.blockPlan;
    } else {
      await clock.timeAsync('fill', () => sim.initialize());
      // benchmarks time a warm loop: the first submits pay for the driver's lazy shader compilation
      if (options.warmupSteps) await clock.timeAsync('warm-up', () => sim.run({ signal: options.signal }, options.warmupSteps));
      blockPlan = { from: sim.stepsDone, steps: c.run.steps };
    }
    const target = options.checkpoints ?? attachedCheckpointTarget(c);
    if (c.run.checkpointEvery > 0 && !target) {
      process.stderr.write('warning: run.checkpointEvery is set but this run is not saved (--no-save), so no checkpoints are written; save the run to be able to resume it\n');
    }
    const onCheckpoint = target && c.run.checkpointEvery > 0 ? (_step: number) => writeCheckpoint(target, sim, c, blockPlan) : undefined;
    const remaining = blockPlan.from + blockPlan.steps - sim.stepsDone;
    const stats = options.stats ? liveStatsHook(c, sim.tables.fnum, blockPlan.from + blockPlan.steps, options.stats, () => sim.totals()) : null;
    const onBatch: LoopOptions['onBatch'] = async (b) => {
      await options.onBatch?.(b);
      await stats?.(b);
      if (options.onFields && sim.samples > 0) await options.onFields(sim);
    };
    const setupSeconds = (performance.now() - t0) / 1000;
    const result = await sim.run({ ...options, onBatch, onCheckpoint }, remaining, blockPlan);
    const gpuBytes = bufferPlan(sim.tables, sim.state.capacity).reduce((s, b) => s + b.bytes, 0);
    const summary = summarize(c.name, result, gpu.adapter, gpuBytes);
    // the molecules' velocities against Maxwell-Boltzmann (the first 2M particles in cell order on big runs)
    summary.velocityDistribution = (await sim.velocityDistribution()) ?? undefined;
    summary.surface = surfaceSummary(c, sim.tables, result.surface);
    summary.composition = compositionSummary(c, result);
    if (!options.resume) {
      summary.setupSeconds = setupSeconds;
      summary.setupParts = { ...clock.parts };
    }
    if (result.clockStoppedAt !== undefined) summary.finishSeconds = (performance.now() - result.clockStoppedAt) / 1000;
    return { summary, result, prelaunch };
  } finally {
    if (!options.gpu) gpu.device.destroy();
  }
}
