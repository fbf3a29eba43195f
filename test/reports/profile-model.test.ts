// The profile report model: SPARTA-style phase table over ranks, "other", time per particle, throughput,
// conservation notes, and a run that did not complete.
import { describe, expect, it } from 'vitest';
import { buildPhaseTable } from '../../src-main/common/reports/phase-table.js';
import { buildProfileReport } from '../../src-main/common/reports/profile-model.js';
import { caseDifferences, caseKeyFields } from '../../src-main/common/reports/case-fields.js';
import { sampleCase, sampleInput, samplePhases, sampleRun } from './fixtures.js';

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
