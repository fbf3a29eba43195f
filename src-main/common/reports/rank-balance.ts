// Load balance and communication of one multi-rank run from its per-rank step rows: the load
// non-uniformity UN = (Pmax - Pmin) / Pavg * 100 % over ranks at each step (Su et al. 2012, eq. 2;
// PHYSICS.md), particles communicated per step, and each rank's time waiting for the others.
import type { RankStepRecord } from '../run-record.js';

/** Balance statistics of one run (null parts: no complete step to compute them from). */
export interface RankBalance {
  /** Steps with a row from every rank (the only steps used). */
  steps: number;
  /** Steps missing some rank's row (left out). */
  incompleteSteps: number;
  /** UN in percent: mean and max over steps. */
  loadNonUniformity: { meanPercent: number; maxPercent: number } | null;
  /** Particles sent per step, summed over ranks: mean and max over steps; mean sent / mean particles of the whole domain. */
  communicated: { meanPerStep: number; maxPerStep: number; meanFractionOfParticles: number } | null;
  /** Each rank's wait summed over the steps: mean and max over ranks (seconds). */
  waitSeconds: { mean: number; max: number } | null;
}

/** UN of one step's particle counts over ranks, in percent (0 for one rank; null when no particles). */
export function loadNonUniformityPercent(particles: number[]): number | null {
  if (particles.length === 0) return null;
  const avg = particles.reduce((a, b) => a + b, 0) / particles.length;
  if (avg <= 0) return null;
  return ((Math.max(...particles) - Math.min(...particles)) / avg) * 100;
}

/** Groups rows by step (steps ascending). */
function bySteps(rows: RankStepRecord[]): [number, RankStepRecord[]][] {
  const map = new Map<number, RankStepRecord[]>();
  for (const r of rows) {
    const list = map.get(r.step) ?? [];
    list.push(r);
    map.set(r.step, list);
  }
  return [...map.entries()].sort((a, b) => a[0] - b[0]);
}

/** Balance statistics of a run on `ranks` ranks from its per-rank step rows. */
export function rankBalance(rows: RankStepRecord[], ranks: number): RankBalance {
  const unValues: number[] = [];
  const sentPerStep: number[] = [];
  let particleSum = 0;
  let complete = 0, incomplete = 0;
  const waitByRank = new Map<number, number>();
  for (const [, list] of bySteps(rows)) {
    if (new Set(list.map((r) => r.rank)).size !== ranks || list.length !== ranks) { incomplete++; continue; }
    complete++;
    const un = loadNonUniformityPercent(list.map((r) => r.particles));
    if (un !== null) unValues.push(un);
    sentPerStep.push(list.reduce((a, r) => a + r.sent, 0));
    particleSum += list.reduce((a, r) => a + r.particles, 0);
    for (const r of list) waitByRank.set(r.rank, (waitByRank.get(r.rank) ?? 0) + r.waitSeconds);
  }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const waits = [...waitByRank.values()];
  const meanSent = sentPerStep.length > 0 ? mean(sentPerStep) : 0;
  const meanParticles = complete > 0 ? particleSum / complete : 0;
  return {
    steps: complete,
    incompleteSteps: incomplete,
    loadNonUniformity: unValues.length > 0 ? { meanPercent: mean(unValues), maxPercent: Math.max(...unValues) } : null,
    communicated: sentPerStep.length > 0
      ? { meanPerStep: meanSent, maxPerStep: Math.max(...sentPerStep), meanFractionOfParticles: meanParticles > 0 ? meanSent / meanParticles : 0 }
      : null,
    waitSeconds: waits.length > 0 ? { mean: mean(waits), max: Math.max(...waits) } : null,
  };
}
