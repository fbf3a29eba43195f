// Runs on a Slurm cluster: the launcher for runDistributed, cluster profiles, and the generated job script.
export { slurmLauncher, LOCAL_PRODUCT_PATH, type SlurmLauncherConfig } from './slurm-launcher.js';
export { SlurmRankGroup } from './slurm-rank-group.js';
export { clusterProfileSchema, parseClusterProfile, ClusterProfileError, type ClusterProfile, type ClusterProfileInput } from './profile.js';
export { sbatchScript, srunArguments, outputPattern } from './sbatch-script.js';
export { jobSpecOf, rankCount, type SlurmJobSpec } from './job-spec.js';
export type { JobState } from './job-state.js';
