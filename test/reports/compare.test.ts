// compare math on synthetic fields: two draws of one distribution stay within DSMC noise (few |z| > 3,
// rms z near 1); a shift of several standard errors stands out. Plus case differences, ratios and text.
import { describe, expect, it } from 'vitest';
import { FIELD_NAMES } from '../../src-main/common/field-names.js';
import { buildComparison, type CompareInput } from '../../src-main/common/reports/compare-model.js';
import { fieldZStats } from '../../src-main/common/reports/field-z.js';
import { comparisonText } from '../../src-main/reports/compare-text.js';
import { NASTY_BODY, sampleCase, samplePhases, sampleRun, sampleSurface, syntheticFields } from './fixtures.js';

/** A compare input with synthetic fields. */
function input(id: number, seed: number, shift: number, caseSeed = seed, pss = 80000): CompareInput {
  const run = sampleRun({ id, seed: caseSeed });
  run.summary = { ...run.summary!, particleStepsPerSecond: pss };
  return { run, caseRecord: sampleCase({ seed: caseSeed }), phases: samplePhases(), fields: syntheticFields([10, 10, 10], seed, shift) };
}

describe('field z statistics', () => {
  it('computes z = (a - b) / sqrt(se_a^2 + se_b^2) and skips cells with NaN or zero errors', () => {
    const s = fieldZStats([1, 2, 3, 4, 5], [1, 1, NaN, 0, 1], [1, 0, 3, 4, 9], [1, 1, 1, 1, 0.5]);
    expect(s.cells).toBe(5);
    expect(s.compared).toBe(3);
    expect(s.skipped).toBe(2);
    const z = [0, 2 / Math.SQRT2, -4 / Math.sqrt(1.25)];
    expect(s.maxAbsZ).toBeCloseTo(Math.abs(z[2]), 12);
    expect(s.maxAbsZCell).toBe(4);
    expect(s.rmsZ).toBeCloseTo(Math.sqrt(z.reduce((a, x) => a + x * x, 0) / 3), 12);
    expect(s.fractionAbove).toBeCloseTo(1 / 3, 12);
    expect(s.differs).toBe(true);
    const none = fieldZStats([1], [NaN], [1], [NaN]);
    expect(none).toMatchObject({ compared: 0, skipped: 1, fractionAbove: null, maxAbsZ: null, rmsZ: null, differs: false });
  });

  it('finds few |z| > 3 between two draws of one distribution', () => {
    const c = buildComparison([input(1, 11, 0), input(2, 22, 0)]);
    const fc = c.fieldComparisons[0];
    expect(fc.skippedReason).toBeNull();
    for (const name of FIELD_NAMES) {
      const s = fc.fields[name]!;
      expect(s.compared, name).toBe(1000);
      expect(s.fractionAbove!, name).toBeLessThan(0.02);
      expect(s.rmsZ!, name).toBeGreaterThan(0.85);
      expect(s.rmsZ!, name).toBeLessThan(1.15);
      expect(s.differs, name).toBe(false);
    }
  });

  it('finds most cells beyond 3 standard errors after a shift of 8 standard errors', () => {
    const c = buildComparison([input(1, 11, 0), input(2, 22, 8)]);
    for (const name of FIELD_NAMES) {
      const s = c.fieldComparisons[0].fields[name]!;
      expect(s.fractionAbove!, name).toBeGreaterThan(0.8);
      expect(s.maxAbsZ!, name).toBeGreaterThan(6);
      expect(s.differs, name).toBe(true);
    }
  });

  it('does not compare fields on different grids or missing fields', () => {
    const b = input(2, 22, 0);
    b.fields = syntheticFields([5, 5, 5], 3);
    const c = input(3, 33, 0);
    c.fields = null;
    const cmp = buildComparison([input(1, 11, 0), b, c]);
    expect(cmp.fieldComparisons[0].skippedReason).toMatch(/grids differ \(10x10x10 and 5x5x5/);
    expect(cmp.fieldComparisons[1].skippedReason).toMatch(/no sampled fields/);
  });
});

describe('comparison', () => {
  it('lists case differences, throughput and phase time with ratios to the first run', () => {
    const c = buildComparison([input(1, 11, 0, 1, 80000), input(2, 22, 0, 2, 100000)]);
    expect(c.runs.map((r) => r.id)).toEqual([1, 2]);
    expect(c.caseDifferences).toEqual([{ path: 'run.seed', values: [1, 2] }]);
    expect(c.throughput.values).toEqual([80000, 100000]);
    expect(c.throughput.ratios).toEqual([1, 1.25]);
    expect(c.phases.map((p) => p.phase)).toEqual(['move', 'collide']);
    expect(c.phases[0].avgPerCall.values[0]).toBeCloseTo(0.00125, 15);
    expect(c.phases[0].avgPerCall.ratios).toEqual([1, 1]);
    const json = JSON.parse(JSON.stringify(c));
    expect(json.fieldComparisons[0].fields.T.compared).toBe(1000);
    const text = comparisonText(c);
    expect(text).toContain('case differences (1 path)');
    expect(text).toMatch(/run\.seed\s+1\s+2/);
    expect(text).toMatch(/particle-steps\/s\s+8\.000e\+4\s+1\.000e\+5\s+x1\.250/);
    expect(text).toContain('no field differs beyond DSMC noise');
  });

  it('names the differing fields in the text', () => {
    const text = comparisonText(buildComparison([input(1, 11, 0), input(2, 22, 8)]));
    expect(text).toContain('differs beyond DSMC noise: n, ux');
    expect(text).toMatch(/\nT\s|  T\s/);
  });

  it('needs two runs', () => {
    expect(() => buildComparison([input(1, 1, 0)])).toThrow(/at least two runs/);
  });
});

describe('surface loads in the comparison', () => {
  /** A compare input whose summary has surface results (wedge loads times `scale`), or none (null). */
  function withSurface(id: number, scale: number | null, dropProbe = false): CompareInput {
    const x = input(id, id, 0);
    if (scale !== null) {
      const surface = sampleSurface(scale);
      if (dropProbe) surface.bodies = surface.bodies.filter((b) => b.name === 'wedge');
      x.run.summary = { ...x.run.summary!, surface };
    }
    return x;
  }

  it('puts each body\'s Cd, Cl, drag, lift and heat transfer side by side with ratios, matched by name', () => {
    const c = buildComparison([withSurface(1, 1), withSurface(2, 1.1, true), withSurface(3, null)]);
    const s = c.surface!;
    expect(s.sampled).toEqual([true, true, false]);
    expect(s.bodies.map((b) => b.body)).toEqual(['wedge', NASTY_BODY]);
    const [wedge, probe] = s.bodies;
    expect(wedge.present).toEqual([true, true, false]);
    expect(wedge.cd.values).toEqual([2.05, 2.05 * 1.1, null]);
    expect(wedge.cd.ratios[1]).toBeCloseTo(1.1, 12);
    expect(wedge.cd.ratios[2]).toBeNull();
    expect(wedge.drag.values[0]).toBe(2.5e-6);
    expect(wedge.drag.ratios[1]).toBeCloseTo(1.1, 12);
    expect(wedge.lift.ratios[1]).toBeCloseTo(1.1, 12);
    expect(wedge.cl.values[0]).toBe(1.025);
    expect(wedge.heatTransfer.values[1]).toBeCloseTo(0.0125 * 1.1, 15);
    expect(probe.present).toEqual([true, false, false]);
    expect(probe.cd.values).toEqual([1.1, null, null]);
    expect(probe.cl.values).toEqual([null, null, null]);
    expect(probe.lift.values).toEqual([null, null, null]);
    const json = JSON.parse(JSON.stringify(c));
    expect(json.surface.bodies[0].cd.values).toEqual([2.05, 2.05 * 1.1, null]);
    expect(json.surface.bodies[1].present).toEqual([true, false, false]);
    expect(json.surface.sampled).toEqual([true, true, false]);
  });

  it('matches bodies by name, not position, and takes a body only the second run has', () => {
    const a = withSurface(1, 1);
    const b = withSurface(2, 2);
    b.run.summary!.surface!.bodies.reverse();
    b.run.summary!.surface!.bodies.push({ ...b.run.summary!.surface!.bodies[0], name: 'fin', cd: 0.5 });
    const s = buildComparison([a, b]).surface!;
    expect(s.bodies.map((x) => x.body)).toEqual(['wedge', NASTY_BODY, 'fin']);
    expect(s.bodies[0].cd.values).toEqual([2.05, 4.1]);
    expect(s.bodies[1].cd.values).toEqual([1.1, 1.1]);
    expect(s.bodies[2].present).toEqual([false, true]);
    expect(s.bodies[2].cd.ratios).toEqual([null, null]);
  });

  it('writes a per-body section in the text, "absent" where a run lacks the body', () => {
    const text = comparisonText(buildComparison([withSurface(1, 1), withSurface(2, 1.1, true), withSurface(3, null)]));
    expect(text).toContain('surface loads per body (matched by name; ratios to #1):');
    expect(text).toMatch(/wedge: Cd\s+2\.05\s+2\.255\s+absent\s+x1\.100\s+n\/a/);
    expect(text).toMatch(/wedge: Cl\s+1\.025\s+1\.12\d\s+absent\s+x1\.100/);
    expect(text).toMatch(/wedge: drag \(N\)\s+2\.500e-6\s+2\.750e-6\s+absent\s+x1\.100/);
    expect(text).toMatch(/wedge: lift \(N\)\s+1\.250e-6\s+1\.375e-6\s+absent/);
    expect(text).toMatch(/wedge: heat transfer \(W\)\s+1\.250e-2\s+1\.375e-2\s+absent\s+x1\.100/);
    expect(text).toMatch(new RegExp(`${NASTY_BODY.replace(/[()"]/g, '\\$&')}: Cd\\s+1\\.1\\s+absent\\s+absent\\s+n/a\\s+n/a`));
    expect(text).toMatch(/probe .*: Cl\s+n\/a\s+absent\s+absent/);
    expect(text).toContain('#3: no surface results (recorded before surfaces were sampled)');
    expect(text.indexOf('surface loads per body')).toBeGreaterThan(text.indexOf('throughput and phase time'));
    expect(text.indexOf('surface loads per body')).toBeLessThan(text.indexOf('fields #2 vs #1'));
  });

  it('leaves the comparison as it was for runs without surface results or without bodies', () => {
    const plain = buildComparison([input(1, 11, 0), input(2, 22, 0)]);
    expect(plain.surface).toBeNull();
    const text = comparisonText(plain);
    expect(text).not.toContain('surface');
    expect(text.split('\n\n').map((x) => x.split('\n')[0].split(' (')[0])).toEqual(['runs:', 'case differences', 'throughput and phase time', 'fields #2 vs #1']);
    const a = withSurface(1, 1), b = withSurface(2, 1);
    a.run.summary!.surface!.bodies = [];
    b.run.summary!.surface!.bodies = [];
    const noBodies = buildComparison([a, b]);
    expect(noBodies.surface).toEqual({ sampled: [true, true], bodies: [] });
    expect(comparisonText(noBodies)).not.toContain('surface loads');
  });
});
