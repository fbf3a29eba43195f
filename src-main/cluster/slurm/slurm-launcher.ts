// slurmLauncher(): the `launcher` runDistributed takes for a run on a Slurm cluster. It turns the orchestrator's
// rank environment into a job (sbatch script, or srun inside the allocation the user holds), and returns the
// SlurmRankGroup that follows it. The orchestrator must listen on tcp (runDistributed's `transport`).
import { basename, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LaunchOptions, RankGroup } from '../supervisor/types.js';
import { RANK_ENV } from '../transport/rank-environment.js';
import { BatchJobDriver, StepJobDriver, type JobDriver } from './job-driver.js';
import { jobSpecOf, rankCount, type SlurmJobSpec } from './job-spec.js';
import type { JobState } from './job-state.js';
import type { ClusterProfile } from './profile.js';
import type { SlurmCommandOptions } from './slurm-commands.js';
import { SlurmRankGroup } from './slurm-rank-group.js';

/** This product's folder (the one holding out/ and package.json), whether this file runs from out/ or from source. */
export const LOCAL_PRODUCT_PATH = ((): string => {
  const up = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
  return basename(up) === 'out' ? dirname(up) : up;
})();

export interface SlurmLauncherConfig {
  profile: ClusterProfile;
  /** Job name (default dsmc). */
  name?: string;
  /** Overrides of the profile's node and GPU counts. */
  nodes?: number;
  gpusPerNode?: number;
  /** 'batch': submit with sbatch; 'step': srun in the current allocation; 'auto' (default): step when SLURM_JOB_ID is set. */
  mode?: 'auto' | 'batch' | 'step';
  /** Folder for the script and output when the profile has no workDir (must be shared with the nodes). */
  workDir: string;
  /** Environment of the Slurm commands (e.g. SLURM_CONF); default process.env. */
  commandEnv?: NodeJS.ProcessEnv;
  /** Extra variables for every rank (e.g. DSMC_PEER_HOST, DSMC_SLURM_PIN). */
  rankEnv?: Record<string, string>;
  /** Milliseconds between looks at the job (default 1000). */
  pollMs?: number;
  /** Every change of the job's state. */
  onJobState?: (state: JobState) => void;
  /** After a failure or cancel, how long to wait for Slurm to end the job before the run ends anyway (ms, default 10000). */
  releaseMs?: number;
  /** The rank group, as soon as it exists (for its job id). */
  onGroup?: (group: SlurmRankGroup) => void;
}

/** The variables every rank gets: orchestrator address, world size, heartbeat period (rank and peer socket come from the node). */
function rankVariables(o: LaunchOptions, ranks: number): Record<string, string> {
  if (!o.channel) throw new Error('slurm launcher: runDistributed must pass its channel (the ranks connect to it)');
  const all = o.channel.rankEnvironment(0, ranks, o.heartbeatIntervalMs ?? 2000);
  const orchestrator = all[RANK_ENV.orchestratorAddress];
  if (!orchestrator.startsWith('tcp://')) {
    throw new Error(`slurm launcher: the orchestrator listens on ${orchestrator}, which other nodes cannot reach; pass transport: { kind: 'tcp', host, port: 0 } to runDistributed (dsmc run does with --launcher slurm)`);
  }
  return {
    [RANK_ENV.orchestratorAddress]: orchestrator,
    [RANK_ENV.worldSize]: String(ranks),
    [RANK_ENV.heartbeatIntervalMs]: all[RANK_ENV.heartbeatIntervalMs],
  };
}

/** The job driver of a mode: sbatch, or srun inside the allocation. */
function driverOf(mode: SlurmLauncherConfig['mode'], spec: SlurmJobSpec, commands: SlurmCommandOptions): JobDriver {
  const allocation = (commands.env ?? process.env).SLURM_JOB_ID;
  const step = mode === 'step' || (mode !== 'batch' && allocation !== undefined);
  if (step && !allocation) throw new Error('slurm launcher: mode "step" runs srun inside an allocation, but SLURM_JOB_ID is not set; use salloc first, or mode "batch"');
  return step ? new StepJobDriver(spec, commands, allocation!) : new BatchJobDriver(spec, commands);
}

/** A runDistributed launcher that runs the ranks as a Slurm job, one rank per GPU. */
export function slurmLauncher(config: SlurmLauncherConfig): (options: LaunchOptions) => RankGroup {
  return (options) => {
    const ranks = options.ranks.length;
    const spec = jobSpecOf(config.profile, {
      name: config.name ?? 'dsmc', nodes: config.nodes, gpusPerNode: config.gpusPerNode,
      productPath: LOCAL_PRODUCT_PATH, workDir: config.workDir,
      env: { ...config.rankEnv, ...rankVariables(options, ranks) },
    });
    if (rankCount(spec) !== ranks) {
      throw new Error(`slurm launcher: ${spec.nodes} nodes x ${spec.gpusPerNode} GPUs per node is ${rankCount(spec)} ranks, but the run has ${ranks}; make --ranks equal to --nodes x --gpus-per-node`);
    }
    for (const name of Object.keys(spec.env)) {
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`slurm launcher: rank variable name "${name}" is not a valid environment variable name`);
    }
    const commands: SlurmCommandOptions = { env: config.commandEnv };
    const group = new SlurmRankGroup(options, driverOf(config.mode, spec, commands), {
      pollMs: config.pollMs ?? 1000, profileHint: `cluster profile "${config.profile.name}"`, releaseMs: config.releaseMs ?? 10_000, onJobState: config.onJobState,
    });
    config.onGroup?.(group);
    return group;
  };
}
