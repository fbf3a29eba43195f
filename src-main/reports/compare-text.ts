// The comparison of runs as a readable terminal report: case differences, throughput and phase times
// side by side with ratios to the first run, field differences in standard errors, and per body the Cd, Cl,
// drag, lift and heat transfer of each run with ratios (only when a run has bodies).
import { fieldNamesOf } from '../common/field-names.js';
import { showValue } from '../common/reports/case-fields.js';
import type { Comparison } from '../common/reports/compare-model.js';
import { formatGeneral, formatRatio, formatSci, formatSeconds } from '../common/reports/format-numbers.js';
import { BODY_QUANTITIES, COMPARED_BODY_KEYS, withUnit } from '../common/reports/surface-loads.js';
import { textTable } from './text-table.js';

/** A value cut to `max` characters with an ellipsis. */
function cut(s: string, max = 40): string {
  return s.length > max ? `${s.slice(0, max - 3)}...` : s;
}

/** Column headers #id for every run. */
function runHeaders(c: Comparison): string[] {
  return c.runs.map((r) => `#${r.id}`);
}

/** The case differences section. */
function caseSection(c: Comparison): string {
  if (c.caseDifferences.length === 0) return 'case: identical';
  const rows = [['path', ...runHeaders(c)], ...c.caseDifferences.map((d) => [d.path, ...d.values.map((v) => cut(showValue(v)))])];
  return `case differences (${c.caseDifferences.length} path${c.caseDifferences.length === 1 ? '' : 's'}):\n${textTable(rows, '  ')}`;
}

/** Throughput and per-phase AVG x Call with ratios to the first run. */
function timingSection(c: Comparison): string {
  const heads = runHeaders(c);
  const ratioHeads = heads.slice(1).map((h) => `${h}/${heads[0]}`);
  const rows = [['', ...heads, ...ratioHeads]];
  rows.push(['particle-steps/s', ...c.throughput.values.map((v) => formatSci(v)), ...c.throughput.ratios.slice(1).map(formatRatio)]);
  for (const p of c.phases) {
    rows.push([`${p.phase} AVG x Call`, ...p.avgPerCall.values.map(formatSeconds), ...p.avgPerCall.ratios.slice(1).map(formatRatio)]);
  }
  return `throughput and phase time (ratios to ${heads[0]}):\n${textTable(rows, '  ')}`;
}

/** Field differences of each run against the first. */
function fieldSection(c: Comparison): string {
  const out: string[] = [];
  for (const fc of c.fieldComparisons) {
    const head = `fields #${c.runs[fc.run].id} vs #${c.runs[0].id}`;
    if (fc.skippedReason) {
      out.push(`${head}: not compared, ${fc.skippedReason}`);
      continue;
    }
    const rows = [['field', `|z|>${c.zLimit}`, 'max |z|', 'rms z', 'compared', 'skipped', '']];
    const compared = fieldNamesOf(fc.fields);
    for (const name of compared) {
      const s = fc.fields[name];
      if (!s) continue;
      rows.push([name, s.fractionAbove === null ? 'n/a' : `${(100 * s.fractionAbove).toFixed(1)} %`,
        s.maxAbsZ === null ? 'n/a' : s.maxAbsZ.toFixed(2), s.rmsZ === null ? 'n/a' : s.rmsZ.toFixed(2),
        String(s.compared), String(s.skipped), s.differs ? 'DIFFERS' : '']);
    }
    const differing = compared.filter((n) => fc.fields[n]?.differs);
    const verdict = differing.length === 0
      ? `no field differs beyond DSMC noise (more than ${100 * c.differsFraction} % of cells with |z| > ${c.zLimit})`
      : `differs beyond DSMC noise: ${differing.join(', ')}`;
    out.push(`${head} (z = (a - b) / sqrt(se_a^2 + se_b^2) per cell; noise alone gives |z| > ${c.zLimit} in well under 1 % of cells, rms z near 1;\n` +
      `  cells where a standard error is NaN or 0 are skipped):\n${textTable(rows, '  ')}\n  ${verdict}`);
  }
  return out.join('\n\n');
}

/** Per body: Cd, Cl, drag, lift and heat transfer of each run ("absent" where a run lacks the body) and ratios. */
function surfaceSection(c: Comparison): string {
  const s = c.surface;
  if (!s || s.bodies.length === 0) return '';
  const heads = runHeaders(c);
  const rows = [['', ...heads, ...heads.slice(1).map((h) => `${h}/${heads[0]}`)]];
  for (const b of s.bodies) {
    for (const key of COMPARED_BODY_KEYS) {
      const q = BODY_QUANTITIES.find((x) => x.key === key)!;
      const v = b[key];
      rows.push([`${b.body}: ${withUnit(q)}`,
        ...v.values.map((x, i) => (b.present[i] ? (q.unit ? formatSci(x) : formatGeneral(x)) : 'absent')),
        ...v.ratios.slice(1).map(formatRatio)]);
    }
  }
  const unsampled = c.runs.filter((_, i) => !s.sampled[i]).map((r) => `#${r.id}`);
  const note = unsampled.length > 0 ? `\n  ${unsampled.join(', ')}: no surface results (recorded before surfaces were sampled)` : '';
  return `surface loads per body (matched by name; ratios to ${heads[0]}):\n${textTable(rows, '  ')}${note}`;
}

/** The whole comparison as text. */
export function comparisonText(c: Comparison): string {
  const runs = c.runs.map((r) => `  #${r.id} ${r.caseName}, seed ${r.seed}, ${r.status}, started ${r.startedAt}${r.tags.length ? `, tags ${r.tags.join(', ')}` : ''}`);
  return [`runs:\n${runs.join('\n')}`, caseSection(c), timingSection(c), surfaceSection(c), fieldSection(c)].filter((x) => x !== '').join('\n\n') + '\n';
}
