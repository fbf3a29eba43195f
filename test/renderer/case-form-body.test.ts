// @vitest-environment happy-dom
// Issue 27, item 1: after a shape change empties a body's vectors, typing their components stores arrays (not
// {"0": .., "1": ..}), so the form alone can finish the body; "Add body" on a quasi-2D box (one cell deep) sizes
// the sphere to the resolved sides with a coarse mesh, and the result passes the case schema.
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import { bodySchema } from '../../src-main/common/body-schema.js';
import { useTransport } from '../../src-renderer/api/index.js';
import { shapeTriangles } from '../../src-renderer/stores/case-bodies.js';
import { useCaseEditorStore } from '../../src-renderer/stores/case-editor.js';
import { fakeTransport } from './fake-transport.js';

/** A 0.2 m x 0.1 m box one 4 mm cell deep, as the wedge and cavity cases are. */
const PRESET = { name: 'flat', description: '', json: { name: 'flat', grid: { cells: [50, 25, 1], cellSize: [0.004, 0.004, 0.004] }, initial: { temperature: 300 } } };

beforeEach(() => setActivePinia(createPinia()));

describe('finishing a body in the case form', () => {
  it('stores the components typed into emptied vector inputs as arrays', async () => {
    useTransport(fakeTransport({ listPresets: () => [PRESET], checkCase: () => ({ ok: true, issues: [], prelaunch: null, adapter: 'fake' }) }).transport);
    const store = useCaseEditorStore();
    await store.loadPresets();
    store.addBody();
    // the shape changed to a box: the form empties the shape and the user types each component
    store.update(['bodies', 0, 'shape'], { type: 'box' });
    for (const [i, x] of [0.06, 0.05, 0.002].entries()) store.update(['bodies', 0, 'shape', 'min', i], x);
    for (const [i, x] of [0.1, 0.07, 0.004].entries()) store.update(['bodies', 0, 'shape', 'max', i], x);
    const shape = (store.caseJson!.bodies as { shape: Record<string, unknown> }[])[0].shape;
    expect(Array.isArray(shape.min)).toBe(true);
    expect(shape.min).toEqual([0.06, 0.05, 0.002]);
    expect(JSON.parse(store.jsonText).bodies[0].shape.max).toEqual([0.1, 0.07, 0.004]);
  });

  it('adds a body sized to the resolved sides of a one-cell-deep box, with a coarse mesh', async () => {
    useTransport(fakeTransport({ listPresets: () => [PRESET], checkCase: () => ({ ok: true, issues: [], prelaunch: null, adapter: 'fake' }) }).transport);
    const store = useCaseEditorStore();
    await store.loadPresets();
    store.addBody();
    const body = bodySchema.parse((store.caseJson!.bodies as unknown[])[0]);
    const shape = body.shape as { type: string; radius: number };
    const [cells, cellSize] = [PRESET.json.grid.cells, PRESET.json.grid.cellSize];
    // larger than a cell, a tenth of the smallest side with more than one cell
    expect(shape.radius).toBeGreaterThan(Math.max(...cellSize));
    expect(shape.radius).toBeCloseTo(Math.min(cells[0] * cellSize[0], cells[1] * cellSize[1]) / 10, 10);
    expect(shapeTriangles(body.shape as unknown as Record<string, unknown>)).toBeLessThan(1000);
  });
});
