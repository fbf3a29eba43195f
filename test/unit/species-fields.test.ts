// Per-species field names (common/field-names.ts) and values (solver/species-fields.ts) without a GPU: names and
// their order, labels and units, the map mask, the contract's field argument, n_<s> and x_<s> from hand-made counts,
// and the gas-volume scaling.
import { describe, expect, it } from 'vitest';
import { ContractRequestError, validateRequest } from '../../src-main/common/contract/contract.js';
import { isMasked, MIN_CELL_SAMPLES } from '../../src-main/common/field-mask.js';
import { fieldInfo, fieldNamesOf, isFieldName, missingFieldMessage, runFieldNames, speciesFieldNames, FIELD_NAMES } from '../../src-main/common/field-names.js';
import { emptyFields, scaleByGasVolume } from '../../src-main/solver/fields.js';
import { addSpeciesFields, fillSpeciesFields } from '../../src-main/solver/species-fields.js';

describe('per-species field names', () => {
  it('a mixture has n_<s> then x_<s> per species; one species has none', () => {
    expect(speciesFieldNames(['N2', 'O2'])).toEqual(['n_N2', 'n_O2', 'x_N2', 'x_O2']);
    expect(speciesFieldNames(['Ar'])).toEqual([]);
    expect(runFieldNames(false, ['Ar'])).toEqual(FIELD_NAMES);
    expect(runFieldNames(true, ['N2', 'O'])).toEqual([...FIELD_NAMES, 'Trot', 'Tvib', 'Tall', 'n_N2', 'n_O', 'x_N2', 'x_O']);
  });

  it('fieldNamesOf gives one order however the set was built (a database reads its rows by name)', () => {
    const a = addSpeciesFields(emptyFields(1), ['O2', 'N2'], 1);
    const b = addSpeciesFields(emptyFields(1), ['N2', 'O2'], 1);
    expect(fieldNamesOf(a)).toEqual([...FIELD_NAMES, 'n_N2', 'n_O2', 'x_N2', 'x_O2']);
    expect(fieldNamesOf(b)).toEqual(fieldNamesOf(a));
  });

  it('names, labels and units', () => {
    expect(isFieldName('n_N2')).toBe(true);
    expect(isFieldName('x_O')).toBe(true);
    expect(isFieldName('n_')).toBe(false);
    expect(isFieldName('y_N2')).toBe(false);
    expect(fieldInfo('n_N2')).toEqual({ label: 'number density of N2', unit: 'm^-3' });
    expect(fieldInfo('x_O2')).toEqual({ label: 'mole fraction of O2', unit: '1' });
    expect(fieldInfo('T').unit).toBe('K');
    expect(missingFieldMessage('x_He')).toMatch(/two or more species/);
  });

  it('the map mask: n_<s> is a count (shown however few samples), x_<s> needs samples; negatives are blanked', () => {
    expect(isMasked('n_N2', 1e20, 1)).toBe(false);
    expect(isMasked('x_N2', 0.5, 1)).toBe(true);
    expect(isMasked('x_N2', 0.5, MIN_CELL_SAMPLES)).toBe(false);
    expect(isMasked('n_N2', -1, 100)).toBe(true);
  });
});

describe('the contract takes species fields', () => {
  it('a field slice of x_<s> passes; a name that is no field is refused naming the species fields', () => {
    expect(validateRequest('getFieldSlice', { runId: 1, field: 'x_O2', axis: 'z' }).field).toBe('x_O2');
    expect(validateRequest('setLiveView', { runId: 1, field: 'n_N2', axis: 'x' }).field).toBe('n_N2');
    expect(() => validateRequest('getFieldSlice', { runId: 1, field: 'rho', axis: 'z' })).toThrow(ContractRequestError);
    expect(() => validateRequest('getFieldSlice', { runId: 1, field: 'rho', axis: 'z' })).toThrow(/n_<species> or x_<species>/);
  });
});

describe('fillSpeciesFields', () => {
  // counts [species][cell] of 3 cells over 4 passes: cell 2 is empty
  const counts = new Float64Array([30, 10, 0, 10, 30, 0]);
  const fnum = 1e10, volume = 1e-9, passes = 4;

  it('n_s = N_s fnum / (V passes), x_s = N_s / N (0 in an empty cell)', () => {
    const f = addSpeciesFields(emptyFields(3), ['A', 'B'], 3);
    fillSpeciesFields(f, counts, passes, ['A', 'B'], 3, fnum, volume);
    const per = fnum / (volume * passes);
    expect(Array.from(f.n_A!)).toEqual([30 * per, 10 * per, 0]);
    expect(Array.from(f.n_B!)).toEqual([10 * per, 30 * per, 0]);
    expect(Array.from(f.x_A!)).toEqual([0.75, 0.25, 0]);
    expect(Array.from(f.x_B!)).toEqual([0.25, 0.75, 0]);
  });

  it('a list of cell ids fills out[k] from cell ids[k]; no passes give zeros', () => {
    const f = addSpeciesFields(emptyFields(2), ['A', 'B'], 2);
    fillSpeciesFields(f, counts, passes, ['A', 'B'], 3, fnum, volume, [1, 0]);
    expect(Array.from(f.x_A!)).toEqual([0.25, 0.75]);
    fillSpeciesFields(f, counts, 0, ['A', 'B'], 3, fnum, volume, [1, 0]);
    expect(Array.from(f.n_A!)).toEqual([0, 0]);
    expect(Array.from(f.x_A!)).toEqual([0, 0]);
  });

  it('a cut cell divides n_<s> by its gas fraction as n, and keeps x_<s>', () => {
    const f = addSpeciesFields(emptyFields(2), ['A', 'B'], 2);
    fillSpeciesFields(f, counts, passes, ['A', 'B'], 3, fnum, volume, { from: 0, to: 2 });
    const before = { nA: f.n_A![0], xA: f.x_A![0], n: (f.n[0] = 8) };
    scaleByGasVolume(f, new Float64Array([0.5, 1]));
    expect(f.n[0]).toBe(before.n / 0.5);
    expect(f.n_A![0]).toBe(before.nA / 0.5);
    expect(f.x_A![0]).toBe(before.xA);
  });
});
