// `dsmc check CASE --ranks N`: the pre-launch check of a multi-rank run. What the run would start with (the balance
// plan and the first split, balance-preview.ts) and every rank's part checked against the adapter's limits
// (rank-prelaunch.ts), the physics rules once (they are the same for every rank).
import { formatPrelaunch, type Finding, type PrelaunchReport } from '../../cases/prelaunch.js';
import type { Case } from '../../common/case-schema.js';
import { assignGpus, discoverGpus, ranksPinnedTogether } from '../../cluster/gpus.js';
import { balancePreview, formatBalancePreview, type BalancePreview } from '../../cluster/orchestrator/balance-preview.js';
import type { Method } from '../../cluster/decomposition/types.js';
import type { Gpu } from '../../solver/gpu/device.js';
import { rankPrelaunch } from '../../solver/rank-prelaunch.js';
import { subdomainOf } from '../../solver/subdomain.js';
import { buildTables } from '../../solver/tables.js';

/** How the run would be placed: `dsmc run`'s --ranks, --gpus, --decomposition and --rebalance, checked. */
export interface CheckPlacement {
  ranks: number;
  gpus?: string[];
  decomposition?: Method;
  rebalance?: number | null;
}

/** A multi-rank check: rank 0's report (ok when every rank's part fits), the other ranks' errors, the balance and the GPU notes. */
export interface RankCheck {
  report: PrelaunchReport;
  rankErrors: { rank: number; errors: Finding[] }[];
  balance: Omit<BalancePreview, 'decomposition'>;
  gpuNotes: string[];
}

/** Checks case `c` on `placement.ranks` ranks of `gpu`'s kind. */
export function rankCheck(c: Case, gpu: Gpu, placement: CheckPlacement): RankCheck {
  const tables = buildTables(c);
  // as the run assigns its ranks: ranks pinned two or more to a GPU keep the first split by default
  const assigned = assignGpus(placement.ranks, discoverGpus(), placement.gpus);
  const shared = ranksPinnedTogether(assigned.ranks);
  const { decomposition, ...balance } = balancePreview(c, tables, placement.ranks, placement.rebalance, placement.decomposition, shared);
  const reports = balance.parts.map((p) => rankPrelaunch(c, gpu, subdomainOf(decomposition, p.rank), tables));
  const rankErrors = reports.map((r, rank) => ({ rank, errors: r.errors })).filter((x) => x.rank > 0 && x.errors.length > 0);
  return { report: { ...reports[0], ok: reports.every((r) => r.ok) }, rankErrors, balance, gpuNotes: assigned.warnings };
}

/** The check as `dsmc check` prints it. */
export function formatRankCheck(check: RankCheck): string {
  const lines = [...check.gpuNotes.map((w) => `gpus: ${w}`), formatBalancePreview(check.balance),
    `pre-launch check: the case's physics, and the GPU buffers of rank 0's part (every rank's were checked):`, formatPrelaunch(check.report)];
  for (const { rank, errors } of check.rankErrors) for (const f of errors) lines.push(`ERROR rank ${rank} [${f.code}] ${f.field}: ${f.message}`);
  return lines.join('\n');
}
