// Human-readable run summary for the terminal: totals and a phase table like SPARTA's loop-time breakdown.
import type { FieldSet } from '../common/run-record.js';
import type { RunSummary } from '../solver/summary.js';
import { bodyLines, compositionLines, gasLines, gasMeansOf, reactionLines } from './format-results.js';
import { forTerminal } from './terminal-text.js';

/** Pads a table: first column left-aligned, the others right-aligned; cells shown on one line, control characters escaped. */
export function table(cells: string[][]): string {
  const rows = cells.map((r) => r.map((c) => forTerminal(c, true)));
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ')).join('\n');
}

/** Formats a duration in seconds with a readable unit. */
export function dur(s: number): string {
  if (s >= 1) return `${s.toFixed(3)} s`;
  if (s >= 1e-3) return `${(s * 1e3).toFixed(3)} ms`;
  return `${(s * 1e6).toFixed(2)} us`;
}

/** A relative drift, or why there is none to report. */
export function drift(x: number | null): string {
  return x === null ? 'n/a (the boundaries exchange it)' : x.toExponential(2);
}

/** How the ranks split their steps: halo share of the cells, depth, steps redone whole, steps moved early. */
function splitLine(split: NonNullable<RunSummary['splitSteps']>): string {
  const halo = split.reduce((a, x) => a + x.haloCells, 0);
  const owned = split.reduce((a, x) => a + x.ownedCells, 0);
  const depth = split.map((x) => x.depth.join('/')).filter((d, k, all) => all.indexOf(d) === k).join(', ');
  const redos = split.map((x) => x.redos).join(', ');
  const early = split.every((x) => x.earlyMoves !== undefined) ? `, steps moved early per rank ${split.map((x) => x.earlyMoves).join(', ')}` : '';
  return `split steps: halo ${(100 * halo / Math.max(1, owned)).toFixed(1)} % of the cells (depth ${depth} cells), steps redone whole per rank ${redos}${early}`;
}

/** The balancing parts of a summary's balance.parts, as the balance line names them. */
const BALANCE_PART_NAMES: Record<string, string> = {
  waitSeconds: 'waiting for decisions', blockSeconds: 'block sums sent', checkSeconds: 'cell counts sent', sampleStateSeconds: 'sampling state moved',
  tradeSeconds: 'collision state traded', setupSeconds: 'relayout setup', roundSeconds: 'relayout rounds', exchangeSeconds: 'of them exchanges', sortSeconds: 'relayout sort',
};

/** ` (of which ...)`: where the end of a sampled run went, the most over the ranks (EndOfRunSeconds). */
function endOfRunPart(e: NonNullable<RunSummary['endOfRun']>): string {
  const most = (a: number[] | undefined) => Math.max(0, ...(a ?? []));
  const threads = e.threads.length > 0 ? ` on ${Math.min(...e.threads)}${Math.max(...e.threads) !== Math.min(...e.threads) ? `-${Math.max(...e.threads)}` : ''} thread(s)` : '';
  return ` (of which read back ${dur(most(e.readSeconds))}, evaluated ${dur(most(e.evaluateSeconds))}${threads}` +
    (e.writeSeconds ? `, planes written ${dur(most(e.writeSeconds))}` : '') + (e.placeSeconds !== undefined ? `, placed ${dur(e.placeSeconds)}` : '') +
    (e.readSeconds.length > 1 ? '; the most over the ranks' : '') + ')';
}

/** How a multi-rank run was balanced: the plan and why, and what rebalancing did. */
function balanceLine(s: RunSummary): string {
  const b = s.balance!;
  const events = s.rebalances ?? [];
  const priced = b.prices ? ` (a cell of n particles weighs n + ${b.prices.cellWeight.toPrecision(3)} + ${b.prices.squareWeight.toPrecision(3)} n^2)` : '';
  const by = b.rebalancePercent === null || !b.by ? '' : b.by === 'time' ? `; re-splits even out the ranks' measured GPU time${priced}` : '; re-splits even out the ranks\' particle counts';
  const done = b.rebalancePercent === null ? '' : `${by}; ${events.length} re-split${events.length === 1 ? '' : 's'}` +
    (events.length > 0 ? ` (after steps ${events.slice(0, 6).map((e) => `${e.step}: UN ${e.unBefore.toFixed(0)} -> ${(e.unAfter ?? NaN).toFixed(0)} %`).join(', ')}${events.length > 6 ? ', ...' : ''})` : '') +
    `, ${b.checks} check${b.checks === 1 ? '' : 's'} (every cell's count gathered in ${b.fullChecks ?? 0}), ${dur(b.rankSeconds)} of the loop (${(100 * b.rankSeconds / Math.max(1e-9, s.seconds)).toFixed(1)} %)` +
    (b.parts && b.rankSeconds > 0 ? ` [${Object.entries(BALANCE_PART_NAMES).filter(([k]) => (b.parts![k] ?? 0) > 0).map(([k, name]) => `${name} ${dur(b.parts![k])}`).join(', ')}]` : '');
  return `balance: ${b.reason}${done}`;
}

/** The terminal summary of a run; `fields`: its sampled fields, for the gas's mean density and temperatures. */
export function formatSummary(s: RunSummary, fields?: Pick<FieldSet, 'values' | 'errors'> | null): string {
  const lines = [
    `case ${s.case}: ${s.steps} steps, ${s.particles} particles (mean ${s.meanParticles.toFixed(0)}), ${s.seconds.toFixed(3)} s`,
    `adapter: ${s.adapter.description} [${s.adapter.backend}]`,
    ...(s.resumed ? [`resumed from step ${s.resumed.fromStep}: ${s.resumed.steps} steps run now; the times and throughput below are of those`] : []),
    ...((s.ranks ?? 1) > 1 ? [
      `ranks: ${s.ranks} (${s.decomposition}); particles per rank ${(s.particlesPerRank ?? []).join(', ')}; ` +
        `load non-uniformity ${(s.loadNonUniformity ?? 0).toFixed(1)} % at the end, ${(s.loadNonUniformityMean ?? 0).toFixed(1)} % mean over steps`,
      ...(s.splitSteps && s.splitSteps.length > 0 ? [splitLine(s.splitSteps)] : []),
      ...(s.balance ? [balanceLine(s)] : []),
    ] : []),
    `throughput: ${s.particleStepsPerSecond.toExponential(3)} particle-steps/s; ` +
      `collisions ${s.collisionsPerParticleStep.toFixed(5)} and candidates ${s.candidatesPerParticleStep.toFixed(5)} per particle per step`,
    `conservation: particles ${s.conservation.particlesStart} -> ${s.conservation.particlesEnd}; ` +
      `momentum drift ${drift(s.conservation.momentumRelDrift)}, energy drift ${drift(s.conservation.energyRelDrift)}`,
    `sampling: ${s.samples} passes; fields sha256 ${s.fieldsSha256.slice(0, 16)}...`,
    `host: ${s.host.submits} submits; encoding ${dur(s.host.encodeSeconds)}, waiting for the GPU ${dur(s.host.waitSeconds)}, read-back ${dur(s.host.readbackSeconds)}` +
      (s.host.foldSeconds ? `, the sampled fields after the loop (read back, evaluated, placed) ${dur(s.host.foldSeconds)}` : '') +
      (s.endOfRun ? endOfRunPart(s.endOfRun) : ''),
    ...(s.setupSeconds !== undefined ? [`set-up: ${dur(s.setupSeconds)} before the loop (${setupPartsText(s.setupParts) ?? `solver tables, pre-launch check, buffers, fill and first sort${(s.ranks ?? 1) > 1 ? ', every rank ready' : ''}`})`] : []),
    ...(s.finishSeconds !== undefined ? [`after the loop: ${dur(s.finishSeconds)} to this summary (the sampled fields, the final totals, the velocity distribution, the surface loads)`] : []),
    `memory: ${s.bytesPerParticle.toFixed(1)} bytes of GPU buffers per particle (capacity ${s.capacity} particles)`,
    ...gasLines(gasMeansOf(fields)),
    ...compositionLines(s.composition),
    ...reactionLines(s.reactions),
    ...bodyLines(s.surface),
    '',
    `phase timing (${s.timing}${s.timedEvery ? `; one call in ${s.timedEvery} of each phase timed, the seconds estimated from those: --timing full times every one` : ''}):`,
  ];
  const rows = [['phase', 'calls', 'AVG x Call', 'min', 'max', 'total', '% of loop', 's/particle-step']];
  for (const [name, p] of Object.entries(s.phases)) {
    rows.push([name, String(p.calls), dur(p.avgSeconds), dur(p.minSeconds), dur(p.maxSeconds), dur(p.totalSeconds), p.percentOfLoop.toFixed(1), p.secondsPerParticleStep.toExponential(2)]);
  }
  rows.push(['other', '', '', '', '', dur(s.otherSeconds), s.seconds > 0 ? ((100 * s.otherSeconds) / s.seconds).toFixed(1) : '0', '']);
  return forTerminal(lines.join('\n')) + '\n' + table(rows);
}

/** The set-up's parts, the longest first ("tables 2.2 s, pipelines 1.1 s, ..."), or null when the summary has none. */
function setupPartsText(parts: Record<string, number> | undefined): string | null {
  if (!parts) return null;
  const shown = Object.entries(parts).filter(([, sec]) => sec >= 0.0005).sort((a, b) => b[1] - a[1]);
  return shown.length > 0 ? shown.map(([name, sec]) => `${name} ${dur(sec)}`).join(', ') : null;
}
