// The profiling report of one run as data: who/what/where (run, case, adapter, tags, notes), the phase
// table, throughput, time per particle, collision statistics, conservation and host timings, the surface
// loads (bodies and walls, for runs that sampled them), and the per-step series. Every exporter (HTML, CSV, JSON, PDF) and later the renderer format this one model.
import type { CaseRecord, PhaseRecord, RunRecord, StepRecord, TotalsRecord } from '../run-record.js';
import type { CompositionSummary, ReactionsSummary, TimingSource } from '../run-summary.js';
import { caseKeyFields, type CaseField } from './case-fields.js';
import { buildPhaseTable, type PhaseTable } from './phase-table.js';
import { surfaceLoadsOf, type SurfaceLoads } from './surface-loads.js';

/** The records a profile is built from (what the run database holds for one run). */
export interface ProfileInput {
  run: RunRecord;
  caseRecord: CaseRecord;
  phases: PhaseRecord[];
  steps: StepRecord[];
  totals: TotalsRecord[];
}

/** Throughput and collision statistics of the run. */
export interface ProfileThroughput {
  steps: number;
  meanParticles: number;
  particleSteps: number;
  particleStepsPerSecond: number | null;
  /** Loop seconds / particle-steps: the inverse of the throughput. */
  secondsPerParticleStep: number | null;
  /** Loop seconds / mean particle count (PHYSICS.md "time per particle"). */
  loopSecondsPerParticle: number | null;
  collisionsPerParticleStep: number;
  candidatesPerParticleStep: number;
}

/** Conservation over the run; a drift is null where the boundaries exchange that quantity (with the reason). */
export interface ProfileConservation {
  particlesStart: number;
  particlesEnd: number;
  momentumRelDrift: number | null;
  energyRelDrift: number | null;
  momentumNote: string;
  energyNote: string;
}

/** The profiling report of one run. */
export interface ProfileReport {
  kind: 'dsmc-profile-report';
  version: 1;
  run: Pick<RunRecord, 'id' | 'project' | 'status' | 'reason' | 'startedAt' | 'endedAt' | 'seed' | 'ranks' | 'gpus' | 'productVersion' | 'tags' | 'notes'>;
  adapter: { description: string; backend: string };
  case: { id: number; name: string; hash: string; keyFields: CaseField[]; json: unknown };
  timing: TimingSource | null;
  /** GPU timestamps on one call in this many of each phase (null: every call, or no timestamps). */
  timedEvery: number | null;
  phaseTable: PhaseTable;
  throughput: ProfileThroughput;
  conservation: ProfileConservation | null;
  host: { encodeSeconds: number; waitSeconds: number; readbackSeconds: number; foldSeconds?: number; submits: number } | null;
  memory: { capacity: number; bytesPerParticle: number } | null;
  sampling: { samples: number; fieldsSha256: string } | null;
  /** Loads per body and mean loads per domain face; null for runs without surface results (recorded before them). */
  surface: SurfaceLoads | null;
  /** The gas's composition (mean mole fractions, particles per species over time); null for runs recorded before it. */
  composition: CompositionSummary | null;
  /** A reacting run's reactions (counts, chemical energy); null without reactions. */
  reactions: ReactionsSummary | null;
  steps: StepRecord[];
  totals: TotalsRecord[];
}

/** Sums of the step records: particle-steps, collisions and candidates. */
function stepSums(steps: StepRecord[]) {
  let particleSteps = 0, collisions = 0, candidates = 0;
  for (const s of steps) {
    particleSteps += s.particles;
    collisions += s.collisions;
    candidates += s.candidates;
  }
  return { particleSteps, collisions, candidates };
}

/** Throughput from the summary when the run completed, from the step records otherwise. */
function throughputOf(input: ProfileInput): ProfileThroughput {
  const s = input.run.summary;
  if (s) {
    return {
      steps: s.steps,
      meanParticles: s.meanParticles,
      particleSteps: s.particleSteps,
      particleStepsPerSecond: s.particleStepsPerSecond,
      secondsPerParticleStep: s.particleSteps > 0 ? s.seconds / s.particleSteps : null,
      loopSecondsPerParticle: s.meanParticles > 0 ? s.seconds / s.meanParticles : null,
      collisionsPerParticleStep: s.collisionsPerParticleStep,
      candidatesPerParticleStep: s.candidatesPerParticleStep,
    };
  }
  const sums = stepSums(input.steps);
  const n = input.steps.length;
  return {
    steps: n,
    meanParticles: n > 0 ? sums.particleSteps / n : 0,
    particleSteps: sums.particleSteps,
    particleStepsPerSecond: null,
    secondsPerParticleStep: null,
    loopSecondsPerParticle: null,
    collisionsPerParticleStep: sums.particleSteps > 0 ? sums.collisions / sums.particleSteps : 0,
    candidatesPerParticleStep: sums.particleSteps > 0 ? sums.candidates / sums.particleSteps : 0,
  };
}

/** Conservation with a sentence for each drift that the boundaries make meaningless. */
function conservationOf(input: ProfileInput): ProfileConservation | null {
  const c = input.run.summary?.conservation;
  if (!c) return null;
  return {
    ...c,
    momentumNote: c.momentumRelDrift === null
      ? 'not conserved by these boundaries (walls or open faces exchange momentum)'
      : 'relative drift |delta p| / sum of m|v|',
    energyNote: c.energyRelDrift === null
      ? 'not conserved by these boundaries (diffuse, inflow or outflow faces exchange energy)'
      : 'relative drift |delta E| / E',
  };
}

/** Builds the profiling report of one run from its records. */
export function buildProfileReport(input: ProfileInput): ProfileReport {
  const { run, caseRecord } = input;
  const s = run.summary;
  const throughput = throughputOf(input);
  const phaseTable = buildPhaseTable(input.phases, {
    loopSeconds: s ? s.seconds : null,
    meanParticles: throughput.meanParticles > 0 ? throughput.meanParticles : null,
    particleSteps: throughput.particleSteps > 0 ? throughput.particleSteps : null,
  });
  return {
    kind: 'dsmc-profile-report',
    version: 1,
    run: {
      id: run.id, project: run.project, status: run.status, reason: run.reason, startedAt: run.startedAt, endedAt: run.endedAt,
      seed: run.seed, ranks: run.ranks, gpus: run.gpus, productVersion: run.productVersion, tags: [...run.tags], notes: run.notes,
    },
    adapter: { ...run.adapter },
    case: { id: caseRecord.id, name: caseRecord.name, hash: caseRecord.hash, keyFields: caseKeyFields(caseRecord.json), json: caseRecord.json },
    timing: s ? s.timing : null,
    timedEvery: s?.timedEvery ?? null,
    phaseTable,
    throughput,
    conservation: conservationOf(input),
    host: s ? { ...s.host } : null,
    memory: s ? { capacity: s.capacity, bytesPerParticle: s.bytesPerParticle } : null,
    sampling: s ? { samples: s.samples, fieldsSha256: s.fieldsSha256 } : null,
    surface: surfaceLoadsOf(s?.surface, caseRecord.json),
    composition: s?.composition ?? null,
    reactions: s?.reactions ?? null,
    steps: input.steps,
    totals: input.totals,
  };
}
