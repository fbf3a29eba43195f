// The profiling report as one self-contained HTML file: inline CSS, charts as inline SVG rendered on the
// server, no scripts and no external references, so it opens offline and prints to PDF as it looks.
// Every user text is escaped; every number cell carries its exact value in data-value for machines.
import { profileCharts } from '../common/charts/profile-charts.js';
import { formatGeneral, formatPercent, formatSci, formatSeconds } from '../common/reports/format-numbers.js';
import type { ProfileReport } from '../common/reports/profile-model.js';
import { BODY_QUANTITIES, bodyLabels, FACE_QUANTITIES, type LoadQuantity } from '../common/reports/surface-loads.js';
import { compositionSection, reactionsSection } from './composition-report.js';
import { escapeHtml } from './html-escape.js';
import { fieldMapsSection, surfaceDistributionSection } from './profile-figures-html.js';
import type { ReportFigures } from './report-figures.js';
import { renderChartSvg } from './svg-chart.js';

const CSS = `
body { font-family: sans-serif; font-size: 13px; color: #222; margin: 24px auto; max-width: 900px; }
h1 { font-size: 20px; margin-bottom: 4px; } h2 { font-size: 16px; margin-top: 28px; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; margin: 8px 0; } th, td { padding: 3px 10px; border-bottom: 1px solid #eee; }
th { text-align: left; background: #f4f4f4; } td.num { text-align: right; font-variant-numeric: tabular-nums; }
tr.other td { font-style: italic; } .meta { color: #555; } .note { color: #555; font-size: 12px; }
.tag { display: inline-block; background: #e8eef9; border-radius: 3px; padding: 1px 6px; margin-right: 4px; }
pre { background: #f7f7f7; padding: 8px; white-space: pre-wrap; word-break: break-all; font-size: 11px; }
figure { margin: 12px 0; } svg { max-width: 100%; height: auto; } h3 { font-size: 14px; margin-top: 18px; }
@page { size: A4; margin: 12mm; } @media print { body { margin: 0; max-width: none; } h2 { break-after: avoid; } figure, table { break-inside: avoid; } }
`;

/** A table cell with a number: formatted text, exact value in data-value (empty when null). */
function num(value: number | null, text: string, key?: string): string {
  const v = value === null || !Number.isFinite(value) ? '' : String(value);
  return `<td class="num"${key ? ` data-key="${escapeHtml(key)}"` : ''} data-value="${v}">${escapeHtml(text)}</td>`;
}

/** A two-column table of label / value rows (values already HTML). */
function kvTable(rows: [string, string][]): string {
  return `<table>${rows.map(([k, v]) => `<tr><th>${escapeHtml(k)}</th>${v}</tr>`).join('')}</table>`;
}

/** A plain text cell. */
function txt(text: string): string {
  return `<td>${escapeHtml(text)}</td>`;
}

/** Run, project, status, times, seed, ranks, tags and notes. */
function runSection(r: ProfileReport): string {
  const run = r.run;
  const tags = run.tags.length > 0 ? run.tags.map((t) => `<span class="tag">${escapeHtml(t)}</span>`).join('') : '(none)';
  const rows: [string, string][] = [
    ['run', num(run.id, `#${run.id}`, 'run.id')],
    ['project', txt(run.project)],
    ['status', txt(run.reason ? `${run.status}: ${run.reason}` : run.status)],
    ['started', txt(run.startedAt)],
    ['ended', txt(run.endedAt ?? '(not ended)')],
    ['seed', num(run.seed, String(run.seed), 'run.seed')],
    ['ranks / GPUs', txt(`${run.ranks} / ${run.gpus}`)],
    ['adapter', txt(`${r.adapter.description} [${r.adapter.backend}]`)],
    ['product version', txt(run.productVersion)],
    ['tags', `<td>${tags}</td>`],
    ['notes', `<td>${run.notes ? escapeHtml(run.notes).replace(/\n/g, '<br>') : '(none)'}</td>`],
  ];
  return `<h2>Run</h2>${kvTable(rows)}`;
}

/** Throughput, time per particle and collision statistics. */
function throughputSection(r: ProfileReport): string {
  const t = r.throughput;
  const rows: [string, string][] = [
    ['steps', num(t.steps, String(t.steps), 'steps')],
    ['mean particles', num(t.meanParticles, t.meanParticles.toFixed(1), 'meanParticles')],
    ['particle-steps', num(t.particleSteps, String(t.particleSteps), 'particleSteps')],
    ['loop time', num(r.phaseTable.loopSeconds, formatSeconds(r.phaseTable.loopSeconds), 'loopSeconds')],
    ['particle-steps per second', num(t.particleStepsPerSecond, formatSci(t.particleStepsPerSecond), 'particleStepsPerSecond')],
    ['time per particle-step', num(t.secondsPerParticleStep, formatSeconds(t.secondsPerParticleStep), 'secondsPerParticleStep')],
    ['loop time per particle', num(t.loopSecondsPerParticle, formatSeconds(t.loopSecondsPerParticle), 'loopSecondsPerParticle')],
    ['collisions per particle per step', num(t.collisionsPerParticleStep, t.collisionsPerParticleStep.toFixed(6), 'collisionsPerParticleStep')],
    ['candidates per particle per step', num(t.candidatesPerParticleStep, t.candidatesPerParticleStep.toFixed(6), 'candidatesPerParticleStep')],
  ];
  return `<h2>Throughput</h2>${kvTable(rows)}`;
}

/** The phase table in SPARTA's loop-time breakdown style, with the "other" row. */
function phaseSection(r: ProfileReport): string {
  const t = r.phaseTable;
  if (t.rows.length === 0) {
    const why = r.timing === 'off' ? 'phase timing was off for this run (the fastest loop, one pass per submit)' : 'no phase timings were recorded';
    return `<h2>Phase timing</h2><p>Not available: ${why}; the loop took ${escapeHtml(formatSeconds(t.loopSeconds))}.</p>`;
  }
  const head = ['phase', 'calls', 'AVG x Call', 'min (ranks)', 'avg (ranks)', 'max (ranks)', '% of loop', 'time per particle'];
  const rows = t.rows.map((p) => `<tr data-phase="${escapeHtml(p.phase)}">${txt(p.phase)}${num(p.calls, String(p.calls))}` +
    `${num(p.avgPerCallSeconds, formatSeconds(p.avgPerCallSeconds))}${num(p.minSeconds, formatSeconds(p.minSeconds))}` +
    `${num(p.avgSeconds, formatSeconds(p.avgSeconds))}${num(p.maxSeconds, formatSeconds(p.maxSeconds))}` +
    `${num(p.percentOfLoop, formatPercent(p.percentOfLoop))}${num(p.secondsPerParticle, formatSci(p.secondsPerParticle, 2) + (p.secondsPerParticle === null ? '' : ' s'))}</tr>`);
  if (t.loopSeconds !== null) {
    rows.push(`<tr class="other" data-phase="other">${txt('other')}<td></td><td></td><td></td>${num(t.other.seconds, formatSeconds(t.other.seconds))}` +
      `<td></td>${num(t.other.percentOfLoop, formatPercent(t.other.percentOfLoop))}<td></td></tr>`);
  }
  const timing = r.timing === null ? 'unknown (the run did not complete)'
    : r.timedEvery ? `${r.timing}, one call in ${r.timedEvery} of each phase timed (the phases' seconds estimated from those)` : r.timing;
  return `<h2>Phase timing</h2><p class="note">Timing source: ${escapeHtml(timing)}; ${t.ranks} rank(s). ` +
    'min/avg/max are over ranks of each rank\'s total time in the phase; "other" is the loop time outside every phase ' +
    '(submits, read-backs); time per particle is the phase time divided by the mean particle count.</p>' +
    `<table id="phase-table"><tr>${head.map((h) => `<th>${h}</th>`).join('')}</tr>${rows.join('')}</table>`;
}

/** Particle count, momentum and energy conservation, with why a drift is not reported. */
function conservationSection(r: ProfileReport): string {
  const c = r.conservation;
  if (!c) return '<h2>Conservation</h2><p>Not available: the run did not complete.</p>';
  const drift = (x: number | null, note: string, key: string) => (x === null ? `<td data-key="${key}" data-value="">${escapeHtml(note)}</td>` : num(x, `${formatSci(x, 2)} (${note})`, key));
  return `<h2>Conservation</h2>${kvTable([
    ['particles at start', num(c.particlesStart, String(c.particlesStart), 'particlesStart')],
    ['particles at end', num(c.particlesEnd, String(c.particlesEnd), 'particlesEnd')],
    ['momentum', drift(c.momentumRelDrift, c.momentumNote, 'momentumRelDrift')],
    ['energy', drift(c.energyRelDrift, c.energyNote, 'energyRelDrift')],
  ])}`;
}

/** Bodies per table in the Surfaces section (one column each), so a table fits the page. */
const BODIES_PER_TABLE = 6;

/** A surface quantity's value as text: coefficients and counts plain, dimensional values in exponent notation. */
function loadText<T>(q: LoadQuantity<T>, x: T): string {
  const v = q.value(x);
  return q.unit ? formatSci(v) : formatGeneral(v);
}

/** One table of quantities (rows, with units) by items (columns); number cells keyed `<prefix>.<item key>.<quantity>`. */
function loadTable<T>(id: string, quantities: LoadQuantity<T>[], items: T[], labels: string[], keys: string[], prefix: string): string {
  const head = `<tr><th>quantity</th><th>unit</th>${labels.map((l) => `<th>${escapeHtml(l)}</th>`).join('')}</tr>`;
  const rows = quantities.map((q) => `<tr data-quantity="${q.key}">${txt(q.label)}${txt(q.unit || '-')}` +
    items.map((x, i) => num(q.value(x), loadText(q, x), `${prefix}.${keys[i]}.${q.key}`)).join('') + '</tr>');
  return `<table id="${id}">${head}${rows.join('')}</table>`;
}

/** Loads per body and mean loads per wall face; nothing for runs without surface results. */
function surfaceSection(r: ProfileReport): string {
  const s = r.surface;
  if (!s) return '';
  const fs = s.freeStream;
  const stream = fs
    ? `Free stream: n = ${formatSci(fs.numberDensity)} 1/m^3, T = ${formatGeneral(fs.temperature)} K, |U| = ${formatGeneral(fs.speed)} m/s.`
    : 'No free stream (no gas in the case): drag, lift, side force and the coefficients are n/a.';
  const parts = [`<h2>Surfaces</h2><p class="note">Loads averaged over ${escapeHtml(formatSeconds(s.sampledTime))} of sampled time. ` +
    `${escapeHtml(stream)} Force and moment are those the gas exerts on the body (moment about the body's moment center); ` +
    'drag is the force along the free-stream velocity, lift the component normal to it toward +y (+z for a flow along y), ' +
    'side force the third direction; Cd = drag / (0.5 rho U^2 A_ref), likewise Cl and Cs (n/a without a free stream, ' +
    'at zero speed or without a reference area); heat transfer and heat flux are positive into the surface.</p>'];
  if (s.bodies.length === 0) {
    parts.push('<p>No bodies in the flow.</p>');
  } else {
    const labels = bodyLabels(s.bodies.map((b) => b.name));
    for (let first = 0; first < s.bodies.length; first += BODIES_PER_TABLE) {
      const idx = s.bodies.slice(first, first + BODIES_PER_TABLE).map((_, k) => first + k);
      parts.push(loadTable(`surface-bodies${first === 0 ? '' : `-${first / BODIES_PER_TABLE + 1}`}`, BODY_QUANTITIES,
        idx.map((i) => s.bodies[i]), idx.map((i) => labels[i]), idx.map(String), 'surface.bodies'));
    }
  }
  const walls = s.faces.filter((f) => f.wall);
  const open = s.faces.filter((f) => !f.wall);
  const openNote = open.length > 0
    ? ` Not walls, so not listed: ${open.map((f) => `${f.face} (${f.boundary})`).join(', ')}.`
    : '';
  if (walls.length === 0) {
    parts.push(`<p>No wall faces on the domain.${escapeHtml(openNote)}</p>`);
  } else {
    parts.push(`<p class="note">Mean loads on the domain's wall faces.${escapeHtml(openNote)}</p>` +
      loadTable('surface-faces', FACE_QUANTITIES, walls, walls.map((f) => (f.boundary ? `${f.face} (${f.boundary})` : f.face)), walls.map((f) => f.face), 'surface.faces'));
  }
  return parts.join('');
}

/** Host side of the loop, GPU memory and sampling. */
function hostSection(r: ProfileReport): string {
  const rows: [string, string][] = [];
  if (r.host) {
    rows.push(['submits', num(r.host.submits, String(r.host.submits), 'host.submits')]);
    rows.push(['encoding', num(r.host.encodeSeconds, formatSeconds(r.host.encodeSeconds), 'host.encodeSeconds')]);
    rows.push(['waiting for the GPU', num(r.host.waitSeconds, formatSeconds(r.host.waitSeconds), 'host.waitSeconds')]);
    rows.push(['read-back', num(r.host.readbackSeconds, formatSeconds(r.host.readbackSeconds), 'host.readbackSeconds')]);
    if (r.host.foldSeconds !== undefined) rows.push(['sampled fields after the loop (read back, evaluated, placed)', num(r.host.foldSeconds, formatSeconds(r.host.foldSeconds), 'host.foldSeconds')]);
  }
  if (r.memory) {
    rows.push(['particle capacity', num(r.memory.capacity, String(r.memory.capacity), 'capacity')]);
    rows.push(['GPU bytes per particle', num(r.memory.bytesPerParticle, r.memory.bytesPerParticle.toFixed(1), 'bytesPerParticle')]);
  }
  if (r.sampling) {
    rows.push(['sampling passes', num(r.sampling.samples, String(r.sampling.samples), 'samples')]);
    rows.push(['fields SHA-256', txt(r.sampling.fieldsSha256)]);
  }
  return rows.length > 0 ? `<h2>Host, memory and sampling</h2>${kvTable(rows)}` : '';
}

/** The case's key fields and, folded, its full JSON. */
function caseSection(r: ProfileReport): string {
  const rows: [string, string][] = r.case.keyFields.map((f) => [f.label, txt(f.value)]);
  rows.push(['case hash', txt(r.case.hash)]);
  return `<h2>Case: ${escapeHtml(r.case.name)}</h2>${kvTable(rows)}` +
    `<details><summary>Full case JSON</summary><pre>${escapeHtml(JSON.stringify(r.case.json, null, 2))}</pre></details>`;
}

/** The charts as inline SVG. */
function chartsSection(r: ProfileReport): string {
  const charts = profileCharts(r);
  if (charts.length === 0) return '';
  return '<h2>Charts</h2>' + charts.map((c) => `<figure id="chart-${c.id}">${renderChartSvg(c.option, c.width, c.height)}</figure>`).join('');
}

/** The whole report as one HTML document; with `figures`, also the field maps and the surface distributions. */
export function profileHtml(r: ProfileReport, generatedAt = new Date().toISOString(), figures: ReportFigures | null = null): string {
  const title = `Profile of run #${r.run.id}: ${r.case.name}`;
  return '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">' +
    `<title>${escapeHtml(title)}</title><style>${CSS}</style></head><body>` +
    `<h1>${escapeHtml(title)}</h1><p class="meta">project ${escapeHtml(r.run.project)} &middot; ${escapeHtml(r.run.status)} &middot; ` +
    `${escapeHtml(r.adapter.description)} &middot; generated ${escapeHtml(generatedAt)} by dsmc report profile</p>` +
    throughputSection(r) + phaseSection(r) + chartsSection(r) + (figures ? fieldMapsSection(figures) : '') + conservationSection(r) + compositionSection(r.composition) + reactionsSection(r.reactions) +
    surfaceSection(r) + (figures ? surfaceDistributionSection(figures) : '') + hostSection(r) + runSection(r) + caseSection(r) +
    '</body></html>\n';
}
