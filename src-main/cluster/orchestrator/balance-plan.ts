// How a multi-rank run is balanced, chosen before launch: the initial split weighted by where the particles start (the
// gas volume of cut cells when bodies take part of the box), and rebalancing on by default at UN > 20 % (a case whose
// particles gather in shocks, wakes or cavities drifts out of balance as its flow develops; a balanced case never pays
// more than a small message per submit for it). 20 %, not less: UN 20 % costs about 10 % of the time of two ranks, and
// below that a re-split rarely pays for its relayout in a flow still developing (two H100s, the wedge: docs/PERFORMANCE.md). `--rebalance off` keeps the first split; `--rebalance P` sets the
// threshold. The run summary and the pre-launch check say what was chosen and why.
import type { Case } from '../../common/case-schema.js';
import type { SolverTables } from '../../solver/tables.js';

/** The rebalance threshold (UN, percent) of a multi-rank run that does not set one. */
export const DEFAULT_REBALANCE_PERCENT = 20;

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
 * default; the initial weights follow the gas volume of each cell where bodies cut the box and the box starts filled.
 */
export function balancePlan(c: Case, tables: SolverTables, rebalance: number | null | undefined): BalancePlan {
  const fraction = tables.bodies.volumeFraction;
  const weighted = fraction !== null && c.initial.kind !== 'empty';
  const rebalancePercent = rebalance === undefined ? DEFAULT_REBALANCE_PERCENT : rebalance;
  const split = weighted ? 'initial split weighted by each cell\'s gas volume (bodies take part of the box)' : 'initial split by cells (the box starts uniform)';
  const dynamic = rebalance === undefined
    ? `rebalanced when UN > ${DEFAULT_REBALANCE_PERCENT} % and a new split pays for its moves (the default; --rebalance off keeps the split fixed)`
    : rebalance === null ? 'no rebalancing (--rebalance off)' : `rebalanced when UN > ${rebalance} % and a new split pays for its moves (--rebalance ${rebalance})`;
  return { initialWeights: weighted ? fraction : null, rebalancePercent, reason: `${split}; ${dynamic}` };
}
