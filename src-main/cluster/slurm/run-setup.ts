// What `dsmc run --launcher slurm` needs before runDistributed: the cluster profile (stored, or defaults), the
// node and GPU counts, the job's folder, the launcher and the tcp transport the nodes connect back through.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { TransportSpec } from '../transport/endpoints.js';
import type { LaunchOptions, RankGroup } from '../supervisor/types.js';
import type { JobState } from './job-state.js';
import { parseClusterProfile, type ClusterProfile } from './profile.js';
import { slurmLauncher } from './slurm-launcher.js';
import type { SlurmRankGroup } from './slurm-rank-group.js';

/** The Slurm choices of one run, from the command line. */
export interface ClusterPlacement {
  /** Cluster profile name (absent: defaults, no partition or account). */
  profile?: string;
  nodes?: number;
  gpusPerNode?: number;
  /** Address the orchestrator listens on (overrides the profile's). */
  orchestratorHost?: string;
  /** --ranks as given (1 when absent); must equal nodes x GPUs per node unless 1. */
  ranks: number;
}

/** A run ready for runDistributed. */
export interface SlurmRunSetup {
  ranks: number;
  profileName: string | null;
  launcher: (options: LaunchOptions) => RankGroup;
  transport: TransportSpec;
  /** The job id once submitted (null before). */
  jobId: () => string | null;
  /** The GPU a rank reported on its node (PCI address when pinned), undefined before it started. */
  gpuOf: (rank: number) => { gpu: string; pinned: boolean } | undefined;
}

/** Builds the launcher of a run; `findProfile` reads a stored profile; job states are reported through `onJobState`. */
export function slurmRunSetup(
  run: { name: string; dataDir: string },
  placement: ClusterPlacement,
  findProfile: (name: string) => ClusterProfile | null,
  onJobState: (s: JobState) => void,
): SlurmRunSetup {
  let profile: ClusterProfile;
  if (placement.profile !== undefined) {
    const found = findProfile(placement.profile);
    if (!found) throw new Error(`--profile: there is no cluster profile "${placement.profile}"; dsmc cluster profile list shows them, dsmc cluster profile add ${placement.profile} --partition P ... adds it`);
    profile = found;
  } else {
    profile = parseClusterProfile({ name: 'default' });
  }
  const nodes = placement.nodes ?? profile.nodes;
  const gpusPerNode = placement.gpusPerNode ?? profile.gpusPerNode;
  const ranks = nodes * gpusPerNode;
  if (placement.ranks !== 1 && placement.ranks !== ranks) {
    throw new Error(`--ranks ${placement.ranks} does not match --nodes ${nodes} x --gpus-per-node ${gpusPerNode} = ${ranks}; leave out --ranks with --launcher slurm (one rank per GPU)`);
  }
  if (ranks > 256) throw new Error(`--nodes ${nodes} x --gpus-per-node ${gpusPerNode} = ${ranks} ranks; at most 256 are supported`);
  const workDir = profile.workDir ?? join(run.dataDir, 'slurm-jobs');
  mkdirSync(workDir, { recursive: true });
  let jobId: string | null = null;
  let group: SlurmRankGroup | null = null;
  const launcher = slurmLauncher({
    profile, nodes, gpusPerNode, workDir, name: `dsmc-${run.name}`.replace(/[^A-Za-z0-9_.-]/g, '_'),
    onJobState: (s) => { jobId = s.jobId; onJobState(s); },
    onGroup: (g) => {
      group = g;
      void g.jobId.then((id) => (jobId = id), () => undefined);
    },
  });
  return {
    ranks, profileName: placement.profile ?? null, launcher, jobId: () => jobId, gpuOf: (rank) => group?.gpuOf(rank),
    transport: { kind: 'tcp', host: placement.orchestratorHost ?? profile.orchestratorHost ?? '0.0.0.0', port: 0 },
  };
}
