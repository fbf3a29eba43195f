// How a multi-rank run is balanced, chosen before launch: the decomposition method (the user's, or rcb where bodies
// cut the box and slabs otherwise), the initial split weighted by where the particles start (the gas volume of cut
// cells when bodies take part of the box), and rebalancing: on by default (UN > DEFAULT_REBALANCE_PERCENT of the
// ranks' measured GPU time), at the user's threshold with `--rebalance P`, never with `--rebalance off`. A new split
// is taken only when it saves RESPLIT_PAY_MARGIN times its estimated cost within as many steps as the split in force
// has lasted (at most the steps left; rebalancer.ts). Before this rule (twentieth and twenty-ninth sessions,
// docs/PERFORMANCE.md) a re-split of the hypersonic wedge at step 300-350 of 1500, judged over the steps left, made
// the run 7 % slower than the first split kept: the flow went on developing, and the cost ran above its estimate.
// The run summary and the pre-launch check say what was chosen and why.
import type { Case } from '../../common/case-schema.js';
import type { SolverTables } from '../../solver/tables.js';
import { decompose } from '../decomposition/decompose.js';
import { SummedWeights } from '../decomposition/summed-weights.js';
import type { Decomposition, Method } from '../decomposition/types.js';
import { RESPLIT_PAY_MARGIN } from './rebalancer.js';

/** The default rebalancing threshold (UN of the ranks' GPU time, percent): the first split is kept below it. */
export const DEFAULT_REBALANCE_PERCENT = 20;

/**
 * The rebalancing threshold a run takes by default: DEFAULT_REBALANCE_PERCENT, or none where ranks are pinned two or
 * more to a GPU (more ranks than GPUs). Each rank's GPU timestamps then hold its neighbours' work, and a re-split did not
 * pay either way: the hypersonic wedge over 10,000 steps on 4 ranks sharing 2 H200s (twenty-ninth session) ran 4 %
 * slower re-split by time and 5 % slower re-split by counts (one re-split evened the counts; the dense cells' n^2 work
 * left the GPUs' time uneven).
 */
export function defaultRebalancePercent(sharedGpus: boolean): number | null {
  return sharedGpus ? null : DEFAULT_REBALANCE_PERCENT;
}

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
 * threshold (a number), null for `--rebalance off`, undefined for the default (DEFAULT_REBALANCE_PERCENT, none where
 * `sharedGpus`: ranks pinned two or more to a GPU); the initial weights follow the gas volume of each cell where bodies
 * cut the box and the box starts filled.
 */
export function balancePlan(c: Case, tables: SolverTables, rebalance: number | null | undefined, method?: Method, resumed = false, sharedGpus = false): BalancePlan {
  const chosen = method ? { method, why: resumed ? `${method} (the checkpoint's split)` : `${method} (--decomposition ${method})` } : defaultMethod(tables);
  const fraction = tables.bodies.volumeFraction;
  const weighted = fraction !== null && c.initial.kind !== 'empty';
  const rebalancePercent = rebalance === undefined ? defaultRebalancePercent(sharedGpus) : rebalance;
  const split = weighted ? 'initial split weighted by each cell\'s gas volume (bodies take part of the box)' : 'initial split by cells (the box starts uniform)';
  const by = 'UN of the ranks\' measured GPU time on GPUs of their own, of their particles on software adapters, ranks that share a GPU or with DSMC_BALANCE_BY=particles';
  const pays = `a new split saves ${RESPLIT_PAY_MARGIN} times what its moves cost within as many steps as the split in force has lasted`;
  const dynamic = rebalance === undefined && sharedGpus
    ? `no rebalancing (the default where ranks share a GPU: re-splits by their counts or times made such runs slower; --rebalance P re-splits at UN > P % of their particles)`
    : rebalance === undefined
    ? `rebalanced when UN > ${DEFAULT_REBALANCE_PERCENT} % and ${pays} (the default; ${by}; --rebalance P sets the threshold, --rebalance off keeps the first split)`
    : rebalance === null ? 'no rebalancing (--rebalance off)' : `rebalanced when UN > ${rebalance} % and ${pays} (--rebalance ${rebalance}; ${by})`;
  return { method: chosen.method, initialWeights: weighted ? fraction : null, rebalancePercent, reason: `${chosen.why}; ${split}; ${dynamic}` };
}

/**
 * The first split of case `c` on `ranks` ranks by `plan`: its method, weighted by the plan's initial weights (with them,
 * summed for box sums, or undefined for a split by cells).
 */
export function firstSplit(c: Case, plan: BalancePlan, ranks: number): { decomposition: Decomposition; weights: SummedWeights | undefined } {
  const weights = plan.initialWeights ? new SummedWeights(c.grid.cells, plan.initialWeights) : undefined;
  return { decomposition: decompose(plan.method, c.grid.cells, ranks, weights), weights };
}
