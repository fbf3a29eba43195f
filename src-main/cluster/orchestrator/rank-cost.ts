// Balancing by time: a cost model of a rank's GPU time, measured. A rank's step costs a price per particle (move,
// scatter, permute), a price per cell (the scans, masks, collide and sampling invocations run over cells, full or not)
// and a price per squared cell count (a particle's place in its cell is found against every other particle of the
// cell, and NTC selects pairs in proportion to n^2: dense cells cost more than their particles, issue 24's wedge, whose
// rank with 35.3M particles worked 16.1 s and the one with 32.0M 12.6 s), t_r = a P_r + b C_r + c Q_r with
// Q_r = sum of n^2 over the rank's cells. Every check's first round brings each rank's Q (coarse-counts.wgsl sums the
// squares per block); the ranks' GPU seconds a step in the last submit, with P, C and Q, are points of a non-negative
// least-squares fit over the last few checks (CostModel), and a re-split then weighs every cell as n + b/a + (c/a) n^2
// particle-equivalents, so that it evens out GPU time rather than counts. The default on GPUs; counts on software
// adapters (whose wall-clock phase times are not the GPU's) and where DSMC_BALANCE_BY=particles asks for them, which are
// what every rank and a resumed run agree on exactly (by time the decisions follow the measured times; the fields never
// depend on the split).

import { loadNonUniformity } from '../decomposition/load.js';

/** How a run's re-splits weigh the cells: by particle counts, or by the measured cost model. */
export type BalanceBy = 'particles' | 'time';

/** What a cell weighs besides its count n, in particle-equivalents: cellWeight + squareWeight n^2. */
export interface CellPrices {
  cellWeight: number;
  squareWeight: number;
}

/** One rank at one check: GPU seconds a step, particles, cells and the sum of its cells' squared counts. */
export interface CostPoint {
  seconds: number;
  particles: number;
  cells: number;
  squares: number;
}

/** The most particle-equivalents a cell may weigh whatever its count (a fit beyond it is noise, not a cost model). */
const MAX_CELL_WEIGHT = 1000;

/** Checks whose points the fit keeps (the prices are the hardware's and the gas's: they hold while the flow develops). */
export const COST_WINDOW = 4;

/** The least-squares solution of the normal equations m x = v (k x k, k <= 3), or null when m is near singular. */
function solve(m: number[][], v: number[]): number[] | null {
  const k = v.length;
  const a = m.map((row, i) => [...row, v[i]]);
  for (let col = 0; col < k; col++) {
    let pivot = col;
    for (let r = col + 1; r < k; r++) if (Math.abs(a[r][col]) > Math.abs(a[pivot][col])) pivot = r;
    // the columns are scaled to unit norm, so a pivot this small means two columns say the same
    if (!(Math.abs(a[pivot][col]) > 1e-9)) return null;
    [a[col], a[pivot]] = [a[pivot], a[col]];
    for (let r = 0; r < k; r++) {
      if (r === col) continue;
      const f = a[r][col] / a[col][col];
      for (let c = col; c <= k; c++) a[r][c] -= f * a[col][c];
    }
  }
  return a.map((row, i) => row[k] / row[i]);
}

/**
 * The prices per particle, cell and squared count (a, b, c >= 0, a > 0) that fit the points best: least squares over
 * each set of terms that includes particles, the sets whose prices all come out positive compared by their residual per
 * degree of freedom (a term that explains nothing does not win by fitting noise); null when no set fits (a particle
 * costing nothing, too few points).
 */
export function fitPrices(points: readonly CostPoint[]): { a: number; b: number; c: number } | null {
  const columns = [points.map((p) => p.particles), points.map((p) => p.cells), points.map((p) => p.squares)];
  const t = points.map((p) => p.seconds);
  if (points.some((p) => !(p.seconds > 0) || !Number.isFinite(p.seconds) || !(p.particles > 0) || !(p.cells > 0) || !(p.squares >= 0))) return null;
  // every column scaled to unit norm (particles, cells and squares differ by orders of magnitude)
  const norms = columns.map((col) => Math.sqrt(col.reduce((s, x) => s + x * x, 0)));
  let best: { prices: number[]; score: number } | null = null;
  for (const terms of [[0], [0, 1], [0, 2], [0, 1, 2]]) {
    const k = terms.length;
    if (points.length <= k || terms.some((j) => !(norms[j] > 0))) continue;
    const x = terms.map((j) => columns[j].map((v) => v / norms[j]));
    const m = x.map((xi) => x.map((xj) => xi.reduce((s, v, r) => s + v * xj[r], 0)));
    const v = x.map((xi) => xi.reduce((s, val, r) => s + val * t[r], 0));
    const scaled = solve(m, v);
    if (!scaled || scaled.some((p) => !(p > 0))) continue;
    const residual = t.reduce((s, tr, r) => s + (tr - scaled.reduce((f, p, i) => f + p * x[i][r], 0)) ** 2, 0);
    const score = residual / (points.length - k);
    if (!best || score < best.score) {
      const prices = [0, 0, 0];
      terms.forEach((j, i) => { prices[j] = scaled[i] / norms[j]; });
      best = { prices, score };
    }
  }
  return best && { a: best.prices[0], b: best.prices[1], c: best.prices[2] };
}

/** The cost model of a run: the points of its last COST_WINDOW checks and the prices they fit. */
export class CostModel {
  private readonly checks: CostPoint[][] = [];
  /** The prices of the last fit (null: none made, or none fitted). */
  prices: CellPrices | null = null;

  /** Adds one check's points (one per rank) and fits the prices again; returns them (null: counts). */
  add(points: CostPoint[]): CellPrices | null {
    this.checks.push(points);
    if (this.checks.length > COST_WINDOW) this.checks.shift();
    const fit = fitPrices(this.checks.flat());
    this.prices = fit && { cellWeight: Math.min(MAX_CELL_WEIGHT, fit.b / fit.a), squareWeight: fit.c / fit.a };
    return this.prices;
  }
}

/**
 * The ranks' loads in particle-equivalents a step from their GPU seconds in a submit of `steps` steps and their
 * particle-steps there (each rank's seconds at the ranks' mean price per particle-step), with the UN of those seconds
 * and that mean speed (particle-steps per GPU second); null when any rank has no measurement (timing off) or ran no
 * particles.
 */
export function timeLoadsOf(gpuSeconds: readonly number[], particleSteps: readonly number[], steps: number): { loads: number[]; un: number; perSecond: number } | null {
  const n = gpuSeconds.length;
  if (n < 2 || particleSteps.length !== n || !(steps > 0)) return null;
  if (gpuSeconds.some((t) => !(t > 0) || !Number.isFinite(t)) || particleSteps.some((p) => !(p > 0))) return null;
  const perSecond = particleSteps.reduce((a, b) => a + b, 0) / gpuSeconds.reduce((a, b) => a + b, 0);
  return { loads: gpuSeconds.map((t) => (t * perSecond) / steps), un: loadNonUniformity(gpuSeconds), perSecond };
}

/**
 * The run's choice: the measured cost model on GPUs unless DSMC_BALANCE_BY=particles asks for counts. Software adapters
 * always balance counts, and so do ranks that share a GPU (`sharedGpus`): a rank's GPU timestamps then hold the other
 * ranks' work on that GPU, so even GPU seconds are not even work. On the hypersonic wedge over 10,000 steps on 4 ranks
 * sharing 2 H200s (twenty-ninth session) two re-splits by time evened the ranks' seconds and made the run 4 % slower
 * than the first split kept, its ranks' GPU seconds summing to 334 against 299.
 */
export function balanceByOf(software: boolean, env: string | undefined = process.env.DSMC_BALANCE_BY, sharedGpus = false): BalanceBy {
  if (env !== undefined && env !== '' && env !== 'particles' && env !== 'time') throw new Error(`DSMC_BALANCE_BY is '${env}': use particles or time (or leave it unset: time on GPUs of their own)`);
  return env !== 'particles' && !software && !sharedGpus ? 'time' : 'particles';
}

/**
 * Whether a submit's GPU seconds may be judged by time: not the run's first (its seconds hold the start-up's whole sort)
 * nor the one right after a re-split at submit `resplitAt` (the relayout's whole sort): on the hypersonic wedge the
 * first submit's UN of time was 72 %, and its re-split moved 455,000 particles for nothing.
 */
export function settledSubmit(index: number, resplitAt: number): boolean {
  return index > 0 && index !== resplitAt + 1;
}
