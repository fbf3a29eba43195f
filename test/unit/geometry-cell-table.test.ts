// Cell table: triangles per cell, cell kinds, gas volume fractions (exact for boxes, against the mesh volume
// and Monte Carlo for a sphere), reference points in the gas, and the point-in-body tester.
import { describe, expect, it } from 'vitest';
import { shapeSchema } from '../../src-main/common/body-schema.js';
import {
  CELL_CUT,
  CELL_GAS,
  CELL_INSIDE,
  buildCellTable,
  insideTester,
  meshVolume,
  tessellateShape,
  type CellGrid,
  type CellTable,
} from '../../src-main/common/geometry/index.js';
import { seededUniform } from '../seeded-random.js';

// Mesh of a shape given as case JSON in a box of the given lengths.
function mesh(json: unknown, domain: [number, number, number]): Float64Array {
  return tessellateShape(shapeSchema.parse(json), domain);
}

// Cell indices [i, j, k] of a global cell id.
function ijk(g: number, cells: readonly number[]): [number, number, number] {
  return [g % cells[0], Math.floor(g / cells[0]) % cells[1], Math.floor(g / (cells[0] * cells[1]))];
}

// Checks that every cut cell's reference point lies in its cell and outside the bodies, and other cells have NaN.
function checkRefPoints(table: CellTable, grid: CellGrid, inside: (x: number, y: number, z: number) => boolean): void {
  for (let g = 0; g < table.kind.length; g++) {
    const p = [table.refPoint[3 * g], table.refPoint[3 * g + 1], table.refPoint[3 * g + 2]];
    if (table.kind[g] !== CELL_CUT) {
      expect(p.every(Number.isNaN)).toBe(true);
      continue;
    }
    const c = ijk(g, grid.cells);
    for (let a = 0; a < 3; a++) {
      expect(p[a]).toBeGreaterThan(c[a] * grid.cellSize[a]);
      expect(p[a]).toBeLessThan((c[a] + 1) * grid.cellSize[a]);
    }
    expect(inside(p[0], p[1], p[2])).toBe(false);
  }
}

describe('buildCellTable: boxes', () => {
  const grid: CellGrid = { cells: [10, 8, 6], cellSize: [0.125, 0.25, 0.5] };
  const domain: [number, number, number] = [1.25, 2, 3];
  const nCells = 10 * 8 * 6;

  it('a box on cell faces: exact 0/1 fractions, inside cells, cut cells all around it', () => {
    const tris = mesh({ type: 'box', min: [0.25, 0.5, 1], max: [0.75, 1.25, 2] }, domain);
    const table = buildCellTable(tris, grid);
    expect(table.triStart.length).toBe(nCells + 1);
    const inRange = (c: number[], lo: number[], hi: number[]) => c.every((x, a) => x >= lo[a] && x <= hi[a]);
    for (let g = 0; g < nCells; g++) {
      const c = ijk(g, grid.cells);
      const isIn = inRange(c, [2, 2, 2], [5, 4, 3]);
      const touches = inRange(c, [1, 1, 1], [6, 5, 4]);
      const nt = table.triStart[g + 1] - table.triStart[g];
      if (isIn) {
        expect([table.kind[g], table.volumeFraction[g]]).toEqual([CELL_INSIDE, 0]);
      } else if (touches) {
        expect([table.kind[g], table.volumeFraction[g]]).toEqual([CELL_CUT, 1]);
        expect(nt).toBeGreaterThan(0);
      } else {
        expect([table.kind[g], table.volumeFraction[g], nt]).toEqual([CELL_GAS, 1, 0]);
      }
    }
    checkRefPoints(table, grid, insideTester(tris, grid).isInside);
  });

  it('a box offset by 0.3 cells along x: gas fractions 0.3 and 0.7 in the cut cells', () => {
    const dx = 0.125;
    const tris = mesh({ type: 'box', min: [0.25 + 0.3 * dx, 0.5, 1], max: [0.75 + 0.3 * dx, 1.25, 2] }, domain);
    const table = buildCellTable(tris, grid);
    for (let k = 2; k <= 3; k++) {
      for (let j = 2; j <= 4; j++) {
        const g = (i: number) => i + 10 * (j + 8 * k);
        expect(Math.abs(table.volumeFraction[g(2)] - 0.3)).toBeLessThan(1e-12);
        expect(Math.abs(table.volumeFraction[g(6)] - 0.7)).toBeLessThan(1e-12);
        expect(table.kind[g(2)]).toBe(CELL_CUT);
        expect(table.kind[g(6)]).toBe(CELL_CUT);
        for (let i = 3; i <= 5; i++) expect(table.volumeFraction[g(i)]).toBe(0);
      }
    }
  });

  it('thin gas slivers between a box face and a cell face are measured (lines along the axis the face faces)', () => {
    // the box starts 2.5 % of a cell above cell faces in y and z and 1 % before one in x: the gas between
    // is thinner than the spacing of the lines across it, so lines along x alone would miss the y and z slivers
    const d = grid.cellSize;
    const lo = [0.25 + 0.01 * d[0], 0.5 + 0.025 * d[1], 1 + 0.025 * d[2]];
    const hi = [0.75 - 0.01 * d[0], 1.25, 2];
    const table = buildCellTable(mesh({ type: 'box', min: lo, max: hi }, domain), grid);
    const g = (i: number, j: number, k: number) => i + 10 * (j + 8 * k);
    // a cell on the box's lower y face, away from its edges: gas 2.5 % of it
    expect(Math.abs(table.volumeFraction[g(3, 2, 3)] - 0.025)).toBeLessThan(1e-12);
    expect(table.kind[g(3, 2, 3)]).toBe(CELL_CUT);
    // on the edge where the y and z slivers meet (gas 1 - 0.975^2): the sliver along the lines is exact, the one
    // across them is resolved to the line spacing (1/32 of a cell), so it has gas, within 0.03
    expect(table.volumeFraction[g(3, 2, 2)]).toBeGreaterThanOrEqual(0.025);
    expect(Math.abs(table.volumeFraction[g(3, 2, 2)] - (1 - 0.975 ** 2))).toBeLessThan(0.03);
    // on the lower z face, and on the lower x face
    expect(Math.abs(table.volumeFraction[g(3, 3, 2)] - 0.025)).toBeLessThan(1e-12);
    expect(Math.abs(table.volumeFraction[g(2, 3, 3)] - 0.01)).toBeLessThan(1e-12);
    // every cut cell has gas and a reference point in it
    for (let c = 0; c < nCells; c++) {
      if (table.kind[c] !== CELL_CUT) continue;
      expect(table.volumeFraction[c]).toBeGreaterThan(0);
      expect(Number.isFinite(table.refPoint[3 * c])).toBe(true);
    }
  });

  it('a box offset by 0.3 cells on every axis, 10 x 10 lines: every fraction exact', () => {
    const d = grid.cellSize;
    const lo = [0.25 + 0.3 * d[0], 0.5 + 0.3 * d[1], 1 + 0.3 * d[2]];
    const hi = [0.75 + 0.3 * d[0], 1.25 + 0.3 * d[1], 2 + 0.3 * d[2]];
    const tris = mesh({ type: 'box', min: lo, max: hi }, domain);
    const table = buildCellTable(tris, grid, { subLines: 10 });
    let worst = 0;
    for (let g = 0; g < nCells; g++) {
      const c = ijk(g, grid.cells);
      let covered = 1;
      for (let a = 0; a < 3; a++) covered *= Math.max(0, Math.min(hi[a], (c[a] + 1) * d[a]) - Math.max(lo[a], c[a] * d[a])) / d[a];
      worst = Math.max(worst, Math.abs(table.volumeFraction[g] - (1 - covered)));
    }
    expect(worst).toBeLessThan(1e-12);
    // the gas volume is the box's minus the body's
    const gas = table.volumeFraction.reduce((s, f) => s + f, 0) * d[0] * d[1] * d[2];
    expect(Math.abs(gas - (1.25 * 2 * 3 - meshVolume(tris)))).toBeLessThan(1e-12);
    checkRefPoints(table, grid, insideTester(tris, grid).isInside);
  });

  it('an empty mesh gives an all-gas table; bad grids are rejected', () => {
    const table = buildCellTable(new Float64Array(0), grid);
    expect(table.kind.every((k) => k === CELL_GAS)).toBe(true);
    expect(table.volumeFraction.every((f) => f === 1)).toBe(true);
    expect(table.triList.length).toBe(0);
    expect(() => buildCellTable(new Float64Array(0), { cells: [0, 1, 1], cellSize: [1, 1, 1] })).toThrow(/cells\[0\]/);
    expect(() => buildCellTable(new Float64Array(0), grid, { subLines: 0 })).toThrow(/subLines/);
  });
});

describe('buildCellTable: a sphere on a 20^3 grid', () => {
  const grid: CellGrid = { cells: [20, 20, 20], cellSize: [0.05, 0.05, 0.05] };
  const center = [0.513, 0.493, 0.521];
  const r = 0.3;
  const tris = mesh({ type: 'sphere', center, radius: r, subdivisions: 4 }, [1, 1, 1]);
  const table = buildCellTable(tris, grid);
  const tester = insideTester(tris, grid);
  const cellVolume = 0.05 ** 3;

  it('gas volume = box volume - sphere mesh volume', () => {
    const gas = table.volumeFraction.reduce((s, f) => s + f, 0) * cellVolume;
    const expected = 1 - meshVolume(tris);
    expect(Math.abs(gas - expected) / expected).toBeLessThan(1e-3);
  });

  it('kinds agree with fractions and triangle lists; cell centers agree with the tester', () => {
    let cut = 0;
    for (let g = 0; g < table.kind.length; g++) {
      const f = table.volumeFraction[g];
      const nt = table.triStart[g + 1] - table.triStart[g];
      expect(f).toBeGreaterThanOrEqual(0);
      expect(f).toBeLessThanOrEqual(1);
      if (table.kind[g] === CELL_CUT) {
        cut++;
        expect(nt).toBeGreaterThan(0);
        expect(f).toBeGreaterThan(0);
      } else if (nt === 0) {
        const c = ijk(g, grid.cells).map((x) => (x + 0.5) * 0.05);
        expect(table.kind[g] === CELL_INSIDE).toBe(tester.isInside(c[0], c[1], c[2]));
        expect(f).toBe(table.kind[g] === CELL_INSIDE ? 0 : 1);
      } else {
        expect([table.kind[g], f]).toEqual([CELL_INSIDE, 0]);
      }
    }
    expect(cut).toBeGreaterThan(300);
  });

  it('reference points lie in their cell and in the gas', () => {
    checkRefPoints(table, grid, tester.isInside);
    // and where the cell is mostly gas, clear of the sphere through the mesh's vertices by a tenth of a cell
    let rMesh = 0;
    for (let p = 0; p < tris.length; p += 3) rMesh = Math.max(rMesh, Math.hypot(tris[p] - center[0], tris[p + 1] - center[1], tris[p + 2] - center[2]));
    const clear: number[] = [];
    for (let g = 0; g < table.kind.length; g++) {
      if (table.kind[g] !== CELL_CUT) continue;
      const d = Math.hypot(table.refPoint[3 * g] - center[0], table.refPoint[3 * g + 1] - center[1], table.refPoint[3 * g + 2] - center[2]) - rMesh;
      if (table.volumeFraction[g] > 0.5) clear.push(d);
    }
    expect(Math.min(...clear)).toBeGreaterThan(0.005);
  });

  it('the tester agrees with the sphere away from its surface', () => {
    const rand = seededUniform(7);
    for (let n = 0; n < 20000; n++) {
      const p = [rand(), rand(), rand()];
      const d = Math.hypot(p[0] - center[0], p[1] - center[1], p[2] - center[2]);
      if (Math.abs(d - r) < 3e-3) continue;
      expect(tester.isInside(p[0], p[1], p[2])).toBe(d < r);
    }
  });

  it('cut-cell fractions match a Monte Carlo estimate (20000 points per cell)', () => {
    const rand = seededUniform(42);
    const picked: number[] = [];
    for (let g = 0; g < table.kind.length && picked.length < 6; g += 37) {
      if (table.kind[g] === CELL_CUT && table.volumeFraction[g] > 0.1 && table.volumeFraction[g] < 0.9) picked.push(g);
    }
    expect(picked.length).toBe(6);
    for (const g of picked) {
      const c = ijk(g, grid.cells);
      let gas = 0;
      for (let n = 0; n < 20000; n++) {
        if (!tester.isInside((c[0] + rand()) * 0.05, (c[1] + rand()) * 0.05, (c[2] + rand()) * 0.05)) gas++;
      }
      expect(Math.abs(gas / 20000 - table.volumeFraction[g])).toBeLessThan(0.02);
    }
  });
});

describe('buildCellTable: two bodies and a wedge', () => {
  it('two separate bodies in one mesh: both volumes removed, inside cells for both', () => {
    const grid: CellGrid = { cells: [24, 16, 16], cellSize: [0.05, 0.05, 0.05] };
    const domain: [number, number, number] = [1.2, 0.8, 0.8];
    const a = mesh({ type: 'sphere', center: [0.3, 0.4, 0.4], radius: 0.2, subdivisions: 3 }, domain);
    const b = mesh({ type: 'cylinder', center: [0.85, 0.4, 0.4], axis: 'y', radius: 0.15, length: 0.5, segments: 40 }, domain);
    const tris = Float64Array.from([...a, ...b]);
    const table = buildCellTable(tris, grid);
    const gas = table.volumeFraction.reduce((s, f) => s + f, 0) * 0.05 ** 3;
    const expected = 1.2 * 0.8 * 0.8 - meshVolume(a) - meshVolume(b);
    expect(Math.abs(gas - expected) / expected).toBeLessThan(1e-3);
    const tester = insideTester(tris, grid);
    expect(tester.isInside(0.3, 0.4, 0.4)).toBe(true);
    expect(tester.isInside(0.85, 0.6, 0.4)).toBe(true);
    expect(tester.isInside(0.6, 0.4, 0.4)).toBe(false);
    checkRefPoints(table, grid, tester.isInside);
  });

  it('a 2D ramp spanning the whole box height: one layer of cells, exact gas area', () => {
    const grid: CellGrid = { cells: [40, 20, 1], cellSize: [0.025, 0.025, 0.1] };
    const tris = mesh({ type: 'wedge', apex: [0.2, 0, 0], length: 0.6, angle: 25 }, [1, 0.5, 0.1]);
    const table = buildCellTable(tris, grid);
    const gas = table.volumeFraction.reduce((s, f) => s + f, 0) * 0.025 * 0.025 * 0.1;
    const expected = 0.05 - meshVolume(tris);
    expect(Math.abs(gas - expected) / expected).toBeLessThan(1e-4);
    checkRefPoints(table, grid, insideTester(tris, grid).isInside);
  });
});

describe('line crossings binned by line (issue 25 item 7: the faster cut-cell volumes)', () => {
  it('each line of a column finds exactly the crossings of the whole column', async () => {
    const { lineBins, lineCrossings, sortCrossings } = await import('../../src-main/common/geometry/line-crossings.js');
    const { tessellateShape } = await import('../../src-main/common/geometry/index.js');
    const { shapeSchema } = await import('../../src-main/common/body-schema.js');
    const tris = Float64Array.from([
      ...tessellateShape(shapeSchema.parse({ type: 'sphere', center: [0.5, 0.05, 0.05], radius: 0.04, subdivisions: 4 }), [1, 1, 1]),
      ...tessellateShape(shapeSchema.parse({ type: 'box', min: [0.1, 0.01, 0.02], max: [0.3, 0.09, 0.07], rotate: [10, 20, 30] }), [1, 1, 1]),
    ]);
    const ids = Uint32Array.from({ length: tris.length / 9 }, (_, t) => t);
    const N = 16, dy = 0.1, dz = 0.1, jy = 1e-9, jz = 2e-9;
    const bins = lineBins(tris, ids, 0, ids.length, N, jy, jz, dy, dz);
    const all = new Float64Array(ids.length), some = new Float64Array(ids.length);
    let lines = 0;
    for (let a = 0; a < N; a++) for (let b = 0; b < N; b++) {
      const y = ((a + 0.5) / N) * dy + jy, z = ((b + 0.5) / N) * dz + jz;
      const m = sortCrossings(all, lineCrossings(tris, ids, 0, ids.length, y, z, all));
      const k = sortCrossings(some, lineCrossings(tris, bins.list, bins.start[a * N + b], bins.start[a * N + b + 1], y, z, some));
      expect(Array.from(some.subarray(0, k))).toEqual(Array.from(all.subarray(0, m)));
      if (m > 0) lines++;
    }
    expect(lines).toBeGreaterThan(N * N / 4);
    expect(bins.list.length).toBeLessThan(ids.length * N * N / 10);
  });
});

describe('buildCellTable: which triangles each cell lists', () => {
  it('exactly those the exact triangle-box test finds against every cell (long slivers on cell faces, oblique and small triangles)', async () => {
    const { GROW, triangleBoxOverlap } = await import('../../src-main/common/geometry/cell-table.js');
    const grid: CellGrid = { cells: [24, 18, 6], cellSize: [0.1, 0.2, 0.3] };
    const L = grid.cells.map((n, a) => n * grid.cellSize[a]);
    const rnd = seededUniform(24);
    const list: number[] = [];
    // a fan of long slivers on the planes z = 0 and z = 0.6 (cell faces), and on y = 0.8, as a wedge's caps are meshed
    for (let f = 0; f < 12; f++) {
      const x1 = 0.3 + 0.15 * f, x2 = x1 + 0.15;
      list.push(0.2, 0.3, 0, x1, 3.2, 0, x2, 3.0, 0);
      list.push(0.2, 0.3, 0.6, x2, 3.0, 0.6, x1, 3.2, 0.6);
      list.push(0.1, 0.8, 0.05, x1, 0.8, 1.7, x2, 0.8, 1.6);
    }
    // oblique triangles of every size, some reaching past the box
    for (let t = 0; t < 300; t++) {
      const size = t % 3 === 0 ? 0.05 : t % 3 === 1 ? 0.5 : 2;
      const c = L.map((l) => rnd() * l);
      for (let v = 0; v < 3; v++) for (let a = 0; a < 3; a++) list.push(c[a] + size * (rnd() - 0.5));
    }
    const tris = Float64Array.from(list);
    const table = buildCellTable(tris, grid);
    const d = grid.cellSize;
    const h = d.map((x) => x / 2 + GROW * x);
    let listed = 0;
    for (let g = 0; g < table.kind.length; g++) {
      const [i, j, k] = ijk(g, grid.cells);
      const center = [(i + 0.5) * d[0], (j + 0.5) * d[1], (k + 0.5) * d[2]];
      const expected: number[] = [];
      for (let t = 0; t < tris.length / 9; t++) if (triangleBoxOverlap(tris, 9 * t, center, h)) expected.push(t);
      const got = Array.from(table.triList.subarray(table.triStart[g], table.triStart[g + 1])).sort((a, b) => a - b);
      expect(got, `cell ${g} (${i}, ${j}, ${k})`).toEqual(expected);
      listed += got.length;
    }
    expect(listed).toBeGreaterThan(2000);
  });
});
