// compare math on synthetic fields: two draws of one distribution stay within DSMC noise (few |z| > 3,
// rms z near 1); a shift of several standard errors stands out. Plus case differences, ratios and text.
import { describe, expect, it } from 'vitest';
import { FIELD_NAMES } from '../../src-main/common/field-names.js';
import { buildComparison, type CompareInput } from '../../src-main/common/reports/compare-model.js';
import { fieldZStats } from '../../src-main/common/reports/field-z.js';
import { comparisonText } from '../../src-main/reports/compare-text.js';
import { sampleCase, samplePhases, sampleRun, syntheticFields } from './fixtures.js';

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
