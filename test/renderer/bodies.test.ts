// @vitest-environment happy-dom
// Bodies in the renderer: the case editor's body rows (triangle counts as tessellateShape meshes, the check's
// messages filed under their body, a new body that parses and lies in the box), the outline and blank cells of
// field slices and their heatmap option (outline series over hidden value axes, proportions kept), the surface
// chart (stagnation angle, groups, area-weighted bins, dimensional values without a free stream), the form's
// tagged unions keyed by `model` and a bodies list emptied, and the run detail's surface section and exports.
import { flushPromises, mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createMemoryHistory, createRouter } from 'vue-router';
import { bodySchema } from '../../src-main/common/body-schema.js';
import { caseJsonSchema } from '../../src-main/common/case-schema.js';
import { fieldHeatmapOption, heatmapHeight } from '../../src-main/common/charts/field-heatmap-chart.js';
import { blankBodyCells, sliceBodyOutline } from '../../src-main/common/charts/slice-bodies.js';
import { binnedMeans, surfaceChartOption, surfaceCoordinates, surfacePoints, surfaceQuantities } from '../../src-main/common/charts/surface-chart.js';
import type { FieldSlice, SurfaceView } from '../../src-main/common/contract/types.js';
import { tessellateShape } from '../../src-main/common/geometry/index.js';
import { useTransport } from '../../src-renderer/api/index.js';
import BodiesList from '../../src-renderer/components/BodiesList.vue';
import SchemaForm from '../../src-renderer/components/SchemaForm.vue';
import { minListItems, unionKey, type SchemaNode } from '../../src-renderer/components/schema-nodes.js';
import { bodyMessages, bodyRows, newBody, shapeTriangles } from '../../src-renderer/stores/case-bodies.js';
import { useCaseEditorStore } from '../../src-renderer/stores/case-editor.js';
import RunDetailView from '../../src-renderer/views/RunDetailView.vue';
import { fakeTransport } from './fake-transport.js';

beforeEach(() => setActivePinia(createPinia()));

const BOX: [number, number, number] = [1, 1, 1];
/** A grid of 0.05 m cells over the unit box. */
const GRID = { domain: BOX, cellSize: [0.05, 0.05, 0.05] as [number, number, number] };

describe('case editor bodies', () => {
  it('counts the triangles of every built-in shape as tessellateShape meshes it', () => {
    const shapes: Record<string, unknown>[] = [
      { type: 'sphere', center: [0.5, 0.5, 0.5], radius: 0.1 },
      { type: 'sphere', center: [0.5, 0.5, 0.5], radius: 0.1, subdivisions: 0 },
      { type: 'sphere', center: [0.5, 0.5, 0.5], radius: 0.1, subdivisions: 2 },
      { type: 'cylinder', center: [0.5, 0.5, 0.5], radius: 0.1, length: 0.3, axis: 'x' },
      { type: 'cylinder', center: [0.5, 0.5, 0.5], radius: 0.1, segments: 8 },
      { type: 'box', min: [0.1, 0.1, 0.1], max: [0.3, 0.4, 0.5] },
      { type: 'wedge', apex: [0.1, 0.2, 0], length: 0.3, angle: 20 },
      { type: 'wedge', apex: [0.1, 0.5, 0], length: 0.3, angle: 20, symmetric: true, span: 0.5 },
    ];
    for (const s of shapes) {
      const parsed = bodySchema.parse({ name: 'b', shape: s, surface: { model: 'specular' } }).shape;
      expect(shapeTriangles(s), JSON.stringify(s)).toBe(tessellateShape(parsed, BOX).length / 9);
      // in a case's grid a box, wedge or cylinder takes its facet size from the cell size (or its own resolution)
      for (const [grid, extra] of [[GRID, {}], [GRID, { resolution: 0.07 }]] as const) {
        const json = s.type === 'sphere' ? s : { ...s, ...extra };
        const p = bodySchema.parse({ name: 'b', shape: json, surface: { model: 'specular' } }).shape;
        expect(shapeTriangles(json, grid), JSON.stringify(json)).toBe(tessellateShape(p, grid.domain, undefined, grid.cellSize).length / 9);
      }
    }
    expect(shapeTriangles({ type: 'stl', file: 'x.stl' })).toBeNull();
  });

  it('lists name, shape, surface and triangles, and files the check\'s messages under their body', () => {
    const c = {
      grid: { cells: [10, 20, 10], cellSize: [0.1, 0.1, 0.1] },
      initial: { temperature: 250 },
      bodies: [
        { name: 'ball', shape: { type: 'sphere', center: [0.5, 1, 0.5], radius: 0.2, subdivisions: 3 }, surface: { model: 'maxwell', temperature: 300, accommodation: 0.8 } },
        { name: 'ramp', shape: { type: 'wedge', apex: [0.1, 0.2, 0], length: 0.3, angle: 20 }, surface: { model: 'specular' } },
      ],
    };
    const rows = bodyRows(c);
    expect(rows.map((r) => [r.name, r.shape, r.surface, r.triangles])).toEqual([
      ['ball', 'sphere', 'maxwell, 300 K, accommodation 0.8', 1280],
      // facets of at most a cell (0.1 m): edges 0.3, 0.109, 0.319 m in 3 + 2 + 4 pieces, span 1 m in 10: 2 * 9 * 10 + 2 * 9
      ['ramp', 'wedge', 'specular', 198],
    ]);
    expect(rows[0].shapeDetail).toBe('radius 0.2 m at [0.5, 1, 0.5] m');
    expect(rows[1].shapeDetail).toBe('20°, length 0.3 m, apex [0.1, 0.2, 0] m');
    const messages = new Map([
      ['bodies[0].shape.radius', [{ level: 'error' as const, text: 'expected a finite number > 0' }]],
      ['bodies', [{ level: 'error' as const, text: 'body "ramp" leaves the box: ...' }, { level: 'error' as const, text: 'bodies "ball" and "ramp" overlap' }]],
      ['bodies[10].name', [{ level: 'error' as const, text: 'not mine' }]],
    ]);
    expect(bodyMessages(messages, rows[0]).map((m) => m.text)).toEqual(['expected a finite number > 0', 'bodies "ball" and "ramp" overlap']);
    expect(bodyMessages(messages, rows[1]).map((m) => m.text)).toEqual(['body "ramp" leaves the box: ...', 'bodies "ball" and "ramp" overlap']);
    // a new body: a valid diffuse sphere in the middle of the box, at the initial temperature, with a fresh name
    const b = newBody(c);
    const parsed = bodySchema.parse(b);
    expect(parsed.name).toBe('body3');
    expect(parsed.shape).toMatchObject({ type: 'sphere', center: [0.5, 1, 0.5], radius: 0.1 });
    expect(parsed.surface).toMatchObject({ model: 'diffuse', temperature: 250 });
  });

  it('adds and removes bodies through the store, and the list shows them with their messages', async () => {
    const fake = fakeTransport({
      listPresets: () => [{ name: 'p', description: '', json: { name: 'p', grid: { cells: [4, 4, 4], cellSize: [1, 1, 1] } } }],
      checkCase: () => ({ ok: false, issues: [], prelaunch: { errors: [{ code: 'body-geometry', field: 'bodies', message: 'body "body1" leaves the box' }], warnings: [], estimates: {} }, adapter: 'fake' }),
    });
    useTransport(fake.transport);
    const store = useCaseEditorStore();
    await store.loadPresets();
    expect(store.bodies).toEqual([]);
    store.addBody();
    store.addBody();
    expect(store.bodies.map((b) => b.name)).toEqual(['body1', 'body2']);
    await store.runCheck();
    const w = mount(BodiesList, { props: { bodies: store.bodies, messages: store.messagesByPath } });
    expect(w.find('[data-test="body-row-0"]').text()).toContain('320'); // the new body's coarse icosphere: 20 x 4^2 triangles
    expect(w.find('[data-test="body-messages-0"]').text()).toContain('leaves the box');
    expect(w.find('[data-test="body-messages-1"]').exists()).toBe(false);
    await w.find('[data-test="remove-body-0"]').trigger('click');
    expect(w.emitted('remove')).toEqual([[0]]);
    store.removeBody(0);
    expect(store.bodies.map((b) => b.name)).toEqual(['body2']);
    expect((store.caseJson as { bodies: unknown[] }).bodies).toHaveLength(1);
  });

  it('the form switches a surface model by its `model` key, edits the cylinder axis as JSON, and may empty the bodies list', async () => {
    const schema = caseJsonSchema() as SchemaNode;
    const bodies = schema.properties!.bodies;
    expect(minListItems(bodies)).toBe(0);
    expect(minListItems(schema.properties!.species)).toBe(1);
    expect(unionKey(bodies.items!.properties!.surface)).toBe('model');
    const value = [{ name: 'c', shape: { type: 'cylinder', center: [0.5, 0.5, 0.5], radius: 0.1, axis: 'x', length: 0.2 }, surface: { model: 'diffuse', temperature: 300 } }];
    const w = mount(SchemaForm, { props: { schema: bodies, value, path: ['bodies'], label: 'bodies', messages: new Map() } });
    const model = w.find('select[data-field="bodies[0].surface.model"]');
    expect((model.element as HTMLSelectElement).value).toBe('diffuse');
    await model.setValue('specular');
    expect(w.emitted('update')?.at(-1)).toEqual([['bodies', 0, 'surface'], { model: 'specular' }]);
    const axis = w.find('input[data-field="bodies[0].shape.axis"]');
    expect((axis.element as HTMLInputElement).value).toBe('"x"');
    await axis.setValue('[0, 1, 1]');
    expect(w.emitted('update')?.at(-1)).toEqual([['bodies', 0, 'shape', 'axis'], [0, 1, 1]]);
    const remove = w.findAll('button').find((b) => b.text() === 'remove')!;
    expect(remove.attributes('disabled')).toBeUndefined();
    await remove.trigger('click');
    expect(w.emitted('update')?.at(-1)).toEqual([['bodies'], []]);
  });
});

/** A 4 x 3 slice normal to z at index 1 with values 1..12. */
function slice(over: Partial<FieldSlice> = {}): FieldSlice {
  return {
    field: 'n', label: 'number density', unit: 'm^-3', axis: 'z', index: 1, depth: 2, axes: ['x', 'y'], width: 4, height: 3,
    values: Array.from({ length: 12 }, (_, i) => i + 1), min: 1, max: 12, samples: 3, ...over,
  };
}

describe('bodies on field slices', () => {
  it('outlines a box cut by the plane in cell units, and blanks the cells inside and the slivers', () => {
    const tris = tessellateShape({ type: 'box', min: [0.1, 0.2, 0], max: [0.25, 0.4, 0.2] }, [0.4, 0.6, 0.2]);
    const seg = sliceBodyOutline(tris, [0.1, 0.2, 0.1], 'z', 1); // plane z = 0.15, cells 0.1 x 0.2 in-plane
    expect(seg.length % 4).toBe(0);
    const xs = seg.filter((_, i) => i % 2 === 0), ys = seg.filter((_, i) => i % 2 === 1);
    expect([Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)]).toEqual([1, 2.5, 1, 2]);
    expect(sliceBodyOutline(tris, [0.1, 0.2, 0.1], 'z', 5)).toEqual([]); // above the box
    // cells 4 x 3 x 2: kind 2 at (1, 1, 1), a cut sliver at (2, 1, 1), a well-filled cut cell at (3, 1, 1)
    const kind = new Uint8Array(24), vf = new Float64Array(24).fill(1);
    const at = (i: number, j: number, k: number) => i + 4 * (j + 3 * k);
    kind[at(1, 1, 1)] = 2; vf[at(1, 1, 1)] = 0;
    kind[at(2, 1, 1)] = 1; vf[at(2, 1, 1)] = 0.001;
    kind[at(3, 1, 1)] = 1; vf[at(3, 1, 1)] = 0.5;
    kind[at(0, 0, 0)] = 2; // another plane
    const s = slice({ values: [...Array.from({ length: 5 }, (_, i) => i + 1), 1000, 2000, 8, 9, 10, 11, 12] });
    const b = blankBodyCells(s, kind, [4, 3, 2], vf);
    expect(b.values).toEqual([1, 2, 3, 4, 5, null, null, 8, 9, 10, 11, 12]);
    expect([b.min, b.max, b.bodyCells]).toEqual([1, 12, 2]);
    expect(blankBodyCells(s, kind, [4, 3, 2]).values[6]).toBe(2000); // without fractions only kind 2
  });

  it('draws the cells and the outline on the same axes in metres, the outline over the cells and outside the colour mapping, keeping the plane\'s proportions', () => {
    const plain = fieldHeatmapOption(slice()) as { series: { type: string; name: string }[] };
    expect(plain.series.map((x) => `${x.type}: ${x.name}`)).toEqual([expect.stringMatching(/^custom: /), 'custom: colour bar']);
    const o = fieldHeatmapOption(slice({ outline: [0, 0, 4, 3, 1, 1, 2, 1], cellSize: [0.1, 0.2] }), { frame: { width: 1325, height: 735 } }) as unknown as {
      series: { type: string; xAxisIndex?: number; z?: number; data: { coords: number[][] }[] }[]; visualMap: { seriesIndex: number };
      xAxis: { type: string; max?: number; name?: string }[]; yAxis: { type: string; max?: number; name?: string }[]; grid: { width: number; height: number; left: number }[];
    };
    expect(o.series.map((x) => x.type)).toEqual(['custom', 'custom', 'lines', 'lines']);
    expect(o.series[2].xAxisIndex).toBe(0);
    // outline given in cells, drawn in metres (0.1 m by 0.2 m cells)
    expect(o.series[3].data).toEqual([{ coords: [[0, 0], [0.4, 0.6000000000000001]] }, { coords: [[0.1, 0.2], [0.2, 0.2]] }]);
    expect(o.visualMap.seriesIndex).toBe(0);
    expect([o.xAxis[0].type, o.xAxis[0].max, o.yAxis[0].max, o.xAxis[0].name]).toEqual(['value', 0.4, 0.6000000000000001, 'x [m]']);
    // 4 x 3 cells of 0.1 x 0.2 m (0.4 x 0.6 m): plot 400 x 600 px in a 1100 x 600 px area, centred; the bar beside it
    expect([o.grid[0].width, o.grid[0].height, o.grid[0].left]).toEqual([400, 600, 445]);
    expect(o.grid[1].left).toBe(865);
    expect(heatmapHeight(slice({ cellSize: [0.1, 0.1] }), 625)).toBe(435); // (625 - 225) * 3/4 + 135
    expect(heatmapHeight(slice(), 625)).toBe(420); // proportions unknown
  });
});

/** Two bodies: a sphere's four triangles facing +x, -x, +y and -y (body 0), one triangle of body 1. */
function view(over: Partial<SurfaceView> = {}): SurfaceView {
  return {
    runId: 9, bodyNames: ['ball', 'plate'], sampledTime: 1e-3, freeStreamVelocity: [500, 0, 0], triangles: 5, stride: 1,
    body: [0, 0, 0, 0, 1],
    centroid: [1, 0, 0, -1, 0, 0, 0, 1, 0, 0, -1, 0, 5, 5, 5],
    normal: [1, 0, 0, -1, 0, 0, 0, 1, 0, 0, -1, 0, 0, 0, 1],
    area: [1, 1, 1, 3, 1],
    pressure: [10, 50, 20, 40, null], shear: [1, 2, 3, 4, 5], heatFlux: [5, 6, 7, 8, 9], numberFlux: [1, 1, 1, 1, 1],
    cp: [0.1, 2, 0.5, 0.7, null], cf: [0, 0, 0, 0, 0], ch: [0, 0, 0, 0, 0], loads: null, ...over,
  };
}

describe('surface chart', () => {
  it('plots against the angle from the stagnation point, or the distance along the stream in groups', () => {
    const v = view();
    expect(surfacePoints(v, 0, 'cp', 'angle').map((p) => [p.x, p.y])).toEqual([[180, 0.1], [0, 2], [90, 0.5], [90, 0.7]]);
    const s = surfacePoints(v, 0, 'pressure', 'streamwise');
    expect(s.map((p) => [p.x, p.y, p.group])).toEqual([[2, 10, 2], [0, 50, 0], [1, 20, 1], [1, 40, 1]]);
    expect(surfacePoints(v, 1, 'cp', 'angle')).toEqual([]); // null values are left out
    // area-weighted: (20 * 1 + 40 * 3) / 4 = 35 in the middle bin
    expect(binnedMeans(s, 0, 3, 3)).toEqual([[0.5, 50], [1.5, 35], [2.5, 10]]);
    expect(binnedMeans(s.slice(0, 1), 2, 2, 30)).toEqual([[2, 10]]);
    const o = surfaceChartOption(v, { body: 0, quantity: 'pressure', coordinate: 'streamwise' }) as unknown as { series: { type: string; name: string }[]; title: { text: string } };
    expect(o.title.text).toBe('pressure on ball');
    expect(o.series.map((x) => `${x.type}: ${x.name}`)).toEqual([
      'scatter: triangles facing the flow', 'line: mean, facing the flow', 'scatter: triangles parallel to the flow', 'line: mean, parallel to the flow',
      'scatter: triangles sheltered from the flow', 'line: mean, sheltered from the flow',
    ]);
  });

  it('offers the coefficients only with a moving free stream', () => {
    expect(surfaceQuantities(view())).toEqual(['cp', 'cf', 'ch', 'pressure', 'shear', 'heatFlux', 'numberFlux']);
    const still = view({ freeStreamVelocity: null, cp: null, cf: null, ch: null });
    expect(surfaceQuantities(still)).toEqual(['pressure', 'shear', 'heatFlux', 'numberFlux']);
    expect(surfaceCoordinates(still)).toEqual(['streamwise']);
  });
});

describe('RunDetailView with bodies', () => {
  /** Mounts the run detail of a run with `bodies` bodies; getSurface answers `surface` or throws. */
  async function mountRun(bodies: number, surface: SurfaceView | Error) {
    const run = {
      id: 4, project: 'p', caseId: 1, caseName: 'ball', caseHash: 'h', status: 'completed', reason: null, startedAt: '2026-01-01T00:00:00Z', endedAt: null,
      seed: 1, ranks: 1, gpus: 1, adapter: { description: 'fake GPU', backend: 'vulkan' }, productVersion: '0.1.0', lastStep: 2, tags: [], notes: '',
      summary: bodies ? { surface: { sampledTime: 1e-3, freeStream: null, faces: [], bodies: [{ name: 'ball', cd: 3.0612, cl: 0.01, drag: 1e-4, lift: 1e-7, side: 0, cs: 0, force: [1e-4, 0, 0], moment: [0, 0, 0], momentCenter: [0, 0, 0], heatTransfer: 0.07, incidentRate: 1e18, triangles: 4, area: 1, referenceArea: 0.045 }] } } : null,
    };
    const profile = {
      phaseTable: { ranks: 1, loopSeconds: 1, rows: [], other: { seconds: 1, percentOfLoop: 100 } },
      throughput: { steps: 2, meanParticles: 10, particleSteps: 20, particleStepsPerSecond: 20, secondsPerParticleStep: 0.05, loopSecondsPerParticle: 0.1, collisionsPerParticleStep: 0, candidatesPerParticleStep: 0 },
      conservation: null, steps: [], totals: [],
    };
    const fake = fakeTransport({
      getRun: () => ({ run, caseJson: { name: 'ball', bodies: [{ name: 'ball', shape: { type: 'sphere' } }] }, profile, hasFields: false, cells: [2, 2, 2], resumeFromStep: null, bodies }),
      getSurface: () => { if (surface instanceof Error) throw surface; return surface; },
    });
    useTransport(fake.transport);
    const router = createRouter({ history: createMemoryHistory(), routes: [{ path: '/runs/:id', component: RunDetailView }, { path: '/projects', component: RunDetailView }, { path: '/runs/:id/live', component: RunDetailView }] });
    void router.push('/runs/4');
    await router.isReady();
    const w = mount(RunDetailView, { global: { plugins: [router] }, attachTo: document.body });
    await flushPromises();
    return { w, fake };
  }

  it('shows the surface chart with its selectors, the loads per body, and offers the vtp export', async () => {
    const { w } = await mountRun(1, view({ bodyNames: ['ball'], body: [0, 0, 0, 0], triangles: 4, loads: null }));
    expect(w.find('[data-test="surface-chart"]').exists()).toBe(true);
    expect((w.find('[data-test="surface-coordinate"]').element as HTMLSelectElement).value).toBe('angle'); // a sphere
    expect(w.findAll('[data-test="surface-quantity"] option')).toHaveLength(7);
    expect(w.find('[data-test="body-cd-0"]').text()).toBe('3.061');
    expect(w.find('[data-test="body-heatTransfer-0"]').text()).toBe('0.07');
    expect(w.find('[data-test="export-vtp"]').exists()).toBe(true);
    w.unmount();
  });

  it('keeps the loads from the summary and says why when the surface cannot be loaded; no vtp without bodies', async () => {
    const a = await mountRun(1, new Error('run 4 has no surface results: it was recorded before runs kept their surfaces'));
    expect(a.w.find('[data-test="surface-chart"]').exists()).toBe(false);
    expect(a.w.text()).toContain('recorded before runs kept their surfaces');
    expect(a.w.find('[data-test="body-cd-0"]').text()).toBe('3.061');
    a.w.unmount();
    const b = await mountRun(0, new Error('unused'));
    expect(b.w.find('[data-test="export-vtp"]').exists()).toBe(false);
    expect(b.w.find('[data-test="export-vtk"]').exists()).toBe(true);
    expect(b.w.text()).not.toContain('Surfaces');
    expect(b.fake.calls.some((c) => c.method === 'getSurface')).toBe(false);
    b.w.unmount();
  });
});
