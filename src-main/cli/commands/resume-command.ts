// `dsmc resume RUN`: continues an interrupted run (failed or cancelled, e.g. killed) from its newest complete
// checkpoint, on as many ranks and the same decomposition as wrote it, recording into the same run: the steps
// the interrupted process recorded after the checkpoint are deleted first, then the rest of the run is appended.
import type { TimingMode } from '../../common/run-summary.js';
import { parseCase, type Case } from '../../common/case-schema.js';
import { runDistributed } from '../../cluster/orchestrator/run-distributed.js';
import { checkBodyFiles } from '../../solver/checkpoint/body-files.js';
import { CheckpointCorrupt } from '../../solver/checkpoint/checkpoint-codec.js';
import { latestCheckpoint, removeNewer, runCheckpointFolder } from '../../solver/checkpoint/checkpoint-folder.js';
import { loadResumePoint, type ResumePoint } from '../../solver/checkpoint/checkpoint-load.js';
import { openGpu } from '../../solver/gpu/device.js';
import { RunCancelled } from '../../solver/loop-types.js';
import { runCase } from '../../solver/run-case.js';
import type { RunSummary } from '../../solver/summary.js';
import { RunStore } from '../../store/run-store.js';
import { processAlive } from '../../store/stale-runs.js';
import { hostname } from 'node:os';
import { existsSync, readFileSync } from 'node:fs';
import type { CliCommand } from '../command.js';
import { formatSummary } from '../format-summary.js';
import { interruptRun } from '../interrupts.js';
import { liveFieldsOverIpc } from '../live-fields-ipc.js';
import { multiRankStatsLines, progressBar, statsLines } from '../progress.js';
import { RunRecorder } from '../run-recorder.js';
import { DATA_DIR_OPTION, runIdArg } from '../store-args.js';
import { STOPPED_EXIT_CODE, timingOf } from './solver-commands.js';
import { printSafe } from '../terminal-text.js';

const USAGE = 'resume RUN [--json] [--timing auto|full|wall|off] [--no-progress] [--data-dir DIR]';

/** The run's case as recorded, and its newest usable checkpoint (refused ones reported on stderr). */
function resumePointOf(store: RunStore, runId: number): { c: Case; point: ResumePoint } {
  const run = store.getRun(runId);
  if (run.status !== 'failed' && run.status !== 'cancelled') {
    throw new Error(`run ${runId} is ${run.status}; only a failed or cancelled run can be resumed${run.status === 'running' ? ' (stop it first, or wait: it is still running)' : ''}`);
  }
  const c = parseCase(store.getCase(runId).json);
  const folder = runCheckpointFolder(store.dataDir, runId);
  checkBodyFiles(folder, c, (why) => process.stderr.write(`warning: ${why}\n`));
  const verified = latestCheckpoint(folder, (e) => process.stderr.write(`refused: ${e.message}; trying the previous checkpoint\n`),
    (e) => process.stderr.write(`skipped: ${e.message}\n`));
  try {
    return { c, point: loadResumePoint(verified, c) };
  } catch (e) {
    if (e instanceof CheckpointCorrupt) throw new Error(`${e.message}\nThe newest checkpoint that passed its manifest cannot be read; move ${verified.dir} aside to resume from an older one, or run the case again.`);
    throw e;
  }
}

/**
 * Waits up to 10 s for rank processes of the interrupted attempt on this host to exit (a rank outlives a killed
 * orchestrator by up to its supervisor poll, and could still write a checkpoint file); throws naming them otherwise.
 */
async function awaitOldRanks(store: RunStore, runId: number): Promise<void> {
  const here = hostname();
  const pids = store.getRanks(runId).filter((r) => r.hostname === here && r.pid !== null && r.pid !== process.pid).map((r) => r.pid!);
  for (let waited = 0; ; waited += 100) {
    const alive = pids.filter(isRankProcess);
    if (alive.length === 0) return;
    if (waited >= 10_000) throw new Error(`rank process${alive.length === 1 ? '' : 'es'} ${alive.join(', ')} of run ${runId} still run${alive.length === 1 ? 's' : ''} on this host; stop ${alive.length === 1 ? 'it' : 'them'} (kill ${alive.join(' ')}) and resume again`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** True when `pid` is alive and (where /proc tells) a dsmc rank process, not an unrelated one that reused the pid. */
function isRankProcess(pid: number): boolean {
  if (!processAlive(pid)) return false;
  const cmdline = `/proc/${pid}/cmdline`;
  if (!existsSync(cmdline)) return true;
  try {
    return readFileSync(cmdline, 'utf8').includes('rank-main');
  } catch {
    return false; // it ended meanwhile
  }
}

/**
 * Makes a resumed run's summary say the same on one rank and many: `steps` is the run's (run.steps), `resumed`
 * the checkpoint's step and the steps run after it (the loop summarized those, on one rank in `steps`).
 */
export function markResumed(summary: RunSummary, c: Case, point: ResumePoint): RunSummary {
  const plan = point.loop.blockPlan;
  summary.resumed = { fromStep: point.loop.step - plan.from, steps: plan.from + plan.steps - point.loop.step };
  summary.steps = c.run.steps;
  return summary;
}

/** A resumed run stopped and kept at loop step `reached`: `steps` the steps of the run so far, `resumed` those after the checkpoint. */
function markStoppedResume(summary: RunSummary, point: ResumePoint, reached: number): RunSummary {
  const from = point.loop.blockPlan.from;
  summary.resumed = { fromStep: point.loop.step - from, steps: reached - point.loop.step };
  summary.steps = reached - from;
  return summary;
}

/** A resumed run's summary, and why it ended early when Ctrl-C once stopped it and kept its results. */
export interface ResumeDone {
  summary: RunSummary;
  stopped: string | null;
}

/** Resumes run `runId` of the store and records it to the end (or to a Ctrl-C that keeps it); returns the summary of the resumed part. */
export async function resumeRun(store: RunStore, runId: number, o: { timing: TimingMode; progress: boolean }): Promise<ResumeDone> {
  const { c, point } = resumePointOf(store, runId);
  await awaitOldRanks(store, runId);
  const step = point.loop.step;
  removeNewer(runCheckpointFolder(store.dataDir, runId), step);
  const recorder = RunRecorder.reopen(store, runId, step, c);
  const bar = progressBar(o.progress);
  // without a terminal: a stats line every 30 s (as dsmc run's default --stats-every)
  const stats = multiRankStatsLines(o.progress, 30);
  const stop = interruptRun(point.loop.ranks === 1 ? 'stopping after the current submit, keeping what was sampled' : 'stopping every rank after the same submit, keeping what was sampled', (signal) => {
    recorder.fail(new RunCancelled(`stopped at once by a second ${signal}`));
  });
  try {
    if (point.loop.ranks === 1) {
      const gpu = await openGpu();
      try {
        // Ctrl-C once (or the app's stop): stop and keep, as dsmc run does
        const { summary, result } = await runCase(c, {
          gpu, timing: o.timing, resume: point, signal: stop.signal, keepOnStop: true, onProgress: (p) => bar.update(p), onSteps: recorder.onSteps,
          onFields: liveFieldsOverIpc(c), stats: statsLines(o.progress, 30),
        });
        bar.stop();
        const reached = result.stepStats.at(-1)?.step ?? point.loop.step;
        if (stop.signal.aborted && reached < point.loop.blockPlan.from + point.loop.blockPlan.steps) {
          const why = recorder.stopped(c, markStoppedResume(summary, point, reached), result, stop.by() ?? 'a signal');
          process.stderr.write(`${why} (run ${runId}, cancelled; dsmc resume ${runId} continues it from its last checkpoint)\n`);
          return { summary, stopped: why };
        }
        recorder.complete(c, markResumed(summary, c, point), result);
        return { summary, stopped: null };
      } finally {
        gpu.device.destroy();
      }
    }
    const run = await runDistributed(c, {
      // Ctrl-C once (or the app's stop): every rank stops after the same submit and the run keeps what it sampled
      ranks: point.loop.ranks, method: point.loop.decomposition!.method, timing: o.timing, resume: point, stopAndKeep: stop.signal,
      // a balanced run goes on balancing with its threshold, from the layout and re-decompositions it had
      rebalancePercent: point.loop.rebalance?.thresholdPercent ?? null, // as the run had it (a run without rebalancing stays static)
      onWarning: (w) => process.stderr.write(`warning: ${w}\n`),
      onSteps: (s) => { recorder.onSteps(s); stats?.onSteps(s); }, onProgress: (p) => { bar.update(p); stats?.onProgress(p); }, onFields: liveFieldsOverIpc(c),
      onLaunched: (ranks) => {
        try {
          store.updateRankPids(runId, ranks.map((r) => ({ rank: r.rank, pid: r.pid })));
        } catch (e) {
          process.stderr.write(`could not record the new rank processes of run ${runId}: ${(e as Error).message}\n`);
        }
      },
    });
    bar.stop();
    if (run.stoppedAtStep !== null) {
      markStoppedResume(run.summary, point, run.stoppedAtStep);
      const why = recorder.stoppedDistributed(c, run, stop.by() ?? 'a signal');
      process.stderr.write(`${why} (run ${runId}, cancelled; dsmc resume ${runId} continues it from its last checkpoint)\n`);
      return { summary: run.summary, stopped: why };
    }
    markResumed(run.summary, c, point);
    recorder.completeDistributed(c, run);
    return { summary: run.summary, stopped: null };
  } catch (e) {
    bar.stop();
    try {
      const status = recorder.fail(e, stop.by());
      if (e instanceof Error) e.message += ` (run ${runId} marked ${status}; dsmc resume ${runId} continues it from its last checkpoint)`;
    } catch (dbError) {
      process.stderr.write(`could not mark run ${runId} as ended: ${(dbError as Error).message}\n`);
    }
    throw e;
  } finally {
    bar.stop();
    stop.remove();
  }
}

export const resumeCommand: CliCommand = {
  name: 'resume',
  usage: USAGE,
  summary: 'Continue an interrupted (failed or cancelled) run from its last complete checkpoint (cases with run.checkpointEvery > 0),\n' +
    'on the same number of ranks and decomposition, recording into the same run; the result is bitwise that of a run that\n' +
    'never stopped. A damaged checkpoint is refused naming its file and the one before it is used. Ctrl-C once stops the\n' +
    'run after the current submit (every rank after the same one) and keeps what it sampled, as dsmc run does (exit code 130).',
  options: { json: { type: 'boolean', default: false }, timing: { type: 'string', default: 'auto' }, 'no-progress': { type: 'boolean', default: false }, ...DATA_DIR_OPTION },
  async run(args) {
    if (args.positionals.length !== 1) throw new Error(`expected one RUN (a run id from \`dsmc runs\`); usage: dsmc ${USAGE}`);
    const runId = runIdArg(args.positionals[0], USAGE);
    const timing = timingOf(args);
    // resuming needs a saved run: never create a database for it; refuse one with damaged pages before writing
    const store = RunStore.open({ dataDir: args.values['data-dir'] as string | undefined, mustExist: true, verify: true });
    try {
      const { summary, stopped } = await resumeRun(store, runId, { timing, progress: !args.values['no-progress'] });
      const to = stopped ? `to step ${summary.steps} (stopped and kept)` : 'to its end';
      if (args.values.json) printSafe(JSON.stringify({ runId, ...summary }) + '\n');
      else printSafe(`${formatSummary(summary, store.getFields(runId))}\nresumed run ${runId} from step ${summary.resumed?.fromStep} ${to} in ${store.path} (dsmc show ${runId})\n`);
      // stopped by Ctrl-C once with its results kept: not a completed run (130, as dsmc run)
      return stopped ? STOPPED_EXIT_CODE : 0;
    } finally {
      store.close();
    }
  },
};
