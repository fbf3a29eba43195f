// Orchestrator side of the ring tests: opens the channel, launches fixtures/ring-rank.mjs under the supervisor,
// says configure, and collects reports and done messages. Needs the compiled out/ (npm test builds it first).
import { fileURLToPath } from 'node:url';
import { launchRanks } from '../../src-main/cluster/supervisor/launch-ranks.js';
import type { LaunchOptions, RankGroup } from '../../src-main/cluster/supervisor/types.js';
import type { TransportSpec } from '../../src-main/cluster/transport/endpoints.js';
import { OrchestratorChannel, type Incoming } from '../../src-main/cluster/transport/orchestrator-channel.js';
import type { MessageOf } from '../../src-main/cluster/transport/messages.js';

export const RING_RANK = fileURLToPath(new URL('./fixtures/ring-rank.mjs', import.meta.url));

export interface RingOptions {
  ranks: number;
  transport?: TransportSpec;
  /** RING_MODE of the fixture. */
  mode?: 'ring' | 'crash' | 'hang' | 'silent' | 'forever';
  badRank?: number;
  badStep?: number;
  steps?: number;
  stepDelayMs?: number;
  exchangeTimeoutMs?: number;
  supervisor?: Partial<Pick<LaunchOptions, 'heartbeatTimeoutMs' | 'heartbeatIntervalMs' | 'startTimeoutMs' | 'killGraceMs' | 'stopGraceMs'>>;
}

/** A started ring: the channel, the process group and every prefixed log line. */
export interface Ring {
  channel: OrchestratorChannel;
  group: RankGroup;
  logs: string[];
  reports: Array<Incoming<MessageOf<'step-report'>>>;
}

/** Opens the channel and launches the ranks (no messages exchanged yet). */
export async function startRing(o: RingOptions): Promise<Ring> {
  const channel = await OrchestratorChannel.open({ transport: o.transport });
  const logs: string[] = [];
  const reports: Ring['reports'] = [];
  channel.on('step-report', (r) => reports.push(r));
  const group = launchRanks({
    script: RING_RANK,
    ranks: Array.from({ length: o.ranks }, (_, rank) => ({ rank, gpu: rank % 2 })),
    channel,
    env: {
      ...process.env,
      RING_MODE: o.mode ?? 'ring',
      RING_BAD_RANK: String(o.badRank ?? -1),
      RING_BAD_STEP: String(o.badStep ?? 2),
    },
    onLog: (line) => logs.push(line),
    heartbeatTimeoutMs: 3000,
    startTimeoutMs: 10_000,
    killGraceMs: 1000,
    stopGraceMs: 2000,
    ...o.supervisor,
  });
  return { channel, group, logs, reports };
}

/** Hello from every rank, then configure with the run's steps. */
export async function configureRing(ring: Ring, o: RingOptions): Promise<void> {
  await ring.channel.waitForHellos(o.ranks, 10_000);
  await ring.channel.configureAll({ steps: o.steps ?? 5, exchangeTimeoutMs: o.exchangeTimeoutMs ?? 10_000, stepDelayMs: o.stepDelayMs ?? 0 });
  await ring.channel.collect('ready', range(o.ranks), 10_000);
}

/** 0..n-1 */
export function range(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i);
}
