// How a multi-rank run is balanced, chosen before launch: the initial split weighted by where the particles start (the
// gas volume of cut cells when bodies take part of the box), and rebalancing when the user asks for it (`--rebalance P`:
// re-split when UN > P % and the new split pays for its moves). Rebalancing is not on by default: measured on the
// hypersonic wedge (2 and 4 H100s, docs/PERFORMANCE.md), splits balanced by particle counts did not make its developing
// flow faster (the per-particle cost differs between the free stream and the shock layer), and the checks cost time.
// The run summary and the pre-launch check say what was chosen and why.
import type { Case } from '../../common/case-schema.js';
import type { SolverTables } from '../../solver/tables.js';

/** The threshold (UN, percent) the help suggests for cases whose particles gather as the flow develops. */
export const SUGGESTED_REBALANCE_PERCENT = 20;

/** How a run is balanced, and why. */
export interface BalancePlan {
  /** Per-cell weights of the initial split (expected initial particles), or null for a uniform split by cells. */
  initialWeights: Float64Array | null;
  /** Rebalance threshold (UN, percent), or null when the decomposition stays fixed. */
  rebalancePercent: number | null;
  /** One line for the summary: what was chosen and why. */
  reason: string;
}

/**
 * The balance of a run: `rebalance` is the user's threshold (a number), null for `--rebalance off`, undefined for the
 * default (no rebalancing); the initial weights follow the gas volume of each cell where bodies cut the box and the box starts filled.
 */
export function balancePlan(c: Case, tables: SolverTables, rebalance: number | null | undefined): BalancePlan {
  const fraction = tables.bodies.volumeFraction;
  const weighted = fraction !== null && c.initial.kind !== 'empty';
  const rebalancePercent = rebalance ?? null;
  const split = weighted ? 'initial split weighted by each cell\'s gas volume (bodies take part of the box)' : 'initial split by cells (the box starts uniform)';
  const dynamic = rebalance === undefined
    ? `no rebalancing (the default; --rebalance ${SUGGESTED_REBALANCE_PERCENT} re-splits when UN > ${SUGGESTED_REBALANCE_PERCENT} % and a new split pays for its moves)`
    : rebalance === null ? 'no rebalancing (--rebalance off)' : `rebalanced when UN > ${rebalance} % and a new split pays for its moves (--rebalance ${rebalance})`;
  return { initialWeights: weighted ? fraction : null, rebalancePercent, reason: `${split}; ${dynamic}` };
}
