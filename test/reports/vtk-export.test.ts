// VTK ImageData export read back by the test's own parser: extents from the cells, spacing from the cell
// size, every field and its standard error bit for bit (NaN included), the velocity vector.
import { describe, expect, it } from 'vitest';
import { FIELD_NAMES, INTERNAL_FIELD_NAMES } from '../../src-main/common/field-names.js';
import { fieldsToVti, vtkBinaryBase64 } from '../../src-main/reports/vtk-image-data.js';
import { syntheticFields } from './fixtures.js';
import { parseVti } from './parse-helpers.js';

describe('VTK ImageData export', () => {
  it('round-trips dimensions, spacing and every array', () => {
    const f = syntheticFields([4, 3, 2], 5);
    f.errors.T[3] = NaN;
    f.values.n[0] = -0;
    const xml = fieldsToVti(f);
    expect(xml).toContain('<VTKFile type="ImageData" version="1.0" byte_order="LittleEndian" header_type="UInt64">');
    const v = parseVti(xml);
    expect(v.wholeExtent).toEqual([0, 4, 0, 3, 0, 2]);
    expect(v.spacing).toEqual([1e-5, 2e-5, 3e-5]);
    expect(v.origin).toEqual([0, 0, 0]);
    expect(v.headerType).toBe('UInt64');
    expect(Object.keys(v.cellArrays).sort()).toEqual([...FIELD_NAMES, ...FIELD_NAMES.map((n) => `${n}_stderr`), 'u'].sort());
    for (const name of FIELD_NAMES) {
      expect(v.cellArrays[name].values, name).toEqual(f.values[name]);
      expect(v.cellArrays[`${name}_stderr`].values, name).toEqual(f.errors[name]);
      expect(v.cellArrays[name].values.length).toBe(24);
    }
    expect(Object.is(v.cellArrays.n.values[0], -0)).toBe(true);
    expect(Number.isNaN(v.cellArrays.T_stderr.values[3])).toBe(true);
    expect(v.cellArrays.u.components).toBe(3);
    expect([...v.cellArrays.u.values.subarray(3 * 5, 3 * 5 + 3)]).toEqual([f.values.ux[5], f.values.uy[5], f.values.uz[5]]);
    expect(v.fieldData).toEqual({ samples: [200], blocks: [20] });
  });

  it('writes the internal temperatures (and their errors) of a run that has them, after the other fields', () => {
    const f = syntheticFields([2, 2, 1], 5);
    for (const name of INTERNAL_FIELD_NAMES) {
      f.values[name] = Float64Array.from([500, 510, 520, 530]);
      f.errors[name] = Float64Array.from([1, 2, 3, 4]);
    }
    const xml = fieldsToVti(f);
    const v = parseVti(xml);
    const names = [...FIELD_NAMES, ...INTERNAL_FIELD_NAMES];
    expect(Object.keys(v.cellArrays).sort()).toEqual([...names, ...names.map((n) => `${n}_stderr`), 'u'].sort());
    for (const name of INTERNAL_FIELD_NAMES) {
      expect(v.cellArrays[name].values, name).toEqual(f.values[name]);
      expect(v.cellArrays[`${name}_stderr`].values, name).toEqual(f.errors[name]);
    }
    expect(xml).toContain('Tall [K]');
  });

  it('writes the species fields of a mixture after the others, names escaped (a species name is free text)', () => {
    const f = syntheticFields([2, 2, 1], 5);
    const names = ['n_N2', 'n_a<b&"c', 'x_N2', 'x_a<b&"c'] as const;
    names.forEach((name, k) => {
      f.values[name] = Float64Array.from([1, 2, 3, 4].map((x) => x + k / 10));
      f.errors[name] = Float64Array.from([0.1, 0.2, NaN, 0.4]);
    });
    const xml = fieldsToVti(f);
    expect(xml).toContain('Name="n_a&lt;b&amp;&quot;c"');
    const v = parseVti(xml);
    const arrays = Object.keys(v.cellArrays);
    expect(arrays.indexOf('n_N2')).toBeGreaterThan(arrays.indexOf('particlesPerSample'));
    expect(arrays.indexOf('x_N2')).toBeGreaterThan(arrays.indexOf('n_N2'));
    expect(v.cellArrays.x_N2.values).toEqual(f.values.x_N2);
    expect(v.cellArrays.n_N2_stderr.values).toEqual(f.errors.n_N2);
    expect(xml).toContain('n_N2 [m^-3]');
    expect(xml).toContain('x_N2 [1]');
  });

  it('encodes the byte count and data as one base64 stream', () => {
    const b = Buffer.from(vtkBinaryBase64(new Float64Array([1.5, -2])), 'base64');
    expect(b.readBigUInt64LE(0)).toBe(16n);
    expect([b.readDoubleLE(8), b.readDoubleLE(16)]).toEqual([1.5, -2]);
  });

  it('refuses fields whose length does not match the grid', () => {
    const f = syntheticFields([2, 2, 2], 1);
    f.values.p = new Float64Array(3);
    expect(() => fieldsToVti(f)).toThrow(/field p has 3 values for 8 cells/);
  });

  it('adds the body cell marks cellKind and volumeFraction only when given', () => {
    const f = syntheticFields([2, 2, 1], 3);
    expect(Object.keys(parseVti(fieldsToVti(f)).cellArrays)).not.toContain('cellKind');
    const volumeFraction = Float64Array.from([1, 0.25, 0, 1]);
    const v = parseVti(fieldsToVti(f, { kind: Uint8Array.from([0, 1, 2, 0]), volumeFraction }));
    expect([...v.cellArrays.cellKind.values]).toEqual([0, 1, 2, 0]);
    expect(v.cellArrays.volumeFraction.values).toEqual(volumeFraction);
    expect(() => fieldsToVti(f, { kind: new Uint8Array(3), volumeFraction })).toThrow(/3 kinds and 4 volume fractions for 4 cells/);
  });
});
