// The live view's slices (src-main/services/live-fields.ts) are computed on the plane's cells alone; they must
// equal, bitwise, the same plane cut from the fields of the whole grid, on every axis and plane index.
import { describe, expect, it } from 'vitest';
import { parseCase } from '../../src-main/common/case-schema.js';
import type { FieldSlice } from '../../src-main/common/contract/types.js';
import { fieldSlice } from '../../src-main/services/field-slice.js';
import { LiveFields } from '../../src-main/services/live-fields.js';
import { FieldAccumulator, momentUnscales } from '../../src-main/solver/field-accumulator.js';
import type { LiveFieldSource } from '../../src-main/solver/loop-types.js';
import { SAMPLE_MOMENTS } from '../../src-main/solver/gpu/struct-layouts.js';
import { buildTables } from '../../src-main/solver/tables.js';
import { baseCase } from './case-fixtures.js';

/** A two-species case on a 5 x 4 x 3 grid with exact moment sums (run and open block) that differ in every cell (some cells empty). */
function filledAccumulator() {
  const raw = baseCase();
  raw.grid.cells = [5, 4, 3];
  raw.species.push({ name: 'He', mass: 6.65e-27, dRef: 2.33e-10, omega: 0.66, tRef: 273 });
  raw.sampling = { enabled: true, start: 1, interval: 1 };
  const kase = parseCase(raw);
  const acc = new FieldAccumulator(kase, buildTables(kase));
  const nCells = 60;
  const unscale = momentUnscales(buildTables(kase));
  for (let m = 0; m < SAMPLE_MOMENTS; m++) {
    for (let s = 0; s < 2; s++) {
      for (let c = 0; c < nCells; c++) {
        const count = c % 7 === 3 ? 0 : 4 + ((c * 5 + s) % 9);
        const value = m === 0 ? count : count * (Math.sin(c + 3 * m + s) * 300 + (m >= 4 && m <= 6 ? 9e4 : 0));
        // 2/5 of it in the run's sums, the rest in the open block's, as 64-bit fixed point
        const fixed = BigInt(Math.round((5 * value) / unscale[m]));
        const run = (2n * fixed) / 5n, block = fixed - run;
        const w = (m * 2 + s) * nCells + c;
        acc.state.runLo[w] = Number(BigInt.asUintN(32, run));
        acc.state.runHi[w] = Number(BigInt.asUintN(32, run >> 32n));
        acc.state.blockLo[w] = Number(BigInt.asUintN(32, block));
        acc.state.blockHi[w] = Number(BigInt.asUintN(32, block >> 32n));
      }
    }
  }
  acc.counters = { samples: 5, blockPasses: 3, blockSubmits: 1, blocks: 1 };
  return { kase, acc };
}

/** The accumulator as a live source (what the GPU's plane read gives, here from the host state). */
function sourceOf(acc: FieldAccumulator): LiveFieldSource {
  return { get samples() { return acc.samples; }, fieldsOfCells: async (ids) => acc.fieldsOfCells(ids) };
}

describe('live field slices', () => {
  const { kase, acc } = filledAccumulator();
  const whole = { cells: kase.grid.cells, cellSize: kase.grid.cellSize, samples: acc.samples, blocks: 0, values: acc.fields(), errors: acc.fields() };

  it.each([
    ['z', undefined], ['z', 0], ['x', 4], ['y', 1], ['y', 9],
  ] as const)('axis %s, index %s: the plane computed alone equals the cut of the whole grid', async (axis, index) => {
    for (const field of ['n', 'T', 'ux', 'qz', 'particlesPerSample'] as const) {
      const posted: FieldSlice[] = [];
      const live = new LiveFields(kase, { field, axis, index }, (s) => posted.push(s), 0, sourceOf(acc));
      await live.tick();
      expect(posted).toHaveLength(1);
      // an index past the grid falls back to the middle plane, as the live view does
      // (live fields have no standard errors yet: batch means need the whole sampling window)
      const { errors, ...expected } = fieldSlice(whole, field, axis, index !== undefined && index < kase.grid.cells[{ x: 0, y: 1, z: 2 }[axis]] ? index : undefined);
      expect(errors).toHaveLength(expected.values.length);
      expect(posted[0], `${field} on ${axis}`).toEqual(expected);
      expect(expected.values.some((v) => v !== null && v !== 0), `${field} on ${axis} has values`).toBe(true);
    }
  });
});
