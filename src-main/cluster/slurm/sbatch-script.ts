// The generated sbatch script and srun command line of a run: one task per GPU, labelled output, the whole
// step killed when one rank exits non-zero. Pure functions of a SlurmJobSpec, so they are unit-tested per profile.
import { join } from 'node:path';
import { rankCount, rankEntryOnNodes, type SlurmJobSpec } from './job-spec.js';
import { shellQuote } from './shell-quote.js';

/** The job's output file (%j: Slurm puts the job id there). */
export function outputPattern(spec: Pick<SlurmJobSpec, 'workDir'>): string {
  return join(spec.workDir, 'dsmc-%j.out');
}

/** The srun arguments (after `srun`) that start one rank per GPU on the job's nodes. */
export function srunArguments(spec: SlurmJobSpec): string[] {
  return [
    '--label', '--kill-on-bad-exit=1', '--unbuffered',
    `--nodes=${spec.nodes}`, `--ntasks=${rankCount(spec)}`, `--ntasks-per-node=${spec.gpusPerNode}`,
    spec.node, rankEntryOnNodes(spec),
  ];
}

/** The #SBATCH header lines. */
function sbatchDirectives(spec: SlurmJobSpec): string[] {
  const d = [
    `--job-name=${spec.name}`,
    `--nodes=${spec.nodes}`,
    `--ntasks=${rankCount(spec)}`,
    `--ntasks-per-node=${spec.gpusPerNode}`,
    `--output=${outputPattern(spec)}`,
    // a requeued job would start ranks that no orchestrator waits for
    '--no-requeue',
  ];
  if (spec.requestGpus) d.push(`--gpus-per-node=${spec.gpusPerNode}`);
  if (spec.partition) d.push(`--partition=${spec.partition}`);
  if (spec.account) d.push(`--account=${spec.account}`);
  if (spec.timeLimit) d.push(`--time=${spec.timeLimit}`);
  d.push(...spec.sbatchOptions);
  return d.map((x) => `#SBATCH ${x}`);
}

/** The whole sbatch script: directives, modules, the rank environment and the srun line. */
export function sbatchScript(spec: SlurmJobSpec): string {
  const lines = [
    '#!/bin/bash',
    `# dsmc-studio: ${rankCount(spec)} ranks (${spec.nodes} nodes x ${spec.gpusPerNode} GPUs), generated; the orchestrator follows this job`,
    ...sbatchDirectives(spec),
    'set -eo pipefail',
    ...spec.modules.map((m) => `module load ${shellQuote(m)}`),
    `cd ${shellQuote(spec.productPath)}`,
    ...Object.entries(spec.env).sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => `export ${k}=${shellQuote(v)}`),
    `srun ${srunArguments(spec).map(shellQuote).join(' ')}`,
    '',
  ];
  return lines.join('\n');
}
