// Fewer points for the live view's charts (src-main/common/charts/thin-steps.ts): short series unchanged, long ones
// as at most `max` bin means at each bin's last step, the mean level kept.
import { describe, expect, it } from 'vitest';
import { thinPoints, thinSteps } from '../../src-main/common/charts/thin-steps.js';

describe('thinSteps and thinPoints', () => {
  it('keeps a series of at most max points as it is', () => {
    const steps = Array.from({ length: 10 }, (_, i) => ({ step: i + 1, particles: 100, injected: 0, collisions: i, candidates: 2 * i }));
    expect(thinSteps(steps, 10)).toBe(steps);
    expect(thinPoints([[0, 1], [1, 2]], 2)).toEqual([[0, 1], [1, 2]]);
  });

  it('averages bins of consecutive points into at most max points, each at its bin\'s last step', () => {
    const steps = Array.from({ length: 100_000 }, (_, i) => ({ step: i + 1, particles: 1000 + (i % 2), injected: 0, collisions: i % 10, candidates: 3 }));
    const thin = thinSteps(steps, 1500);
    expect(thin.length).toBeLessThanOrEqual(1500);
    expect(thin.at(-1)!.step).toBe(100_000);
    expect(thin[0].step).toBe(Math.ceil(100_000 / 1500));
    // the mean level survives: 1000.5 particles, 4.5 collisions per step
    const mean = (k: 'particles' | 'collisions') => thin.reduce((s, x) => s + x[k], 0) / thin.length;
    expect(mean('particles')).toBeCloseTo(1000.5, 1);
    expect(mean('collisions')).toBeCloseTo(4.5, 0);
    const points = Array.from({ length: 5000 }, (_, i) => [i, i % 2] as [number, number]);
    const p = thinPoints(points, 1000);
    expect(p).toHaveLength(1000);
    expect(p[0]).toEqual([4, 0.4]);
    expect(p.at(-1)![0]).toBe(4999);
  });
});
