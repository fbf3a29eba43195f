// The profile report's composition parts (composition-report.ts) and the summary's composition
// (composition-summary.ts) on hand-made data: nothing for one species, a mixture's table with its names escaped,
// the CSV tables, the mean from the fields weighted by each cell's particles, and counts kept before them skipped.
import { describe, expect, it } from 'vitest';
import type { CompositionSummary } from '../../src-main/common/run-summary.js';
import { compositionSection, compositionTables } from '../../src-main/reports/composition-report.js';
import { compositionSummary, type CompositionInput } from '../../src-main/solver/composition-summary.js';
import { addSpeciesFields } from '../../src-main/solver/species-fields.js';
import { emptyFields } from '../../src-main/solver/fields.js';
import { htmlKeyedValues } from './parse-helpers.js';

const MIX: CompositionSummary = { species: ['N2', 'O<2>'], moleFractions: [0.79, 0.21], from: 'fields', overTime: [{ step: 0, speciesCounts: [79, 21] }, { step: 40, speciesCounts: [80, 20] }] };

/** Totals with these particles per species (the rest zero). */
function totals(counts?: number[]) {
  return { particles: (counts ?? [0]).reduce((a, b) => a + b, 0), momentum: [0, 0, 0] as [number, number, number], kineticEnergy: 0, momentumMagnitudeSum: 0, meanSpeed: 0, ...(counts ? { speciesCounts: counts } : {}) };
}

describe('composition in the report', () => {
  it('nothing for one species or a run without it', () => {
    expect(compositionSection(null)).toBe('');
    expect(compositionSection({ ...MIX, species: ['Ar'], moleFractions: [1] })).toBe('');
    expect(compositionTables({ ...MIX, species: ['Ar'], moleFractions: [1] })).toEqual([]);
  });

  it("a mixture's table, names escaped, and its CSV tables", () => {
    const html = compositionSection(MIX);
    expect(html).toContain('<td>O&lt;2&gt;</td>');
    const keyed = htmlKeyedValues(html);
    expect(keyed['composition.moleFractions.1']).toBe('0.21');
    expect(keyed['composition.first.0']).toBe('79');
    expect(keyed['composition.last.1']).toBe('20');
    const [mean, overTime] = compositionTables(MIX);
    expect(mean.rows).toEqual([['N2', 0.79, 'fields'], ['O<2>', 0.21, 'fields']]);
    expect(overTime.header).toEqual(['step', 'particles_N2', 'particles_O<2>']);
    expect(overTime.rows).toEqual([[0, 79, 21], [40, 80, 20]]);
  });
});

describe('compositionSummary', () => {
  it('weights each cell by its sampled particles; skips totals kept without counts', () => {
    const f = addSpeciesFields(emptyFields(2), ['A', 'B'], 2);
    // cell 0: 30 particles per pass, 1/3 A; cell 1: 10 per pass, all A -> (10 + 10) / 40 = 0.5
    f.particlesPerSample.set([30, 10]);
    f.x_A!.set([1 / 3, 1]);
    f.x_B!.set([2 / 3, 0]);
    const r: CompositionInput = {
      fields: f, samples: 5, start: totals(), startStep: 0, end: totals([21, 19]),
      totalsOverTime: [{ step: 10, totals: totals([20, 20]) }, { step: 20, totals: totals([21, 19]) }],
    };
    const s = compositionSummary({ species: [{ name: 'A' }, { name: 'B' }] } as never, r);
    expect(s.from).toBe('fields');
    expect(s.moleFractions[0]).toBeCloseTo(0.5, 15);
    expect(s.moleFractions[1]).toBeCloseTo(0.5, 15);
    // the start's totals carry no counts (a checkpoint from before them): left out, not made up
    expect(s.overTime).toEqual([{ step: 10, speciesCounts: [20, 20] }, { step: 20, speciesCounts: [21, 19] }]);
    // without samples: from the particles at the end
    const p = compositionSummary({ species: [{ name: 'A' }, { name: 'B' }] } as never, { ...r, samples: 0 });
    expect(p).toMatchObject({ from: 'particles', moleFractions: [21 / 40, 19 / 40] });
  });
});
