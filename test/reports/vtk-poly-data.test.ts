// VTK PolyData surface export read back by a small parser: the element structure VTK 9's XML reader
// expects (Piece counts, Points, Polys with Int64 connectivity and end offsets, CellData), every binary
// array decoded from base64 with its UInt64 byte-count header, and the arrays' values bit for bit.
import { describe, expect, it } from 'vitest';
import { surfaceToVtp, vtkBinaryBase64Int64 } from '../../src-main/reports/vtk-poly-data.js';
import { parseVtp } from './parse-helpers.js';

// Two triangles of body 0 and one of body 1.
const mesh = {
  points: Float64Array.from([0, 0, 0, 1, 0, 0, 0, 1, 0, /**/ 1, 0, 0, 1, 1, 0, 0, 1, 0, /**/ 5, 5, 5, 6, 5, 5, 5, 6, 5.5]),
  body: Int32Array.from([0, 0, 1]),
};

describe('VTK PolyData surface export', () => {
  it('writes the structure ParaView reads and round-trips points, polygons and cell arrays', () => {
    const pressure = Float64Array.from([1.5, -0, NaN]);
    const shear = Float64Array.from([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const xml = surfaceToVtp(mesh, [{ name: 'pressure', data: pressure, components: 1 }, { name: 'shear', data: shear, components: 3 }], 'p [Pa] -- sampled 1e-3 s');
    expect(xml.startsWith('<?xml version="1.0"?>\n<!-- ')).toBe(true);
    expect(xml).not.toMatch(/<!--[\s\S]*--[\s\S]*-->/); // no "--" inside the comment
    // Element order as VTK 9 writes it, properly nested.
    const tags = [...xml.matchAll(/<\/?(VTKFile|PolyData|Piece|PointData|CellData|Points|Polys)\b/g)].map((m) => m[0]);
    expect(tags).toEqual(['<VTKFile', '<PolyData', '<Piece', '<PointData', '</PointData', '<CellData', '</CellData',
      '<Points', '</Points', '<Polys', '</Polys', '</Piece', '</PolyData', '</VTKFile']);
    const v = parseVtp(xml);
    expect(v.file).toEqual({ type: 'PolyData', version: '1.0', byte_order: 'LittleEndian', header_type: 'UInt64' });
    expect(v.piece).toEqual({ NumberOfPoints: '9', NumberOfVerts: '0', NumberOfLines: '0', NumberOfStrips: '0', NumberOfPolys: '3' });
    expect(v.points.Points.type).toBe('Float64');
    expect(v.points.Points.components).toBe(3);
    expect(v.points.Points.values).toEqual([...mesh.points]);
    expect(v.polys.connectivity).toEqual({ type: 'Int64', components: 1, values: [0, 1, 2, 3, 4, 5, 6, 7, 8] });
    expect(v.polys.offsets).toEqual({ type: 'Int64', components: 1, values: [3, 6, 9] });
    expect(Object.keys(v.cells)).toEqual(['body', 'pressure', 'shear']);
    expect(v.cells.body).toEqual({ type: 'Int64', components: 1, values: [0, 0, 1] });
    expect(v.cells.pressure.values[0]).toBe(1.5);
    expect(Object.is(v.cells.pressure.values[1], -0)).toBe(true);
    expect(Number.isNaN(v.cells.pressure.values[2])).toBe(true);
    expect(v.cells.shear).toEqual({ type: 'Float64', components: 3, values: [...shear] });
  });

  it('writes an empty surface as a valid file with no points', () => {
    const v = parseVtp(surfaceToVtp({ points: new Float64Array(0), body: new Int32Array(0) }, [], 'empty'));
    expect(v.piece.NumberOfPoints).toBe('0');
    expect(v.piece.NumberOfPolys).toBe('0');
    expect(v.polys.offsets.values).toEqual([]);
  });

  it('refuses arrays whose length does not match the triangles, naming them', () => {
    expect(() => surfaceToVtp(mesh, [{ name: 'q', data: new Float64Array(2), components: 1 }], '')).toThrow(/cell array q has 2 values, expected 3/);
    expect(() => surfaceToVtp({ ...mesh, body: new Int32Array(2) }, [], '')).toThrow(/2 body indices for 3 triangles/);
    expect(() => surfaceToVtp({ ...mesh, points: new Float64Array(10) }, [], '')).toThrow(/not 9 per triangle/);
    expect(() => surfaceToVtp(mesh, [{ name: 'body', data: new Float64Array(3), components: 1 }], '')).toThrow(/used twice/);
  });

  it('encodes Int64 with a UInt64 byte count, negatives included', () => {
    const b = Buffer.from(vtkBinaryBase64Int64([7, -1, 2 ** 40]), 'base64');
    expect(b.readBigUInt64LE(0)).toBe(24n);
    expect([b.readBigInt64LE(8), b.readBigInt64LE(16), b.readBigInt64LE(24)]).toEqual([7n, -1n, 2n ** 40n]);
  });
});
