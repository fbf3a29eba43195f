// A stats line every few seconds of wall time during a run (SPARTA's `stats N` output), for runs without a terminal
// (batch jobs, pipes) where the progress bar stays off: step, particles, collisions per step since the last line,
// and the gas's translational temperature about its mean velocity, from one particle reduction on the GPU per line.
import { BOLTZMANN } from '../common/physics.js';
import { moleFractions, type Case } from '../common/case-schema.js';
import type { BatchReport } from './loop-types.js';
import type { ParticleTotals } from './phases/conservation.js';

/** One stats line's numbers. */
export interface LiveStats {
  step: number;
  steps: number;
  particles: number;
  /** Mean collision events per step since the previous line. */
  collisionsPerStep: number;
  /** Translational temperature of all particles about their common mean velocity, K (NaN without particles). */
  temperature: number;
  elapsedSeconds: number;
}

/** When to print and where. */
export interface LiveStatsOptions {
  everySeconds: number;
  onStats: (s: LiveStats) => void;
}

/**
 * The temperature of the totals: (2/3) (KE - |P|^2 / 2M) / (N k), M the real mass with the mean molecular mass of the
 * case's initial composition (exact for one species; for a mixture whose composition drifts, approximate).
 */
export function totalsTemperature(t: ParticleTotals, fnum: number, meanMass: number): number {
  const n = t.particles * fnum;
  if (!(n > 0)) return NaN;
  const p2 = t.momentum[0] ** 2 + t.momentum[1] ** 2 + t.momentum[2] ** 2;
  return (2 / 3) * (t.kineticEnergy - p2 / (2 * n * meanMass)) / (n * BOLTZMANN);
}

/** The mean molecular mass of the case's initial composition, kg. */
export function meanMolecularMass(c: Case): number {
  const x = moleFractions(c, c.initial.fractions);
  return c.species.reduce((s, sp, i) => s + x[i] * sp.mass, 0);
}

/** An onBatch hook printing a stats line each `everySeconds` (reads the totals then); `totals` reduces the particles. */
export function liveStatsHook(c: Case, fnum: number, steps: number, o: LiveStatsOptions, totals: () => Promise<ParticleTotals>): (b: BatchReport) => Promise<void> {
  const start = performance.now();
  let last = start;
  let collisions = 0, counted = 0;
  const meanMass = meanMolecularMass(c);
  return async (b) => {
    for (const s of b.steps) { collisions += s.collisions; counted += 1; }
    const now = performance.now();
    if (b.steps.length === 0 || (now - last) / 1000 < o.everySeconds) return;
    const t = await totals();
    o.onStats({
      step: b.steps[b.steps.length - 1].step, steps, particles: b.particles, collisionsPerStep: counted > 0 ? collisions / counted : 0,
      temperature: totalsTemperature(t, fnum, meanMass), elapsedSeconds: (now - start) / 1000,
    });
    last = now;
    collisions = 0;
    counted = 0;
  };
}

/** One stats line: "step 1200/6000  particles 35210  collisions/step 812.4  T 301.2 K  elapsed 31 s". */
export function formatLiveStats(s: LiveStats): string {
  const T = Number.isFinite(s.temperature) ? `${s.temperature.toFixed(1)} K` : '-';
  return `step ${s.step}/${s.steps}  particles ${s.particles}  collisions/step ${s.collisionsPerStep.toFixed(1)}  T ${T}  elapsed ${s.elapsedSeconds.toFixed(0)} s`;
}
