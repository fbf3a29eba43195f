// The profile report model: SPARTA-style phase table over ranks, "other", time per particle, throughput,
// conservation notes, and a run that did not complete.
import { describe, expect, it } from 'vitest';
import { buildPhaseTable } from '../../src-main/common/reports/phase-table.js';
import { buildProfileReport } from '../../src-main/common/reports/profile-model.js';
import { caseDifferences, caseKeyFields } from '../../src-main/common/reports/case-fields.js';
import { formatGeneral } from '../../src-main/common/reports/format-numbers.js';
import { bodyLabels, boundaryTypeOf, surfaceLoadsOf } from '../../src-main/common/reports/surface-loads.js';
import { NASTY_BODY, sampleCase, sampleInput, samplePhases, sampleRun, sampleSurface } from './fixtures.js';

describe('phase table', () => {
  it('takes min/avg/max over ranks of the per-rank totals, AVG x Call and % of loop', () => {
    const t = buildPhaseTable(samplePhases(), { loopSeconds: 0.05, meanParticles: 1000, particleSteps: 4000 });
    expect(t.ranks).toBe(2);
    expect(t.rows.map((r) => r.phase)).toEqual(['move', 'collide']);
    const move = t.rows[0];
    expect(move.calls).toBe(4);
    expect(move.minSeconds).toBeCloseTo(0.004, 15);
    expect(move.maxSeconds).toBeCloseTo(0.006, 15);
    expect(move.avgSeconds).toBeCloseTo(0.005, 15);
    expect(move.avgPerCallSeconds).toBeCloseTo(0.00125, 15);
    expect(move.callMinSeconds).toBeCloseTo(0.0009, 15);
    expect(move.callMaxSeconds).toBeCloseTo(0.0016, 15);
    expect(move.percentOfLoop).toBeCloseTo(10, 10);
    expect(move.secondsPerParticle).toBeCloseTo(0.005 / 1000, 15);
    expect(move.secondsPerParticleStep).toBeCloseTo(0.005 / 4000, 15);
    expect(t.rows[1].avgSeconds).toBeCloseTo(0.012, 15);
    expect(t.other.seconds).toBeCloseTo(0.05 - 0.005 - 0.012, 15);
    expect(t.other.percentOfLoop).toBeCloseTo(66, 10);
  });

  it('has no percentages or "other" without a loop time', () => {
    const t = buildPhaseTable(samplePhases(), { loopSeconds: null, meanParticles: null, particleSteps: null });
    expect(t.rows[0].percentOfLoop).toBeNull();
    expect(t.rows[0].secondsPerParticle).toBeNull();
    expect(t.other).toEqual({ seconds: 0, percentOfLoop: null });
  });
});

describe('profile report', () => {
  it('carries the throughput, time per particle, collisions and host timings of the summary', () => {
    const r = buildProfileReport(sampleInput());
    expect(r.throughput.particleStepsPerSecond).toBe(80000);
    expect(r.throughput.secondsPerParticleStep).toBeCloseTo(0.05 / 4000, 15);
    expect(r.throughput.loopSecondsPerParticle).toBeCloseTo(0.05 / 1000, 15);
    expect(r.throughput.collisionsPerParticleStep).toBe(0.0707);
    expect(r.throughput.candidatesPerParticleStep).toBe(0.401);
    expect(r.host).toEqual({ encodeSeconds: 0.001, waitSeconds: 0.02, readbackSeconds: 0.003, foldSeconds: 0.004, submits: 2 });
    expect(r.phaseTable.loopSeconds).toBe(0.05);
    expect(r.timing).toBe('gpu-timestamps');
    expect(r.run.tags).toContain('baseline');
    expect(r.adapter.description).toBe('Fake GPU <1>');
  });

  it('says why a drift is missing', () => {
    const r = buildProfileReport(sampleInput());
    expect(r.conservation?.momentumRelDrift).toBeNull();
    expect(r.conservation?.momentumNote).toMatch(/not conserved by these boundaries/);
    expect(r.conservation?.energyRelDrift).toBe(1.5e-7);
    expect(r.conservation?.energyNote).not.toMatch(/not conserved/);
  });

  it('falls back to the step records for a run that did not complete', () => {
    const input = { ...sampleInput(), run: sampleRun({ status: 'failed', reason: 'GPU lost', summary: null }) };
    const r = buildProfileReport(input);
    expect(r.throughput.particleStepsPerSecond).toBeNull();
    expect(r.throughput.steps).toBe(4);
    expect(r.throughput.particleSteps).toBe(1001 + 1002 + 1003 + 1004);
    expect(r.throughput.collisionsPerParticleStep).toBeCloseTo((71 + 72 + 73 + 74) / 4010, 15);
    expect(r.conservation).toBeNull();
    expect(r.phaseTable.loopSeconds).toBeNull();
    expect(JSON.parse(JSON.stringify(r)).run.reason).toBe('GPU lost');
  });

  it('lists the case key fields with boundaries', () => {
    const f = Object.fromEntries(caseKeyFields(sampleCase().json).map((x) => [x.label, x.value]));
    expect(f.cells).toBe('[4,3,2]');
    expect(f['boundary zmin']).toBe('diffuse (temperature 300, velocity [0,0,0])');
    expect(f['boundary zmax']).toBe('outflow');
    expect(f.seed).toBe('1');
    expect(f.species).toBe('Ar');
  });
});

describe('case differences', () => {
  it('lists only the paths whose values differ, arrays of numbers as one value', () => {
    const a = sampleCase().json as Record<string, unknown>;
    const b = sampleCase({ seed: 9, wallT: 500 }).json as Record<string, unknown>;
    const c = { ...sampleCase().json as object, extra: true };
    expect(caseDifferences([a, a])).toEqual([]);
    expect(caseDifferences([a, b])).toEqual([
      { path: 'boundaries.zmin.temperature', values: [300, 500] },
      { path: 'run.seed', values: [1, 9] },
    ]);
    expect(caseDifferences([a, c])).toEqual([{ path: 'extra', values: [undefined, true] }]);
    const d = structuredClone(a) as { grid: { cells: number[] } };
    d.grid.cells = [8, 3, 2];
    expect(caseDifferences([a, d])).toEqual([{ path: 'grid.cells', values: [[4, 3, 2], [8, 3, 2]] }]);
  });
});

describe('surface loads in the profile', () => {
  it('is null for a run recorded before surface results, and for a run that did not complete', () => {
    expect(buildProfileReport(sampleInput()).surface).toBeNull();
    expect(buildProfileReport({ ...sampleInput(), run: sampleRun({ status: 'failed', summary: null }) }).surface).toBeNull();
  });

  it('carries each body\'s loads with unknown values as null and each face with its boundary type', () => {
    const input = sampleInput();
    input.run.summary = { ...input.run.summary!, surface: sampleSurface() };
    const s = buildProfileReport(input).surface!;
    expect(s.sampledTime).toBe(2.8e-8);
    expect(s.freeStream).toEqual({ numberDensity: 7e22, temperature: 273.15, velocity: [1500, 0, 0], speed: 1500 });
    expect(s.bodies.map((b) => b.name)).toEqual(['wedge', NASTY_BODY]);
    expect(s.bodies[0]).toMatchObject({ force: [2.5e-6, 1.25e-6, -1e-9], drag: 2.5e-6, lift: 1.25e-6, cd: 2.05, cl: 1.025, heatTransfer: 0.0125, referenceArea: 1.5e-10, triangles: 8 });
    expect(s.bodies[1]).toMatchObject({ drag: 4e-7, lift: null, side: null, cd: 1.1, cl: null, cs: null });
    expect(s.faces.map((f) => [f.face, f.boundary, f.wall])).toEqual([
      ['xmin', 'specular', true], ['xmax', 'specular', true], ['ymin', 'periodic', false], ['ymax', 'periodic', false],
      ['zmin', 'diffuse', true], ['zmax', 'outflow', false],
    ]);
    expect(s.faces[1].shearMagnitude).toBeCloseTo(Math.hypot(0.5, 0.25), 15);
  });

  it('takes NaN straight from a fresh summary as unknown too, and a face of an unknown boundary as a wall', () => {
    const raw = sampleSurface();
    raw.bodies[1].lift = NaN;
    raw.faces[0].pressure = NaN;
    const s = surfaceLoadsOf(raw, { boundaries: {} })!;
    expect(s.bodies[1].lift).toBeNull();
    expect(s.faces[0]).toMatchObject({ pressure: null, boundary: null, wall: true });
    expect(surfaceLoadsOf(undefined, {})).toBeNull();
    expect(boundaryTypeOf(null, 'xmin')).toBeNull();
    expect(surfaceLoadsOf({ ...raw, freeStream: null }, {})!.freeStream).toBeNull();
  });

  it('labels a repeated body name apart and formats numbers to 4 significant digits', () => {
    expect(bodyLabels(['a', 'b', 'a', 'a'])).toEqual(['a', 'b', 'a (2)', 'a (3)']);
    expect([formatGeneral(2.05), formatGeneral(1234.56), formatGeneral(3.5e18), formatGeneral(-2e-4), formatGeneral(0), formatGeneral(null)])
      .toEqual(['2.05', '1235', '3.500e+18', '-2.000e-4', '0', 'n/a']);
  });
});
