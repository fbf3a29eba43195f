// The scaling model fitted to a study's loop times: an Amdahl-style serial fraction s plus a communication
// term c * g(n) with g(n) = log2(n) (0 on one GPU; grows like the depth of a reduction tree, the cost of the
// per-step agreement between ranks, while the per-rank neighbour exchange of a slab/block split stays about
// constant per step and is absorbed by s).
//   strong (same problem on n GPUs):   T(n) = T1 * (s + (1 - s) / n) + c * log2(n)
//   weak   (problem grown n times):    T(n) = T1 * (1 + s * (n - 1)) + c * log2(n)
// (weak: the serial work grows with the problem while the parallel part per GPU stays, Gustafson's view).
// Both are linear in non-negative coefficients: strong a + b/n + c log2 n with T1 = a + b, s = a / T1;
// weak p + q (n - 1) + c log2 n with T1 = p, s = q / p. They are fitted by non-negative least squares on
// the measured points (all three coefficients with three or more GPU counts; c fixed at 0 with two).
import type { StudyKind } from '../run-record.js';
import { nonNegativeLeastSquares, residualSquares } from './least-squares.js';

/** One measured point: GPU count and loop seconds (weak studies: normalised to the baseline's load per GPU). */
export interface FitPoint {
  gpus: number;
  seconds: number;
}

/** The fitted model, its residual and its prediction. */
export interface ScalingFit {
  kind: StudyKind;
  formula: string;
  /** The model's time on one GPU (seconds). */
  t1Seconds: number;
  serialFraction: number;
  /** The coefficient c of the communication term (seconds). */
  commSeconds: number;
  commTerm: 'log2(n)';
  /** Whether c was fitted (three or more GPU counts) or fixed at 0 (two). */
  commFitted: boolean;
  /** Root mean square of model - measured over the points (seconds), and that divided by the mean measured time. */
  rmsResidualSeconds: number;
  relativeRmsResidual: number;
  points: { gpus: number; measuredSeconds: number; modelSeconds: number; residualSeconds: number }[];
  /** Strong: the largest speedup any GPU count can give, 1/s (null when s = 0). */
  amdahlLimit: number | null;
  /** The model at twice the largest measured GPU count; speedup and efficiency against the model at the baseline. */
  prediction: ScalingPrediction;
  /** The model at twice and four times the largest measured GPU count (8 and 16 after a 4-GPU study): predictions, not measurements. */
  predictions: ScalingPrediction[];
}

/** What the model predicts on a GPU count that was not measured. */
export interface ScalingPrediction {
  gpus: number;
  seconds: number;
  speedup: number;
  efficiency: number;
}

/** The basis functions of the model at n GPUs (the coefficients multiply them). */
function basis(kind: StudyKind, n: number): [number, number, number] {
  return kind === 'strong' ? [1, 1 / n, Math.log2(n)] : [1, n - 1, Math.log2(n)];
}

/** T(n) of a fitted model. */
export function modelSeconds(fit: Pick<ScalingFit, 'kind' | 't1Seconds' | 'serialFraction' | 'commSeconds'>, n: number): number {
  const { t1Seconds: t1, serialFraction: s, commSeconds: c } = fit;
  const compute = fit.kind === 'strong' ? t1 * (s + (1 - s) / n) : t1 * (1 + s * (n - 1));
  return compute + c * Math.log2(n);
}

/** Speedup and efficiency of time `t` on n GPUs against time `t0` on n0 GPUs (strong: S = n0 t0 / t, E = S / n; weak: E = t0 / t, S = n E). */
export function speedupAndEfficiency(kind: StudyKind, n0: number, t0: number, n: number, t: number): { speedup: number; efficiency: number } {
  if (kind === 'strong') {
    const speedup = (n0 * t0) / t;
    return { speedup, efficiency: speedup / n };
  }
  const efficiency = t0 / t;
  return { speedup: n * efficiency, efficiency };
}

/** Fits the model to the points (distinct GPU counts); null with fewer than two points. */
export function fitScalingModel(kind: StudyKind, points: FitPoint[]): ScalingFit | null {
  const pts = [...points].sort((a, b) => a.gpus - b.gpus);
  if (pts.length < 2) return null;
  const commFitted = pts.length >= 3;
  const a = pts.map((p) => (commFitted ? basis(kind, p.gpus) : basis(kind, p.gpus).slice(0, 2)));
  const b = pts.map((p) => p.seconds);
  const x = nonNegativeLeastSquares(a, b);
  if (!x) return null;
  const [k0, k1, c = 0] = x;
  const t1Seconds = kind === 'strong' ? k0 + k1 : k0;
  const serialFraction = t1Seconds > 0 ? (kind === 'strong' ? k0 : k1) / t1Seconds : 0;
  const shape = { kind, t1Seconds, serialFraction, commSeconds: c };
  const fitted = pts.map((p) => {
    const m = modelSeconds(shape, p.gpus);
    return { gpus: p.gpus, measuredSeconds: p.seconds, modelSeconds: m, residualSeconds: m - p.seconds };
  });
  const rms = Math.sqrt(residualSquares(a, x.slice(0, a[0].length), b) / pts.length);
  const meanT = b.reduce((s, v) => s + v, 0) / b.length;
  const n0 = pts[0].gpus;
  const largest = pts[pts.length - 1].gpus;
  const predictions = [2 * largest, 4 * largest].map((gpus) => {
    const seconds = modelSeconds(shape, gpus);
    return { gpus, seconds, ...speedupAndEfficiency(kind, n0, modelSeconds(shape, n0), gpus, seconds) };
  });
  return {
    ...shape,
    formula: kind === 'strong' ? 'T(n) = T1 * (s + (1 - s) / n) + c * log2(n)' : 'T(n) = T1 * (1 + s * (n - 1)) + c * log2(n)',
    commTerm: 'log2(n)',
    commFitted,
    rmsResidualSeconds: rms,
    relativeRmsResidual: meanT > 0 ? rms / meanT : 0,
    points: fitted,
    amdahlLimit: kind === 'strong' && serialFraction > 0 ? 1 / serialFraction : null,
    prediction: predictions[0],
    predictions,
  };
}
