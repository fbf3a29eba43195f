// The step statistics of a submit, read from the stats ring the GPU wrote (STATS_WORDS per step, slot step % ring),
// and why a run stops when its particles did not fit the buffers or a sampled sum overflowed.
import { STATS } from './gpu/struct-layouts.js';
import type { ExchangeResult } from './migration-exchange.js';
import type { StepStats } from './loop-types.js';

/** Steps first .. first + count - 1 from the ring; `exchanges` gives (and loses) a multi-rank step's exchange. */
export function stepStatsOf(stats: Uint32Array, statsRing: number, first: number, count: number, exchanges: Map<number, ExchangeResult>, reactions: boolean): StepStats[] {
  const out: StepStats[] = [];
  for (let s = first; s < first + count; s++) {
    const o = (s % statsRing) * STATS.WORDS;
    if (stats[o + STATS.STEP] !== s) throw new Error(`internal: step statistics slot holds step ${stats[o + STATS.STEP]}, expected ${s}`);
    const x = exchanges.get(s);
    exchanges.delete(s);
    out.push({
      step: s,
      particlesBefore: stats[o + STATS.N_BEFORE],
      injected: stats[o + STATS.INJECTED],
      particlesAfter: stats[o + STATS.N_AFTER],
      collisions: stats[o + STATS.COLLISIONS],
      candidates: stats[o + STATS.CANDIDATES],
      ...(reactions ? { reactions: stats[o + STATS.REACTIONS], products: stats[o + STATS.PRODUCTS] } : {}),
      ...(x ? { sent: x.sent, received: x.received, exchangeSeconds: x.seconds } : {}),
    });
  }
  return out;
}

/** Why a run stops when injected particles or the products of reactions did not fit its buffers. */
export function overflowMessage(lost: number, capacity: number, first: number, count: number): string {
  return `${lost} injected particles or products of reactions did not fit the particle buffers (capacity ${capacity}) in steps ` +
    `${first}..${first + count - 1}; the run was stopped rather than lose them. Lower run.stepsPerSubmit so the ` +
    'capacity is checked more often, and please report this case.';
}

/** Why a run stops when a sampled sum would overflow. */
export const SAMPLE_OVERFLOW = 'a sampled moment sum of a cell overflowed its 64-bit fixed-point range (more than about 2^38 particle-passes per cell and ' +
  'batch-means block, or molecules far faster than the case\'s flow and temperatures suggest). Sample fewer steps (sampling.interval ' +
  'larger, or a shorter run), or please report this case.';
