// Dynamic load balancing of a multi-rank run: between submits, when the load non-uniformity UN of the
// last step exceeds the threshold, the grid is re-decomposed with the run's method weighted by the
// particle count of every cell, and each rank gets the (sigma c_r)_max and NTC remainders of its new
// cells; the ranks then move particles of cells that changed hands (Simulation.relayout).
import { copyOwnedCells, subdomainOf, takeOwnedCells, type Subdomain } from '../../solver/subdomain.js';
import { rebalance } from '../decomposition/decompose.js';
import { shouldRebalance } from '../decomposition/load.js';
import type { Decomposition } from '../decomposition/types.js';

/** One rank's per-cell state over its local cell range (Simulation.cellState). */
export interface CellState {
  counts: Uint32Array;
  sigmaCrMax: Float32Array;
  remainder: Float32Array;
}

/** A new decomposition and each rank's per-cell state for its new range. */
export interface RebalanceDecision {
  decomposition: Decomposition;
  subdomains: Subdomain[];
  sigmaCrMax: Float32Array[];
  remainder: Float32Array[];
}

/** A subdomain's cells of a global per-cell array, in its local order. */
function localCells(global: Float32Array, sub: Subdomain, grid: [number, number, number]): Float32Array {
  const out = new Float32Array(sub.nLocal);
  takeOwnedCells(global, sub, grid, out);
  return out;
}

export class Rebalancer {
  /** Steps after which the grid was re-decomposed, with UN (percent) before. */
  readonly events: { step: number; unBefore: number }[];

  /** events: re-decompositions before this one started (a resumed run). */
  constructor(private current: Decomposition, readonly thresholdPercent: number, events: { step: number; unBefore: number }[] = []) {
    this.events = [...events];
  }

  /** The decomposition in force. */
  get decomposition(): Decomposition {
    return this.current;
  }

  /** Decides after `step` with non-uniformity `un`: a new layout when UN exceeds the threshold and the weighted split differs. */
  decide(step: number, un: number, states: CellState[]): RebalanceDecision | null {
    if (!shouldRebalance(un, this.thresholdPercent)) return null;
    const grid = this.current.grid;
    const nCells = grid[0] * grid[1] * grid[2];
    const subs = this.current.boxes.map((_, r) => subdomainOf(this.current, r));
    const weights = new Float64Array(nCells);
    const sigma = new Float32Array(nCells);
    const remainder = new Float32Array(nCells);
    states.forEach((s, r) => {
      copyOwnedCells(s.counts, subs[r], grid, weights);
      copyOwnedCells(s.sigmaCrMax, subs[r], grid, sigma);
      copyOwnedCells(s.remainder, subs[r], grid, remainder);
    });
    const next = rebalance(this.current, weights);
    if (JSON.stringify(next.boxes) === JSON.stringify(this.current.boxes)) return null;
    this.current = next;
    this.events.push({ step, unBefore: un });
    const subdomains = next.boxes.map((_, r) => subdomainOf(next, r));
    return {
      decomposition: next,
      subdomains,
      sigmaCrMax: subdomains.map((s) => localCells(sigma, s, grid)),
      remainder: subdomains.map((s) => localCells(remainder, s, grid)),
    };
  }
}
