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

/** Reads a rank's settings from its environment; throws naming the variable when one is missing or wrong. */
export function readRankEnvironment(env: NodeJS.ProcessEnv = process.env): RankEnvironment {
  const raw = Object.fromEntries(Object.entries(RANK_ENV).map(([key, name]) => [key, env[name]]));
  const result = schema.safeParse(raw);
  if (!result.success) {
    const issue = result.error.issues[0];
    const name = RANK_ENV[issue.path[0] as keyof RankEnvironment];
    throw new TransportError(
      `environment variable ${name}=${JSON.stringify(env[name] ?? null)} is not usable (${issue.message}): ` +
        'rank processes are started by the cluster supervisor (launchRanks), which sets it',
    );
  }
  const settings = result.data;
  if (settings.rank >= settings.worldSize) {
    throw new TransportError(`${RANK_ENV.rank}=${settings.rank} is not below ${RANK_ENV.worldSize}=${settings.worldSize}`);
  }
  return settings;
}
