// Dynamic load balancing of a multi-rank run: between submits, when the load non-uniformity UN of the
// last step exceeds the threshold, the grid is re-decomposed with the run's method weighted by the
// particle count of every cell, and each rank gets the (sigma c_r)_max and NTC remainders of its new
// cells; the ranks then move particles of cells that changed hands (Simulation.relayout).
// A new layout is taken only when it pays: the particle-steps it saves over the steps left must exceed what
// moving the particles (and, once sampling has begun, the sampling state) costs (RelayoutCost); in a run twice over
// (RESPLIT_PAY_MARGIN), within as many steps as the layout in force has lasted (horizonByAge). Checks that find nothing worth doing back off
// (1, 2, 4, ... submits), so a case whose imbalance cannot be cured is not asked for its cell counts every submit.
// Balancing by time (rank-cost.ts, the default on GPUs): every cell weighs its count n plus measured prices per cell and
// per n^2 in particle-equivalents, UN is that of the ranks' GPU time, and a split evens out those loads; moves are
// still counted in particles. By counts (software adapters, DSMC_BALANCE_BY=particles) every input is a count, so the
// same run decides the same way every time (and after a resume); by time the decisions follow the measured times (the
// fields do not depend on the split).
// A check decides in two rounds: whether a split pays, from a split of the coarse grid (coarse-grid.ts: every rank's
// counts summed over blocks of cells; propose()), and only then the split itself from every cell's state, as exact as
// before (cuts between any cells), taken if it pays with its exact moves (commit()).
// Each round weighs two splits: the one in force with its cuts moved to the new medians (recut: the same slab axis,
// block factorisation or rcb bisection tree, so only particles near the cuts move) and the method's split from scratch
// (rcb may then pick other axes and hand whole regions to other ranks); it takes the one that saves the most
// particle-steps net of its moves (issue 24: on the hypersonic wedge no split from scratch ever paid).
import { subdomainOf, type Subdomain } from '../../solver/subdomain.js';
import { rebalance, recut } from '../decomposition/decompose.js';
import { loadNonUniformity, shouldRebalance } from '../decomposition/load.js';
import { boxWeight, intersectBoxes } from '../decomposition/box.js';
import { SummedWeights } from '../decomposition/summed-weights.js';
import { coarseBlockCells, coarseGridOf, coarseSumsOf, fineBoxOf, nearestCoarseBox, type CoarseGrid, type CoarseSums } from '../decomposition/coarse-grid.js';
import type { CellPrices } from './rank-cost.js';
import type { Decomposition, Weights } from '../decomposition/types.js';

/**
 * One rank's per-cell counts over its local cell range (Simulation.cellState): what a split is made from (the cells'
 * collision state stays with the ranks, which hand it to each other: cell-handover.ts).
 */
export interface CellState {
  counts: Uint32Array;
}

/** A new decomposition, with what the relayout to it moves. */
export interface RebalanceDecision {
  decomposition: Decomposition;
  subdomains: Subdomain[];
  /** Particles of the most loaded rank before the move (sets the relayout's rounds, the same on every rank). */
  largest: number;
  /** Particles that change ranks. */
  moved: number;
  /** The most particles one rank sends another (exact: the counts the split was made from are the relayout's), which sizes the relayout. */
  maxSend: number;
  /** The particles rank r sends rank d in the relayout, sendsTo[r][d] (exact, as maxSend; 0 for d = r). */
  sendsTo: number[][];
  /** UN (percent) the new layout gives the current particles. */
  unAfter: number;
}

/** What one re-decomposition did: after which step, UN before and (predicted from the cell counts) after, particles moved. */
export interface RebalanceEvent {
  step: number;
  unBefore: number;
  unAfter?: number;
  moved?: number;
}

/**
 * What a relayout costs, in particle-steps of ordinary work (fixed estimates, not measurements, so that the same run on
 * the same kind of adapter makes the same decisions again, and a resumed run re-decomposes where the run left alone
 * would): `movedParticleSteps` per particle that changes ranks (read back, sent, appended, sorted), and `fixedParticles`,
 * particles' worth of records moved whatever the split (the sampling state once sampling has begun: it goes through
 * the orchestrator whole). Balancing by time adds `fixedSteps`, what a re-split costs whatever it moves (its checks'
 * rounds, the relayout's set-up and the first sort after it: RESPLIT_FIXED_SECONDS at the ranks' measured speed).
 */
export interface RelayoutCost {
  movedParticleSteps: number;
  fixedParticles: number;
  fixedSteps?: number;
  /** How many times this cost a split must save over the steps left to be taken (1 when absent; runs: RESPLIT_PAY_MARGIN). */
  margin?: number;
}

/**
 * How many times its estimated cost a re-split must save (within the horizon: Rebalancer.left). The estimate is rough:
 * measured re-splits cost 500-670 particle-steps a moved particle against RELAYOUT_COST_STEPS, and the saving is
 * foreseen from the ranks' loads of one moment (on the hypersonic wedge on 4 H200s, twentieth session, a re-split at
 * step 300 of 1500 whose estimate saved about 1.7 times its cost took 0.71 s and saved the slowest rank 0.47 s: the
 * run was 7 % slower than the first split kept).
 */
export const RESPLIT_PAY_MARGIN = 2;

/**
 * Seconds a re-split of a full-size case costs whatever it moves, on GPUs. The orchestrator decides while the ranks
 * step (balance-coordinator.ts), so what is left is the ranks' read of every cell's count, the trade of the collision
 * state and counts, the per-cell buffers and the first sort after the relayout: on the hypersonic wedge, 4 ranks sharing
 * one H200, 0.07-0.08 s of reads over a run's checks, trade 0.05, set-up 0.04-0.05, sort 0.03-0.04 s
 * (docs/PERFORMANCE.md, twenty-first session; the checks' rounds and the decision cost 0.23 s more when the ranks waited
 * for them, fifteenth session).
 */
export const RESPLIT_FIXED_SECONDS = 0.15;

/**
 * Particle-steps one moved particle costs on a GPU beyond RESPLIT_FIXED_SECONDS: the re-splits of the hypersonic wedge
 * measured since the relayout's last changes (docs/PERFORMANCE.md) give 580-670 on 2 H200s (twenty-eighth session:
 * 3.80M moved in 0.433 s, 2.78M in 0.326 s of the ranks' balancing) and 500-620 on 4 H200s (twentieth session: 5.11M
 * in 0.714 s; three re-splits, 16.0M in 2.15 s), at each run's particle-steps per rank and second.
 */
export const RELAYOUT_COST_STEPS = 600;

/** The same on a software adapter (lavapipe), where a step of a particle costs as much as moving it on the host. */
export const RELAYOUT_COST_STEPS_SOFTWARE = 1;

/** The relayout cost on ranks of software adapters or GPUs, with `fixedParticles` particles' worth of state to move besides. */
export function relayoutCost(software: boolean, fixedParticles = 0): RelayoutCost {
  return { movedParticleSteps: software ? RELAYOUT_COST_STEPS_SOFTWARE : RELAYOUT_COST_STEPS, fixedParticles };
}

/** The back-off of the checks (kept in checkpoints, so that a resumed run checks where the run left alone would). */
export interface RebalancePolicyState {
  /** Submits to let pass before the next check. */
  wait: number;
  /** The wait after the next check that changes nothing. */
  backoff: number;
}

/** A check whose split of the coarse grid pays by its estimate (propose): commit() makes the split from the cells. */
export interface RebalanceProposal {
  step: number;
  un: number;
  cost: RelayoutCost;
  /** Balancing by time: what a cell weighs besides its count, in particle-equivalents (rank-cost.ts); absent: by counts. */
  prices?: CellPrices;
}

/**
 * Every cell's load by time: its count n plus its prices, cellWeight + squareWeight n^2 particle-equivalents, rounded
 * to whole ones (half a particle a cell is far below what a split resolves), so that the summed table takes the
 * integer path of counts (on the wedge's 6.4M cells a commit in float64 took 218 ms against 96 by counts).
 */
function pricedCounts(counts: ArrayLike<number>, prices: CellPrices): Uint32Array {
  const { cellWeight, squareWeight } = prices;
  const price = (n: number) => Math.round(n + cellWeight + squareWeight * n * n);
  // counts are small whole numbers: each one's load looked up (the rounding done once per count, not per cell)
  let most = 0;
  for (let i = 0; i < counts.length; i++) if (counts[i] > most) most = counts[i];
  const out = new Uint32Array(counts.length);
  if (most >= 1 << 16) {
    for (let i = 0; i < out.length; i++) out[i] = price(counts[i]);
    return out;
  }
  const table = Uint32Array.from({ length: most + 1 }, (_, n) => price(n));
  for (let i = 0; i < out.length; i++) out[i] = table[counts[i]];
  return out;
}

/** The same per block of the coarse grid: its counts, cells and sums of squared counts priced and rounded. */
function pricedBlocks(blocks: Uint32Array, cells: Float64Array, squares: Float64Array, prices: CellPrices): Uint32Array {
  const out = new Uint32Array(blocks.length);
  for (let k = 0; k < out.length; k++) out[k] = Math.round(blocks[k] + prices.cellWeight * cells[k] + prices.squareWeight * squares[k]);
  return out;
}

/** Particles (weights) whose cells change owner between two decompositions of the same grid (box intersections, no per-cell work). */
export function movedWeight(from: Decomposition, to: Decomposition, weights: Weights): number {
  let moved = 0;
  from.boxes.forEach((box, r) => {
    const kept = intersectBoxes(box, to.boxes[r]);
    moved += boxWeight(from.grid, weights, box) - (kept ? boxWeight(from.grid, weights, kept) : 0);
  });
  return moved;
}

/** The particles (weights) rank r sends rank d when the grid goes from split `from` to `to`: sendsTo[r][d] (0 on the diagonal). */
function pairSends(from: Decomposition, to: Decomposition, weights: Weights): number[][] {
  return from.boxes.map((box, r) => to.boxes.map((dest, d) => {
    const both = r === d ? null : intersectBoxes(box, dest);
    return both ? boxWeight(from.grid, weights, both) : 0;
  }));
}

/** A candidate split with the slowest rank's load it gives and the particles it moves. */
interface Candidate {
  split: Decomposition;
  largest: number;
  moved: number;
}

/** What a split that moves `moved` particles is estimated to cost, in particle-steps. */
function priceOf(cost: RelayoutCost, moved: number): number {
  return cost.movedParticleSteps * (moved + cost.fixedParticles) + (cost.fixedSteps ?? 0);
}

/** Whether saving `saved` particle-steps pays for a split of estimated cost `price` with the cost's margin. */
function pays(saved: number, price: number, cost: RelayoutCost): boolean {
  return saved > (cost.margin ?? 1) * price;
}

/**
 * The candidate that pays (saves over `left` steps the cost's margin times its estimated cost) and saves the most
 * particle-steps net of its moves (gain x left - cost x moved); on equal savings (left infinite) the lighter slowest rank, then the fewer moved, then the earlier; null when none pays.
 */
function bestCandidate(candidates: readonly Candidate[], largestBefore: number, left: number, cost: RelayoutCost): Candidate | null {
  let best: Candidate | null = null;
  let bestSaving = -Infinity;
  for (const c of candidates) {
    const gain = largestBefore - c.largest;
    if (!(gain > 0)) continue;
    const price = priceOf(cost, c.moved);
    if (!pays(gain * left, price, cost)) continue;
    const saving = left === Infinity ? Infinity : gain * left - price;
    const better = !best || saving > bestSaving
      || (saving === bestSaving && (c.largest < best.largest || (c.largest === best.largest && c.moved < best.moved)));
    if (better) {
      best = c;
      bestSaving = saving;
    }
  }
  return best;
}

/**
 * The splits that change the layout, each with its slowest rank's load (from `loads`: counts, or counts plus a price
 * per cell when balancing by time) and the particles it moves from `from` (from `counts`; same grid).
 */
function weigh(splits: Decomposition[], from: Decomposition, loads: SummedWeights, counts: SummedWeights, changes: (split: Decomposition) => boolean): Candidate[] {
  return splits.filter(changes).map((split) => ({
    split,
    largest: Math.max(...split.boxes.map((b) => boxWeight(from.grid, loads, b))),
    moved: movedWeight(from, split, counts),
  }));
}

export class Rebalancer {
  /** Steps after which the grid was re-decomposed, with UN (percent) before and after. */
  readonly events: RebalanceEvent[];
  /** Submits to let pass before the next check, and the back-off after the last check that changed nothing. */
  private wait = 0;
  private backoff = 1;
  /** The blocks a check's first round gathers (every rank sums its cells' counts over them). */
  readonly coarse: CoarseGrid;
  /** The fine cells of each block (coarseBlockCells), made at the first check by time. */
  private blockCells: Float64Array | undefined;

  /**
   * events: re-decompositions before this one started (a resumed run), policy its back-off; lastStep: the run's last
   * step (what a new layout can still save); horizonByAge: a new layout is expected to last only as long as the one in
   * force has (left()), not always to the run's end.
   */
  constructor(private current: Decomposition, readonly thresholdPercent: number, events: RebalanceEvent[] = [], private readonly lastStep = Infinity,
    policy?: RebalancePolicyState, coarseCells?: number, private readonly horizonByAge = false) {
    this.coarse = coarseGridOf(current.grid, coarseCells);
    this.events = [...events];
    if (policy) ({ wait: this.wait, backoff: this.backoff } = policy);
  }

  /** The back-off state (for checkpoints). */
  get policy(): RebalancePolicyState {
    return { wait: this.wait, backoff: this.backoff };
  }

  /** The decomposition in force. */
  get decomposition(): Decomposition {
    return this.current;
  }

  /** Whether to gather the ranks' cell counts after this submit: UN above the threshold and no back-off pending. */
  wants(un: number): boolean {
    if (!shouldRebalance(un, this.thresholdPercent)) return false;
    if (this.wait > 0) {
      this.wait -= 1;
      return false;
    }
    return true;
  }

  /**
   * Whether any new split could pay after `step`, from the ranks' particle counts alone (no cells needed): the slowest
   * rank can at best drop to the mean, so the gain is at most max - mean, and at least that many particles must leave
   * it (`countsMove`: loads that are counts; a load by time may drop by more than the particles that leave, dense
   * cells weighing more); a split pays only if gain x steps left exceeds the cost of those moves (plus the fixed
   * parts). When this is false decide() would keep the split too, so the check (gathering every cell's state) is skipped.
   */
  mayPay(step: number, loads: readonly number[], cost: RelayoutCost, countsMove = true): boolean {
    if (loads.length === 0) return false;
    const max = Math.max(...loads);
    const mean = loads.reduce((a, b) => a + b, 0) / loads.length;
    const gain = max - mean;
    const moved = countsMove ? gain : 0;
    return gain > 0 && pays(gain * this.left(step), priceOf(cost, moved), cost);
  }

  /** Keeps the split after a check: the next check waits 1, 2, 4, ... submits (at most 64). */
  private keep(): null {
    this.wait = this.backoff;
    this.backoff = Math.min(2 * this.backoff, 64);
    return null;
  }

  /**
   * The first round of a check after `step` with non-uniformity `un`: the split in force re-cut and the run's method
   * from scratch split the coarse grid weighted by every rank's block counts (coarse[r]: coarseSumsOf the rank's cells;
   * by time with `prices`, its blocks' counts, cells and squared counts priced); a proposal when one of them changes the
   * layout and the particle-steps it saves over the steps left exceed what its moves cost (estimated from the blocks
   * nearest the current boxes). Null keeps the split (and backs off) without gathering any cell's state.
   */
  propose(step: number, un: number, coarse: readonly CoarseSums[], cost: RelayoutCost = { movedParticleSteps: RELAYOUT_COST_STEPS, fixedParticles: 0 }, prices?: CellPrices): RebalanceProposal | null {
    if (!shouldRebalance(un, this.thresholdPercent)) return null;
    const cg = this.coarse;
    const nBlocks = cg.grid[0] * cg.grid[1] * cg.grid[2];
    const blocks = new Uint32Array(nBlocks);
    const counts = coarse.map((c) => {
      let total = 0;
      for (let k = 0; k < c.counts.length; k++) {
        blocks[k] += c.counts[k];
        total += c.counts[k];
      }
      return total;
    });
    const summed = new SummedWeights(cg.grid, blocks);
    // balancing by time: every block weighs its count plus its cells' prices
    let loads = summed;
    if (prices !== undefined) {
      const squares = new Float64Array(nBlocks);
      for (const c of coarse) for (let k = 0; k < nBlocks; k++) squares[k] += c.squares[k];
      this.blockCells ??= coarseBlockCells(cg);
      loads = new SummedWeights(cg.grid, pricedBlocks(blocks, this.blockCells, squares, prices));
    }
    const nearest: Decomposition = { ...this.current, grid: cg.grid, boxes: this.current.boxes.map((b) => nearestCoarseBox(b, cg)) };
    const before = prices === undefined ? counts : nearest.boxes.map((b) => boxWeight(cg.grid, loads, b));
    const current = JSON.stringify(this.current.boxes);
    // the split in force re-cut on the blocks (its structure read from its own boxes), and the split from scratch
    const candidates = weigh([recut(this.current, loads, cg.grid), rebalance(nearest, loads)], nearest, loads, summed,
      (split) => JSON.stringify(split.boxes.map((b) => fineBoxOf(b, cg))) !== current);
    const best = bestCandidate(candidates, Math.max(...before), this.left(step), cost);
    if (!best) return this.keep();
    return prices === undefined ? { step, un, cost } : { step, un, cost, prices };
  }

  /**
   * The steps a new split made after `step` can save over: the steps left, and with horizonByAge no more than the
   * layout in force has lasted (since the last re-split, or the run's start). A flow still developing moves its load
   * on, so a split made early evens the ranks for a while and not to the run's end: on the hypersonic wedge (4 H200s,
   * twentieth session; 4 ranks sharing 2 H200s, twenty-ninth session) a re-split at step 300-350 of 1500 that the steps
   * left paid for twice over made the run 7 % slower, its slowest rank's GPU seconds falling by a third of what it
   * foresaw. A layout that has stood for s steps is taken to stand about s more: late in a long run, or after a long
   * steady stretch, a split is judged over many steps; early on only a large imbalance pays.
   */
  private left(step: number): number {
    const left = Math.max(0, this.lastStep - step);
    if (!this.horizonByAge) return left;
    const since = this.events.length > 0 ? this.events[this.events.length - 1].step : 0;
    return Math.min(left, Math.max(0, step - since));
  }

  /**
   * The second round, after a proposal: the split in force re-cut and the run's method from scratch split the grid
   * weighted by every cell's count (states[r]: rank r's cells), and of those that change the layout and pay with the
   * exact particles they move, the one that saves the most is taken (bestCandidate); the ranks then hand each other the
   * collision state of the cells that change hands (cell-handover.ts).
   */
  commit(proposal: RebalanceProposal, states: CellState[]): RebalanceDecision | null {
    const { step, un, cost, prices } = proposal;
    const grid = this.current.grid;
    // box sums in O(1) from here on: the split, the loads before and after, the particles that move (summed from the
    // ranks' own counts, with no array over the whole grid)
    const counts = { boxes: this.current.boxes, weights: states.map((s) => s.counts) };
    const summed = new SummedWeights(grid, counts);
    // balancing by time: the split evens out the counts plus every cell's prices
    const loads = prices === undefined ? summed : new SummedWeights(grid, { boxes: counts.boxes, weights: states.map((s) => pricedCounts(s.counts, prices)) });
    const before = this.current.boxes.map((b) => boxWeight(grid, loads, b));
    const current = JSON.stringify(this.current.boxes);
    // the split in force with its cuts moved, and the split from scratch: the one that saves the most, if any pays
    const candidates = weigh([recut(this.current, loads), rebalance(this.current, loads)], this.current, loads, summed,
      (split) => JSON.stringify(split.boxes) !== current);
    const best = bestCandidate(candidates, Math.max(...before), this.left(step), cost);
    if (!best) return this.keep();
    const { split: next, moved } = best;
    const after = next.boxes.map((b) => boxWeight(grid, loads, b));
    const particlesBefore = this.current.boxes.map((b) => boxWeight(grid, summed, b));
    this.backoff = 1;
    const sendsTo = pairSends(this.current, next, summed);
    const maxSend = Math.max(0, ...sendsTo.flat());
    this.current = next;
    const unAfter = loadNonUniformity(after);
    this.events.push({ step, unBefore: un, unAfter, moved });
    const subdomains = next.boxes.map((_, r) => subdomainOf(next, r));
    return {
      decomposition: next,
      subdomains,
      largest: Math.max(...particlesBefore),
      moved,
      maxSend,
      sendsTo,
      unAfter,
    };
  }

  /** Both rounds from every cell's state at once (in-process runs and tests): propose() on their blocks, then commit(). */
  decide(step: number, un: number, states: CellState[], cost: RelayoutCost = { movedParticleSteps: RELAYOUT_COST_STEPS, fixedParticles: 0 }, prices?: CellPrices): RebalanceDecision | null {
    const coarse = states.map((s, r) => coarseSumsOf(s.counts, this.current.boxes[r], this.coarse));
    const proposal = this.propose(step, un, coarse, cost, prices);
    return proposal && this.commit(proposal, states);
  }
}
