// The scaling math on synthetic numbers whose answers are known: least squares and NNLS, the fitted model
// (data generated from it is recovered; perfect scaling gives s = 0, c = 0, efficiency 1), speedup and
// efficiency (strong and weak, weak normalised by throughput per GPU), UN and communication per step,
// the per-phase table over ranks, and runs left out with a reason.
import { describe, expect, it } from 'vitest';
import type { PhaseRecord, RankStepRecord, RunRecord, StudyKind } from '../../src-main/common/run-record.js';
import type { RunSummary } from '../../src-main/common/run-summary.js';
import { leastSquares, nonNegativeLeastSquares, residualSquares } from '../../src-main/common/reports/least-squares.js';
import { loadNonUniformityPercent, rankBalance } from '../../src-main/common/reports/rank-balance.js';
import { fitScalingModel, modelSeconds } from '../../src-main/common/reports/scaling-fit.js';
import { buildScalingReport, type ScalingRunInput } from '../../src-main/common/reports/scaling-model.js';

const HASH = 'ab'.repeat(32);

/** A summary with the loop time and particle counts that matter here. */
function summary(seconds: number, meanParticles: number, steps = 100): RunSummary {
  return {
    case: 'box', steps, particles: meanParticles, meanParticles, particleSteps: meanParticles * steps, seconds,
    particleStepsPerSecond: (meanParticles * steps) / seconds, collisionsPerParticleStep: 0.07, candidatesPerParticleStep: 0.1,
    timing: 'wall-clock', phases: {}, otherSeconds: 0, host: { encodeSeconds: 0, waitSeconds: 0, readbackSeconds: 0, submits: 1 },
    conservation: { particlesStart: meanParticles, particlesEnd: meanParticles, momentumRelDrift: null, energyRelDrift: null },
    samples: 0, fieldsSha256: '', capacity: 0, bytesPerParticle: 0, adapter: { description: 'fake', backend: 'none' },
  };
}

/** A completed run record on `gpus` ranks/GPUs. */
function runRecord(id: number, gpus: number, seconds: number, meanParticles: number, over: Partial<RunRecord> = {}): RunRecord {
  return {
    id, project: 'p', caseId: 1, caseName: 'box', caseHash: HASH, status: 'completed', reason: null, startedAt: 't', endedAt: 't',
    seed: 1, ranks: gpus, gpus, adapter: { description: 'fake', backend: 'none' }, productVersion: '0', summary: summary(seconds, meanParticles),
    lastStep: 100, tags: [], notes: '', ...over,
  };
}

/** A study input from (gpus, seconds, meanParticles) triples, no phases or rank steps. */
function study(kind: StudyKind, pts: [number, number, number][], extra: Partial<ScalingRunInput>[] = []) {
  return {
    study: { id: 1, name: 's', kind, project: 'p', caseName: 'box', caseHash: HASH, createdAt: 't', notes: '' },
    runs: pts.map(([gpus, seconds, particles], i) => ({ gpus, run: runRecord(i + 1, gpus, seconds, particles), phases: [], rankSteps: [], ...extra[i] })),
  };
}

describe('least squares', () => {
  it('solves an overdetermined system like the normal equations would', () => {
    const a = [[1, 1], [1, 2], [1, 3], [1, 4]];
    const b = [6, 5, 7, 10];
    // normal equations by hand: [[4, 10], [10, 30]] x = [28, 77] -> x = [3.5, 1.4]
    const x = leastSquares(a, b)!;
    expect(x[0]).toBeCloseTo(3.5, 12);
    expect(x[1]).toBeCloseTo(1.4, 12);
    expect(leastSquares([[1, 2], [2, 4]], [1, 2])).toBeNull();
    expect(leastSquares([[1, 2]], [1])).toBeNull();
  });

  it('keeps coefficients non-negative and is optimal among non-negative solutions (KKT)', () => {
    const a = [1, 2, 4, 8].map((n) => [1, 1 / n, Math.log2(n)]);
    const b = [1, 2, 4, 8].map((n) => 10 / n - 0.2 * Math.log2(n) + 0.5);
    const free = leastSquares(a, b)!;
    expect(free[2]).toBeLessThan(0);
    const x = nonNegativeLeastSquares(a, b)!;
    expect(x.every((v) => v >= 0)).toBe(true);
    expect(x[2]).toBe(0);
    // gradient A^T (A x - b): zero on positive coefficients, >= 0 on zero ones
    const r = a.map((row, i) => row.reduce((s, v, j) => s + v * x[j], 0) - b[i]);
    const grad = [0, 1, 2].map((j) => a.reduce((s, row, i) => s + row[j] * r[i], 0));
    x.forEach((v, j) => (v > 0 ? expect(Math.abs(grad[j])).toBeLessThan(1e-9) : expect(grad[j]).toBeGreaterThanOrEqual(-1e-12)));
    // and no random non-negative point does better
    const best = residualSquares(a, x, b);
    for (let k = 0; k < 200; k++) {
      const y = x.map((v, j) => Math.max(0, v + Math.sin(k * 7.1 + j) * 0.3));
      expect(residualSquares(a, y, b)).toBeGreaterThanOrEqual(best - 1e-12);
    }
  });
});

describe('scaling model fit', () => {
  const gpus = [1, 2, 4, 8];

  it('recovers T1, s and c of strong-scaling data generated from the model', () => {
    const truth = { kind: 'strong' as const, t1Seconds: 12.5, serialFraction: 0.03, commSeconds: 0.07 };
    const fit = fitScalingModel('strong', gpus.map((n) => ({ gpus: n, seconds: modelSeconds(truth, n) })))!;
    expect(Math.abs(fit.t1Seconds - 12.5)).toBeLessThan(1e-9);
    expect(Math.abs(fit.serialFraction - 0.03)).toBeLessThan(1e-9);
    expect(Math.abs(fit.commSeconds - 0.07)).toBeLessThan(1e-9);
    expect(fit.rmsResidualSeconds).toBeLessThan(1e-9);
    expect(fit.commFitted).toBe(true);
    // the prediction at 16 GPUs by hand: 12.5 (0.03 + 0.97 / 16) + 0.07 * 4
    const t16 = 12.5 * (0.03 + 0.97 / 16) + 0.28;
    expect(fit.prediction.gpus).toBe(16);
    expect(Math.abs(fit.prediction.seconds - t16)).toBeLessThan(1e-9);
    expect(Math.abs(fit.prediction.speedup - 12.5 / t16)).toBeLessThan(1e-9);
    expect(Math.abs(fit.prediction.efficiency - 12.5 / t16 / 16)).toBeLessThan(1e-9);
    // and at four times the largest count (32 GPUs): 12.5 (0.03 + 0.97 / 32) + 0.07 * 5
    const t32 = 12.5 * (0.03 + 0.97 / 32) + 0.35;
    expect(fit.predictions.map((p) => p.gpus)).toEqual([16, 32]);
    expect(fit.predictions[0]).toEqual(fit.prediction);
    expect(Math.abs(fit.predictions[1].seconds - t32)).toBeLessThan(1e-9);
    expect(Math.abs(fit.predictions[1].efficiency - 12.5 / t32 / 32)).toBeLessThan(1e-9);
    expect(fit.amdahlLimit).toBeCloseTo(1 / 0.03, 6);
  });

  it('recovers the weak form T1 (1 + s (n - 1)) + c log2 n', () => {
    const truth = { kind: 'weak' as const, t1Seconds: 3.2, serialFraction: 0.01, commSeconds: 0.15 };
    const fit = fitScalingModel('weak', gpus.map((n) => ({ gpus: n, seconds: modelSeconds(truth, n) })))!;
    expect(Math.abs(fit.t1Seconds - 3.2)).toBeLessThan(1e-9);
    expect(Math.abs(fit.serialFraction - 0.01)).toBeLessThan(1e-9);
    expect(Math.abs(fit.commSeconds - 0.15)).toBeLessThan(1e-9);
    const t16 = 3.2 * (1 + 0.01 * 15) + 0.15 * 4;
    expect(Math.abs(fit.prediction.seconds - t16)).toBeLessThan(1e-9);
    expect(Math.abs(fit.prediction.efficiency - 3.2 / t16)).toBeLessThan(1e-9);
    expect(fit.amdahlLimit).toBeNull();
  });

  it('reports the residual of noisy data', () => {
    const truth = { kind: 'strong' as const, t1Seconds: 10, serialFraction: 0.05, commSeconds: 0.1 };
    const noise = [0.02, -0.03, 0.01, 0.025];
    const fit = fitScalingModel('strong', gpus.map((n, i) => ({ gpus: n, seconds: modelSeconds(truth, n) + noise[i] })))!;
    expect(fit.rmsResidualSeconds).toBeGreaterThan(1e-4);
    const rms = Math.sqrt(fit.points.reduce((s, p) => s + p.residualSeconds ** 2, 0) / 4);
    expect(fit.rmsResidualSeconds).toBeCloseTo(rms, 12);
    expect(fit.serialFraction).toBeGreaterThan(0.03);
    expect(fit.serialFraction).toBeLessThan(0.07);
  });

  it('needs two points; with two it fixes c at 0', () => {
    expect(fitScalingModel('strong', [{ gpus: 1, seconds: 3 }])).toBeNull();
    const fit = fitScalingModel('strong', [{ gpus: 1, seconds: 10 }, { gpus: 2, seconds: 5.5 }])!;
    expect(fit.commFitted).toBe(false);
    expect(fit.commSeconds).toBe(0);
    // 10 = a + b, 5.5 = a + b / 2 -> a = 1, b = 9
    expect(fit.serialFraction).toBeCloseTo(0.1, 12);
  });
});

describe('scaling report from runs', () => {
  it('perfect strong scaling: S = n, E = 1, s = 0, c = 0', () => {
    const r = buildScalingReport(study('strong', [[1, 8, 1e6], [2, 4, 1e6], [4, 2, 1e6], [8, 1, 1e6]]));
    expect(r.points.map((p) => p.speedup)).toEqual([1, 2, 4, 8]);
    expect(r.points.map((p) => p.efficiency)).toEqual([1, 1, 1, 1]);
    expect(r.points.map((p) => p.particleStepsPerSecondPerGpu)).toEqual([1e8 / 8, 1e8 / 8, 1e8 / 8, 1e8 / 8]);
    expect(r.fit!.serialFraction).toBeLessThan(1e-12);
    expect(r.fit!.commSeconds).toBeLessThan(1e-12);
    expect(Math.abs(r.fit!.t1Seconds - 8)).toBeLessThan(1e-12);
    expect(Math.abs(r.fit!.prediction.speedup - 16)).toBeLessThan(1e-9);
    expect(Math.abs(r.fit!.prediction.efficiency - 1)).toBeLessThan(1e-12);
    // one rank needs no per-rank steps (UN is 0 by definition); more ranks without them are flagged
    const noSteps = r.warnings.filter((w) => w.includes('kept no per-rank steps')).map((w) => w.slice(0, 5));
    expect(noSteps).toEqual(['run 2', 'run 3', 'run 4']);
    expect(r.points[0].balance.loadNonUniformity).toEqual({ meanPercent: 0, maxPercent: 0 });
    expect(r.points[1].balance.loadNonUniformity).toBeNull();
  });

  it('strong scaling numbers by hand', () => {
    const r = buildScalingReport(study('strong', [[4, 3, 1e6], [1, 10, 1e6], [2, 5.5, 1e6]]));
    expect(r.points.map((p) => p.gpus)).toEqual([1, 2, 4]);
    expect(r.points[1].speedup).toBeCloseTo(10 / 5.5, 14);
    expect(r.points[2].efficiency).toBeCloseTo(10 / 3 / 4, 14);
    expect(r.points[2].particleStepsPerSecond).toBeCloseTo(1e8 / 3, 6);
    expect(r.fit!.points.map((p) => p.gpus)).toEqual([1, 2, 4]);
  });

  it('perfect weak scaling with slightly different loads per GPU: efficiency 1 from throughput per GPU', () => {
    // the same throughput per GPU (1e6 particle-steps/s) with 0 %, +0.5 %, -0.4 % particles per GPU
    const loads = [[1, 1e6], [2, 2.01e6], [4, 3.984e6]] as const;
    const r = buildScalingReport(study('weak', loads.map(([n, p]) => [n, (p * 100) / (1e6 * n), p])));
    for (const p of r.points) expect(Math.abs(p.efficiency - 1)).toBeLessThan(1e-12);
    expect(r.points.map((p) => p.speedup.toFixed(9))).toEqual(['1.000000000', '2.000000000', '4.000000000']);
    // the raw loop times differ, so a plain T1/Tn would not give 1
    expect(r.points[1].loopSeconds).not.toBe(r.points[0].loopSeconds);
    expect(r.fit!.serialFraction).toBeLessThan(1e-12);
    expect(r.fit!.commSeconds).toBeLessThan(1e-12);
    expect(r.warnings.filter((w) => w.includes('particles per GPU'))).toEqual([]);
  });

  it('weak efficiency by hand and a warning when the load per GPU drifts', () => {
    const r = buildScalingReport(study('weak', [[1, 10, 1e6], [2, 11, 2e6], [4, 15, 4.4e6]]));
    expect(r.points[1].efficiency).toBeCloseTo(10 / 11, 14);
    // per GPU: 1.1e6 particles over 15 s against 1e6 over 10 s
    expect(r.points[2].efficiency).toBeCloseTo((1.1e6 / 15) / (1e6 / 10), 14);
    expect(r.warnings.some((w) => /run 3 \(4 GPUs\) has 1100000 particles per GPU, the baseline 1000000/.test(w))).toBe(true);
  });

  it('repeated runs on a GPU count: the median run by throughput (the slower middle one of an even number), its spread, a warning above 10 %', () => {
    // 1 GPU: runs 1, 2, 3 at 10, 12, 9 s (median 10 s: run 1); 2 GPUs: runs 4, 5 at 5.5 and 5 s (slower middle: run 4)
    const r = buildScalingReport(study('strong', [[1, 10, 1e6], [1, 12, 1e6], [1, 9, 1e6], [2, 5.5, 1e6], [2, 5, 1e6], [4, 3, 1e6]]));
    expect(r.points.map((p) => [p.gpus, p.runId, p.repeats.runIds])).toEqual([[1, 1, [1, 2, 3]], [2, 4, [4, 5]], [4, 6, [6]]]);
    expect(r.points[0].repeats.particleStepsPerSecond).toEqual([1e8 / 10, 1e8 / 12, 1e8 / 9]);
    expect(r.points[0].repeats.spreadPercent).toBeCloseTo((100 * (1e8 / 9 - 1e8 / 12)) / (1e8 / 10), 12);
    expect(r.points[1].repeats.spreadPercent).toBeCloseTo((100 * (1e8 / 5 - 1e8 / 5.5)) / (1e8 / 5.5), 12);
    expect(r.points[2].repeats.spreadPercent).toBe(0);
    // speedups from the median runs
    expect(r.points[1].speedup).toBeCloseTo(10 / 5.5, 14);
    expect(r.fit!.points.map((p) => p.measuredSeconds)).toEqual([10, 5.5, 3]);
    // 1 GPU spreads by 27.8 %, 2 GPUs by 10 % (not above the limit)
    const spread = r.warnings.filter((w) => w.includes('differ by'));
    expect(spread).toEqual([expect.stringContaining('the 3 runs on 1 GPUs (1, 2, 3) differ by 27.8 % in throughput; the median run 1 is used')]);
  });

  it('uses the smallest GPU count as the baseline when there is no one-GPU run, and says so', () => {
    const r = buildScalingReport(study('strong', [[2, 5, 1e6], [4, 2.5, 1e6]]));
    expect(r.baselineGpus).toBe(2);
    expect(r.points.map((p) => p.speedup)).toEqual([2, 4]);
    expect(r.warnings[0]).toMatch(/smallest GPU count measured is 2/);
    expect(r.fitNote).toMatch(/two GPU counts/);
  });

  it('leaves out runs that did not complete, with the reason, and needs two GPU counts for a fit', () => {
    const input = study('strong', [[1, 10, 1e6], [2, 6, 1e6]]);
    input.runs[1].run = { ...input.runs[1].run, status: 'failed', reason: 'rank 1 crashed', summary: null };
    const r = buildScalingReport(input);
    expect(r.skipped).toEqual([{ runId: 2, gpus: 2, reason: 'it is failed (rank 1 crashed); only completed runs are measured' }]);
    expect(r.points.length).toBe(1);
    expect(r.fit).toBeNull();
    expect(r.fitNote).toMatch(/at least two GPU counts, the study has 1/);
  });

  it('phase table per GPU count: mean and max over ranks, AVG x Call, exchange included', () => {
    const phases: PhaseRecord[] = [
      { rank: 0, phase: 'move', calls: 100, totalSeconds: 1.0, minSeconds: 0.009, maxSeconds: 0.011 },
      { rank: 0, phase: 'exchange', calls: 100, totalSeconds: 0.2, minSeconds: 0.001, maxSeconds: 0.003 },
      { rank: 1, phase: 'move', calls: 100, totalSeconds: 1.4, minSeconds: 0.013, maxSeconds: 0.015 },
      { rank: 1, phase: 'exchange', calls: 100, totalSeconds: 0.6, minSeconds: 0.005, maxSeconds: 0.007 },
    ];
    const r = buildScalingReport(study('strong', [[1, 4, 1e6], [2, 2.5, 1e6]], [{}, { phases }]));
    expect(r.phaseNames).toEqual(['move', 'exchange']);
    const ex = r.points[1].phases.find((p) => p.phase === 'exchange')!;
    expect(ex.avgSeconds).toBeCloseTo(0.4, 14);
    expect(ex.maxSeconds).toBe(0.6);
    expect(ex.avgPerCallSeconds).toBeCloseTo(0.004, 14);
    expect(r.points[1].otherSeconds).toBeCloseTo(2.5 - 1.2 - 0.4, 14);
  });
});

describe('load balance from per-rank steps', () => {
  it('UN per step, mean and max over steps, communication and waits', () => {
    expect(loadNonUniformityPercent([90, 110])).toBeCloseTo(20, 12);
    expect(loadNonUniformityPercent([5])).toBe(0);
    expect(loadNonUniformityPercent([0, 0])).toBeNull();
    const rows: RankStepRecord[] = [
      { rank: 0, step: 1, particles: 90, sent: 3, received: 5, waitSeconds: 0.1 },
      { rank: 1, step: 1, particles: 110, sent: 5, received: 3, waitSeconds: 0.0 },
      { rank: 1, step: 2, particles: 120, sent: 2, received: 4, waitSeconds: 0.3 },
      { rank: 0, step: 2, particles: 80, sent: 4, received: 2, waitSeconds: 0.2 },
      { rank: 0, step: 3, particles: 100, sent: 9, received: 9, waitSeconds: 9 },
    ];
    const b = rankBalance(rows, 2);
    expect(b.steps).toBe(2);
    expect(b.incompleteSteps).toBe(1);
    expect(b.loadNonUniformity!.meanPercent).toBeCloseTo(30, 12);
    expect(b.loadNonUniformity!.maxPercent).toBeCloseTo(40, 12);
    expect(b.communicated).toEqual({ meanPerStep: 7, maxPerStep: 8, meanFractionOfParticles: 7 / 200 });
    expect(b.waitSeconds!.mean).toBeCloseTo(0.3, 14);
    expect(b.waitSeconds!.max).toBeCloseTo(0.3, 14);
    expect(b.perRank).toEqual([
      { rank: 0, meanParticles: 85, sentPerStep: 3.5, receivedPerStep: 3.5, waitSeconds: b.perRank[0].waitSeconds },
      { rank: 1, meanParticles: 115, sentPerStep: 3.5, receivedPerStep: 3.5, waitSeconds: b.perRank[1].waitSeconds },
    ]);
    expect(b.perRank.map((t) => t.waitSeconds)).toEqual([0.1 + 0.2, 0.0 + 0.3]);
    expect(b.unSeries.map(([step, un]) => [step, Number(un.toFixed(9))])).toEqual([[1, 20], [2, 40]]);
    const r = buildScalingReport(study('strong', [[1, 4, 200], [2, 2.5, 200]], [{}, { rankSteps: rows }]));
    expect(r.points[1].balance.loadNonUniformity!.meanPercent).toBeCloseTo(30, 12);
    expect(r.warnings.some((w) => /run 2: 1 step\(s\) lack some rank's row/.test(w))).toBe(true);
  });

  it('keeps every k-th step of long runs in the UN series, and handles more steps than a call takes arguments', () => {
    const rows: RankStepRecord[] = [];
    for (let step = 1; step <= 150_000; step++) {
      rows.push({ rank: 0, step, particles: 100 + (step % 7), sent: 1, received: 1, waitSeconds: 0 });
      rows.push({ rank: 1, step, particles: 100, sent: 1, received: 1, waitSeconds: 0 });
    }
    const b = rankBalance(rows, 2);
    expect(b.steps).toBe(150_000);
    expect(b.unSeriesStride).toBe(150);
    expect(b.unSeries.length).toBe(1000);
    expect(b.unSeries[1][0]).toBe(151);
    // the largest UN: rank 0 has 106 at steps 6, 13, ...: (106 - 100) / 103 * 100
    expect(b.loadNonUniformity!.maxPercent).toBeCloseTo((6 / 103) * 100, 12);
    expect(b.communicated!.maxPerStep).toBe(2);
  });
});
