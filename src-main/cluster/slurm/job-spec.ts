// What one Slurm job of a run needs: the shape of the allocation, where the product and the job's files are,
// and the environment every rank gets. Built from a cluster profile plus the run's choices (slurm-job-spec()).
import { join } from 'node:path';
import type { ClusterProfile } from './profile.js';

/** Everything the sbatch script and the srun line are generated from. */
export interface SlurmJobSpec {
  /** Job name (sbatch --job-name). */
  name: string;
  nodes: number;
  /** Ranks per node: one per GPU. */
  gpusPerNode: number;
  partition?: string;
  account?: string;
  timeLimit?: string;
  modules: string[];
  /** Ask for GPUs as GRES (--gpus-per-node). */
  requestGpus: boolean;
  sbatchOptions: string[];
  /** Node.js on the nodes. */
  node: string;
  /** The product's folder on the nodes. */
  productPath: string;
  /** Folder for the script and the job's output (shared by the nodes). */
  workDir: string;
  /** Variables exported to every rank (DSMC_ORCHESTRATOR, DSMC_WORLD_SIZE, DSMC_HEARTBEAT_MS, ...). */
  env: Record<string, string>;
}

/** Total ranks of a job (nodes x GPUs per node). */
export function rankCount(spec: Pick<SlurmJobSpec, 'nodes' | 'gpusPerNode'>): number {
  return spec.nodes * spec.gpusPerNode;
}

/** The rank entry script on the nodes. */
export function rankEntryOnNodes(spec: Pick<SlurmJobSpec, 'productPath'>): string {
  return join(spec.productPath, 'out', 'src-main', 'cluster', 'slurm', 'rank-entry.js');
}

/** A job spec from a profile and the run's overrides (nodes, GPUs per node, folders, environment). */
export function jobSpecOf(profile: ClusterProfile, run: { name: string; nodes?: number; gpusPerNode?: number; productPath: string; workDir: string; env: Record<string, string> }): SlurmJobSpec {
  return {
    name: run.name,
    nodes: run.nodes ?? profile.nodes,
    gpusPerNode: run.gpusPerNode ?? profile.gpusPerNode,
    partition: profile.partition,
    account: profile.account,
    timeLimit: profile.timeLimit,
    modules: profile.modules,
    requestGpus: profile.requestGpus,
    sbatchOptions: profile.sbatchOptions,
    node: profile.node,
    productPath: profile.productPath ?? run.productPath,
    workDir: profile.workDir ?? run.workDir,
    env: run.env,
  };
}
