// Records one `dsmc run` into the run database: created before the loop, steps as they are read back,
// totals, phases and fields at the end; a run that throws is marked failed (or cancelled).
import { runSurfaceRecord } from '../solver/surface-summary.js';
import type { Case } from '../common/case-schema.js';
import type { PhaseRecord, StepRecord, TotalsRecord } from '../common/run-record.js';
import type { DistributedRun } from '../cluster/orchestrator/run-distributed.js';
import type { AdapterDescription } from '../solver/gpu/device.js';
import { RunCancelled, type LoopResult, type StepStats } from '../solver/loop-types.js';
import type { RunSummary } from '../solver/summary.js';
import type { RunStore } from '../store/run-store.js';
import { productVersion } from './product-version.js';
import { removeRunCheckpoints, runCheckpointFolder } from '../solver/checkpoint/checkpoint-folder.js';
import { attachCheckpointTarget } from '../solver/checkpoint/checkpoint-target.js';
import { recordBodyFiles } from '../solver/checkpoint/body-files.js';

/** A step's statistics as the database keeps them. */
function stepRecord(s: StepStats): StepRecord {
  return { step: s.step, particles: s.particlesAfter, injected: s.injected, collisions: s.collisions, candidates: s.candidates };
}

/** Particle totals of the loop: at its start (the step before its first) and after every submit. */
function totalsRecords(result: LoopResult): TotalsRecord[] {
  const startStep = result.startStep;
  // one record per step, the last taken: a loop stopped and kept took its totals after its last submit twice
  const all = [...new Map([{ step: startStep, totals: result.start }, ...result.totalsOverTime].map((x) => [x.step, x])).values()];
  // the energy recorded is the particles' whole energy, translation plus rotation (what a closed box conserves)
  return all.map(({ step, totals: t }) => ({ step, particles: t.particles, kineticEnergy: t.kineticEnergy + (t.internalEnergy ?? 0), momentum: [...t.momentum] }));
}

/** Phase timings of the summary as rank 0's records. */
function phaseRecords(summary: RunSummary): PhaseRecord[] {
  return Object.entries(summary.phases).map(([phase, p]) => ({
    rank: 0, phase, calls: p.calls, totalSeconds: p.totalSeconds, minSeconds: p.minSeconds, maxSeconds: p.maxSeconds,
  }));
}

/** Why a run stopped and kept ended early: the step it reached, of how many, and who stopped it. */
function stoppedReason(c: Case, step: number, by: string): string {
  return `stopped by the user at step ${step} of ${c.run.steps} (${by}); the fields, profile and surface loads sampled so far are kept`;
}

export class RunRecorder {
  private constructor(private readonly store: RunStore, readonly runId: number) {}

  /** Records a new running run of a validated case on an adapter (ranks processes on gpus distinct GPUs). */
  static start(store: RunStore, project: string, c: Case, adapter: Pick<AdapterDescription, 'description' | 'backend'>, ranks = 1, gpus = 1): RunRecorder {
    const runId = store.createRun({
      project, caseName: c.name, caseJson: c, seed: c.run.seed, ranks, gpus,
      adapter: { description: adapter.description, backend: adapter.backend }, productVersion: productVersion(),
    });
    // run.checkpointEvery > 0: the loop (or the orchestrator) writes this run's checkpoints to the data folder, beside
    // the record of its STL files (dsmc resume refuses a changed mesh)
    if (c.run.checkpointEvery > 0) {
      const folder = runCheckpointFolder(store.dataDir, runId);
      try {
        recordBodyFiles(folder, c);
      } catch (e) {
        store.finishRun(runId, 'failed', `could not record the STL files: ${(e as Error).message}`);
        throw e;
      }
      attachCheckpointTarget(c, { folder });
    }
    return new RunRecorder(store, runId);
  }

  /**
   * Records into an existing interrupted run resumed from the checkpoint after `step` (dsmc resume): what it
   * recorded after that step is deleted, it is running again, and its checkpoints go on in the same folder.
   */
  static reopen(store: RunStore, runId: number, step: number, c: Case): RunRecorder {
    store.reopenRun(runId, step);
    attachCheckpointTarget(c, { folder: runCheckpointFolder(store.dataDir, runId) });
    return new RunRecorder(store, runId);
  }

  /** Records the end of a multi-rank run: totals, per-rank series, then summary, every rank's phases and fields. */
  completeDistributed(c: Case, run: DistributedRun): void {
    this.keepDistributed(c, run);
    this.dropCheckpoints();
  }

  /**
   * Records a multi-rank run the user stopped and kept (DistributedOptions.stopAndKeep, run.stoppedAtStep set) as a
   * one-rank one is (stopped()): cancelled with the reason, and everything it ran and sampled; its checkpoints stay.
   */
  stoppedDistributed(c: Case, run: DistributedRun, by: string): string {
    const reason = stoppedReason(c, run.stoppedAtStep ?? run.assembler.stepStats.at(-1)?.step ?? 0, by);
    this.keepDistributed(c, run, reason);
    return reason;
  }

  /** Writes a multi-rank run's per-rank series, summary, every rank's phases, fields and surfaces (completed, or cancelled with `stopped`). */
  private keepDistributed(c: Case, run: DistributedRun, stopped?: string): void {
    const { summary, assembler: a } = run;
    this.store.appendRankSteps(this.runId, run.rankSteps);
    const phases: PhaseRecord[] = run.rankPhases.flatMap(({ rank, phases: list }) => list.map((p) => ({
      rank, phase: p.name, calls: p.calls, totalSeconds: p.totalSeconds, minSeconds: p.minSeconds, maxSeconds: p.maxSeconds,
    })));
    const fields = a.fields.samples === 0 ? null : {
      cells: c.grid.cells, cellSize: c.grid.cellSize, samples: a.fields.samples, blocks: a.fields.blocks, values: a.fields.fields(), errors: a.fields.errors(),
    };
    this.store.completeRun(this.runId, { summary, phases, fields, surface: runSurfaceRecord(c, run.tables, run.surface), stopped });
  }

  /** Removes the run's checkpoints once it completed (they cannot be resumed any more). */
  private dropCheckpoints(): void {
    removeRunCheckpoints(runCheckpointFolder(this.store.dataDir, this.runId));
  }

  /** Appends the statistics of the steps of one submit (the loop's onSteps). */
  readonly onSteps = (steps: StepStats[]): void => {
    this.store.appendSteps(this.runId, steps.map(stepRecord), []);
  };

  /** Records the end of a run that finished: totals, then summary, phases and fields. */
  complete(c: Case, summary: RunSummary, result: LoopResult): void {
    this.keep(c, summary, result);
    this.dropCheckpoints();
  }

  /** Writes a one-rank loop's totals, then summary, phases, fields and surfaces (completed, or cancelled with `stopped`). */
  private keep(c: Case, summary: RunSummary, result: LoopResult, stopped?: string): void {
    this.store.appendSteps(this.runId, [], totalsRecords(result));
    const fields = result.samples === 0 ? null : {
      cells: c.grid.cells, cellSize: c.grid.cellSize, samples: result.samples, blocks: result.fieldBlocks,
      values: result.fields, errors: result.fieldErrors,
    };
    this.store.completeRun(this.runId, { summary, phases: phaseRecords(summary), fields, surface: runSurfaceRecord(c, result.tables, result.surface), stopped });
  }

  /**
   * Records a run the user stopped and kept (the loop's keepOnStop): cancelled, with the reason naming the step it
   * reached and `by` (who stopped it), and its totals, summary, phases, fields and surfaces so far. Its checkpoints
   * stay (dsmc resume continues it). Returns the reason written.
   */
  stopped(c: Case, summary: RunSummary, result: LoopResult, by: string): string {
    const reason = stoppedReason(c, result.stepStats.at(-1)?.step ?? result.startStep, by);
    this.keep(c, summary, result, reason);
    return reason;
  }

  /** Marks the run cancelled (RunCancelled) or failed with the error's message; returns the status written. */
  fail(error: unknown, interruptedBy?: string): 'failed' | 'cancelled' {
    const message = error instanceof Error ? error.message : String(error);
    if (error instanceof RunCancelled) {
      this.store.finishRun(this.runId, 'cancelled', interruptedBy ? `${message} (${interruptedBy})` : message);
      return 'cancelled';
    }
    this.store.finishRun(this.runId, 'failed', message);
    return 'failed';
  }
}
