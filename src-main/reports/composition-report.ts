// The profiling report's parts on a mixture's composition: the HTML section (per species its mean mole fraction,
// from the sampled fields or the particles, and its particles at the first and last steps of the totals) and the CSV
// tables (mean mole fractions; particles per species over time); and a reacting run's reactions (section and table).
import type { CompositionSummary, ReactionsSummary } from '../common/run-summary.js';
import type { CsvCellValue, CsvTable } from './csv-tables.js';
import { escapeHtml } from './html-escape.js';

/** A number cell: text, exact value in data-value, a data-key for machines. */
function num(value: number, text: string, key: string): string {
  return `<td class="num" data-key="${escapeHtml(key)}" data-value="${Number.isFinite(value) ? value : ''}">${escapeHtml(text)}</td>`;
}

/** The composition section of a mixture (empty for one species, and for runs recorded before the composition was kept). */
export function compositionSection(c: CompositionSummary | null): string {
  if (!c || c.species.length < 2) return '';
  const first = c.overTime[0], last = c.overTime.at(-1);
  const from = c.from === 'fields' ? 'the sampled fields (molecules of each species over all molecules in the sampling window)' : 'the particles at the end of the run (the run sampled nothing)';
  const head = ['species', 'mean mole fraction', ...(first ? [`particles at step ${first.step}`] : []), ...(last && last !== first ? [`particles at step ${last.step}`] : [])];
  const rows = c.species.map((name, s) => `<tr data-species="${escapeHtml(name)}"><td>${escapeHtml(name)}</td>` +
    num(c.moleFractions[s], c.moleFractions[s].toFixed(5), `composition.moleFractions.${s}`) +
    (first ? num(first.speciesCounts[s], String(first.speciesCounts[s]), `composition.first.${s}`) : '') +
    (last && last !== first ? num(last.speciesCounts[s], String(last.speciesCounts[s]), `composition.last.${s}`) : '') + '</tr>');
  return `<h2>Composition</h2><p class="note">Mean mole fractions over the box from ${escapeHtml(from)}; simulated particles per species ` +
    'from the particle totals.</p>' +
    `<table id="composition"><tr>${head.map((h) => `<th>${escapeHtml(h)}</th>`).join('')}</tr>${rows.join('')}</table>`;
}

/** A mixture's composition as CSV tables: mean mole fractions per species, and particles per species over time (none for one species). */
export function compositionTables(c: CompositionSummary | null): CsvTable[] {
  if (!c || c.species.length < 2) return [];
  return [
    { name: 'composition', header: ['species', 'mole_fraction', 'from'], rows: c.species.map((name, s): CsvCellValue[] => [name, c.moleFractions[s], c.from]) },
    { name: 'composition_over_time', header: ['step', ...c.species.map((name) => `particles_${name}`)], rows: c.overTime.map((e): CsvCellValue[] => [e.step, ...e.speciesCounts]) },
  ];
}

/** The reactions section of a reacting run: each reaction's count and kind, and the chemical energy (empty without reactions). */
export function reactionsSection(r: ReactionsSummary | null): string {
  if (!r) return '';
  const rows = r.reactions.map((x, k) => `<tr data-reaction="${escapeHtml(x.equation)}"><td>${escapeHtml(x.equation)}</td><td>${escapeHtml(x.kind)}</td>` +
    num(x.count, String(x.count), `reactions.${k}.count`) + `<td>${escapeHtml(x.source)}</td></tr>`);
  const note = r.performed
    ? `Simulated reaction events over the run; the chemical energy they took from the gas: ${r.chemicalEnergy.toExponential(4)} J (counted in the energy balance).`
    : 'Counted, not made (reactions.perform false): the gas kept its composition.';
  return `<h2>Reactions</h2><p class="note">${escapeHtml(note)}</p>` +
    `<table id="reactions"><tr><th>reaction</th><th>kind</th><th>count</th><th>from</th></tr>${rows.join('')}</table>`;
}

/** A reacting run's reactions as a CSV table (none without reactions). */
export function reactionTables(r: ReactionsSummary | null): CsvTable[] {
  if (!r) return [];
  return [{ name: 'reactions', header: ['equation', 'kind', 'count', 'performed', 'source'], rows: r.reactions.map((x): CsvCellValue[] => [x.equation, x.kind, x.count, r.performed ? 1 : 0, x.source]) }];
}
