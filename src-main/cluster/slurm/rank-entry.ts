// Entry of a rank started by srun (one task per GPU): takes rank and world size from SLURM_PROCID/SLURM_NTASKS
// (readRankEnvironment falls back to them), binds its peer socket on this node's address toward the orchestrator,
// pins its GPU by SLURM_LOCALID, then runs the ordinary rank process (solver/rank-main.js).
import { hostname } from 'node:os';
import { placeRank } from './node-placement.js';

try {
  const placed = await placeRank(process.env);
  Object.assign(process.env, placed.env); // before the rank opens Vulkan: the device-select layer reads them
  for (const note of placed.notes) process.stdout.write(`rank ${process.env.SLURM_PROCID ?? '?'} on ${hostname()}: ${note}\n`);
} catch (e) {
  process.stderr.write(`rank ${process.env.SLURM_PROCID ?? '?'} on ${hostname()} could not start: ${(e as Error).message}\n`);
  process.exit(1);
}
await import('../../solver/rank-main.js');
