// The bodies' cell table built on threads (solver/cell-table-threads.ts: slabs of layers, one a worker thread) is the
// one-thread table bit for bit, and so are the solver tables built with it.
import { describe, expect, it } from 'vitest';
import { shapeSchema } from '../../src-main/common/body-schema.js';
import { parseCase } from '../../src-main/common/case-schema.js';
import { buildCellTable, tessellateShape, type CellGrid, type CellTable } from '../../src-main/common/geometry/index.js';
import { buildCellTableOnThreads, slabBounds, tableThreads } from '../../src-main/solver/cell-table-threads.js';
import { buildTables, buildTablesOnThreads } from '../../src-main/solver/tables.js';
import { preset } from './case-fixtures.js';

// Every array of two tables equal.
function expectSameTable(got: CellTable, want: CellTable): void {
  for (const k of ['triStart', 'triList', 'kind', 'volumeFraction', 'refPoint'] as const) {
    expect(Buffer.from(got[k].buffer, got[k].byteOffset, got[k].byteLength).equals(Buffer.from(want[k].buffer, want[k].byteOffset, want[k].byteLength)), k).toBe(true);
  }
}

describe('the cell table on threads', () => {
  const grid: CellGrid = { cells: [24, 20, 16], cellSize: [0.05, 0.05, 0.05] };
  const domain: [number, number, number] = [1.2, 1, 0.8];
  const shapes = {
    // faces along every axis, offset from the cell faces: tables along x, y and z
    'a rotated box': { type: 'box', min: [0.31, 0.27, 0.22], max: [0.83, 0.71, 0.57], rotate: [10, 20, 30] },
    'a sphere': { type: 'sphere', center: [0.6, 0.5, 0.4], radius: 0.27 },
    'a wedge through the box': { type: 'wedge', apex: [0.2, 0.1, 0], length: 0.7, angle: 25 },
  };
  for (const [name, json] of Object.entries(shapes)) {
    it(`${name}: on 2, 3 and 5 threads bitwise the one-thread table`, async () => {
      const tris = tessellateShape(shapeSchema.parse(json), domain, undefined, grid.cellSize);
      const want = buildCellTable(tris, grid);
      expect(want.kind.some((k) => k === 1)).toBe(true);
      for (const threads of [2, 3, 5]) expectSameTable(await buildCellTableOnThreads(tris, grid, threads), want);
    });
  }

  it('slabs cover the layers in order, one layer each at least, and follow the triangles', () => {
    const tris = tessellateShape(shapeSchema.parse(shapes['a sphere']), domain, undefined, grid.cellSize);
    for (const parts of [1, 2, 3, 7, 16, 40]) {
      const b = slabBounds(tris, grid, parts);
      expect(b.length).toBeLessThanOrEqual(Math.min(parts, 16));
      expect(b[0][0]).toBe(0);
      expect(b[b.length - 1][1]).toBe(16);
      b.forEach(([k0, k1], i) => {
        expect(k1).toBeGreaterThan(k0);
        if (i > 0) expect(k0).toBe(b[i - 1][1]);
      });
    }
    // the sphere spans layers 2..13: two slabs split it near its middle, not the box's
    const [first] = slabBounds(tris, grid, 2);
    expect(first[1]).toBeGreaterThanOrEqual(7);
    expect(first[1]).toBeLessThanOrEqual(9);
  });

  it('threads: a million cells each at least, the cores shared by the processes, DSMC_TABLE_THREADS forces', () => {
    expect(tableThreads(500_000, 1, {})).toBe(1);
    expect(tableThreads(64e6, 1, {})).toBeGreaterThanOrEqual(1);
    expect(tableThreads(64e6, 1000, {})).toBe(1);
    expect(tableThreads(1000, 1, { DSMC_TABLE_THREADS: '3' })).toBe(3);
    expect(() => tableThreads(1000, 1, { DSMC_TABLE_THREADS: 'many' })).toThrow(/DSMC_TABLE_THREADS/);
  });

  it('the solver tables of a case with a body, its cell table on threads: bitwise the one-thread tables', async () => {
    const json = preset('hypersonic-wedge.json');
    json.grid = { cells: [160, 80, 6], cellSize: [1.25e-3, 1.25e-3, 1.25e-3] };
    const c = parseCase(json);
    const before = process.env.DSMC_TABLE_THREADS;
    process.env.DSMC_TABLE_THREADS = '3';
    try {
      const got = await buildTablesOnThreads(c);
      const want = buildTables(c);
      expect(Buffer.from(got.bodies.bodyData.buffer).equals(Buffer.from(want.bodies.bodyData.buffer))).toBe(true);
      expect(Buffer.from(got.bodies.volumeFraction!.buffer).equals(Buffer.from(want.bodies.volumeFraction!.buffer))).toBe(true);
      expect(got.simParams).toEqual(want.simParams);
    } finally {
      if (before === undefined) delete process.env.DSMC_TABLE_THREADS;
      else process.env.DSMC_TABLE_THREADS = before;
    }
  });
});
