// Hand-built run records for the report tests (no GPU, no database): a two-rank run with phase timings,
// step statistics, totals and fields, and user text that must be escaped; surface results of two bodies.
import { FIELD_NAMES, type FieldName } from '../../src-main/common/field-names.js';
import type { CaseRecord, FieldSet, PhaseRecord, RunRecord, StepRecord, TotalsRecord } from '../../src-main/common/run-record.js';
import type { RunSummary, SurfaceSummary } from '../../src-main/common/run-summary.js';
import type { ProfileInput } from '../../src-main/common/reports/profile-model.js';
import { seededUniform } from '../seeded-random.js';

/** Text with HTML-active characters, as a user might type it. */
export const NASTY = '<script>alert("x")</script> & <b>bold</b>';

/** A validated-looking case. */
export function sampleCase(overrides: { seed?: number; wallT?: number; name?: string } = {}): CaseRecord {
  return {
    id: 7,
    name: overrides.name ?? 'box & <friends>',
    hash: 'ab'.repeat(32),
    json: {
      name: overrides.name ?? 'box & <friends>',
      grid: { cells: [4, 3, 2], cellSize: [1e-5, 2e-5, 3e-5] },
      species: [{ name: 'Ar', mass: 6.63e-26, dRef: 4.11e-10, omega: 0.81, tRef: 273.15, alpha: 1.4 }],
      particles: { perCell: 10 },
      initial: { kind: 'maxwellian', numberDensity: 7e22, temperature: 273.15, velocity: [0, 0, 0] },
      boundaries: {
        xmin: { type: 'specular' }, xmax: { type: 'specular' }, ymin: { type: 'periodic' }, ymax: { type: 'periodic' },
        zmin: { type: 'diffuse', temperature: overrides.wallT ?? 300, velocity: [0, 0, 0] }, zmax: { type: 'outflow' },
      },
      run: { steps: 4, dt: 7e-9, seed: overrides.seed ?? 1, stepsPerSubmit: 2 },
      sampling: { enabled: true, start: 0, interval: 1 },
    },
  };
}

/** Phase records of two ranks (rank 1 slower in collide). */
export function samplePhases(): PhaseRecord[] {
  return [
    { rank: 0, phase: 'move', calls: 4, totalSeconds: 0.004, minSeconds: 0.0009, maxSeconds: 0.0011 },
    { rank: 0, phase: 'collide', calls: 4, totalSeconds: 0.010, minSeconds: 0.002, maxSeconds: 0.003 },
    { rank: 1, phase: 'move', calls: 4, totalSeconds: 0.006, minSeconds: 0.0014, maxSeconds: 0.0016 },
    { rank: 1, phase: 'collide', calls: 4, totalSeconds: 0.014, minSeconds: 0.003, maxSeconds: 0.004 },
  ];
}

/** Four steps of statistics. */
export function sampleSteps(): StepRecord[] {
  return [1, 2, 3, 4].map((step) => ({ step, particles: 1000 + step, injected: step, collisions: 70 + step, candidates: 400 + 2 * step }));
}

/** Totals after each submit (step 0 = start). */
export function sampleTotals(): TotalsRecord[] {
  return [0, 2, 4].map((step) => ({ step, particles: 1000 + step, kineticEnergy: 1e-17 * (1 + 1e-7 * step), momentum: [1e-22 * step, -2e-22, 3e-22] as [number, number, number] }));
}

/** The summary of the run (loop 0.05 s, 4000 particle-steps). */
export function sampleSummary(): RunSummary {
  return {
    case: 'box', steps: 4, particles: 1004, meanParticles: 1000, particleSteps: 4000, seconds: 0.05,
    particleStepsPerSecond: 80000, collisionsPerParticleStep: 0.0707, candidatesPerParticleStep: 0.401,
    timing: 'gpu-timestamps',
    phases: {},
    otherSeconds: 0.033,
    host: { encodeSeconds: 0.001, waitSeconds: 0.02, readbackSeconds: 0.003, foldSeconds: 0.004, submits: 2 },
    conservation: { particlesStart: 1000, particlesEnd: 1004, momentumRelDrift: null, energyRelDrift: 1.5e-7 },
    samples: 4, fieldsSha256: 'cd'.repeat(32), capacity: 2048, bytesPerParticle: 96.5,
    adapter: { description: 'Fake GPU <1>', backend: 'vulkan' },
  };
}

/** Body name with HTML-active characters. */
export const NASTY_BODY = 'probe <2> & "arm"';

/**
 * Surface results of two bodies (a wedge, and a probe whose name needs escaping, with no lift direction: NaN
 * lift and side, null Cl and Cs) and the six faces of sampleCase (x walls specular, y periodic, zmin diffuse,
 * zmax outflow), after a JSON round trip as the run database gives it back (NaN as null). `scale` multiplies
 * the wedge's loads.
 */
export function sampleSurface(scale = 1): SurfaceSummary {
  const s: SurfaceSummary = {
    sampledTime: 2.8e-8,
    freeStream: { numberDensity: 7e22, temperature: 273.15, velocity: [1500, 0, 0] },
    bodies: [
      {
        name: 'wedge', force: [2.5e-6 * scale, 1.25e-6 * scale, -1e-9], moment: [0, 0, 3e-12 * scale], drag: 2.5e-6 * scale, lift: 1.25e-6 * scale, side: 1e-9,
        cd: 2.05 * scale, cl: 1.025 * scale, cs: 0.00082, heatTransfer: 0.0125 * scale, incidentRate: 3.5e18 * scale,
        triangles: 8, area: 4e-10, referenceArea: 1.5e-10, momentCenter: [2e-5, 3e-5, 3e-5],
      },
      {
        name: NASTY_BODY, force: [4e-7, 0, 0], moment: [0, 0, 0], drag: 4e-7, lift: NaN, side: NaN,
        cd: 1.1, cl: null, cs: null, heatTransfer: -0.002, incidentRate: 9e17,
        triangles: 80, area: 1e-10, referenceArea: 2e-11, momentCenter: [3e-5, 3e-5, 3e-5],
      },
    ],
    faces: ['xmin', 'xmax', 'ymin', 'ymax', 'zmin', 'zmax'].map((face, i) => ({
      face, pressure: 100 + i, shear: [0.5 * i, -0.25, 0] as [number, number, number], heatFlux: 20 * i - 30, numberFlux: 1e24 * (i + 1),
    })),
  };
  return JSON.parse(JSON.stringify(s)) as SurfaceSummary;
}

/** A completed run record with tags and notes that need escaping. */
export function sampleRun(overrides: Partial<RunRecord> = {}): RunRecord {
  return {
    id: 42, project: 'proj & co', caseId: 7, caseName: 'box & <friends>', caseHash: 'ab'.repeat(32), status: 'completed', reason: null,
    startedAt: '2025-01-02T03:04:05.000Z', endedAt: '2025-01-02T03:04:06.000Z', seed: 1, ranks: 2, gpus: 2,
    adapter: { description: 'Fake GPU <1>', backend: 'vulkan' }, productVersion: '0.1.0', summary: sampleSummary(), lastStep: 4,
    tags: [NASTY, 'baseline'], notes: `note ${NASTY}\nsecond line`, ...overrides,
  };
}

/** Everything a profile needs. */
export function sampleInput(): ProfileInput {
  return { run: sampleRun(), caseRecord: sampleCase(), phases: samplePhases(), steps: sampleSteps(), totals: sampleTotals() };
}

/** A seeded uniform random generator. */
export const rng = seededUniform;

/** A standard normal generator (Box-Muller) on a seeded uniform generator. */
export function normal(seed: number): () => number {
  const u = rng(seed);
  return () => Math.sqrt(-2 * Math.log(1 - u())) * Math.cos(2 * Math.PI * u());
}

/** A field set whose value per cell is mean(c) + shift*se + noise*se, with standard error se. */
export function syntheticFields(cells: [number, number, number], seed: number, shiftInErrors = 0): FieldSet {
  const n = cells[0] * cells[1] * cells[2];
  const g = normal(seed);
  const values = {} as Record<FieldName, Float64Array>;
  const errors = {} as Record<FieldName, Float64Array>;
  FIELD_NAMES.forEach((name, k) => {
    const v = new Float64Array(n), e = new Float64Array(n);
    for (let c = 0; c < n; c++) {
      const se = 0.5 + (c % 7) * 0.1 + k;
      e[c] = se;
      v[c] = 100 * (k + 1) + c + (shiftInErrors + g()) * se;
    }
    values[name] = v;
    errors[name] = e;
  });
  return { cells, cellSize: [1e-5, 2e-5, 3e-5], samples: 200, blocks: 20, values, errors };
}
