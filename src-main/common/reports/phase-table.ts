// The phase table in the style of SPARTA's loop-time breakdown, from per-rank phase records:
// per phase the calls, AVG x Call, min/avg/max over ranks of the per-rank totals, % of the loop and
// the time per particle; plus an "other" row = loop time minus the phases.
import type { PhaseRecord } from '../run-record.js';

/** One phase of the table (times in seconds). */
export interface PhaseRow {
  phase: string;
  /** Calls per rank (the largest count over ranks). */
  calls: number;
  /** AVG x Call: the phase's total time / calls, averaged over ranks. */
  avgPerCallSeconds: number;
  /** Fastest and slowest single call on any rank. */
  callMinSeconds: number;
  callMaxSeconds: number;
  /** Min, average and max over ranks of each rank's total time in the phase. */
  minSeconds: number;
  avgSeconds: number;
  maxSeconds: number;
  /** avgSeconds / loop seconds * 100 (null when the loop time is unknown). */
  percentOfLoop: number | null;
  /** avgSeconds / mean particle count (PHYSICS.md "time per particle"); null without particles. */
  secondsPerParticle: number | null;
  /** avgSeconds / particle-steps of the run; null without particle-steps. */
  secondsPerParticleStep: number | null;
}

/** The loop time not inside any phase. */
export interface OtherRow {
  seconds: number;
  percentOfLoop: number | null;
}

/** The whole table. */
export interface PhaseTable {
  ranks: number;
  /** Wall time of the step loop, or null when unknown (a run that did not complete). */
  loopSeconds: number | null;
  rows: PhaseRow[];
  other: OtherRow;
}

/** Normalisers of the table: loop time, mean particle count and particle-steps (null when unknown). */
export interface PhaseTableScale {
  loopSeconds: number | null;
  meanParticles: number | null;
  particleSteps: number | null;
}

/** a / b, or null when either is unknown or b is not positive. */
function per(a: number, b: number | null): number | null {
  return b !== null && b > 0 ? a / b : null;
}

/** Builds the phase table; phases keep the order in which they first appear in the records. */
export function buildPhaseTable(records: PhaseRecord[], scale: PhaseTableScale): PhaseTable {
  const byPhase = new Map<string, PhaseRecord[]>();
  for (const r of records) {
    const list = byPhase.get(r.phase) ?? [];
    list.push(r);
    byPhase.set(r.phase, list);
  }
  const ranks = new Set(records.map((r) => r.rank)).size;
  const rows: PhaseRow[] = [];
  for (const [phase, list] of byPhase) {
    const totals = list.map((r) => r.totalSeconds);
    const avgSeconds = totals.reduce((a, b) => a + b, 0) / list.length;
    rows.push({
      phase,
      calls: Math.max(...list.map((r) => r.calls)),
      avgPerCallSeconds: list.reduce((a, r) => a + (r.calls > 0 ? r.totalSeconds / r.calls : 0), 0) / list.length,
      callMinSeconds: Math.min(...list.map((r) => r.minSeconds)),
      callMaxSeconds: Math.max(...list.map((r) => r.maxSeconds)),
      minSeconds: Math.min(...totals),
      avgSeconds,
      maxSeconds: Math.max(...totals),
      percentOfLoop: per(100 * avgSeconds, scale.loopSeconds),
      secondsPerParticle: per(avgSeconds, scale.meanParticles),
      secondsPerParticleStep: per(avgSeconds, scale.particleSteps),
    });
  }
  const inPhases = rows.reduce((a, r) => a + r.avgSeconds, 0);
  const otherSeconds = scale.loopSeconds === null ? 0 : Math.max(0, scale.loopSeconds - inPhases);
  return { ranks, loopSeconds: scale.loopSeconds, rows, other: { seconds: otherSeconds, percentOfLoop: per(100 * otherSeconds, scale.loopSeconds) } };
}
