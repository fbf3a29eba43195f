// Surfaces of a run in the database: sums, triangles, bodies and cell marks come back bit-exact (the cut
// cells' fractions stored, the rest implied by the kinds), runs without surfaces give null, bad input is
// refused naming the field, and nothing is written when completeRun refuses.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunSurface } from '../../src-main/common/run-record.js';
import { SURFACE_Q } from '../../src-main/common/surface-layout.js';
import { RunStore } from '../../src-main/store/run-store.js';
import { seededUniform } from '../seeded-random.js';
import { fields, phases, removeDir, runInput, summary, tempDir } from './store-fixtures.js';

let dir: string;
let store: RunStore;
beforeEach(() => {
  dir = tempDir();
  store = RunStore.open({ dataDir: dir });
});
afterEach(() => {
  store.close();
  removeDir(dir);
});

/** A surface of 3 triangles (2 bodies) and 12 cells, with random sums and fractions. */
function surface(): RunSurface {
  const r = seededUniform(5);
  const elements = 3 + 6;
  const kind = Uint8Array.from([0, 0, 1, 1, 2, 2, 0, 1, 0, 0, 2, 1]);
  const volumeFraction = Float64Array.from(kind, (k) => (k === 0 ? 1 : k === 2 ? 0 : r()));
  return {
    sums: { elements, values: Float64Array.from({ length: elements * SURFACE_Q }, () => r() * 1e-20), sampledTime: 3.5e-6 },
    triangles: Float64Array.from({ length: 27 }, () => r()),
    triangleBody: Int32Array.from([0, 0, 1]),
    bodyNames: ['a', 'b'],
    cellKind: kind,
    volumeFraction,
  };
}

describe('run surfaces', () => {
  it('come back bit-exact', () => {
    const id = store.createRun(runInput());
    const s = surface();
    store.completeRun(id, { summary: summary(), phases: phases(), fields: fields([3, 2, 2]), surface: s });
    const back = store.getSurface(id)!;
    expect(back.sums.elements).toBe(9);
    expect(back.sums.sampledTime).toBe(3.5e-6);
    expect(Buffer.from(back.sums.values.buffer).equals(Buffer.from(s.sums.values.buffer))).toBe(true);
    expect(Buffer.from(back.triangles.buffer).equals(Buffer.from(s.triangles.buffer))).toBe(true);
    expect([...back.triangleBody]).toEqual([0, 0, 1]);
    expect(back.bodyNames).toEqual(['a', 'b']);
    expect([...back.cellKind!]).toEqual([...s.cellKind!]);
    expect(Buffer.from(back.volumeFraction!.buffer).equals(Buffer.from(s.volumeFraction!.buffer))).toBe(true);
  });

  it('are null for a run that kept none, and a case without bodies keeps no cell marks', () => {
    const a = store.createRun(runInput());
    store.completeRun(a, { summary: summary(), phases: phases(), fields: null });
    expect(store.getSurface(a)).toBeNull();
    const b = store.createRun(runInput());
    const s = { ...surface(), triangles: new Float64Array(0), triangleBody: new Int32Array(0), bodyNames: [], cellKind: null, volumeFraction: null };
    s.sums = { elements: 6, values: new Float64Array(6 * SURFACE_Q).fill(2), sampledTime: 1 };
    store.completeRun(b, { summary: summary(), phases: phases(), fields: null, surface: s });
    const back = store.getSurface(b)!;
    expect(back.cellKind).toBeNull();
    expect(back.volumeFraction).toBeNull();
    expect(back.sums.values[59]).toBe(2);
  });

  it('refuses sums that do not fit the elements, naming the field, and records nothing', () => {
    const id = store.createRun(runInput());
    const s = surface();
    s.sums = { ...s.sums, values: new Float64Array(7) };
    expect(() => store.completeRun(id, { summary: summary(), phases: phases(), fields: null, surface: s })).toThrow(/surface.*sums\.values.*has 7 values/s);
    expect(store.getRun(id).status).toBe('running');
    expect(store.getSurface(id)).toBeNull();
  });
});
