// How a rank process learns where to connect: environment variables the supervisor sets (one place for their
// names), read and validated in the rank with a clear error when one is missing.
import { z } from 'zod';
import { TransportError } from './errors.js';

/** The environment variable behind each setting. */
export const RANK_ENV = {
  rank: 'DSMC_RANK',
  worldSize: 'DSMC_WORLD_SIZE',
  orchestratorAddress: 'DSMC_ORCHESTRATOR',
  peerBindAddress: 'DSMC_PEER_BIND',
  heartbeatIntervalMs: 'DSMC_HEARTBEAT_MS',
} as const;

/** What a rank needs to join a run. */
export interface RankEnvironment {
  rank: number;
  worldSize: number;
  /** Address of the orchestrator's ROUTER (ipc:// or tcp://). */
  orchestratorAddress: string;
  /** Where this rank binds its peer PULL socket. */
  peerBindAddress: string;
  /** Heartbeat period in milliseconds; 0 sends none. */
  heartbeatIntervalMs: number;
}

const numberText = z.string().regex(/^\d+$/, 'expected a whole number').transform(Number);
const schema = z.object({
  rank: numberText,
  worldSize: numberText.refine((n) => n >= 1, 'expected at least 1'),
  orchestratorAddress: z.string().regex(/^(ipc|tcp):\/\/./, 'expected an ipc:// or tcp:// address'),
  peerBindAddress: z.string().regex(/^(ipc|tcp):\/\/./, 'expected an ipc:// or tcp:// address'),
  heartbeatIntervalMs: numberText,
});

/** The environment variables that hand `settings` to a rank process. */
export function rankEnvironmentVariables(settings: RankEnvironment): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of Object.keys(RANK_ENV) as Array<keyof RankEnvironment>) out[RANK_ENV[key]] = String(settings[key]);
  return out;
}

/** Slurm's variables that stand in for DSMC_RANK and DSMC_WORLD_SIZE in a rank started by srun. */
export const SLURM_RANK_ENV = { rank: 'SLURM_PROCID', worldSize: 'SLURM_NTASKS', localId: 'SLURM_LOCALID' } as const;

/** The environment with DSMC_RANK / DSMC_WORLD_SIZE taken from SLURM_PROCID / SLURM_NTASKS where they are unset. */
export function withSlurmFallback(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out = { ...env };
  if (out[RANK_ENV.rank] === undefined && out[SLURM_RANK_ENV.rank] !== undefined) out[RANK_ENV.rank] = out[SLURM_RANK_ENV.rank];
  if (out[RANK_ENV.worldSize] === undefined && out[SLURM_RANK_ENV.worldSize] !== undefined) out[RANK_ENV.worldSize] = out[SLURM_RANK_ENV.worldSize];
  return out;
}

/**
 * Reads a rank's settings from its environment; throws naming the variable when one is missing or wrong.
 * Under srun the rank and world size may come from SLURM_PROCID and SLURM_NTASKS instead.
 */
export function readRankEnvironment(given: NodeJS.ProcessEnv = process.env): RankEnvironment {
  const env = withSlurmFallback(given);
  const raw = Object.fromEntries(Object.entries(RANK_ENV).map(([key, name]) => [key, env[name]]));
  const result = schema.safeParse(raw);
  if (!result.success) {
    const issue = result.error.issues[0];
    const name = RANK_ENV[issue.path[0] as keyof RankEnvironment];
    throw new TransportError(
      `environment variable ${name}=${JSON.stringify(env[name] ?? null)} is not usable (${issue.message}): ` +
        'rank processes are started by the cluster supervisor (launchRanks) or by srun through the Slurm launcher, which set it',
    );
  }
  const settings = result.data;
  if (settings.rank >= settings.worldSize) {
    throw new TransportError(`${RANK_ENV.rank}=${settings.rank} is not below ${RANK_ENV.worldSize}=${settings.worldSize}`);
  }
  return settings;
}
