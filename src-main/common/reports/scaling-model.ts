// The scaling report of a study as data: per GPU count the loop time T(n), particle-steps/s in total and per
// GPU, speedup and efficiency against the smallest GPU count of the study (the baseline n0), the phase table
// (AVG x Call, mean and max over ranks; "exchange" included), load non-uniformity UN per step, particles
// communicated per step, and the fitted model with its prediction (scaling-fit.ts).
//   strong: S(n) = n0 T(n0) / T(n), E(n) = S(n) / n (PHYSICS.md with n0 = 1).
//   weak:   E(n) = R(n) / R(n0) with R = particle-steps/s per GPU, i.e. T_p(n0) / T_np(n) with both times
//           normalised to the baseline's particle-steps per GPU, so small differences in the particle count per
//           GPU do not bias it; the scaled speedup is n E(n).
// Ideal is S(n) = n and E(n) = 1 for both. A GPU count run several times (repeats) is represented by its median
// run by throughput (of an even number, the slower of the two middle ones), its spread reported beside it.
// Every exporter (HTML, CSV, JSON, PDF) formats this one model.
import type { PhaseRecord, RankStepRecord, RunRecord, StudyRecord } from '../run-record.js';
import { buildPhaseTable, type PhaseRow } from './phase-table.js';
import { rankBalance, type RankBalance } from './rank-balance.js';
import { rankTimes, type RankTime } from './rank-time.js';
import { fitScalingModel, speedupAndEfficiency, type ScalingFit } from './scaling-fit.js';

/** Spread of repeated runs (percent of the median's throughput) above which the report warns. */
const REPEAT_SPREAD_WARN_PERCENT = 10;

/** What one run of the study contributes. */
export interface ScalingRunInput {
  gpus: number;
  run: RunRecord;
  phases: PhaseRecord[];
  rankSteps: RankStepRecord[];
}

/** The records a scaling report is built from. */
export interface ScalingInput {
  study: Omit<StudyRecord, 'runs'>;
  runs: ScalingRunInput[];
}

/** Every completed run on one GPU count: ids and throughputs in id order, and their spread. */
export interface ScalingRepeats {
  runIds: number[];
  particleStepsPerSecond: number[];
  /** (fastest - slowest) / the median run's throughput, in percent; 0 for one run. */
  spreadPercent: number;
}

/** One GPU count of the study. */
export interface ScalingPoint {
  gpus: number;
  /** The run this point shows: the only one, or the median of the repeats. */
  runId: number;
  repeats: ScalingRepeats;
  ranks: number;
  steps: number;
  meanParticles: number;
  particlesPerGpu: number;
  particleSteps: number;
  loopSeconds: number;
  /** The time the speedup, efficiency and fit use: strong the loop time; weak the loop time scaled to the baseline's particle-steps per GPU. */
  scaledSeconds: number;
  particleStepsPerSecond: number;
  particleStepsPerSecondPerGpu: number;
  speedup: number;
  efficiency: number;
  idealSpeedup: number;
  /** The phase table of the run (min/avg/max over ranks) and the loop time outside every phase. */
  phases: PhaseRow[];
  /** Per rank and phase: calls, total seconds and AVG x Call (ranks, then phases in loop order). */
  rankPhases: { rank: number; phase: string; calls: number; totalSeconds: number; avgPerCallSeconds: number }[];
  otherSeconds: number;
  /** Per rank, its mean step: wall time, GPU work, GPU waiting, host exchange (empty without GPU timestamps). */
  rankTime: RankTime[];
  /** GPU timestamps on one call in this many of each phase (the phases' and the GPU work's seconds are estimates); null: every call. */
  timedEvery: number | null;
  /** UN, communication and waiting from the per-rank steps; UN is 0 on one rank; null parts where nothing was recorded. */
  balance: RankBalance;
}

/** A run of the study that the report leaves out, and why. */
export interface SkippedRun {
  runId: number;
  gpus: number;
  reason: string;
}

/** The scaling report of one study. */
export interface ScalingReport {
  kind: 'dsmc-scaling-report';
  version: 1;
  study: Omit<StudyRecord, 'runs'>;
  baselineGpus: number | null;
  points: ScalingPoint[];
  /** Every phase of any run, in loop order of first appearance. */
  phaseNames: string[];
  fit: ScalingFit | null;
  /** Why there is no fit, or what was simplified (null when nothing to say). */
  fitNote: string | null;
  skipped: SkippedRun[];
  warnings: string[];
}

/** The study's own fields (a StudyRecord's runs left out). */
function studyHeader(s: Omit<StudyRecord, 'runs'>): Omit<StudyRecord, 'runs'> {
  return { id: s.id, name: s.name, kind: s.kind, project: s.project, caseName: s.caseName, caseHash: s.caseHash, createdAt: s.createdAt, notes: s.notes };
}

/** The balance of a run: measured from its rank steps, or exact zeros for one rank without rows. */
function balanceOf(r: ScalingRunInput): RankBalance {
  const b = rankBalance(r.rankSteps, r.run.ranks);
  if (r.run.ranks === 1 && b.steps === 0) {
    return { ...b, loadNonUniformity: { meanPercent: 0, maxPercent: 0 }, communicated: { meanPerStep: 0, maxPerStep: 0, meanFractionOfParticles: 0 } };
  }
  return b;
}

/** Particle-steps per second of a completed run. */
function throughputOf(r: ScalingRunInput): number {
  return r.run.summary!.particleSteps / r.run.summary!.seconds;
}

/** The completed runs grouped by GPU count (ascending), each group's median run by throughput and its repeats. */
function medianRuns(used: ScalingRunInput[]): { run: ScalingRunInput; repeats: ScalingRepeats }[] {
  const groups = new Map<number, ScalingRunInput[]>();
  for (const r of used) groups.set(r.gpus, [...(groups.get(r.gpus) ?? []), r]);
  return [...groups.keys()].sort((a, b) => a - b).map((gpus) => {
    const runs = groups.get(gpus)!.sort((a, b) => a.run.id - b.run.id);
    const bySpeed = [...runs].sort((a, b) => throughputOf(a) - throughputOf(b));
    const median = bySpeed[(bySpeed.length - 1) >> 1];
    const speeds = runs.map(throughputOf);
    const spreadPercent = (100 * (Math.max(...speeds) - Math.min(...speeds))) / throughputOf(median);
    return { run: median, repeats: { runIds: runs.map((r) => r.run.id), particleStepsPerSecond: speeds, spreadPercent } };
  });
}

/** A point without speedup and efficiency (filled in against the baseline later). */
function pointOf(r: ScalingRunInput, repeats: ScalingRepeats): ScalingPoint {
  const s = r.run.summary!;
  const table = buildPhaseTable(r.phases, { loopSeconds: s.seconds, meanParticles: s.meanParticles, particleSteps: s.particleSteps });
  const pss = s.particleSteps / s.seconds;
  const rankPhases = [...r.phases].sort((a, b) => a.rank - b.rank).map((x) => ({
    rank: x.rank, phase: x.phase, calls: x.calls, totalSeconds: x.totalSeconds, avgPerCallSeconds: x.calls > 0 ? x.totalSeconds / x.calls : 0,
  }));
  return {
    gpus: r.gpus, runId: r.run.id, repeats, ranks: r.run.ranks, steps: s.steps, meanParticles: s.meanParticles, particlesPerGpu: s.meanParticles / r.gpus,
    particleSteps: s.particleSteps, loopSeconds: s.seconds, scaledSeconds: s.seconds, particleStepsPerSecond: pss,
    particleStepsPerSecondPerGpu: pss / r.gpus, speedup: NaN, efficiency: NaN, idealSpeedup: r.gpus,
    phases: table.rows, otherSeconds: table.other.seconds, balance: balanceOf(r),
    rankPhases, rankTime: rankTimes(rankPhases, s.seconds, s.steps, s.timing === 'gpu-timestamps'),
    timedEvery: s.timedEvery ?? null,
  };
}

/** Why a run cannot be a point of the report, or null when it can. */
function skipReason(r: ScalingRunInput): string | null {
  if (r.run.status !== 'completed') return `it is ${r.run.status}${r.run.reason ? ` (${r.run.reason})` : ''}; only completed runs are measured`;
  const s = r.run.summary;
  if (!s) return 'it has no summary';
  if (!(s.seconds > 0) || !(s.particleSteps > 0)) return `its loop time (${s.seconds} s) or particle-steps (${s.particleSteps}) is not positive`;
  return null;
}

/** Warnings about points that make the comparison less fair (differing problems, loads, missing rank data). */
function pointWarnings(input: ScalingInput, points: ScalingPoint[], runs: ScalingRunInput[]): string[] {
  const out: string[] = [];
  const base = points[0];
  const kind = input.study.kind;
  for (const [i, p] of points.entries()) {
    const run = runs[i].run;
    if (kind === 'strong' && run.caseHash !== input.study.caseHash) {
      out.push(`run ${p.runId} (${p.gpus} GPUs) ran another case (hash ${run.caseHash.slice(0, 12)}...) than the study's (${input.study.caseHash.slice(0, 12)}...); strong scaling compares one problem`);
    }
    if (kind === 'strong' && Math.abs(p.particleSteps / base.particleSteps - 1) > 0.01) {
      out.push(`run ${p.runId} (${p.gpus} GPUs) did ${p.particleSteps} particle-steps, the baseline run ${base.runId} ${base.particleSteps}; strong scaling compares one problem (speedups use loop times as measured)`);
    }
    if (kind === 'weak' && Math.abs(p.particlesPerGpu / base.particlesPerGpu - 1) > 0.05) {
      out.push(`run ${p.runId} (${p.gpus} GPUs) has ${p.particlesPerGpu.toFixed(0)} particles per GPU, the baseline ${base.particlesPerGpu.toFixed(0)}; weak scaling keeps the load per GPU constant (efficiency uses throughput per GPU)`);
    }
    if (run.gpus !== p.gpus) out.push(`run ${p.runId} is in the study on ${p.gpus} GPUs but recorded ${run.gpus} GPU(s) (ranks sharing an adapter?)`);
    if (p.ranks > 1 && p.balance.steps === 0) out.push(`run ${p.runId} (${p.gpus} GPUs) kept no per-rank steps: UN and particles communicated are unknown`);
    if (p.balance.incompleteSteps > 0) out.push(`run ${p.runId}: ${p.balance.incompleteSteps} step(s) lack some rank's row and were left out of UN and communication`);
    if (p.phases.length === 0) out.push(`run ${p.runId} (${p.gpus} GPUs) has no phase timings (timing off?)`);
    if (p.repeats.spreadPercent > REPEAT_SPREAD_WARN_PERCENT) {
      out.push(`the ${p.repeats.runIds.length} runs on ${p.gpus} GPUs (${p.repeats.runIds.join(', ')}) differ by ${p.repeats.spreadPercent.toFixed(1)} % in throughput; ` +
        `the median run ${p.runId} is used: check that nothing else ran on the GPUs and host, or repeat more often (dsmc study --repeat N)`);
    }
  }
  return out;
}

/** Builds the scaling report of a study from its runs' records. */
export function buildScalingReport(input: ScalingInput): ScalingReport {
  const skipped: SkippedRun[] = [];
  const used: ScalingRunInput[] = [];
  for (const r of [...input.runs].sort((a, b) => a.gpus - b.gpus)) {
    const why = skipReason(r);
    if (why) skipped.push({ runId: r.run.id, gpus: r.gpus, reason: why });
    else used.push(r);
  }
  const chosen = medianRuns(used);
  const points = chosen.map((c) => pointOf(c.run, c.repeats));
  const kind = input.study.kind;
  const base = points[0];
  if (base) {
    const loadPerGpu = base.particleSteps / base.gpus;
    for (const p of points) {
      p.scaledSeconds = kind === 'strong' ? p.loopSeconds : loadPerGpu / p.particleStepsPerSecondPerGpu;
      Object.assign(p, speedupAndEfficiency(kind, base.gpus, base.scaledSeconds, p.gpus, p.scaledSeconds));
    }
  }
  const warnings = base ? pointWarnings(input, points, chosen.map((c) => c.run)) : [];
  if (base && base.gpus !== 1) {
    warnings.unshift(`the smallest GPU count measured is ${base.gpus}: speedups and efficiencies are relative to it, assuming ideal scaling up to ${base.gpus} GPUs`);
  }
  const fit = fitScalingModel(kind, points.map((p) => ({ gpus: p.gpus, seconds: p.scaledSeconds })));
  const fitNote = points.length < 2
    ? `no model: it needs completed runs on at least two GPU counts, the study has ${points.length}`
    : points.length === 2 ? `two GPU counts: only T1 and ${kind === 'weak' ? 'the time added per extra GPU s' : 'the serial fraction'} are fitted (c = 0); add a third GPU count to fit the communication term` : null;
  const phaseNames: string[] = [];
  for (const p of points) for (const row of p.phases) if (!phaseNames.includes(row.phase)) phaseNames.push(row.phase);
  return { kind: 'dsmc-scaling-report', version: 1, study: studyHeader(input.study), baselineGpus: base?.gpus ?? null, points, phaseNames, fit, fitNote, skipped, warnings };
}
