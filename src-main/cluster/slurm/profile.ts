// Cluster profiles: what a site's Slurm needs to run dsmc (partition, account, time limit, modules, where the
// product lives on the cluster, default node and GPU counts). Validated with zod; nothing site-specific is built in.
import { z } from 'zod';

/** Slurm's time formats: minutes, MM:SS, HH:MM:SS, D-HH, D-HH:MM, D-HH:MM:SS, or UNLIMITED. */
const TIME_LIMIT = /^(UNLIMITED|infinite|\d+|\d+:\d{2}|\d+:\d{2}:\d{2}|\d+-\d+|\d+-\d+:\d{2}|\d+-\d+:\d{2}:\d{2})$/;
/** A Slurm name (partition, account, module) without blanks or shell metacharacters. */
const slurmName = (what: string) => z.string().min(1, `${what}: empty`).regex(/^[A-Za-z0-9_.+/@:=,-]+$/, `${what}: may hold only letters, digits and _ . + / @ : = , -`);

export const clusterProfileSchema = z.object({
  /** Name the profile is stored and chosen by (--profile NAME). */
  name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/, 'name: 1-64 letters, digits, _ . - (starting with a letter or digit)'),
  /** sbatch --partition (omitted: the cluster's default partition). */
  partition: slurmName('partition').optional(),
  /** sbatch --account (omitted: the user's default account). */
  account: slurmName('account').optional(),
  /** sbatch --time, in Slurm's formats (e.g. 30, 1:00:00, 1-12:00:00). */
  timeLimit: z.string().regex(TIME_LIMIT, 'timeLimit: use a Slurm time like 30 (minutes), 1:00:00 or 1-12:00:00').optional(),
  /** Environment modules loaded before srun (`module load NAME`), in order. */
  modules: z.array(slurmName('modules entry')).default([]),
  /** Absolute path of the dsmc product (the folder holding out/ and node_modules/) on the cluster's nodes. */
  productPath: z.string().regex(/^\/[^\n'"`$\\]*$/, 'productPath: an absolute path on the cluster (e.g. /home/me/dsmc-studio) without quotes, $ or backslashes').optional(),
  /** Node.js on the nodes (a name on PATH after the modules load, or an absolute path). */
  node: z.string().regex(/^[^\s'"`$\\]+$/, 'node: a command name or absolute path without blanks or quotes').default('node'),
  /** Default --nodes. */
  nodes: z.number().int('nodes: a whole number').min(1, 'nodes: at least 1').max(4096, 'nodes: at most 4096').default(1),
  /** Default --gpus-per-node (one rank per GPU). */
  gpusPerNode: z.number().int('gpusPerNode: a whole number').min(1, 'gpusPerNode: at least 1').max(64, 'gpusPerNode: at most 64').default(1),
  /** Ask Slurm for the GPUs (--gpus-per-node); false on clusters that do not schedule GPUs as GRES. */
  requestGpus: z.boolean().default(true),
  /** Extra `#SBATCH` options, each like --qos=normal or --constraint=h100. */
  sbatchOptions: z.array(z.string().regex(/^--?[A-Za-z][\w-]*(=[^\n]*)?$/, 'sbatchOptions entries look like --qos=normal')).default([]),
  /** Folder shared by the login and compute nodes for the job script and its output (default: the run's temp folder). */
  workDir: z.string().regex(/^\/[^\n'"`$\\]*$/, 'workDir: an absolute path shared by the nodes, without quotes, $ or backslashes').optional(),
  /** Address the orchestrator listens on, reachable from the compute nodes (default: every interface, announced as this host's name). */
  orchestratorHost: z.string().regex(/^[A-Za-z0-9.:_-]+$/, 'orchestratorHost: a host name or IP address').optional(),
}).strict();

/** A validated cluster profile (defaults applied). */
export type ClusterProfile = z.output<typeof clusterProfileSchema>;
/** A cluster profile as typed by a user (defaults optional). */
export type ClusterProfileInput = z.input<typeof clusterProfileSchema>;

/** Error for an invalid profile: every bad field named with its fix. */
export class ClusterProfileError extends Error {}

/** Validates a profile; throws ClusterProfileError listing every bad field. */
export function parseClusterProfile(input: unknown): ClusterProfile {
  const r = clusterProfileSchema.safeParse(input);
  if (r.success) return r.data;
  const lines = r.error.issues.map((i) => {
    const path = i.path.join('.') || '(profile)';
    if (i.code === 'unrecognized_keys') return `${path}: unknown field(s) ${i.keys.join(', ')}; the fields are ${Object.keys(clusterProfileSchema.shape).join(', ')}`;
    return i.message.includes(':') && i.message.startsWith(String(i.path[0])) ? i.message : `${path}: ${i.message}`;
  });
  throw new ClusterProfileError(`invalid cluster profile:\n  ${lines.join('\n  ')}`);
}
