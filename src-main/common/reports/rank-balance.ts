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
  /** Per rank over the complete steps: mean particles, mean sent and received per step, total wait. */
  perRank: RankTotals[];
  /** UN per complete step, every `unSeriesStride`-th step (at most UN_SERIES_MAX points, steps ascending). */
  unSeries: [step: number, percent: number][];
  unSeriesStride: number;
}

/** One rank's share of the work and traffic over a run. */
export interface RankTotals {
  rank: number;
  meanParticles: number;
  sentPerStep: number;
  receivedPerStep: number;
  waitSeconds: number;
}

/** The most points of the UN-per-step series a report keeps (longer runs keep every k-th step). */
export const UN_SERIES_MAX = 1000;

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
  const unSteps: [number, number][] = [];
  const sentPerStep: number[] = [];
  let particleSum = 0;
  let complete = 0, incomplete = 0;
  const totals = new Map<number, RankTotals>();
  for (const [step, list] of bySteps(rows)) {
    if (new Set(list.map((r) => r.rank)).size !== ranks || list.length !== ranks) { incomplete++; continue; }
    complete++;
    const un = loadNonUniformityPercent(list.map((r) => r.particles));
    if (un !== null) { unValues.push(un); unSteps.push([step, un]); }
    sentPerStep.push(list.reduce((a, r) => a + r.sent, 0));
    particleSum += list.reduce((a, r) => a + r.particles, 0);
    for (const r of list) {
      const t = totals.get(r.rank) ?? { rank: r.rank, meanParticles: 0, sentPerStep: 0, receivedPerStep: 0, waitSeconds: 0 };
      t.meanParticles += r.particles;
      t.sentPerStep += r.sent;
      t.receivedPerStep += r.received;
      t.waitSeconds += r.waitSeconds;
      totals.set(r.rank, t);
    }
  }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  // no Math.max(...xs): a run may have 10^5+ steps, more arguments than a call takes
  const maxOf = (xs: number[]) => xs.reduce((a, b) => (b > a ? b : a), -Infinity);
  const perRank = [...totals.values()].sort((a, b) => a.rank - b.rank)
    .map((t) => ({ ...t, meanParticles: t.meanParticles / complete, sentPerStep: t.sentPerStep / complete, receivedPerStep: t.receivedPerStep / complete }));
  const waits = perRank.map((t) => t.waitSeconds);
  const meanSent = sentPerStep.length > 0 ? mean(sentPerStep) : 0;
  const meanParticles = complete > 0 ? particleSum / complete : 0;
  const stride = Math.max(1, Math.ceil(unSteps.length / UN_SERIES_MAX));
  return {
    steps: complete,
    incompleteSteps: incomplete,
    loadNonUniformity: unValues.length > 0 ? { meanPercent: mean(unValues), maxPercent: maxOf(unValues) } : null,
    communicated: sentPerStep.length > 0
      ? { meanPerStep: meanSent, maxPerStep: maxOf(sentPerStep), meanFractionOfParticles: meanParticles > 0 ? meanSent / meanParticles : 0 }
      : null,
    waitSeconds: waits.length > 0 ? { mean: mean(waits), max: maxOf(waits) } : null,
    perRank,
    unSeries: unSteps.filter((_, i) => i % stride === 0),
    unSeriesStride: stride,
  };
}
