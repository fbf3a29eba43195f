// `dsmc run`, `dsmc bench` and `dsmc check`: a case on the default GPU adapter.
import { TIMING_MODES, type TimingMode } from '../../common/run-summary.js';
import { liveFieldsOverIpc } from '../live-fields-ipc.js';
import { formatPrelaunch, prelaunchCheck, type PrelaunchReport } from '../../cases/prelaunch.js';
import { isMethod, METHODS, type Method } from '../../cluster/decomposition/types.js';
import { runDistributed, type DistributedOptions, type LaunchedRank } from '../../cluster/orchestrator/run-distributed.js';
import type { Case } from '../../common/case-schema.js';
import type { FieldSet } from '../../common/run-record.js';
import { openGpu, type Gpu } from '../../solver/gpu/device.js';
import { RunCancelled } from '../../solver/loop-types.js';
import { PrelaunchRefused, checkCase, loadCase, runCase } from '../../solver/run-case.js';
import { buildTablesOnThreads } from '../../solver/tables.js';
import { SetupClock, type SetupStart } from '../../solver/setup-clock.js';
import type { RunSummary } from '../../solver/summary.js';
import { RunStore } from '../../store/run-store.js';
import { readCaseFile } from '../case-file.js';
import { CASE_OPTIONS, onePositional, type CliCommand, type CommandArgs, type CommandOptions } from '../command.js';
import { formatSummary } from '../format-summary.js';
import { interruptRun } from '../interrupts.js';
import { multiRankStatsLines, progressBar, statsEveryOf, statsLines } from '../progress.js';
import { RunRecorder } from '../run-recorder.js';
import { DATA_DIR_OPTION } from '../store-args.js';
import { slurmRunSetup, type ClusterPlacement } from '../../cluster/slurm/run-setup.js';
import { resolveDataDir } from '../../store/data-dir.js';
import { assignGpus, discoverGpus, type GpuInfo } from '../../cluster/gpus.js';
import { checkInput, projectNameSchema } from '../../store/input-schemas.js';
import { printSafe } from '../terminal-text.js';
import { formatRankCheck, rankCheck } from './rank-check.js';
import { presetShrink } from '../preset-info.js';

/** The line pointing a preset too big for this adapter to its shrink command ('' when it has none). */
function shrinkHint(ref: string): string {
  const shrink = presetShrink(ref);
  return shrink ? `preset ${ref} is sized for a large GPU; shrunk, it runs on a small GPU or a CPU:\n  ${shrink}` : '';
}

/** Options of a run from the command line. */
export interface RunOptions {
  sets: string[];
  json: boolean;
  timing: TimingMode;
  /** Time the sort's stages (scan, scatter, order, permute) as separate phases. */
  detail: boolean;
  progress: boolean;
  /** Seconds between stats lines when stderr is not a terminal (--stats-every). */
  statsEvery?: number;
  warmup?: number;
  /** Record the run in the run database (project, data folder); null: --no-save. */
  save: { project: string; dataDir?: string } | null;
  /** Rank processes (1: in this process), their GPUs and the decomposition. */
  ranks?: number;
  gpus?: string[];
  decomposition?: Method;
  /** Rebalance when UN exceeds this many percent (multi-rank); null: static decomposition (--rebalance off); undefined: the default (DEFAULT_REBALANCE_PERCENT). */
  rebalance?: number | null;
  /** Seconds a rank may stay silent before it counts as hung (multi-rank; default 60). */
  heartbeatTimeout?: number;
  /** --launcher slurm: the ranks run as a Slurm job (null or absent: child processes on this host). */
  cluster?: ClusterPlacement | null;
  /** This host's GPUs, listed once when --gpus was checked. */
  discovered?: GpuInfo[];
}

/** --ranks, --gpus and --decomposition, checked. */
export function placementOf(args: CommandArgs): Pick<RunOptions, 'ranks' | 'gpus' | 'decomposition' | 'rebalance'> {
  const text = args.values.ranks as string;
  const ranks = Number(text);
  if (!Number.isInteger(ranks) || ranks < 1 || ranks > 256) throw new Error(`--ranks: got "${text}"; expected a whole number from 1 to 256 (one rank process per GPU)`);
  const method = args.values.decomposition as string | undefined;
  if (method !== undefined && !isMethod(method)) throw new Error(`--decomposition: got "${method}"; expected one of ${METHODS.join(', ')}, or leave it out for the case's default (rcb where bodies cut the box, slab otherwise)`);
  const gpus = gpuListOf(args.values.gpus as string | undefined);
  if (gpus && gpus.length !== ranks) throw new Error(`--gpus: lists ${gpus.length} GPUs for --ranks ${ranks}; give one GPU per rank, e.g. --gpus ${Array.from({ length: ranks }, (_, i) => i).join(',')}`);
  const rebalanceText = args.values.rebalance as string | undefined;
  const rebalance = rebalanceText === undefined ? undefined : rebalanceText === 'off' ? null : Number(rebalanceText);
  if (typeof rebalance === 'number' && !(rebalance >= 0 && Number.isFinite(rebalance))) {
    throw new Error(`--rebalance: got "${rebalanceText}"; expected the load non-uniformity in percent above which the grid is re-split, e.g. --rebalance 10, or off to keep the first split`);
  }
  return { ranks, gpus, decomposition: method, rebalance };
}

/** --gpus as a list of GPU indices or PCI addresses, each checked (undefined when not given). */
export function gpuListOf(text: string | undefined): string[] | undefined {
  if (text === undefined) return undefined;
  const gpus = text.split(',').map((g) => g.trim());
  const example = 'e.g. --gpus 0,1 (indices as MESA_VK_DEVICE_SELECT=list shows them) or --gpus 0000:07:00.0,0000:08:00.0';
  if (gpus.every((g) => g === '')) throw new Error(`--gpus: got "${text}", which names no GPU; give one GPU index or PCI address per rank, ${example}`);
  for (const g of gpus) {
    if (!/^\d{1,4}$/.test(g) && !/^[0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-9a-f]$/.test(g)) {
      throw new Error(`--gpus: "${g}" is neither a GPU index (0, 1, ...) nor a PCI address like 0000:07:00.0; ${example}`);
    }
  }
  return gpus;
}

/** --heartbeat-timeout SECONDS, checked (undefined: the default, 60 s). */
function heartbeatTimeoutOf(args: CommandArgs): number | undefined {
  const text = args.values['heartbeat-timeout'] as string | undefined;
  if (text === undefined) return undefined;
  const s = Number(text);
  if (!(s >= 1 && s <= 86_400)) throw new Error(`--heartbeat-timeout: got "${text}"; expected seconds from 1 to 86400 (how long a rank may stay silent before it counts as hung, default 60)`);
  return s;
}

/** --launcher, --nodes, --gpus-per-node, --profile and --orchestrator-host, checked (cluster: null for local runs). */
export function clusterPlacementOf(args: CommandArgs): { cluster: ClusterPlacement | null; heartbeatTimeout?: number } {
  const launcher = args.values.launcher as string;
  const slurmOnly = ['nodes', 'gpus-per-node', 'profile', 'orchestrator-host'].filter((k) => args.values[k] !== undefined);
  if (launcher === 'local') {
    if (slurmOnly.length > 0) throw new Error(`--${slurmOnly[0]} is for --launcher slurm; add --launcher slurm, or leave out --${slurmOnly[0]}`);
    return { cluster: null, heartbeatTimeout: heartbeatTimeoutOf(args) };
  }
  if (launcher !== 'slurm') throw new Error(`--launcher: got "${launcher}"; expected local (rank processes on this host) or slurm (a Slurm job)`);
  if (args.values.gpus !== undefined) throw new Error('--gpus picks GPUs on this host; with --launcher slurm each node pins its ranks by SLURM_LOCALID: leave out --gpus');
  const count = (name: string): number | undefined => {
    const text = args.values[name] as string | undefined;
    if (text === undefined) return undefined;
    if (!/^[1-9][0-9]*$/.test(text)) throw new Error(`--${name}: got "${text}"; expected a whole number of at least 1`);
    return Number(text);
  };
  return {
    heartbeatTimeout: heartbeatTimeoutOf(args),
    cluster: {
      profile: args.values.profile as string | undefined, nodes: count('nodes'), gpusPerNode: count('gpus-per-node'),
      orchestratorHost: args.values['orchestrator-host'] as string | undefined, ranks: Number(args.values.ranks),
    },
  };
}

/** Where to record a run, from --no-save, --project and --data-dir. */
export function saveOf(args: CommandArgs): RunOptions['save'] {
  if (args.values['no-save']) return null;
  return { project: args.values.project as string, dataDir: args.values['data-dir'] as string | undefined };
}

/** The --timing value, checked. */
export function timingOf(args: CommandArgs): TimingMode {
  const t = args.values.timing;
  if (!TIMING_MODES.includes(t as TimingMode)) throw new Error(`--timing: got "${t}"; expected ${TIMING_MODES.join(', ')}`);
  return t as TimingMode;
}

/** Prints pre-launch warnings on stderr. */
function reportPrelaunch(r: PrelaunchReport): void {
  if (r.warnings.length > 0) process.stderr.write(`pre-launch check:\n${formatPrelaunch(r)}\n`);
}

/** A finished `dsmc run`: its summary and its id in the run database (null with --no-save). */
export interface RunDone {
  summary: RunSummary;
  runId: number | null;
  /** Why the run ended early when the user stopped it and its results were kept (Ctrl-C once); absent otherwise. */
  stopped?: string | null;
}

/** Runs a case file with overrides, records it (unless --no-save) and prints the summary; Ctrl-C cancels between submits. */
export async function runCaseFile(ref: string, o: RunOptions): Promise<RunDone> {
  const c = loadCase(readCaseFile(ref), o.sets);
  const multiRank = (o.ranks ?? 1) > 1 || !!o.cluster;
  // --gpus naming GPUs this host does not have is refused before anything is created
  const discovered = multiRank && !o.cluster && o.gpus ? checkedGpus(o.ranks ?? 1, o.gpus) : undefined;
  if (o.save) checkInput(projectNameSchema, o.save.project, '--project');
  // opened before the GPU so a database problem shows before a long run; after the case is valid; checked for damage before a run is written into it
  const store = o.save ? RunStore.open({ dataDir: o.save.dataDir, verify: true }) : null;
  if (multiRank) {
    try {
      return await runMultiRank(c, { ...o, discovered }, store);
    } finally {
      store?.close();
    }
  }
  try {
    // the run's set-up counts from here: the device, the solver tables, the check (runOnGpu), then runCase's parts
    const setup = { clock: new SetupClock(), from: performance.now() };
    const gpu = await setup.clock.timeAsync('device', () => openGpu());
    try {
      return await runOnGpu(c, gpu, o, store, setup);
    } finally {
      gpu.device.destroy();
    }
  } finally {
    store?.close();
  }
}

/** This host's GPUs, after checking that `requested` names one of them per rank (throws naming --gpus otherwise). */
function checkedGpus(ranks: number, requested: string[]): GpuInfo[] {
  const gpus = discoverGpus();
  assignGpus(ranks, gpus, requested);
  return gpus;
}

/** The pre-launch check, the recorded run and the printed summary of a case on an open device. */
async function runOnGpu(c: Case, gpu: Gpu, o: RunOptions, store: RunStore | null, setup: SetupStart): Promise<RunDone> {
  // one build of the solver tables for the check and the run (a case with bodies takes seconds to mesh and cut); the
  // run's set-up counts them
  const tables = await setup.clock.timeAsync('tables', () => buildTablesOnThreads(c));
  const prelaunch = setup.clock.time('check', () => checkCase(c, gpu, tables));
  reportPrelaunch(prelaunch);
  if (!prelaunch.ok) throw new PrelaunchRefused(prelaunch);
  const recorder = store && o.save ? RunRecorder.start(store, o.save.project, c, gpu.adapter) : null;
  const bar = progressBar(o.progress);
  const stop = interruptRun('stopping after the current submit, keeping what was sampled', (signal) => {
    if (recorder) markFailed(recorder, new RunCancelled(`stopped at once by a second ${signal}`), undefined);
  });
  try {
    // Ctrl-C once: stop and keep (the loop ends after its submit and the run keeps its fields, profile and surfaces)
    const { summary, result } = await runCase(c, {
      gpu, tables, setup, timing: o.timing, detail: o.detail, warmupSteps: o.warmup, signal: stop.signal, keepOnStop: true,
      onProgress: (p) => bar.update(p), onSteps: recorder?.onSteps, stats: statsLines(o.progress, o.statsEvery ?? 30),
    });
    bar.stop();
    const stopped = stop.signal.aborted && result.steps < c.run.steps;
    const why = stopped ? recorder?.stopped(c, summary, result, stop.by() ?? 'a signal') ?? `stopped by the user after ${result.steps} of ${c.run.steps} steps (not saved: --no-save)` : null;
    if (!stopped) recorder?.complete(c, summary, result);
    const done = printRun(o, summary, recorder?.runId ?? null, store, result.samples > 0 ? { values: result.fields, errors: result.fieldErrors } : null);
    if (why) process.stderr.write(`${why}${recorder ? ` (saved as run ${recorder.runId}, cancelled)` : ''}\n`);
    return { ...done, stopped: why };
  } catch (e) {
    bar.stop();
    if (recorder) markFailed(recorder, e, stop.by());
    throw e;
  } finally {
    bar.stop();
    stop.remove();
  }
}

/** Prints a finished run's summary (JSON on the last line with --json; the text with the gas means of `fields`) and where it was saved. */
function printRun(o: RunOptions, summary: RunSummary, runId: number | null, store: RunStore | null, fields: Pick<FieldSet, 'values' | 'errors'> | null): RunDone {
  if (o.json) printSafe(JSON.stringify(runId !== null ? { runId, ...summary } : summary) + '\n');
  else {
    const where = fields ? `; values on a plane, line or point: dsmc fields ${runId} --plane z=0` : '';
    const saved = runId !== null ? `saved as run ${runId} in ${store!.path} (dsmc show ${runId}${where})\n` : '';
    printSafe(formatSummary(summary, fields) + '\n' + saved);
  }
  return { summary, runId };
}

/** A run over several rank processes (one per GPU): recorded, summarized and printed like a one-rank run. */
async function runMultiRank(c: Case, o: RunOptions, store: RunStore | null): Promise<RunDone> {
  // the case's own warnings (dt, mean free path vs cells, particles per cell); each rank checks its buffers itself
  reportPrelaunch(prelaunchCheck(c, { limits: { maxStorageBufferBindingSize: Infinity, maxBufferSize: Infinity }, buffers: [] }));
  const bar = progressBar(o.progress);
  const stats = multiRankStatsLines(o.progress, o.statsEvery ?? 30);
  let recorder: RunRecorder | null = null;
  const stop = interruptRun('stopping every rank after the same submit, keeping what was sampled', (signal) => {
    if (recorder) markFailed(recorder, new RunCancelled(`stopped at once by a second ${signal}`), undefined);
  });
  try {
    // --launcher slurm: a job (sbatch, or srun inside an allocation) and a tcp transport the nodes can reach
    const slurm = o.cluster ? slurmSetup(c, o.cluster, store, o.save?.dataDir) : null;
    const launch: Pick<DistributedOptions, 'launcher' | 'transport'> = slurm ? { launcher: slurm.launcher, transport: slurm.transport } : {};
    const run = await runDistributed(c, {
      ranks: slurm ? slurm.ranks : o.ranks!, method: o.decomposition, gpus: slurm ? undefined : o.gpus, discovered: o.discovered, timing: o.timing, detail: o.detail, warmupSteps: o.warmup,
      rebalancePercent: o.rebalance, heartbeatTimeoutMs: o.heartbeatTimeout === undefined ? undefined : o.heartbeatTimeout * 1000,
      // Ctrl-C once: stop and keep (every rank ends after the same submit; the run keeps its fields, profile and surfaces)
      stopAndKeep: stop.signal, ...launch,
      // the orchestrator's host cannot pin ranks on the nodes (each node pins its own): no warning about that
      onWarning: (w) => { if (!slurm) process.stderr.write(`warning: ${w}\n`); },
      onLog: (line) => { if (process.env.DSMC_RANK_LOGS) process.stderr.write(line + '\n'); },
      onBalancePlan: (reason) => process.stderr.write(`balance: ${reason}\n`),
      onLaunched: (ranks) => {
        if (!store || !o.save) return;
        // on a cluster each node pins its own ranks: take the GPU each rank reported, not this host's guess
        if (slurm) ranks = ranks.map((r) => ({ ...r, ...(slurm.gpuOf(r.rank) ?? { gpu: 'node default', pinned: false }) }));
        const pinned = new Set(ranks.filter((r) => r.pinned).map((r) => r.gpu));
        const adapters = [...new Set(ranks.map((r) => r.adapter.description))].join(' + ');
        const hosts = new Set(ranks.map((r) => r.hostname)).size;
        const where = slurm ? ` on ${hosts} host${hosts === 1 ? '' : 's'} (Slurm job ${slurm.jobId() ?? '?'})` : '';
        recorder = RunRecorder.start(store, o.save.project, c, { description: `${ranks.length} ranks on ${adapters}${where}`, backend: ranks[0].adapter.backend }, ranks.length, slurm ? ranks.length : Math.max(1, pinned.size));
        recordRanks(store, recorder.runId, ranks, slurm ? { launcher: 'slurm', jobId: slurm.jobId(), profile: slurm.profileName } : { launcher: 'local', jobId: null, profile: null });
      },
      onSteps: (steps) => { recorder?.onSteps(steps); stats?.onSteps(steps); },
      onProgress: (p) => { bar.update(p); stats?.onProgress(p); },
      onFields: liveFieldsOverIpc(c),
    });
    bar.stop();
    const rec = recorder as RunRecorder | null;
    const stopped = run.stoppedAtStep !== null;
    const why = stopped ? rec?.stoppedDistributed(c, run, stop.by() ?? 'a signal') ?? `stopped by the user after ${run.summary.steps} of ${c.run.steps} steps (not saved: --no-save)` : null;
    if (!stopped) rec?.completeDistributed(c, run);
    const summary = run.summary;
    const fields = o.json || run.assembler.fields.samples === 0 ? null : { values: run.assembler.fields.fields(), errors: run.assembler.fields.errors() };
    const done = printRun(o, summary, rec?.runId ?? null, store, fields);
    if (why) process.stderr.write(`${why}${rec ? ` (saved as run ${rec.runId}, cancelled)` : ''}\n`);
    return { ...done, stopped: why };
  } catch (e) {
    bar.stop();
    if (recorder) markFailed(recorder, e, stop.by());
    throw e;
  } finally {
    bar.stop();
    stop.remove();
  }
}

/** The Slurm launcher of a run: its profile from the run database (opened for that when --no-save), job states on stderr. */
function slurmSetup(c: Case, cluster: ClusterPlacement, store: RunStore | null, dataDir: string | undefined) {
  const profiles = store ?? (cluster.profile !== undefined ? RunStore.open({ dataDir }) : null);
  try {
    return slurmRunSetup({ name: c.name, dataDir: resolveDataDir(dataDir) }, cluster, (name) => profiles?.getClusterProfile(name) ?? null,
      (s) => process.stderr.write(`slurm job ${s.jobId}: ${s.state}${s.reason !== 'None' ? ` (${s.reason})` : ''}${s.nodes ? ` on ${s.nodes}` : ''}\n`));
  } finally {
    if (profiles !== store) profiles?.close();
  }
}

/** Records the ranks of a run with their hosts; a database error here is reported, not thrown (the run goes on). */
function recordRanks(store: RunStore, runId: number, ranks: LaunchedRank[], launch: { launcher: 'local' | 'slurm'; jobId: string | null; profile: string | null }): void {
  try {
    store.recordRanks(runId, ranks.map((r) => ({ rank: r.rank, hostname: r.hostname, gpu: r.gpu, pinned: r.pinned, pid: r.pid, adapterDescription: r.adapter.description })), launch);
  } catch (e) {
    process.stderr.write(`could not record the ranks of run ${runId}: ${(e as Error).message}\n`);
  }
}

/** Records why a run ended early and names the saved run in the error; a database error here is reported, not thrown. */
function markFailed(recorder: RunRecorder, e: unknown, interruptedBy: string | undefined): void {
  try {
    const status = recorder.fail(e, interruptedBy);
    if (e instanceof Error) e.message += ` (saved as run ${recorder.runId}, ${status})`;
  } catch (dbError) {
    process.stderr.write(`could not mark run ${recorder.runId} as ended: ${(dbError as Error).message}\n`);
  }
}

export const RUN_OPTIONS: CommandOptions = {
  ...CASE_OPTIONS,
  timing: { type: 'string', default: 'auto' },
  detail: { type: 'boolean', default: false },
  'no-progress': { type: 'boolean', default: false },
  'no-save': { type: 'boolean', default: false },
  project: { type: 'string', default: 'default' },
  ranks: { type: 'string', default: '1' },
  gpus: { type: 'string' },
  decomposition: { type: 'string' },
  rebalance: { type: 'string' },
  launcher: { type: 'string', default: 'local' },
  nodes: { type: 'string' },
  'gpus-per-node': { type: 'string' },
  profile: { type: 'string' },
  'orchestrator-host': { type: 'string' },
  'heartbeat-timeout': { type: 'string' },
  'stats-every': { type: 'string', default: '30' },
  ...DATA_DIR_OPTION,
};

/** Exit code of a run stopped by Ctrl-C once and kept (the shell's code for a process ended by SIGINT). */
export const STOPPED_EXIT_CODE = 130;

export const runCommand: CliCommand = {
  name: 'run',
  usage: 'run CASE [--set path=value ...] [--ranks N [--gpus 0,1,...] [--decomposition slab|block|rcb] [--rebalance PERCENT|off]] [--launcher slurm --nodes N --gpus-per-node G [--profile NAME] [--orchestrator-host HOST]] [--heartbeat-timeout S] [--json] [--timing auto|full|wall|off] [--detail] [--no-progress] [--stats-every S] [--project P] [--no-save] [--data-dir DIR]',
  summary: 'Run a case (a .json path or a preset name) on the default GPU adapter and save it in the run database\n' +
    '(project P, default "default"; --no-save skips that; dsmc runs lists saved runs).\n' +
    '--set overrides any field, value as JSON:  --set grid.cells=[40,40,40] --set run.steps=200\n' +
    '--json prints the summary as one JSON object on the last line of stdout.\n' +
    '--timing: phase times from GPU timestamps on one call in 8 of each phase (auto: the others run untimed, as with off), on every call (full), wall clock, or off (fastest); --detail times every call of the sort\'s stages.\n' +
    '--ranks N runs N rank processes (one per GPU, pinned by PCI address where possible; --gpus picks them by index\n' +
    'or PCI address) on a --decomposition of the grid (default: rcb where bodies cut the box, slab otherwise); the fields\n' +
    'are bitwise those of one rank. The first split follows the gas volume of the cells (bodies). The grid is re-split\n' +
    'whenever the load non-uniformity of the ranks\' GPU time (of their particles on software adapters, where ranks\n' +
    'share a GPU, or with DSMC_BALANCE_BY=particles) exceeds --rebalance PERCENT (default 20) and the new split saves\n' +
    'twice what its moves cost within as many steps as the split in force has lasted (checked after every submit);\n' +
    '--rebalance off keeps the first split.\n' +
    '--launcher slurm runs the ranks as a Slurm job (sbatch, or srun inside an allocation): --nodes x --gpus-per-node ranks,\n' +
    'settings from cluster profile --profile (dsmc cluster profile add); the nodes reach this host at --orchestrator-host.\n' +
    '--heartbeat-timeout S: a rank silent for S seconds (default 60) counts as hung and fails the run.\n' +
    'Without a terminal on stderr (a batch job, a pipe) a stats line every --stats-every S seconds (default 30) shows step,\n' +
    'particles, collisions per step and T (translational, about the mean velocity); --no-progress turns it off.\n' +
    'Ctrl-C once stops after the current submit and keeps what was sampled (the run is saved cancelled, "stopped by the\n' +
    'user at step N", with its fields, profile and surface loads; several ranks all stop after the same submit; exit code\n' +
    '130); twice stops at once, keeping nothing.',
  options: RUN_OPTIONS,
  async run(args) {
    const ref = onePositional(args, 'CASE (a .json path or preset name)', 'run collide-box');
    try {
      const done = await runCaseFile(ref, { sets: args.values.set as string[], json: !!args.values.json, timing: timingOf(args), detail: !!args.values.detail, progress: !args.values['no-progress'], statsEvery: statsEveryOf(args.values['stats-every'] as string), save: saveOf(args), ...placementOf(args), ...clusterPlacementOf(args) });
      // stopped by the user with its results kept: not a completed run, so not exit code 0 (130: ended by Ctrl-C)
      return done.stopped ? STOPPED_EXIT_CODE : 0;
    } catch (e) {
      const hint = e instanceof PrelaunchRefused ? shrinkHint(ref) : '';
      if (hint) (e as Error).message += `\n${hint}`;
      throw e;
    }
  },
};

export const benchCommand: CliCommand = {
  name: 'bench',
  usage: 'bench [--particles N] [--set path=value ...] [--json] [--timing auto|full|wall|off] [--detail] [--project P] [--no-save] [--data-dir DIR]',
  summary: "Run the collide-box benchmark (SPARTA's bench/in.collide physics), ~N particles (default 1e6),\n" +
    '200 timed steps (100 per submit) after 20 untimed warm-up steps; sampling off. Saved like dsmc run.',
  options: { ...RUN_OPTIONS, particles: { type: 'string', default: '1e6' } },
  async run(args) {
    const text = args.values.particles as string;
    const particles = Number(text);
    if (!(particles >= 10) || !Number.isFinite(particles)) throw new Error(`--particles: got "${text}"; expected a number >= 10, e.g. 16e6`);
    const side = Math.max(1, Math.round(Math.cbrt(particles / 10)));
    const sets = [`grid.cells=[${side},${side},${side}]`, 'run.steps=200', 'run.stepsPerSubmit=100', 'sampling.enabled=false', ...(args.values.set as string[])];
    await runCaseFile('collide-box', { sets, json: !!args.values.json, timing: timingOf(args), detail: !!args.values.detail, progress: !args.values['no-progress'], statsEvery: statsEveryOf(args.values['stats-every'] as string), warmup: 20, save: saveOf(args), ...placementOf(args), ...clusterPlacementOf(args) });
    return 0;
  },
};

export const checkCommand: CliCommand = {
  name: 'check',
  usage: 'check CASE [--set path=value ...] [--ranks N [--gpus 0,1,...] [--decomposition slab|block|rcb] [--rebalance PERCENT|off]] [--json]',
  summary: 'Validate a case and print the pre-launch check (mean free path, dt, particles per cell, memory).\n' +
    'With --ranks N: the balance a run on N ranks would start with (decomposition, first split, rebalancing, and\n' +
    'why), one line a rank (its cells and share of the gas), and every rank\'s buffers checked against the adapter.',
  options: { ...CASE_OPTIONS, ranks: { type: 'string', default: '1' }, gpus: { type: 'string' }, decomposition: { type: 'string' }, rebalance: { type: 'string' } },
  async run(args) {
    const ref = onePositional(args, 'CASE (a .json path or preset name)', 'check collide-box');
    const c = loadCase(readCaseFile(ref), args.values.set as string[]);
    const { ranks = 1, ...placement } = placementOf(args);
    const gpu = await openGpu();
    try {
      const adapter = { description: gpu.adapter.description, backend: gpu.adapter.backend };
      if (ranks > 1) {
        const check = rankCheck(c, gpu, { ranks, ...placement });
        printSafe(args.values.json ? JSON.stringify({ ...check.report, adapter, balance: check.balance, rankErrors: check.rankErrors, gpuNotes: check.gpuNotes }) + '\n'
          : `adapter: ${adapter.description} [${adapter.backend}]\n${formatRankCheck(check)}\n`);
        return check.report.ok ? 0 : 1;
      }
      const report = checkCase(c, gpu);
      const hint = report.ok ? '' : shrinkHint(ref);
      printSafe(args.values.json ? JSON.stringify({ ...report, adapter, ...(hint ? { shrink: presetShrink(ref) } : {}) }) + '\n'
        : `adapter: ${adapter.description} [${adapter.backend}]\n${formatPrelaunch(report)}\n${hint ? `${hint}\n` : ''}`);
      return report.ok ? 0 : 1;
    } finally {
      gpu.device.destroy();
    }
  },
};
