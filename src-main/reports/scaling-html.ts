// The scaling report as one self-contained HTML file (inline CSS and SVG charts, no scripts, no external
// references), so it opens offline and prints to PDF as it looks. User text is escaped; every number cell
// carries its exact value in data-value and a stable data-key for machines (points.N.field, fit.field,
// phases.PHASE.N.field, ranks.N.RANK.field).
import { scalingCharts } from '../common/charts/scaling-charts.js';
import { formatPercent, formatSci, formatSeconds } from '../common/reports/format-numbers.js';
import type { ScalingPoint, ScalingReport } from '../common/reports/scaling-model.js';
import { escapeHtml } from './html-escape.js';
import { renderChartSvg } from './svg-chart.js';

const CSS = `
body { font-family: sans-serif; font-size: 13px; color: #222; margin: 24px auto; max-width: 1000px; }
h1 { font-size: 20px; margin-bottom: 4px; } h2 { font-size: 16px; margin-top: 28px; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; margin: 8px 0; } th, td { padding: 3px 8px; border-bottom: 1px solid #eee; }
th { text-align: left; background: #f4f4f4; } td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.meta, .note { color: #555; } .note { font-size: 12px; } .warn { color: #8a4b00; }
figure { margin: 12px 0; } svg { max-width: 100%; height: auto; }
@page { size: A4; margin: 12mm; } @media print { body { margin: 0; max-width: none; } h2 { break-after: avoid; } figure, table { break-inside: avoid; } }
`;

/** A number cell: formatted text, exact value in data-value (empty when null or not finite), key in data-key. */
function num(value: number | null | undefined, text: string, key: string): string {
  const v = value === null || value === undefined || !Number.isFinite(value) ? '' : String(value);
  return `<td class="num" data-key="${escapeHtml(key)}" data-value="${v}">${escapeHtml(v === '' ? 'n/a' : text)}</td>`;
}

/** A plain number as text with `digits` decimals, or 'n/a'. */
function plain(x: number | null | undefined, digits = 3): string {
  return x === null || x === undefined || !Number.isFinite(x) ? 'n/a' : x.toFixed(digits);
}

/** A header row. */
function head(cols: string[]): string {
  return `<tr>${cols.map((c) => `<th>${escapeHtml(c)}</th>`).join('')}</tr>`;
}

/** One GPU count of the main table. */
function pointRow(p: ScalingPoint): string {
  const k = (f: string) => `points.${p.gpus}.${f}`;
  const b = p.balance;
  return `<tr data-gpus="${p.gpus}">` +
    num(p.gpus, String(p.gpus), k('gpus')) + num(p.runId, `#${p.runId}`, k('runId')) +
    num(p.repeats.runIds.length, String(p.repeats.runIds.length), k('repeats')) +
    num(p.repeats.spreadPercent, p.repeats.runIds.length > 1 ? formatPercent(p.repeats.spreadPercent) : '-', k('spreadPercent')) +
    num(p.ranks, String(p.ranks), k('ranks')) +
    num(p.particlesPerGpu, formatSci(p.particlesPerGpu), k('particlesPerGpu')) +
    num(p.loopSeconds, formatSeconds(p.loopSeconds), k('loopSeconds')) +
    num(p.particleStepsPerSecond, formatSci(p.particleStepsPerSecond), k('particleStepsPerSecond')) +
    num(p.particleStepsPerSecondPerGpu, formatSci(p.particleStepsPerSecondPerGpu), k('particleStepsPerSecondPerGpu')) +
    num(p.speedup, plain(p.speedup), k('speedup')) + num(p.idealSpeedup, String(p.idealSpeedup), k('idealSpeedup')) +
    num(p.efficiency, formatPercent(100 * p.efficiency), k('efficiency')) +
    num(b.loadNonUniformity?.meanPercent, formatPercent(b.loadNonUniformity?.meanPercent ?? null), k('unMeanPercent')) +
    num(b.loadNonUniformity?.maxPercent, formatPercent(b.loadNonUniformity?.maxPercent ?? null), k('unMaxPercent')) +
    num(b.communicated?.meanPerStep, plain(b.communicated?.meanPerStep, 1), k('sentPerStep')) +
    num(b.communicated?.meanFractionOfParticles, formatSci(b.communicated?.meanFractionOfParticles ?? null, 2), k('sentFraction')) +
    num(b.waitSeconds?.mean, formatSeconds(b.waitSeconds?.mean ?? null), k('waitSecondsMean')) +
    num(b.waitSeconds?.max, formatSeconds(b.waitSeconds?.max ?? null), k('waitSecondsMax')) +
    '</tr>';
}

/** Speedup, efficiency, throughput, UN and communication per GPU count. */
function pointsSection(r: ScalingReport): string {
  if (r.points.length === 0) return '<h2>Results</h2><p>No completed runs in this study yet.</p>';
  const kind = r.study.kind === 'strong'
    ? 'strong scaling: speedup S(n) = n0 T(n0) / T(n), efficiency E(n) = S(n) / n'
    : 'weak scaling: efficiency E(n) = particle-steps/s per GPU on n GPUs / on n0 GPUs (= T_p(n0) / T_np(n) at equal load per GPU), scaled speedup n E(n)';
  return `<h2>Results</h2><p class="note">${escapeHtml(kind)}; baseline n0 = ${r.baselineGpus} GPU(s); ideal S(n) = n, E(n) = 1. ` +
    'UN = (Pmax - Pmin) / Pavg over ranks at each step (mean and max over steps); sent = particles migrated per step summed over ranks; ' +
    'wait = each rank\'s time waiting for the others summed over the steps (mean and max over ranks). ' +
    'runs = completed runs on the GPU count; with several, the row is their median run by throughput and spread = (fastest - slowest) / median.</p>' +
    '<table id="scaling-table">' + head(['GPUs', 'run', 'runs', 'spread', 'ranks', 'particles/GPU', 'loop time', 'particle-steps/s', 'per GPU', 'speedup', 'ideal',
      'efficiency', 'UN mean', 'UN max', 'sent/step', 'sent/particles', 'wait mean', 'wait max']) +
    r.points.map(pointRow).join('') + '</table>';
}

/** The fitted model, its residual per point and its prediction. */
function fitSection(r: ScalingReport): string {
  const f = r.fit;
  if (!f) return `<h2>Model</h2><p>${escapeHtml(r.fitNote ?? 'no model')}</p>`;
  const rows: [string, string][] = [
    ['model', `<td>${escapeHtml(f.formula)}</td>`],
    ['T1 (model time on one GPU)', num(f.t1Seconds, formatSeconds(f.t1Seconds), 'fit.t1Seconds')],
    // a weak fit's s is the time each added GPU adds (a multiple of T1), not a serial fraction
    [f.kind === 'weak' ? 'time added per extra GPU s (x T1)' : 'serial fraction s', num(f.serialFraction, formatSci(f.serialFraction, 3), 'fit.serialFraction')],
    [`communication c (x ${f.commTerm})`, num(f.commSeconds, formatSeconds(f.commSeconds), 'fit.commSeconds')],
    ['RMS residual', num(f.rmsResidualSeconds, formatSeconds(f.rmsResidualSeconds), 'fit.rmsResidualSeconds')],
    ['RMS residual / mean time', num(f.relativeRmsResidual, formatPercent(100 * f.relativeRmsResidual, 2), 'fit.relativeRmsResidual')],
    ['Amdahl limit 1/s', num(f.amdahlLimit, plain(f.amdahlLimit, 1), 'fit.amdahlLimit')],
    [`prediction on ${f.prediction.gpus} GPUs: time`, num(f.prediction.seconds, formatSeconds(f.prediction.seconds), 'fit.prediction.seconds')],
    ['prediction: speedup', num(f.prediction.speedup, plain(f.prediction.speedup), 'fit.prediction.speedup')],
    ['prediction: efficiency', num(f.prediction.efficiency, formatPercent(100 * f.prediction.efficiency), 'fit.prediction.efficiency')],
    // the further predictions (four times the largest measured count): the model, not a measurement
    ...f.predictions.slice(1).flatMap((p): [string, string][] => [
      [`prediction on ${p.gpus} GPUs: time`, num(p.seconds, formatSeconds(p.seconds), `fit.predictions.${p.gpus}.seconds`)],
      [`prediction on ${p.gpus} GPUs: speedup`, num(p.speedup, plain(p.speedup), `fit.predictions.${p.gpus}.speedup`)],
      [`prediction on ${p.gpus} GPUs: efficiency`, num(p.efficiency, formatPercent(100 * p.efficiency), `fit.predictions.${p.gpus}.efficiency`)],
    ]),
  ];
  const pts = f.points.map((p) => `<tr data-fit-gpus="${p.gpus}">${num(p.gpus, String(p.gpus), `fit.points.${p.gpus}.gpus`)}` +
    num(p.measuredSeconds, formatSeconds(p.measuredSeconds), `fit.points.${p.gpus}.measuredSeconds`) +
    num(p.modelSeconds, formatSeconds(p.modelSeconds), `fit.points.${p.gpus}.modelSeconds`) +
    num(p.residualSeconds, formatSeconds(p.residualSeconds), `fit.points.${p.gpus}.residualSeconds`) + '</tr>');
  const weakNote = r.study.kind === 'weak' ? ' Times are normalised to the baseline\'s particle-steps per GPU.' : '';
  const model = f.kind === 'weak'
    ? 'Gustafson-style model: each added GPU adds s x T1 to the loop time (s is not a fraction and may exceed 1), plus a communication term c log2(n)'
    : 'Amdahl-style serial fraction s plus a communication term c log2(n)';
  return `<h2>Model</h2><p class="note">${model}, fitted by non-negative ` +
    `least squares to the loop times.${weakNote}${r.fitNote ? ` ${escapeHtml(r.fitNote)}.` : ''}</p>` +
    `<table id="fit-table">${rows.map(([k, v]) => `<tr><th>${escapeHtml(k)}</th>${v}</tr>`).join('')}</table>` +
    `<table id="fit-points">${head(['GPUs', 'measured', 'model', 'model - measured'])}${pts.join('')}</table>`;
}

/** Per phase and GPU count: calls, AVG x Call, mean and max over ranks, % of loop. */
function phaseSection(r: ScalingReport): string {
  if (r.phaseNames.length === 0) return '<h2>Phases</h2><p>No phase timings recorded (timing off).</p>';
  const rows: string[] = [];
  for (const name of r.phaseNames) {
    for (const p of r.points) {
      const x = p.phases.find((q) => q.phase === name);
      if (!x) continue;
      const k = (f: string) => `phases.${name}.${p.gpus}.${f}`;
      rows.push(`<tr data-phase="${escapeHtml(name)}" data-gpus="${p.gpus}"><td>${escapeHtml(name)}</td>` + num(p.gpus, String(p.gpus), k('gpus')) +
        num(x.calls, String(x.calls), k('calls')) + num(x.avgPerCallSeconds, formatSeconds(x.avgPerCallSeconds), k('avgPerCallSeconds')) +
        num(x.avgSeconds, formatSeconds(x.avgSeconds), k('avgSeconds')) + num(x.maxSeconds, formatSeconds(x.maxSeconds), k('maxSeconds')) +
        num(x.avgSeconds > 0 ? x.maxSeconds / x.avgSeconds : null, plain(x.avgSeconds > 0 ? x.maxSeconds / x.avgSeconds : null), k('maxOverMean')) +
        num(x.percentOfLoop, formatPercent(x.percentOfLoop), k('percentOfLoop')) + '</tr>');
    }
  }
  return '<h2>Phases</h2><p class="note">Per rank the phase\'s total time; mean and max over ranks (max / mean shows imbalance). ' +
    '"exchange" is the host time sending and receiving migrating particles, waiting for the other ranks included.</p>' +
    `<table id="phase-table">${head(['phase', 'GPUs', 'calls', 'AVG x Call', 'mean (ranks)', 'max (ranks)', 'max / mean', '% of loop'])}${rows.join('')}</table>`;
}

/** Per rank of each multi-rank run: particles, traffic, waiting and AVG x Call of every phase. */
function rankSection(r: ScalingReport): string {
  const multi = r.points.filter((p) => p.ranks > 1 && (p.balance.perRank.length > 0 || p.rankPhases.length > 0));
  if (multi.length === 0) return '';
  const rows: string[] = [];
  for (const p of multi) {
    const ranks = [...new Set([...p.balance.perRank.map((x) => x.rank), ...p.rankPhases.map((x) => x.rank)])].sort((a, b) => a - b);
    for (const rank of ranks) {
      const t = p.balance.perRank.find((x) => x.rank === rank);
      const k = (f: string) => `ranks.${p.gpus}.${rank}.${f}`;
      rows.push(`<tr data-gpus="${p.gpus}" data-rank="${rank}">` + num(p.gpus, String(p.gpus), k('gpus')) + num(rank, String(rank), k('rank')) +
        num(t?.meanParticles, formatSci(t?.meanParticles ?? null), k('meanParticles')) + num(t?.sentPerStep, plain(t?.sentPerStep, 1), k('sentPerStep')) +
        num(t?.receivedPerStep, plain(t?.receivedPerStep, 1), k('receivedPerStep')) + num(t?.waitSeconds, formatSeconds(t?.waitSeconds ?? null), k('waitSeconds')) +
        r.phaseNames.map((name) => {
          const x = p.rankPhases.find((q) => q.rank === rank && q.phase === name);
          return num(x?.avgPerCallSeconds, formatSeconds(x?.avgPerCallSeconds ?? null), k(`${name}.avgPerCallSeconds`));
        }).join('') + '</tr>');
    }
  }
  return '<h2>Per rank</h2><p class="note">Particles, sent and received are means per step; wait is the total over the steps; ' +
    'the phase columns are AVG x Call (the rank\'s total time in the phase / calls).</p>' +
    `<table id="rank-table">${head(['GPUs', 'rank', 'particles', 'sent/step', 'received/step', 'wait', ...r.phaseNames.map((n) => `${n} AVG x Call`)])}${rows.join('')}</table>`;
}

/** Per rank of each run: the mean step as GPU work and GPU waiting, and the host's exchange (why efficiency drops). */
function rankTimeSection(r: ScalingReport): string {
  const rows = r.points.flatMap((p) => p.rankTime.map((t) => {
    const k = (f: string) => `rankTime.${p.gpus}.${t.rank}.${f}`;
    return `<tr data-gpus="${p.gpus}" data-rank="${t.rank}">` + num(p.gpus, String(p.gpus), k('gpus')) + num(t.rank, String(t.rank), k('rank')) +
      num(t.stepSeconds, formatSeconds(t.stepSeconds), k('stepSeconds')) + num(t.gpuSeconds, formatSeconds(t.gpuSeconds), k('gpuSeconds')) +
      num(t.waitSeconds, formatSeconds(t.waitSeconds), k('waitSeconds')) + num(t.waitSeconds / t.stepSeconds, `${(100 * t.waitSeconds / t.stepSeconds).toFixed(1)} %`, k('waitFraction')) +
      num(t.exchangeSeconds, formatSeconds(t.exchangeSeconds), k('exchangeSeconds')) + '</tr>';
  }));
  if (rows.length === 0) return '';
  const sampled = [...new Set(r.points.filter((p) => p.rankTime.length > 0 && p.timedEvery !== null).map((p) => p.timedEvery))];
  const estimates = sampled.length === 0 ? ''
    : ` The GPU work of runs timed on one call in ${sampled.join(' or ')} of each phase (the default timing) is estimated from those calls; ` +
      '<code>--timing full</code> times every call.';
  return '<h2>GPU working and waiting per rank</h2><p class="note" id="rank-time-note">Per step: the loop time over the steps; GPU working is the sum of the ' +
    'rank\'s GPU-timed phases, waiting the rest (for the exchange of migrants, the other ranks, the host). Exchange is the host\'s time ' +
    `moving migrants, which the GPU overlaps with the interior cells' sort and collisions; where it is longer, the GPU waits.${estimates}</p>` +
    `<table id="rank-time-table">${head(['GPUs', 'rank', 'step', 'GPU working', 'GPU waiting', 'waiting', 'host exchange'])}${rows.join('')}</table>`;
}

/** The study's runs, runs left out and warnings. */
function runsSection(r: ScalingReport): string {
  const runs = r.points.map((p) => `<li>${p.gpus} GPU(s): run #${p.runId}, ${p.ranks} rank(s), ${p.steps} steps` +
    (p.repeats.runIds.length > 1 ? `; median of runs ${p.repeats.runIds.map((id) => `#${id}`).join(', ')}` : '') + '</li>').join('');
  const skipped = r.skipped.map((s) => `<li>run #${s.runId} on ${s.gpus} GPU(s) left out: ${escapeHtml(s.reason)}</li>`).join('');
  const warnings = r.warnings.map((w) => `<li class="warn">${escapeHtml(w)}</li>`).join('');
  return `<h2>Runs</h2><ul>${runs}${skipped}</ul>` + (warnings ? `<h2>Warnings</h2><ul id="warnings">${warnings}</ul>` : '');
}

/** The charts as inline SVG. */
function chartsSection(r: ScalingReport): string {
  const charts = scalingCharts(r);
  if (charts.length === 0) return '';
  return '<h2>Charts</h2>' + charts.map((c) => `<figure id="chart-${c.id}">${renderChartSvg(c.option, c.width, c.height)}</figure>`).join('');
}

/** The whole scaling report as one HTML document. */
export function scalingHtml(r: ScalingReport, generatedAt = new Date().toISOString()): string {
  const s = r.study;
  const title = `Scaling study #${s.id}: ${s.name}`;
  return '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">' +
    `<title>${escapeHtml(title)}</title><style>${CSS}</style></head><body>` +
    `<h1>${escapeHtml(title)}</h1><p class="meta">${escapeHtml(s.kind)} scaling &middot; case ${escapeHtml(s.caseName)} ` +
    `(${escapeHtml(s.caseHash.slice(0, 12))}...) &middot; project ${escapeHtml(s.project)} &middot; created ${escapeHtml(s.createdAt)} &middot; ` +
    `generated ${escapeHtml(generatedAt)} by dsmc report scaling</p>` +
    (s.notes ? `<p>${escapeHtml(s.notes).replace(/\n/g, '<br>')}</p>` : '') +
    pointsSection(r) + fitSection(r) + chartsSection(r) + phaseSection(r) + rankTimeSection(r) + rankSection(r) + runsSection(r) +
    '</body></html>\n';
}
