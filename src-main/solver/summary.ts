// The run summary printed by `dsmc run --json` (and later stored in the run database).
import type { AdapterDescription } from './gpu/device.js';
import { fieldsSha256 } from './fields.js';
import { BOUNDARY_CODES, SURFACE_MODEL_CODES } from './gpu/struct-layouts.js';
import type { LoopResult } from './loop-types.js';
import type { ParticleTotals } from './phases/conservation.js';
import type { PhaseSummary, RunSummary } from '../common/run-summary.js';
import { isGapPhase } from '../common/reports/rank-time.js';
import { reactionsSummary } from './reaction-summary.js';

export type { PhaseSummary, RunSummary } from '../common/run-summary.js';

/** Builds the summary of a finished loop. */
export function summarize(name: string, r: LoopResult, adapter: AdapterDescription, gpuBytes: number): RunSummary {
  let particleSteps = 0, collisions = 0, candidates = 0;
  for (const s of r.stepStats) {
    particleSteps += s.particlesBefore;
    collisions += s.collisions;
    candidates += s.candidates;
  }
  const meanParticles = r.steps > 0 ? particleSteps / r.steps : r.end.particles;
  let phaseSeconds = 0;
  const phases: Record<string, PhaseSummary> = {};
  for (const [k, t] of r.phases) {
    if (!isGapPhase(k)) phaseSeconds += t.totalSeconds;
    phases[k] = {
      calls: t.calls,
      totalSeconds: t.totalSeconds,
      avgSeconds: t.totalSeconds / t.calls,
      minSeconds: t.minSeconds,
      maxSeconds: t.maxSeconds,
      percentOfLoop: r.seconds > 0 ? (100 * t.totalSeconds) / r.seconds : 0,
      secondsPerParticleStep: particleSteps > 0 ? t.totalSeconds / particleSteps : 0,
    };
  }
  const dp = r.end.momentum.map((p, i) => p - r.start.momentum[i]);
  const kinds = r.tables.faces.map((f) => f.kind);
  // bodies take momentum from the gas; specular bodies keep its energy
  const bodyKinds = r.tables.bodies.surfModels.slice(0, r.tables.bodies.nBodies).map((m) => m.kind);
  const momentumConserved = kinds.every((k) => k === BOUNDARY_CODES.periodic) && bodyKinds.length === 0;
  const energyConserved = kinds.every((k) => k === BOUNDARY_CODES.periodic || k === BOUNDARY_CODES.specular) &&
    bodyKinds.every((k) => k === SURFACE_MODEL_CODES.specular);
  // the energy the reactions took from the gas counts towards its end (a closed box keeps the sum)
  const reactions = reactionsSummary(r.tables.reactions, r.reactionCounts, r.tables.fnum);
  const endEnergy = totalEnergy(r.end) + (reactions?.chemicalEnergy ?? 0);
  return {
    case: name,
    steps: r.steps,
    particles: r.end.particles,
    meanParticles,
    particleSteps,
    seconds: r.seconds,
    particleStepsPerSecond: r.seconds > 0 ? particleSteps / r.seconds : 0,
    collisionsPerParticleStep: particleSteps > 0 ? collisions / particleSteps : 0,
    candidatesPerParticleStep: particleSteps > 0 ? candidates / particleSteps : 0,
    timing: r.timingSource,
    ...(r.timedEvery !== undefined && r.timedEvery > 1 ? { timedEvery: r.timedEvery } : {}),
    phases,
    otherSeconds: Math.max(0, r.seconds - phaseSeconds),
    host: r.host,
    ...(r.endOfRun && r.endOfRun.evaluateSeconds.length > 0 ? { endOfRun: r.endOfRun } : {}),
    conservation: {
      particlesStart: r.start.particles,
      particlesEnd: r.end.particles,
      momentumRelDrift: !momentumConserved ? null
        : r.start.momentumMagnitudeSum > 0 ? Math.hypot(dp[0], dp[1], dp[2]) / r.start.momentumMagnitudeSum : 0,
      energyRelDrift: !energyConserved ? null
        : totalEnergy(r.start) > 0 ? Math.abs(endEnergy - totalEnergy(r.start)) / totalEnergy(r.start) : 0,
    },
    ...(reactions ? { reactions } : {}),
    samples: r.samples,
    ...(r.tables.sampling && r.sampleKernel ? { sampleKernel: r.sampleKernel } : {}),
    fieldsSha256: fieldsSha256(r.fields),
    capacity: r.capacity,
    bytesPerParticle: r.end.particles > 0 ? gpuBytes / r.end.particles : 0,
    adapter: { description: adapter.description, backend: adapter.backend },
    ranks: 1,
    particlesPerRank: [r.end.particles],
    loadNonUniformity: 0,
    loadNonUniformityMean: 0,
  };
}

/** Kinetic plus rotational energy of the particles. */
function totalEnergy(t: ParticleTotals): number {
  return t.kineticEnergy + (t.internalEnergy ?? 0);
}
