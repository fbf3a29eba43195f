// Fewer points for the live view's charts: a long run records a step statistic per step (hundreds of thousands),
// and redrawing them all a few times a second keeps the page from answering (issue 27). Bins of consecutive
// points are averaged, so the trend and the mean level stay true (the noise of single steps is smoothed).
import type { StepRecord } from '../run-record.js';

/** Most points a live chart draws per series. */
export const LIVE_CHART_POINTS = 1500;

/** The step records in at most `max` points: the means of bins of consecutive steps, each at its bin's last step. */
export function thinSteps(steps: readonly StepRecord[], max = LIVE_CHART_POINTS): StepRecord[] {
  if (steps.length <= max) return steps as StepRecord[];
  const per = Math.ceil(steps.length / max);
  const out: StepRecord[] = [];
  for (let i = 0; i < steps.length; i += per) {
    const bin = steps.slice(i, i + per);
    const mean = (k: 'particles' | 'injected' | 'collisions' | 'candidates') => bin.reduce((s, x) => s + x[k], 0) / bin.length;
    out.push({ step: bin[bin.length - 1].step, particles: mean('particles'), injected: mean('injected'), collisions: mean('collisions'), candidates: mean('candidates') });
  }
  return out;
}

/** [x, y] points in at most `max` points: the means of bins of consecutive points. */
export function thinPoints(points: readonly [number, number][], max = LIVE_CHART_POINTS): [number, number][] {
  if (points.length <= max) return points as [number, number][];
  const per = Math.ceil(points.length / max);
  const out: [number, number][] = [];
  for (let i = 0; i < points.length; i += per) {
    const bin = points.slice(i, i + per);
    out.push([bin[bin.length - 1][0], bin.reduce((s, p) => s + p[1], 0) / bin.length]);
  }
  return out;
}
