// The run summary's `reactions` section: each reaction's count (real molecules: count x fnum), whether the run made
// them or only counted them, and the chemical energy they took from the gas (the sum of count x fnum x -E_reaction),
// which the energy balance of a closed reacting box adds back.
import type { ReactionsSummary } from '../common/run-summary.js';
import type { ReactionTables } from './reaction-tables.js';

/** The reactions section of a run with reaction tables t and per-reaction counts (simulated events), or undefined without reactions. */
export function reactionsSummary(t: ReactionTables | null, counts: readonly number[] | undefined, fnum: number): ReactionsSummary | undefined {
  if (!t) return undefined;
  const c = t.reactions.map((_, k) => counts?.[k] ?? 0);
  return {
    performed: t.perform,
    reactions: t.reactions.map((r, k) => ({ equation: r.equation, kind: r.kind, source: r.source, count: c[k] })),
    chemicalEnergy: t.perform ? c.reduce((sum, n, k) => sum - n * fnum * t.reactions[k].reactionEnergy, 0) : 0,
  };
}
