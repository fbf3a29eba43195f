// STL reading: ASCII and binary round trips (including a binary file whose header begins with "solid"),
// clear errors on malformed files, and STL bodies scaled, rotated and translated.
import { describe, expect, it } from 'vitest';
import { shapeSchema } from '../../src-main/common/body-schema.js';
import { meshBounds, meshIssues, meshVolume, parseStl, tessellateShape } from '../../src-main/common/geometry/index.js';

// Unit cube [0, 1]^3 as 12 outward triangles (the built-in box).
const CUBE = tessellateShape(shapeSchema.parse({ type: 'box', min: [0, 0, 0], max: [1, 1, 1] }), [2, 2, 2]);
// A mesh with coordinates that float32 holds exactly.
const TETRA = Float64Array.from([0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 1, 0, 0, 0, 1, 0, 0, 0, 1]);

// Bytes of a binary STL of `tris` with the given 80-byte header text (normals written as zeros).
function binaryStl(tris: Float64Array, header = 'binary test'): Uint8Array {
  const n = tris.length / 9;
  const bytes = new Uint8Array(84 + 50 * n);
  for (let i = 0; i < Math.min(80, header.length); i++) bytes[i] = header.charCodeAt(i);
  const view = new DataView(bytes.buffer);
  view.setUint32(80, n, true);
  for (let t = 0; t < n; t++) {
    for (let q = 0; q < 9; q++) view.setFloat32(84 + 50 * t + 12 + 4 * q, tris[9 * t + q], true);
  }
  return bytes;
}

// Text of an ASCII STL of `tris` (normals written as zeros: the reader ignores them).
function asciiStl(tris: Float64Array): string {
  let s = 'solid test\n';
  for (let t = 0; t < tris.length / 9; t++) {
    s += '  facet normal 0 0 0\n    outer loop\n';
    for (let v = 0; v < 3; v++) s += `      vertex ${tris[9 * t + 3 * v]} ${tris[9 * t + 3 * v + 1]} ${tris[9 * t + 3 * v + 2]}\n`;
    s += '    endloop\n  endfacet\n';
  }
  return s + 'endsolid test\n';
}

// UTF-8 bytes of a string.
function bytesOf(s: string): Uint8Array {
  return new TextEncoder().encode(s);
}

describe('parseStl', () => {
  it('reads a binary STL back exactly', () => {
    expect(Array.from(parseStl(binaryStl(TETRA)))).toEqual(Array.from(TETRA));
    expect(Array.from(parseStl(binaryStl(CUBE)))).toEqual(Array.from(CUBE));
  });

  it('reads a binary STL whose header begins with "solid"', () => {
    expect(Array.from(parseStl(binaryStl(CUBE, 'solid exported by some CAD tool')))).toEqual(Array.from(CUBE));
    expect(Array.from(parseStl(binaryStl(CUBE, 'solid\nnot facets')))).toEqual(Array.from(CUBE));
  });

  it('reads a binary STL whose header starts with "solid" then a "facet" line (issue 25 item 13)', () => {
    for (const header of ['solid cube\nfacet normal 0 0 1\n', 'solid\r\n  facet normal 0 0 0', 'solid x\nendsolid x\n']) {
      expect(Array.from(parseStl(binaryStl(CUBE, header))), JSON.stringify(header)).toEqual(Array.from(CUBE));
    }
  });

  it('refuses a mesh scaled to 1e-300 m (tolerances would underflow) naming its size and the scale (issue 25 item 6)', () => {
    for (const scale of [1e-300, 1e-200, 1e-12]) {
      const tiny = tessellateShape(shapeSchema.parse({ type: 'stl', file: 'x.stl', scale }), [1, 1, 1], binaryStl(CUBE));
      const issues = meshIssues(tiny);
      expect(issues, String(scale)).toHaveLength(1);
      expect(issues[0]).toMatch(/m across .* below the smallest body dsmc meshes, 1e-9 m .* set its scale/);
    }
    expect(meshIssues(tessellateShape(shapeSchema.parse({ type: 'stl', file: 'x.stl', scale: 1e-6 }), [1, 1, 1], binaryStl(CUBE)))).toEqual([]);
  });

  it('reads a binary STL from a view into a larger buffer (as Node Buffers often are)', () => {
    const raw = binaryStl(TETRA);
    const big = new Uint8Array(raw.length + 13);
    big.set(raw, 7);
    expect(Array.from(parseStl(big.subarray(7, 7 + raw.length)))).toEqual(Array.from(TETRA));
  });

  it('reads an ASCII STL back exactly, in any case, with CRLF and blank lines', () => {
    const cube = [0.1, 1 / 3, 2e-7];
    const tris = CUBE.map((x, i) => x + cube[i % 3]);
    expect(Array.from(parseStl(bytesOf(asciiStl(tris))))).toEqual(Array.from(tris));
    const crlf = asciiStl(TETRA).toUpperCase().replace(/\n/g, '\r\n\r\n');
    expect(Array.from(parseStl(bytesOf(crlf)))).toEqual(Array.from(TETRA));
    expect(meshIssues(parseStl(bytesOf(asciiStl(CUBE))))).toEqual([]);
  });

  it('reads an ASCII STL with several solids and without the final endsolid', () => {
    const two = asciiStl(TETRA) + asciiStl(TETRA.map((x) => x + 5)).replace(/endsolid test\n$/, '');
    expect(parseStl(bytesOf(two)).length).toBe(2 * TETRA.length);
  });

  it('ignores the normals in the file', () => {
    const s = asciiStl(TETRA).replace(/facet normal 0 0 0/g, 'facet normal 1 2 3');
    expect(Array.from(parseStl(bytesOf(s)))).toEqual(Array.from(TETRA));
  });

  it('names the line of a malformed ASCII STL', () => {
    const good = asciiStl(TETRA).split('\n');
    const broken = (line: number, text: string) => bytesOf([...good.slice(0, line - 1), text, ...good.slice(line)].join('\n'));
    expect(() => parseStl(broken(4, '      vertex 0 0 zero'))).toThrow(/line 4: .*finite numbers.*"zero"/);
    expect(() => parseStl(broken(3, '    inner loop'))).toThrow(/line 3: expected "outer loop"/);
    expect(() => parseStl(broken(6, '    endloop'))).toThrow(/line 6: .*3 vertices, this one has 2/);
    expect(() => parseStl(broken(7, '    vertex 1 1 1'))).toThrow(/line 7: expected "endloop"/);
    expect(() => parseStl(bytesOf(good.slice(0, 5).join('\n')))).toThrow(/ends inside a facet/);
    expect(() => parseStl(bytesOf('solid empty\nendsolid empty\n'))).toThrow(/no facets/);
  });

  it('rejects files that are neither', () => {
    expect(() => parseStl(bytesOf('hello'))).toThrow(/not an STL file/);
    const truncated = binaryStl(CUBE).subarray(0, 84 + 50 * 5);
    expect(() => parseStl(truncated)).toThrow(/84 \+ 50 x 12 = 684.*truncated/);
    const nan = binaryStl(TETRA);
    new DataView(nan.buffer).setFloat32(84 + 50 * 2 + 20, NaN, true);
    expect(() => parseStl(nan)).toThrow(/triangle 2 has a non-finite coordinate/);
  });
});

describe('STL bodies', () => {
  it('are scaled first, then rotated about the origin, then translated', () => {
    const bytes = binaryStl(CUBE);
    const s = shapeSchema.parse({ type: 'stl', file: 'cube.stl', scale: 0.001, rotate: [0, 0, 90], translate: [0.5, 0.25, 0.125] });
    const tris = tessellateShape(s, [1, 1, 1], bytes);
    expect(meshIssues(tris)).toEqual([]);
    expect(meshVolume(tris)).toBeCloseTo(1e-9, 20);
    const b = meshBounds(tris);
    // the unit cube scaled to 1 mm, turned 90 deg about z (x -> y, y -> -x), moved
    [0.499, 0.25, 0.125].forEach((x, a) => expect(b.min[a]).toBeCloseTo(x, 12));
    [0.5, 0.251, 0.126].forEach((x, a) => expect(b.max[a]).toBeCloseTo(x, 12));
    expect(() => tessellateShape(s, [1, 1, 1])).toThrow(/cube\.stl/);
  });
});
