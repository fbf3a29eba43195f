// The sampled fields folded on several threads (field-fold-pool.ts: worker threads over shared memory, the
// compiled worker in out/) give bitwise the sums, batch means, fields and standard errors of one thread, for
// inputs in shared memory or not; the thread count follows the grid size, and DSMC_FOLD_THREADS is checked.
import { afterEach, describe, expect, it } from 'vitest';
import { parseCase } from '../../src-main/common/case-schema.js';
import { FieldAccumulator, foldInput } from '../../src-main/solver/field-accumulator.js';
import { foldThreads } from '../../src-main/solver/field-fold-pool.js';
import { FIELD_NAMES, type Fields } from '../../src-main/solver/fields.js';
import { SAMPLE_MOMENTS } from '../../src-main/solver/gpu/struct-layouts.js';
import { buildTables } from '../../src-main/solver/tables.js';
import { baseCase } from './case-fixtures.js';

/** A two-species case on 23 x 11 x 7 cells (a prime-ish count, so the thread ranges are uneven). */
function mixtureCase() {
  const raw = baseCase();
  raw.grid.cells = [23, 11, 7];
  raw.species.push({ name: 'He', mass: 6.65e-27, dRef: 2.33e-10, omega: 0.66, tRef: 273 });
  return parseCase(raw);
}

/** Submit number `s`'s f32 sums: different in every cell and submit, some cells empty. */
function submitSums(n: number, nCells: number, s: number, into: Float32Array): Float32Array {
  for (let i = 0; i < n; i++) {
    const c = i % nCells;
    into[i] = (c + s) % 11 === 0 ? 0 : Math.fround(Math.sin(i * 0.37 + s) * 400 + 9e4 * (1 + ((i + 3 * s) % 5)));
  }
  return into;
}

/** Bytes of a typed array, for bitwise comparison. */
const bytes = (a: Float64Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);

/** Every field's bytes (NaN patterns included). */
const fieldBytes = (f: Fields) => FIELD_NAMES.map((k) => bytes(f[k]).toString('base64'));

/** Feeds the same submits to an accumulator: adds, blocks of 3 submits, a forced last block. */
function feed(acc: FieldAccumulator, nCells: number, shared: boolean) {
  const n = acc.sums.length;
  const input = shared ? foldInput(n, acc) : new Float32Array(n);
  for (let s = 1; s <= 10; s++) {
    acc.add(submitSums(n, nCells, s, input), 1 + (s % 3));
    acc.closeBlock(3, false);
  }
  acc.closeBlock(3, true);
  const used = acc.lastFoldThreads;
  acc.releaseThreads();
  return used;
}

describe('the field fold on several threads', () => {
  const kase = mixtureCase();
  const tables = buildTables(kase);
  const serial = new FieldAccumulator(kase, tables, { threads: 1 });
  expect(feed(serial, tables.nCells, false)).toBe(1);

  it.each([[2, true], [3, false], [5, true]])('%i threads (input in shared memory: %s) give bitwise one thread\'s result', (threads, shared) => {
    const acc = new FieldAccumulator(kase, tables, { threads });
    expect(acc.threads).toBe(threads);
    expect(foldInput(4, acc).buffer).toBeInstanceOf(SharedArrayBuffer);
    // the workers really ran (were they to fail to start, the fold would fall back to one thread)
    expect(feed(acc, tables.nCells, shared)).toBe(threads);
    expect(acc.blocks).toBe(serial.blocks);
    expect(acc.blocks).toBe(4);
    expect(acc.samples).toBe(serial.samples);
    expect(bytes(acc.sums).equals(bytes(serial.sums))).toBe(true);
    const [a, b] = [acc.state(), serial.state()];
    expect(bytes(a.blockSums).equals(bytes(b.blockSums))).toBe(true);
    expect(fieldBytes(a.batchMeans.mean)).toEqual(fieldBytes(b.batchMeans.mean));
    expect(fieldBytes(a.batchMeans.m2)).toEqual(fieldBytes(b.batchMeans.m2));
    expect(fieldBytes(acc.fields())).toEqual(fieldBytes(serial.fields()));
    expect(fieldBytes(acc.errors())).toEqual(fieldBytes(serial.errors()));
    // the errors are real numbers, so the comparison above compared values, not NaN patterns
    expect(serial.errors().T.some((x) => Number.isFinite(x) && x > 0)).toBe(true);
  });

  it('a wrong-sized input is refused', () => {
    const acc = new FieldAccumulator(kase, tables, { threads: 2 });
    expect(() => acc.add(new Float32Array(SAMPLE_MOMENTS), 1)).toThrow(`internal: ${SAMPLE_MOMENTS} sampled sums where the grid has ${acc.sums.length}`);
  });
});

describe('fold threads', () => {
  const saved = process.env.DSMC_FOLD_THREADS;
  afterEach(() => {
    if (saved === undefined) delete process.env.DSMC_FOLD_THREADS;
    else process.env.DSMC_FOLD_THREADS = saved;
  });

  it('are one for small grids and never more than eight', () => {
    delete process.env.DSMC_FOLD_THREADS;
    expect(foldThreads(1000)).toBe(1);
    expect(foldThreads(100_000)).toBe(1);
    expect(foldThreads(1e9)).toBeLessThanOrEqual(8);
    expect(foldThreads(1e9)).toBeGreaterThanOrEqual(1);
  });

  it('follow DSMC_FOLD_THREADS, and a bad value names the variable and the fix', () => {
    process.env.DSMC_FOLD_THREADS = '3';
    expect(foldThreads(1000)).toBe(3);
    expect(foldThreads(2)).toBe(2);
    process.env.DSMC_FOLD_THREADS = 'many';
    expect(() => foldThreads(1000)).toThrow('DSMC_FOLD_THREADS is "many": set a whole number of threads from 1 to 64, or unset it');
  });
});
