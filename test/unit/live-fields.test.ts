// The live view's slices (src-main/services/live-fields.ts) are computed on the plane's cells alone; they must
// equal, bitwise, the same plane cut from the fields of the whole grid, on every axis and plane index.
import { describe, expect, it } from 'vitest';
import { parseCase } from '../../src-main/common/case-schema.js';
import type { FieldSlice } from '../../src-main/common/contract/types.js';
import { fieldSlice } from '../../src-main/services/field-slice.js';
import { LiveFields } from '../../src-main/services/live-fields.js';
import { FieldAccumulator } from '../../src-main/solver/field-accumulator.js';
import { SAMPLE_MOMENTS } from '../../src-main/solver/gpu/struct-layouts.js';
import { buildTables } from '../../src-main/solver/tables.js';
import { baseCase } from './case-fixtures.js';

/** A two-species case on a 5 x 4 x 3 grid with moment sums that differ in every cell (some cells empty). */
function filledAccumulator() {
  const raw = baseCase();
  raw.grid.cells = [5, 4, 3];
  raw.species.push({ name: 'He', mass: 6.65e-27, dRef: 2.33e-10, omega: 0.66, tRef: 273 });
  const kase = parseCase(raw);
  const acc = new FieldAccumulator(kase, buildTables(kase));
  const nCells = 60;
  const sums = new Float32Array(SAMPLE_MOMENTS * 2 * nCells);
  for (let m = 0; m < SAMPLE_MOMENTS; m++) {
    for (let s = 0; s < 2; s++) {
      for (let c = 0; c < nCells; c++) {
        const count = c % 7 === 3 ? 0 : 4 + ((c * 5 + s) % 9);
        sums[(m * 2 + s) * nCells + c] = m === 0 ? count : count * (Math.sin(c + 3 * m + s) * 300 + (m >= 4 && m <= 6 ? 9e4 : 0));
      }
    }
  }
  acc.add(sums, 2);
  acc.add(sums.map((x) => x * 1.5), 3);
  return { kase, acc };
}

describe('live field slices', () => {
  const { kase, acc } = filledAccumulator();
  const whole = { cells: kase.grid.cells, cellSize: kase.grid.cellSize, samples: acc.samples, blocks: 0, values: acc.fields(), errors: acc.fields() };

  it.each([
    ['z', undefined], ['z', 0], ['x', 4], ['y', 1], ['y', 9],
  ] as const)('axis %s, index %s: the plane computed alone equals the cut of the whole grid', (axis, index) => {
    for (const field of ['n', 'T', 'ux', 'qz', 'particlesPerSample'] as const) {
      const posted: FieldSlice[] = [];
      const live = new LiveFields(kase, { field, axis, index }, (s) => posted.push(s), 0, acc);
      live.tick();
      expect(posted).toHaveLength(1);
      // an index past the grid falls back to the middle plane, as the live view does
      const expected = fieldSlice(whole, field, axis, index !== undefined && index < kase.grid.cells[{ x: 0, y: 1, z: 2 }[axis]] ? index : undefined);
      expect(posted[0], `${field} on ${axis}`).toEqual(expected);
      expect(expected.values.some((v) => v !== null && v !== 0), `${field} on ${axis} has values`).toBe(true);
    }
  });
});
