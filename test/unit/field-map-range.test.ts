// The colour range of field maps (robust percentiles, full, fixed, log, signed) and the mask of cells with too few
// samples, as pure functions; and a run's slice through the service helper with the mask and standard errors applied.
import { describe, expect, it } from 'vitest';
import { colourRange, colourValue, percentile } from '../../src-main/common/charts/colour-range.js';
import { cellReadout, cellItems } from '../../src-main/common/charts/field-heatmap-chart.js';
import { isMasked, MIN_CELL_SAMPLES } from '../../src-main/common/field-mask.js';
import { FIELD_NAMES, type Fields } from '../../src-main/common/field-names.js';
import { fieldSlice } from '../../src-main/services/field-slice.js';

describe('colour range of a field map', () => {
  it('interpolates percentiles between ranks', () => {
    expect(percentile([0, 10], 50)).toBe(5);
    expect(percentile([1, 2, 3, 4, 5], 25)).toBe(2);
    expect(percentile([], 50)).toBeNaN();
  });

  it('keeps a shock visible beside a few near-wall outliers: robust limits ignore them, full ones do not', () => {
    // 100 cells: 50 at 300 K before a shock, 48 at 900 K behind it, two near-wall outliers at 50 000 K and -20 000 K
    const values = [...Array(50).fill(300), ...Array(48).fill(900), 5e4, -2e4];
    const robust = colourRange(values, { mode: 'robust' });
    expect([robust.min, robust.max]).toEqual([300, 900]);
    const full = colourRange(values, { mode: 'full' });
    expect([full.min, full.max]).toEqual([-2e4, 5e4]);
    // the outliers saturate at the ends of the robust range instead of taking the whole ramp
    expect(colourValue(5e4, robust)).toBe(900);
    expect(colourValue(-2e4, robust)).toBe(300);
  });

  it('takes fixed limits, falls back where one is missing, widens an empty range and ignores nulls', () => {
    const v = [1, 2, 3, null, 4];
    expect(colourRange(v, { mode: 'fixed', min: 0, max: 10 })).toEqual({ min: 0, max: 10, log: false });
    expect(colourRange(v, { mode: 'fixed', max: 10 }).min).toBeCloseTo(1.06);
    expect(colourRange([5, 5], { mode: 'robust' })).toEqual({ min: 4.5, max: 5.5, log: false });
    expect(colourRange([null], { mode: 'robust' })).toEqual({ min: 0, max: 1, log: false });
  });

  it('colours by log10 on a log scale, over the positive values only', () => {
    const r = colourRange([0, -1, 1e18, 1e19, 1e20, 1e21], { mode: 'full', log: true });
    expect(r).toEqual({ min: 1e18, max: 1e21, log: true });
    expect(colourValue(1e20, r)).toBeCloseTo(20);
    expect(colourValue(0, r)).toBeNull();
    expect(colourRange([1, 10], { mode: 'fixed', min: -5, log: true }).min).toBeCloseTo(1.18); // a limit <= 0: the robust one
  });

  it('makes signed (z) maps symmetric about zero and at least +-3', () => {
    expect(colourRange([-1, 0.5], { mode: 'robust' }, true)).toEqual({ min: -3, max: 3, log: false });
    expect(colourRange([-8, 2], { mode: 'full' }, true)).toEqual({ min: -8, max: 8, log: false });
    expect(colourRange([-8, 2], { mode: 'fixed', max: 5 }, true)).toEqual({ min: -5, max: 5, log: false });
  });
});

describe('mask of near-empty cells', () => {
  it(`blanks temperatures, pressures and velocities under ${MIN_CELL_SAMPLES} particle samples, and impossible negative values`, () => {
    expect(isMasked('T', 300, MIN_CELL_SAMPLES - 1)).toBe(true);
    expect(isMasked('T', 300, MIN_CELL_SAMPLES)).toBe(false);
    expect(isMasked('ux', -300, 1e6)).toBe(false);
    expect(isMasked('p', -1e-9, 1e6)).toBe(true);
    // number density and the particle count stay: zero is a true value of an empty cell
    expect(isMasked('n', 0, 0)).toBe(false);
    expect(isMasked('particlesPerSample', 0.2, 2)).toBe(false);
  });

  it('leaves a run\'s near-empty cells blank on its slice, counts them, and carries the standard errors', () => {
    // 3 x 1 x 1 cells over 4 sampling passes: 5, 2 and 0.5 particles per pass (20, 8 and 2 particle samples)
    const values = {} as Fields, errors = {} as Fields;
    for (const f of FIELD_NAMES) { values[f] = new Float64Array(3); errors[f] = new Float64Array(3).fill(NaN); }
    values.particlesPerSample.set([5, 2, 0.5]);
    values.T.set([300, 280, -4]);
    errors.T.set([12, 40, 0]);
    values.n.set([1e20, 4e19, 1e19]);
    const f = { cells: [3, 1, 1] as [number, number, number], cellSize: [0.1, 0.1, 0.1] as [number, number, number], samples: 4, blocks: 4, values, errors };
    const t = fieldSlice(f, 'T', 'z', 0);
    expect(t.values).toEqual([300, null, null]);
    expect([t.maskedCells, t.minCellSamples, t.min, t.max]).toEqual([2, MIN_CELL_SAMPLES, 300, 300]);
    expect(t.errors).toEqual([12, null, null]);
    const n = fieldSlice(f, 'n', 'z', 0);
    expect(n.values).toEqual([1e20, 4e19, 1e19]);
    expect(n.maskedCells).toBe(0);
    // the hover readout of the first cell: centre in metres, value with unit and standard error
    const item = cellItems({ ...t, cellSize: [0.1, 0.1] }, colourRange(t.values, { mode: 'robust' }))[0];
    expect(cellReadout({ ...t, cellSize: [0.1, 0.1] }, item)).toBe('x = 0.05 m, y = 0.05 m<br/>translational temperature: 300 K ± 12 K (standard error)');
  });
});
