// Which ranks of a decomposed open flow inject at all (phases/inject.ts injectsThrough): only those whose box holds the
// layer of cells behind an inflow face; the others skip the injection's dispatches. The multi-rank invariance tests
// (test/cluster/invariance-in-process.test.ts) check that the fields stay bitwise one rank's.
import { describe, expect, it } from 'vitest';
import { parseCase } from '../../src-main/common/case-schema.js';
import { injectsThrough } from '../../src-main/solver/phases/inject.js';
import { buildTables } from '../../src-main/solver/tables.js';
import type { Int3 } from '../../src-main/cluster/decomposition/types.js';
import { baseCase } from './case-fixtures.js';

// Tables of an 8 x 6 x 4 box with inflow through the faces named (the others specular).
function tablesWithInflow(...faces: string[]) {
  const c = baseCase();
  c.grid.cells = [8, 6, 4];
  for (const f of faces) c.boundaries[f] = { type: 'inflow', numberDensity: 1e21, temperature: 300, velocity: [300, 0, 0] };
  return buildTables(parseCase(c));
}

// A box of cells [lo, hi) on each axis.
function box(lo: Int3, hi: Int3) {
  return { lo, hi };
}

describe('which ranks inject (injectsThrough)', () => {
  it('the whole grid injects when it has an inflow face, never without one', () => {
    expect(injectsThrough(box([0, 0, 0], [8, 6, 4]), tablesWithInflow('xmin'))).toBe(true);
    expect(injectsThrough(box([0, 0, 0], [8, 6, 4]), tablesWithInflow())).toBe(false);
  });

  it('slabs across x: only the slab behind the xmin face, or the xmax face, injects', () => {
    const xmin = tablesWithInflow('xmin');
    expect(injectsThrough(box([0, 0, 0], [3, 6, 4]), xmin)).toBe(true);
    expect(injectsThrough(box([3, 0, 0], [8, 6, 4]), xmin)).toBe(false);
    const xmax = tablesWithInflow('xmax');
    expect(injectsThrough(box([0, 0, 0], [7, 6, 4]), xmax)).toBe(false);
    expect(injectsThrough(box([7, 0, 0], [8, 6, 4]), xmax)).toBe(true);
  });

  it('boxes cut along other axes all touch an xmin face; a ymax face only the top boxes', () => {
    const t = tablesWithInflow('xmin', 'ymax');
    expect(injectsThrough(box([0, 0, 0], [8, 3, 4]), t)).toBe(true);
    expect(injectsThrough(box([4, 0, 0], [8, 3, 4]), t)).toBe(false);
    expect(injectsThrough(box([4, 3, 0], [8, 6, 4]), t)).toBe(true);
    expect(injectsThrough(box([4, 3, 2], [8, 5, 4]), t)).toBe(false);
  });

  it('an empty box (a rank with no cells) injects nothing', () => {
    expect(injectsThrough(box([0, 0, 0], [0, 6, 4]), tablesWithInflow('xmin'))).toBe(false);
  });
});
