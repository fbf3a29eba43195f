// The physical results in the terminal summary of `dsmc run` and `dsmc show`, as SPARTA users read them: per body
// drag, lift, Cd, Cl and heat transfer, the gas's mean density and temperatures with standard errors, and a
// mixture's mean mole fractions, a reacting run's reactions.
import type { FieldSet } from '../common/run-record.js';
import type { CompositionSummary, ReactionsSummary, SurfaceSummary } from '../common/run-summary.js';
import { gasMeans, type GasMeans, type MeanValue } from '../common/reports/gas-means.js';
import { textTable } from '../reports/text-table.js';

/** A number in 4 significant digits ('-' when absent or not finite). */
export function num(x: number | null | undefined): string {
  return x === null || x === undefined || !Number.isFinite(x) ? '-' : Math.abs(x) >= 1e-3 && Math.abs(x) < 1e5 ? x.toPrecision(4) : x.toExponential(3);
}

/** "value +- error unit" (the error omitted when there is none). */
function withError(v: MeanValue, unit: string): string {
  return `${num(v.mean)}${Number.isFinite(v.error) ? ` +- ${v.error.toPrecision(2)}` : ''} ${unit}`;
}

/** The body table: drag, lift (N), Cd, Cl, heat transfer (W) over the sampled steps. */
export function bodyLines(surface: SurfaceSummary | undefined): string[] {
  if (!surface || surface.bodies.length === 0) return [];
  const rows = [['body', 'drag (N)', 'lift (N)', 'Cd', 'Cl', 'heat transfer (W)']];
  for (const b of surface.bodies) rows.push([b.name, num(b.drag), num(b.lift), num(b.cd), num(b.cl), num(b.heatTransfer)]);
  return [`bodies (loads averaged over ${num(surface.sampledTime)} s of sampled flow; coefficients need a free stream and a reference area):`, textTable(rows, '  ')];
}

/** The gas means of sampled fields (null when none were sampled or no cell held gas). */
export function gasMeansOf(fields: Pick<FieldSet, 'values' | 'errors'> | null | undefined): GasMeans | null {
  return fields ? gasMeans(fields.values, fields.errors) : null;
}

/** Two lines of the gas's mean density and temperatures (none without means). */
export function gasLines(g: GasMeans | null | undefined): string[] {
  if (!g) return [];
  const temps = [`T ${withError(g.T, 'K')}`, ...(g.Trot ? [`Trot ${withError(g.Trot, 'K')}`] : []), ...(g.Tvib ? [`Tvib ${withError(g.Tvib, 'K')}`] : [])];
  return [
    `gas (mean over the ${g.gasCells} cells holding gas; temperatures weighted by density; +- one standard error):`,
    `  n ${withError(g.n, 'm^-3')}; ${temps.join(', ')}`,
  ];
}

/** A mixture's mean mole fractions (none for one species or a summary without them). */
export function compositionLines(c: CompositionSummary | undefined): string[] {
  if (!c || c.species.length < 2) return [];
  const from = c.from === 'fields' ? 'the sampled fields' : 'the particles at the end';
  return [`composition: ${c.species.map((name, k) => `${name} ${c.moleFractions[k].toFixed(4)}`).join(', ')} (mole fractions, from ${from})`];
}

/** The summary lines of a reacting run: each reaction that happened with its count, and the chemical energy taken. */
export function reactionLines(r: ReactionsSummary | undefined): string[] {
  if (!r) return [];
  const total = r.reactions.reduce((sum, x) => sum + x.count, 0);
  const happened = r.reactions.filter((x) => x.count > 0).sort((a, b) => b.count - a.count);
  const head = r.performed
    ? `reactions: ${total} (simulated), chemical energy taken from the gas ${r.chemicalEnergy.toExponential(4)} J`
    : `reactions counted, not made (reactions.perform false): ${total} (simulated)`;
  return [head, ...happened.map((x) => `  ${x.equation.padEnd(28)} ${String(x.count).padStart(10)}  ${x.kind}`),
    ...(happened.length < r.reactions.length ? [`  ${r.reactions.length - happened.length} more reaction${r.reactions.length - happened.length === 1 ? "" : "s"} did not happen`] : [])];
}
