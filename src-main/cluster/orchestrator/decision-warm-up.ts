// A rehearsal of the orchestrator's re-split decision while the ranks set up: the first real check of a run ran its
// propose and commit on code V8 had not compiled yet and on memory never touched (on a 2-core machine, the wedge's
// 6.4M cells: propose 27-57 ms and commit 204-320 ms cold against 6-25 and 120-250 after a rehearsal; docs/PERFORMANCE.md).
// The rehearsal decides once on made-up counts over the run's own grid and split (particles piled up in the low-x
// quarter, so that a split pays and commit runs through), with a Rebalancer of its own: the run's keeps its state.
import { coarseSumsOf } from '../decomposition/coarse-grid.js';
import { subdomainOf } from '../../solver/subdomain.js';
import type { Decomposition } from '../decomposition/types.js';
import { Rebalancer, relayoutCost, type CellState } from './rebalancer.js';
import type { CellPrices } from './rank-cost.js';

/** Particles a cell holds in the rehearsal: many in the low-x quarter of the grid, few elsewhere. */
const PILED = 40, SPREAD = 4;

/** Prices a rehearsal by time weighs cells with (of the wedge's fitted order: rank-cost.ts). */
export const REHEARSAL_PRICES: CellPrices = { cellWeight: 1.3, squareWeight: 0.02 };

/** What a rehearsal did: whether its blocks proposed a split and whether the cells committed one. */
export interface Rehearsal {
  proposed: boolean;
  committed: boolean;
  seconds: number;
}

/** Every rank's made-up cell counts over split `d` (local order: x fastest within its box). */
function madeUpStates(d: Decomposition): CellState[] {
  const quarter = Math.max(1, Math.floor(d.grid[0] / 4));
  return d.boxes.map((box, r) => {
    const n = subdomainOf(d, r).nLocal;
    const counts = new Uint32Array(n);
    const bx = box.hi[0] - box.lo[0];
    for (let l = 0; l < n; l++) counts[l] = box.lo[0] + (l % bx) < quarter ? PILED : SPREAD;
    return { counts };
  });
}

/**
 * Decides once, as a check would, on made-up counts over split `d` of the run (by time with REHEARSAL_PRICES when
 * `byTime`), with blocks of at most `coarseCells` cells as the run's checks; nothing of the run's balancing changes.
 */
export function rehearseDecision(d: Decomposition, byTime: boolean, coarseCells?: number): Rehearsal {
  const t0 = performance.now();
  const rebalancer = new Rebalancer(d, 0, [], Infinity, undefined, coarseCells);
  const states = madeUpStates(d);
  const coarse = states.map((s, r) => coarseSumsOf(s.counts, d.boxes[r], rebalancer.coarse));
  const proposal = rebalancer.propose(0, 100, coarse, relayoutCost(false), byTime ? REHEARSAL_PRICES : undefined);
  const decision = proposal && rebalancer.commit(proposal, states);
  return { proposed: proposal !== null, committed: !!decision, seconds: (performance.now() - t0) / 1000 };
}
