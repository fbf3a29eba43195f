// The scaling report end to end without a GPU: a strong-scaling study of synthetic runs on 1, 2 and 4 ranks
// (loop times generated from the model, per-rank phases with "exchange", per-rank steps with a known UN)
// plus a failed run, kept in a temporary run database; every format is rendered and its numbers are parsed
// back and checked against values worked out by hand. `dsmc report scaling` is driven through its command.
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modelSeconds } from '../../src-main/common/reports/scaling-fit.js';
import { buildScalingReport, type ScalingReport } from '../../src-main/common/reports/scaling-model.js';
import type { PhaseRecord, RankStepRecord } from '../../src-main/common/run-record.js';
import { reportCommand } from '../../src-main/cli/commands/report-commands.js';
import { DEFAULT_CHROMIUM } from '../../src-main/reports/html-to-pdf.js';
import { escapeHtml } from '../../src-main/reports/html-escape.js';
import { scalingCsv, scalingCsvZip } from '../../src-main/reports/scaling-csv.js';
import { defaultScalingOut, exportScaling, scalingFormatOf } from '../../src-main/reports/scaling-export.js';
import { scalingHtml } from '../../src-main/reports/scaling-html.js';
import { loadScalingInput } from '../../src-main/reports/scaling-source.js';
import { RunStore } from '../../src-main/store/run-store.js';
import { runInput, summary } from '../store/store-fixtures.js';
import { NASTY } from './fixtures.js';
import { csvSections, htmlKeyedValues, parseCsv, readZip } from './parse-helpers.js';

const TRUTH = { kind: 'strong' as const, t1Seconds: 8, serialFraction: 0.02, commSeconds: 0.05 };
const PARTICLES = 1e6;
const STEPS = 10;
const GPUS = [1, 2, 4];

/** Loop seconds on n GPUs, from the model. */
const T = (n: number) => modelSeconds(TRUTH, n);

/** Particles of rank r at step k on n ranks: rank 0 has 10k more than its share, rank 1 10k fewer. */
function rankParticles(n: number, r: number, k: number): number {
  return PARTICLES / n + (n === 1 ? 0 : r === 0 ? 10 * k : r === 1 ? -10 * k : 0);
}

/** UN at step k on n ranks, by hand: (max - min) / avg * 100. */
const UN = (n: number, k: number) => (n === 1 ? 0 : ((20 * k) / (PARTICLES / n)) * 100);

/** Per-rank phases on n ranks: move 4/n s (rank r 10 % slower per r), exchange 0.2 (r + 1) s on more than one rank. */
function rankPhases(n: number): PhaseRecord[] {
  const out: PhaseRecord[] = [];
  for (let r = 0; r < n; r++) {
    const move = (4 / n) * (1 + 0.1 * r);
    out.push({ rank: r, phase: 'move', calls: STEPS, totalSeconds: move, minSeconds: move / STEPS / 2, maxSeconds: (move / STEPS) * 2 });
    if (n > 1) out.push({ rank: r, phase: 'exchange', calls: STEPS, totalSeconds: 0.2 * (r + 1), minSeconds: 0.001, maxSeconds: 0.1 });
  }
  return out;
}

/** Per-rank steps on n ranks: particles as above, rank r sends r + 1 particles and waits 0.001 (r + 1) s per step. */
function rankSteps(n: number): RankStepRecord[] {
  const out: RankStepRecord[] = [];
  for (let k = 1; k <= STEPS; k++) {
    for (let r = 0; r < n; r++) out.push({ rank: r, step: k, particles: rankParticles(n, r, k), sent: r + 1, received: r + 1, waitSeconds: 0.001 * (r + 1) });
  }
  return out;
}

let dir: string;
let store: RunStore;
let studyId: number;
let runIds: number[] = [];
let report: ScalingReport;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'dsmc-scaling-'));
  store = RunStore.open({ dataDir: join(dir, 'data') });
  runIds = GPUS.map((n) => {
    const id = store.createRun(runInput({ ranks: n, gpus: n, project: 'scaling' }));
    if (n > 1) store.appendRankSteps(id, rankSteps(n));
    store.completeRun(id, {
      summary: { ...summary(), steps: STEPS, meanParticles: PARTICLES, particles: PARTICLES, particleSteps: PARTICLES * STEPS, seconds: T(n),
        particleStepsPerSecond: (PARTICLES * STEPS) / T(n) },
      phases: rankPhases(n), fields: null,
    });
    return id;
  });
  const failed = store.createRun(runInput({ ranks: 8, gpus: 8, project: 'scaling' }));
  store.finishRun(failed, 'failed', 'rank 5 crashed');
  const caseHash = store.getRun(runIds[0]).caseHash;
  const study = store.createStudy({ name: `strong ${NASTY}`, kind: 'strong', project: 'scaling', caseName: 'box', caseHash, notes: `notes ${NASTY}` });
  studyId = study.id;
  store.addStudyRun(studyId, failed, 8);
  for (const [i, n] of [[2, 4], [0, 1], [1, 2]] as const) store.addStudyRun(studyId, runIds[i], n);
  report = buildScalingReport(loadScalingInput(store, studyId));
});

afterAll(() => {
  store?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The number behind a data-key of the HTML report (throws naming a missing key). */
function keyed(v: Record<string, string>, key: string): number {
  if (!(key in v)) throw new Error(`no data-key ${key} in the HTML report`);
  return v[key] === '' ? NaN : Number(v[key]);
}

describe('scaling report model from the database', () => {
  it('has the three completed GPU counts, leaves out the failed run and recovers the model', () => {
    expect(report.points.map((p) => [p.gpus, p.runId])).toEqual(GPUS.map((n, i) => [n, runIds[i]]));
    expect(report.skipped).toEqual([{ runId: expect.any(Number), gpus: 8, reason: 'it is failed (rank 5 crashed); only completed runs are measured' }]);
    expect(Math.abs(report.fit!.serialFraction - 0.02)).toBeLessThan(1e-9);
    expect(Math.abs(report.fit!.commSeconds - 0.05)).toBeLessThan(1e-9);
    expect(report.fit!.prediction.gpus).toBe(8);
    expect(report.phaseNames).toEqual(['move', 'exchange']);
    expect(report.warnings).toEqual([]);
  });
});

describe('repeated runs in a study (dsmc study --repeat)', () => {
  it('stores repeats on one GPU count; the report shows the median run, every run id and the spread in HTML and CSV', () => {
    // two more 2-GPU runs, 20 % slower and 10 % faster: the median is the original run
    const extra = [1.2, 1 / 1.1].map((f) => {
      const id = store.createRun(runInput({ ranks: 2, gpus: 2, project: 'scaling' }));
      store.appendRankSteps(id, rankSteps(2));
      store.completeRun(id, {
        summary: { ...summary(), steps: STEPS, meanParticles: PARTICLES, particles: PARTICLES, particleSteps: PARTICLES * STEPS, seconds: T(2) * f,
          particleStepsPerSecond: (PARTICLES * STEPS) / (T(2) * f) },
        phases: rankPhases(2), fields: null,
      });
      return id;
    });
    const caseHash = store.getRun(runIds[0]).caseHash;
    const s = store.createStudy({ name: 'repeats', kind: 'strong', project: 'scaling', caseName: 'box', caseHash });
    for (const [id, n] of [[runIds[0], 1], [runIds[1], 2], [extra[0], 2], [extra[1], 2], [runIds[2], 4]] as const) store.addStudyRun(s.id, id, n);
    const r = buildScalingReport(loadScalingInput(store, s.id));
    const two = r.points[1];
    expect(two.runId).toBe(runIds[1]);
    expect(two.repeats.runIds).toEqual([runIds[1], ...extra].sort((a, b) => a - b));
    const speed = (PARTICLES * STEPS) / T(2);
    const spread = (100 * (speed * 1.1 - speed / 1.2)) / speed;
    expect(two.repeats.spreadPercent).toBeCloseTo(spread, 10);
    // the model and speedups are those of the study without repeats
    expect(r.fit!.serialFraction).toBe(report.fit!.serialFraction);
    expect(r.points.map((p) => p.speedup)).toEqual(report.points.map((p) => p.speedup));
    expect(r.warnings).toEqual([expect.stringContaining(`the 3 runs on 2 GPUs (${two.repeats.runIds.join(', ')}) differ by ${spread.toFixed(1)} %`)]);
    const v = htmlKeyedValues(scalingHtml(r));
    expect(keyed(v, 'points.2.repeats')).toBe(3);
    expect(keyed(v, 'points.2.spreadPercent')).toBeCloseTo(spread, 10);
    expect(keyed(v, 'points.1.repeats')).toBe(1);
    expect(scalingHtml(r)).toContain(`median of runs ${two.repeats.runIds.map((id) => `#${id}`).join(', ')}`);
    const c = csvSections(scalingCsv(r));
    const col = (name: string) => c.points.header.indexOf(name);
    expect(c.points.rows.map((row) => [row[col('gpus')], row[col('runs')], row[col('run_ids')]])).toEqual([
      ['1', '1', String(runIds[0])], ['2', '3', two.repeats.runIds.join(';')], ['4', '1', String(runIds[2])],
    ]);
    expect(Number(c.points.rows[1][col('spread_percent')])).toBeCloseTo(spread, 10);
  });
});

describe('HTML scaling report', () => {
  let html: string;
  beforeAll(() => { html = scalingHtml(report); });

  it('draws its seven charts inline and references nothing outside the file', () => {
    expect((html.match(/<svg[\s>]/g) ?? []).length).toBe(7);
    for (const id of ['speedup', 'efficiency', 'phase-time', 'avg-per-call', 'load-nonuniformity', 'un-per-step', 'throughput-per-gpu']) {
      expect(html).toContain(`<figure id="chart-${id}"><svg`);
    }
    const urls = [...html.matchAll(/https?:\/\/[^\s"'<>)]*/g)].map((m) => m[0]);
    expect(urls.filter((u) => !['http://www.w3.org/2000/svg', 'http://www.w3.org/1999/xlink'].includes(u))).toEqual([]);
    expect(html).not.toMatch(/<script|<link\b|\bsrc\s*=/i);
  });

  it('escapes the study name and notes', () => {
    expect(html).not.toContain(NASTY);
    expect(html).toContain(escapeHtml(`strong ${NASTY}`));
    expect(html).toContain(escapeHtml(`notes ${NASTY}`));
  });

  it('shows numbers that agree with the values worked out by hand', () => {
    const v = htmlKeyedValues(html);
    for (const n of GPUS) {
      expect(keyed(v, `points.${n}.loopSeconds`)).toBe(T(n));
      expect(keyed(v, `points.${n}.speedup`)).toBeCloseTo(T(1) / T(n), 12);
      expect(keyed(v, `points.${n}.efficiency`)).toBeCloseTo(T(1) / T(n) / n, 12);
      expect(keyed(v, `points.${n}.particleStepsPerSecondPerGpu`)).toBeCloseTo((PARTICLES * STEPS) / T(n) / n, 6);
      const uns = Array.from({ length: STEPS }, (_, i) => UN(n, i + 1));
      expect(keyed(v, `points.${n}.unMeanPercent`)).toBeCloseTo(uns.reduce((a, b) => a + b, 0) / STEPS, 10);
      expect(keyed(v, `points.${n}.unMaxPercent`)).toBeCloseTo(Math.max(...uns), 10);
      expect(keyed(v, `points.${n}.sentPerStep`)).toBe(n === 1 ? 0 : (n * (n + 1)) / 2);
    }
    expect(keyed(v, 'points.4.waitSecondsMax')).toBeCloseTo(STEPS * 0.004, 12);
    expect(keyed(v, 'points.1.waitSecondsMean')).toBeNaN();
    expect(keyed(v, 'fit.serialFraction')).toBeCloseTo(0.02, 9);
    expect(keyed(v, 'fit.t1Seconds')).toBeCloseTo(8, 9);
    expect(keyed(v, 'fit.prediction.seconds')).toBeCloseTo(T(8), 9);
    expect(keyed(v, 'fit.prediction.speedup')).toBeCloseTo(8 / T(8), 9);
    // and at four times the largest count, stated as a prediction
    expect(keyed(v, 'fit.predictions.16.seconds')).toBeCloseTo(T(16), 9);
    expect(keyed(v, 'fit.predictions.16.speedup')).toBeCloseTo(8 / T(16), 9);
    // exchange on 4 ranks: 0.2, 0.4, 0.6, 0.8 s -> mean 0.5, max 0.8, AVG x Call 0.05
    expect(keyed(v, 'phases.exchange.4.avgSeconds')).toBeCloseTo(0.5, 12);
    expect(keyed(v, 'phases.exchange.4.maxSeconds')).toBeCloseTo(0.8, 12);
    expect(keyed(v, 'phases.exchange.4.avgPerCallSeconds')).toBeCloseTo(0.05, 12);
    expect(keyed(v, 'phases.move.2.maxSeconds')).toBeCloseTo(2.2, 12);
    expect('phases.exchange.1.avgSeconds' in v).toBe(false);
    // per rank: rank 3 of 4 waits 0.004 s a step, sends 4 a step, exchange 0.8 s over 10 calls
    expect(keyed(v, 'ranks.4.3.waitSeconds')).toBeCloseTo(STEPS * 0.004, 12);
    expect(keyed(v, 'ranks.4.3.sentPerStep')).toBe(4);
    expect(keyed(v, 'ranks.4.3.exchange.avgPerCallSeconds')).toBeCloseTo(0.08, 12);
    expect(keyed(v, 'ranks.2.0.meanParticles')).toBe(PARTICLES / 2 + 10 * 5.5);
    expect('ranks.1.0.gpus' in v).toBe(false);
    expect(html).toMatch(/rank 5 crashed/);
  });
});

describe('GPU working and waiting per rank', () => {
  it('splits each rank\'s mean step into GPU work (its GPU-timed phases) and waiting, with the host exchange beside it', () => {
    const input = loadScalingInput(store, studyId);
    for (const r of input.runs) if (r.run.summary) r.run.summary = { ...r.run.summary, timing: 'gpu-timestamps' };
    const timed = buildScalingReport(input);
    // timed on every call: no word of estimates; timed on one call in 8: the note says the GPU work is estimated
    expect(scalingHtml(timed)).not.toMatch(/estimated from those calls/);
    const sampledInput = loadScalingInput(store, studyId);
    for (const r of sampledInput.runs) if (r.run.summary) r.run.summary = { ...r.run.summary, timing: 'gpu-timestamps', timedEvery: 8 };
    const sampled = buildScalingReport(sampledInput);
    expect(sampled.points.every((p) => p.timedEvery === 8)).toBe(true);
    expect(scalingHtml(sampled)).toMatch(/timed on one call in 8 of each phase \(the default timing\) is estimated from those calls/);
    const four = timed.points.find((p) => p.gpus === 4)!;
    // rank 3 of 4: move 4/4 x 1.3 = 1.3 s over 10 steps; exchange 0.8 s; the step is T(4) / 10
    const r3 = four.rankTime.find((t) => t.rank === 3)!;
    expect(r3.stepSeconds).toBeCloseTo(T(4) / STEPS, 12);
    expect(r3.gpuSeconds).toBeCloseTo(0.13, 12);
    expect(r3.waitSeconds).toBeCloseTo(T(4) / STEPS - 0.13, 12);
    expect(r3.exchangeSeconds).toBeCloseTo(0.08, 12);
    expect(timed.points.find((p) => p.gpus === 1)!.rankTime).toEqual([{ rank: 0, stepSeconds: T(1) / STEPS, gpuSeconds: 0.4, waitSeconds: T(1) / STEPS - 0.4, exchangeSeconds: 0 }]);
    const page = scalingHtml(timed);
    expect(page).toContain('<figure id="chart-rank-time"><svg');
    const v = htmlKeyedValues(page);
    expect(keyed(v, 'rankTime.4.3.gpuSeconds')).toBeCloseTo(0.13, 12);
    expect(keyed(v, 'rankTime.4.3.waitSeconds')).toBeCloseTo(T(4) / STEPS - 0.13, 12);
    const csv = csvSections(scalingCsv(timed));
    expect(csv.rank_time.header).toEqual(['gpus', 'rank', 'step_s', 'gpu_working_s', 'gpu_waiting_s', 'host_exchange_s']);
    expect(csv.rank_time.rows.length).toBe(1 + 2 + 4);
    // wall-clock phases are host durations: no split is made
    expect(report.points.every((p) => p.rankTime.length === 0)).toBe(true);
  });
});

describe('weak scaling report', () => {
  it('shows efficiency from throughput per GPU and the scaled speedup', () => {
    const base = report.points[0];
    // the same runs read as a weak study: 1e6 particles on every GPU count, so E(n) = T(1) / T(n) and S = n E
    const weak = buildScalingReport({
      study: { ...report.study, kind: 'weak' },
      runs: loadScalingInput(store, studyId).runs.map((r) => ({ ...r, run: { ...r.run, summary: r.run.summary && { ...r.run.summary, meanParticles: PARTICLES * r.gpus, particleSteps: PARTICLES * STEPS * r.gpus } } })),
    });
    const v = htmlKeyedValues(scalingHtml(weak));
    for (const n of GPUS) {
      expect(keyed(v, `points.${n}.efficiency`)).toBeCloseTo(T(1) / T(n), 12);
      expect(keyed(v, `points.${n}.speedup`)).toBeCloseTo((n * T(1)) / T(n), 12);
    }
    expect(base.gpus).toBe(1);
    expect(scalingHtml(weak)).toContain('scaled speedup n E(n)');
    expect(scalingHtml(weak)).toContain('time added per extra GPU s (x T1)');
    expect(scalingHtml(weak)).not.toContain('<th>serial fraction s</th>');
    // nor in the model's note: a weak fit's s is a time per added GPU, not a serial fraction
    expect(scalingHtml(weak)).not.toMatch(/serial fraction/i);
    expect(scalingHtml(weak)).toContain('each added GPU adds s x T1');
    const two = buildScalingReport({ study: { ...report.study, kind: 'weak' }, runs: loadScalingInput(store, studyId).runs.filter((r) => r.gpus <= 2) });
    expect(two.fitNote).toContain('only T1 and the time added per extra GPU s are fitted');
    expect(scalingHtml(two)).not.toMatch(/serial fraction/i);
    expect(weak.fit!.formula).toBe('T(n) = T1 * (1 + s * (n - 1)) + c * log2(n)');
  });
});

describe('CSV scaling report', () => {
  it('has sections whose numbers read back exactly', () => {
    const s = csvSections(scalingCsv(report));
    expect(Object.keys(s)).toEqual(['study', 'points', 'phases', 'ranks', 'rank_phases', 'rank_time', 'un_per_step', 'fit', 'fit_points', 'notes']);
    const study = Object.fromEntries(s.study.rows.map(([k, v]) => [k, v]));
    expect(study.name).toBe(`strong ${NASTY}`);
    expect(study.kind).toBe('strong');
    const col = (name: string) => s.points.header.indexOf(name);
    expect(s.points.rows.map((r) => Number(r[col('gpus')]))).toEqual(GPUS);
    for (const [i, n] of GPUS.entries()) {
      const row = s.points.rows[i];
      expect(Number(row[col('loop_seconds')])).toBe(T(n));
      expect(Number(row[col('speedup')])).toBe(report.points[i].speedup);
      expect(Number(row[col('speedup')])).toBeCloseTo(T(1) / T(n), 12);
      expect(Number(row[col('un_max_percent')])).toBeCloseTo(UN(n, STEPS), 10);
    }
    const exchange = s.phases.rows.filter((r) => r[0] === 'exchange').map((r) => [Number(r[1]), Number(r[5])]);
    expect(exchange.map(([n]) => n)).toEqual([2, 4]);
    expect(exchange[1][1]).toBeCloseTo(0.5, 12);
    expect(s.ranks.rows.map((r) => `${r[0]}/${r[1]}`)).toEqual(['2/0', '2/1', '4/0', '4/1', '4/2', '4/3']);
    expect(Number(s.ranks.rows[5][5])).toBeCloseTo(STEPS * 0.004, 12);
    const exchange4 = s.rank_phases.rows.filter((r) => r[0] === '4' && r[2] === 'exchange');
    expect(exchange4.map((r) => Number(r[1]))).toEqual([0, 1, 2, 3]);
    exchange4.forEach((r, rank) => expect(Number(r[4])).toBeCloseTo(0.2 * (rank + 1), 14));
    const un4 = s.un_per_step.rows.filter((r) => r[0] === '4').map((r) => [Number(r[1]), Number(r[2])]);
    expect(un4.length).toBe(STEPS);
    un4.forEach(([k, un]) => expect(un).toBeCloseTo(UN(4, k), 10));
    const fit = Object.fromEntries(s.fit.rows.map(([k, v]) => [k, v]));
    expect(Number(fit.serial_fraction)).toBe(report.fit!.serialFraction);
    expect(Number(fit.prediction_gpus)).toBe(8);
    expect(Number(fit.prediction_16_seconds)).toBe(report.fit!.predictions[1].seconds);
    expect(s.fit_points.rows.length).toBe(3);
    expect(s.notes.rows.map((r) => r[0])).toEqual(['skipped']);
  });
});

describe('CSV scaling report as a zip', () => {
  it('holds one plain CSV per table with the same header and rows as the sections', () => {
    const files = readZip(scalingCsvZip(report));
    const sections = csvSections(scalingCsv(report));
    expect(files.map((f) => f.name)).toEqual(Object.keys(sections).map((n) => `${n}.csv`));
    for (const f of files) {
      const [header, ...rows] = parseCsv(f.text);
      const s = sections[f.name.replace(/\.csv$/, '')];
      expect(header, f.name).toEqual(s.header);
      expect(rows, f.name).toEqual(s.rows);
    }
    const points = parseCsv(files.find((f) => f.name === 'points.csv')!.text);
    expect(points.slice(1).map((r) => Number(r[points[0].indexOf('speedup')]))).toEqual(report.points.map((p) => p.speedup));
  });

  it('is a format of the export and of `dsmc report scaling` (study-ID-scaling-csv.zip)', async () => {
    const target = mkdtempSync(join(dir, 'zip-'));
    await exportScaling(report, scalingFormatOf('zip'), join(target, 'r.zip'));
    expect(readZip(readFileSync(join(target, 'r.zip'))).map((f) => f.name)).toContain('fit.csv');
    expect(defaultScalingOut(3, 'zip')).toBe('study-3-scaling-csv.zip');
  });
});

describe('export and `dsmc report scaling`', () => {
  it('writes every format through a temporary file; JSON is the model', async () => {
    const target = mkdtempSync(join(dir, 'formats-'));
    for (const f of ['html', 'csv', 'json'] as const) await exportScaling(report, f, join(target, `r.${f}`));
    expect(readdirSync(target).sort()).toEqual(['r.csv', 'r.html', 'r.json']);
    expect(JSON.parse(readFileSync(join(target, 'r.json'), 'utf8'))).toEqual(JSON.parse(JSON.stringify(report)));
    expect(defaultScalingOut(3, 'pdf')).toBe('study-3-scaling.pdf');
    expect(() => scalingFormatOf('docx')).toThrow('--format: got "docx"; expected one of html, csv, json, pdf');
  });

  it('prints the report to PDF with headless Chromium', async () => {
    if (!existsSync(process.env.DSMC_CHROMIUM || DEFAULT_CHROMIUM)) {
      throw new Error(`PDF export needs Chromium at ${DEFAULT_CHROMIUM}: apt-get install chromium (or set DSMC_CHROMIUM)`);
    }
    const target = mkdtempSync(join(dir, 'pdf-'));
    await exportScaling(report, 'pdf', join(target, 'r.pdf'));
    const bytes = readFileSync(join(target, 'r.pdf'));
    expect(bytes.subarray(0, 4).toString('latin1')).toBe('%PDF');
    expect(bytes.length).toBeGreaterThan(5000);
    expect(readdirSync(target)).toEqual(['r.pdf']);
  }, 120_000);

  it('runs as `dsmc report scaling STUDY --format json --out FILE` and names bad arguments', async () => {
    store.close();
    const dataDir = join(dir, 'data');
    const out = join(dir, 'cli.json');
    const args = (positionals: string[], values: Record<string, string> = {}) => ({ positionals, values: { 'data-dir': dataDir, ...values } }); // --format has no default: the --out extension chooses
    expect(await reportCommand.run(args(['scaling', String(studyId)], { format: 'json', out }))).toBe(0);
    expect(JSON.parse(readFileSync(out, 'utf8')).points.map((p: { speedup: number }) => p.speedup)).toEqual(report.points.map((p) => p.speedup));
    await expect(reportCommand.run(args(['scaling', 'abc']))).rejects.toThrow(/STUDY must be a study id .*got "abc".*usage: dsmc report scaling/);
    await expect(reportCommand.run(args(['scaling', '999'], { out }))).rejects.toThrow(/study 999 not found.*dsmc studies/);
    await expect(reportCommand.run(args(['scaling']))).rejects.toThrow(/expected 2 arguments, got 1/);
    await expect(reportCommand.run(args(['speed', '1']))).rejects.toThrow(/unknown report kind "speed", expected profile or scaling/);
    await expect(reportCommand.run(args(['constructor', '1']))).rejects.toThrow(/unknown report kind/);
    await expect(reportCommand.run(args(['profile', String(runIds[0])]))).rejects.toThrow(/--out FILE is required/);
    store = RunStore.open({ dataDir });
  });
});
