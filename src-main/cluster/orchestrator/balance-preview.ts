// What a multi-rank run would start with, said before it starts (`dsmc check --ranks N`): the balance plan (method,
// first split, rebalancing, and why: balance-plan.ts) and the first split itself, made as the orchestrator makes it
// (every rank's box, its cells and its share of the gas), with the first split's non-uniformity of that share.
import type { Case } from '../../common/case-schema.js';
import type { SolverTables } from '../../solver/tables.js';
import { boxCells, boxWeight, type Box, type Decomposition, type Method } from '../decomposition/index.js';
import { loadNonUniformity } from '../decomposition/load.js';
import { balancePlan, firstSplit } from './balance-plan.js';

/** One rank's part of the first split. */
export interface RankPart {
  rank: number;
  box: Box;
  cells: number;
  /** Its share of the gas the box starts with (of its cells' gas volume where bodies cut the box), 0 to 1. */
  gasShare: number;
}

/** The balance a multi-rank run would start with. */
export interface BalancePreview {
  ranks: number;
  method: Method;
  rebalancePercent: number | null;
  /** What was chosen and why (the run summary's balance.reason). */
  reason: string;
  parts: RankPart[];
  /** UN (percent) of the ranks' shares of the gas in the first split. */
  unPercent: number;
  /** The split itself (what the ranks' buffers are checked against). */
  decomposition: Decomposition;
}

/**
 * The first split and balance plan of case `c` on `ranks` ranks: `rebalance` and `method` as `dsmc run` takes them
 * (undefined: the defaults), `sharedGpus` whether ranks would share a GPU (no rebalancing by default then).
 */
export function balancePreview(c: Case, tables: SolverTables, ranks: number, rebalance: number | null | undefined, method: Method | undefined, sharedGpus: boolean): BalancePreview {
  const plan = balancePlan(c, tables, rebalance, method, false, sharedGpus);
  const grid = c.grid.cells;
  const { decomposition, weights } = firstSplit(c, plan, ranks);
  const gas = decomposition.boxes.map((b) => boxWeight(grid, weights, b));
  const total = gas.reduce((a, b) => a + b, 0);
  const parts = decomposition.boxes.map((box, rank) => ({ rank, box, cells: boxCells(box), gasShare: total > 0 ? gas[rank] / total : 0 }));
  return { ranks, method: plan.method, rebalancePercent: plan.rebalancePercent, reason: plan.reason, parts, unPercent: loadNonUniformity(gas), decomposition };
}

/** The preview as the check prints it: the plan's reason, then one line a rank. */
export function formatBalancePreview(p: Omit<BalancePreview, 'decomposition'>): string {
  const lines = [`balance on ${p.ranks} ranks: ${p.reason}`];
  for (const part of p.parts) {
    const { lo, hi } = part.box;
    lines.push(`  rank ${part.rank}: cells [${lo[0]},${hi[0]}) x [${lo[1]},${hi[1]}) x [${lo[2]},${hi[2]}), ${part.cells} cells, ${(100 * part.gasShare).toFixed(1)} % of the gas`);
  }
  lines.push(`  first split: UN of the ranks' gas ${p.unPercent.toFixed(1)} % (the run's UN follows their particles, or their GPU time, as the flow develops)`);
  return lines.join('\n');
}
