// How a multi-rank run is balanced, chosen before launch: the decomposition method (the user's, or rcb where bodies
// cut the box and slabs otherwise), the initial split weighted by where the particles start (the
// gas volume of cut cells when bodies take part of the box), and rebalancing when the user asks for it (`--rebalance P`:
// re-split when UN > P % and the new split pays for its moves). Rebalancing is not on by default: measured on the
// hypersonic wedge (2 and 4 H100s and H200s, docs/PERFORMANCE.md), splits balanced by particle counts did not make its
// developing flow faster (a rank's GPU time follows its cells' densities as well as its particles: even counts left the
// GPU time uneven), and splits that even the measured time (rank-cost.ts: prices per cell and per squared count) evened
// it (max over mean 1.07 against 1.27 over 3000 steps on 4 H200s) but cost in checks and relayouts (2.9 s) about what
// they saved.
// The run summary and the pre-launch check say what was chosen and why.
import type { Case } from '../../common/case-schema.js';
import type { SolverTables } from '../../solver/tables.js';
import type { Method } from '../decomposition/types.js';

/** The threshold (UN, percent) the help suggests for cases whose particles gather as the flow develops. */
export const SUGGESTED_REBALANCE_PERCENT = 20;

/** How a run is balanced, and why. */
export interface BalancePlan {
  /** The decomposition method: the one asked for, else the default for the case (defaultMethod). */
  method: Method;
  /** Per-cell weights of the initial split (expected initial particles), or null for a uniform split by cells. */
  initialWeights: Float64Array | null;
  /** Rebalance threshold (UN, percent), or null when the decomposition stays fixed. */
  rebalancePercent: number | null;
  /** One line for the summary: what was chosen and why. */
  reason: string;
}

/**
 * The default decomposition of a case, and why: recursive coordinate bisection where bodies cut the box (it balances the
 * gas volume along every axis, where slabs can only move planes along one: the hypersonic wedge at full size on 4 H100s
 * ran at 1.96e10 particle-steps/s on rcb against 1.76e10 on slabs, docs/PERFORMANCE.md), slabs otherwise (the fewest
 * faces between ranks for a box of uniform gas).
 */
export function defaultMethod(tables: SolverTables): { method: Method; why: string } {
  return tables.bodies.volumeFraction !== null
    ? { method: 'rcb', why: 'rcb (the default where bodies cut the box: it balances the gas volume along every axis)' }
    : { method: 'slab', why: 'slab (the default for a box without bodies: the fewest faces between ranks)' };
}

/**
 * The balance of a run: `method` the user's decomposition (undefined: the case's default; a resumed run's: its
 * checkpoint's, `resumed`); `rebalance` the user's
 * threshold (a number), null for `--rebalance off`, undefined for the default (no rebalancing); the initial weights
 * follow the gas volume of each cell where bodies cut the box and the box starts filled.
 */
export function balancePlan(c: Case, tables: SolverTables, rebalance: number | null | undefined, method?: Method, resumed = false): BalancePlan {
  const chosen = method ? { method, why: resumed ? `${method} (the checkpoint's split)` : `${method} (--decomposition ${method})` } : defaultMethod(tables);
  const fraction = tables.bodies.volumeFraction;
  const weighted = fraction !== null && c.initial.kind !== 'empty';
  const rebalancePercent = rebalance ?? null;
  const split = weighted ? 'initial split weighted by each cell\'s gas volume (bodies take part of the box)' : 'initial split by cells (the box starts uniform)';
  const dynamic = rebalance === undefined
    ? `no rebalancing (the default; --rebalance ${SUGGESTED_REBALANCE_PERCENT} re-splits when UN > ${SUGGESTED_REBALANCE_PERCENT} % and a new split pays for its moves)`
    : rebalance === null ? 'no rebalancing (--rebalance off)' : `rebalanced when UN > ${rebalance} % and a new split pays for its moves (--rebalance ${rebalance}; UN of the ranks' measured GPU time on GPUs, of their particles on software adapters or with DSMC_BALANCE_BY=particles)`;
  return { method: chosen.method, initialWeights: weighted ? fraction : null, rebalancePercent, reason: `${chosen.why}; ${split}; ${dynamic}` };
}
