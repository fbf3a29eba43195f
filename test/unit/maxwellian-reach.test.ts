// maxwellianReach (physics.ts): the molecules of a drifting Maxwellian that cross a plane faster than a speed, weighted
// by the excess, which the first guess of a rank's halo depth uses; against a direct numerical integral of the 1D
// Maxwellian and against maxwellianFlux at speed 0.
import { describe, expect, it } from 'vitest';
import { maxwellianFlux, maxwellianReach, mostProbableSpeed } from '../../src-main/common/physics.js';

const n = 1e21;
const T = 300;
const m = 6.63e-26;
const cmp = mostProbableSpeed(T, m);

/** n * integral over v > speed of (v - speed) f(v) dv, f the 1D Maxwellian drifting at u (Simpson's rule on a fine grid). */
function integral(u: number, speed: number): number {
  const lo = Math.max(speed, u - 12 * cmp);
  const hi = Math.max(lo, u + 12 * cmp);
  const steps = 20_000;
  const h = (hi - lo) / steps;
  const f = (v: number) => (v - speed) * Math.exp(-(((v - u) / cmp) ** 2)) / (cmp * Math.sqrt(Math.PI));
  let sum = f(lo) + f(hi);
  for (let k = 1; k < steps; k++) sum += (k % 2 === 1 ? 4 : 2) * f(lo + k * h);
  return (n * sum * h) / 3;
}

describe('maxwellianReach', () => {
  it('is maxwellianFlux at speed 0, with and against a drift', () => {
    for (const u of [0, 0.7 * cmp, -1.3 * cmp, 5 * cmp]) {
      expect(maxwellianReach(n, T, m, u, 0) / maxwellianFlux(n, T, m, u)).toBeCloseTo(1, 6);
    }
  });

  it('matches the integral of the excess speed over the tail (1e-5 relative, far tails 1e-3)', () => {
    for (const [u, speed, tol] of [[0, cmp, 1e-5], [0, 3 * cmp, 1e-5], [cmp, 2 * cmp, 1e-5], [-cmp, 0.5 * cmp, 1e-5], [0, 6 * cmp, 1e-3], [2 * cmp, 8 * cmp, 1e-3]]) {
      const exact = integral(u, speed);
      expect(exact).toBeGreaterThan(0);
      expect(Math.abs(maxwellianReach(n, T, m, u, speed) / exact - 1)).toBeLessThan(tol);
    }
  });

  it('a fast flow far below the speed threshold: n (u - speed)', () => {
    expect(maxwellianReach(n, T, m, 20 * cmp, 5 * cmp) / (n * 15 * cmp)).toBeCloseTo(1, 9);
  });
});
