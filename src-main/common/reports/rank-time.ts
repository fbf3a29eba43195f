// Where each rank's step goes, per GPU count of a scaling study: the step's wall time (the loop time over the steps),
// how much of it the rank's GPU worked (the sum of its GPU-timed phases: move, sort, collide, sample, ...), and the rest,
// the GPU waiting (for the exchange of migrants, the other ranks, the host's recording). The host's exchange time is
// given beside it: where it exceeds what the GPU could overlap, the GPU waits. Needs GPU timestamps: with wall-clock
// phase timing the phases are host durations and the split is not made.

/** A rank's mean step: wall seconds, GPU busy seconds, GPU waiting seconds, host exchange seconds. */
export interface RankTime {
  rank: number;
  stepSeconds: number;
  gpuSeconds: number;
  waitSeconds: number;
  exchangeSeconds: number;
}

/** Phases timed on the host, not the GPU (the exchange and its parts). */
export function isHostPhase(name: string): boolean {
  return name === 'exchange' || name.startsWith('exchange.');
}

/** The prefix of the phases that book the GPU's idle time between timed passes (solver/gpu/phase-timer.ts: GAP_PHASES). */
export const GAP_PHASE_PREFIX = 'gpu-gap.';

/** Whether a phase is the GPU's idle time between timed passes, not work. */
export function isGapPhase(name: string): boolean {
  return name.startsWith(GAP_PHASE_PREFIX);
}

/** Whether a phase is GPU work: neither a host phase nor one of the GPU's idle gaps. */
export function isGpuWorkPhase(name: string): boolean {
  return !isHostPhase(name) && !isGapPhase(name);
}

/**
 * Per rank (ascending) its mean step from its phase totals: `loopSeconds` over `steps` steps; empty without GPU
 * timestamps or steps.
 */
export function rankTimes(rankPhases: readonly { rank: number; phase: string; totalSeconds: number }[], loopSeconds: number, steps: number, gpuTimed: boolean): RankTime[] {
  if (!gpuTimed || !(steps > 0) || !(loopSeconds > 0)) return [];
  const byRank = new Map<number, { gpu: number; exchange: number }>();
  for (const x of rankPhases) {
    const t = byRank.get(x.rank) ?? { gpu: 0, exchange: 0 };
    if (x.phase === 'exchange') t.exchange += x.totalSeconds;
    else if (isGpuWorkPhase(x.phase)) t.gpu += x.totalSeconds;
    byRank.set(x.rank, t);
  }
  const stepSeconds = loopSeconds / steps;
  return [...byRank.keys()].sort((a, b) => a - b).map((rank) => {
    const t = byRank.get(rank)!;
    const gpuSeconds = t.gpu / steps;
    return { rank, stepSeconds, gpuSeconds, waitSeconds: Math.max(0, stepSeconds - gpuSeconds), exchangeSeconds: t.exchange / steps };
  });
}
