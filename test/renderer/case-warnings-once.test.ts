// @vitest-environment happy-dom
// Issue 27, item 1: "Add body" gave warnings each shown three times (under the form's shape group, in the bodies
// list and in the pre-launch list). Every message of the check now appears once: next to its input in the form,
// under its body in the bodies list, or (no input, no body) in the pre-launch list, which names where the others are.
import { flushPromises, mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import { createMemoryHistory, createRouter } from 'vue-router';
import { caseJsonSchema } from '../../src-main/common/case-schema.js';
import { useTransport } from '../../src-renderer/api/index.js';
import type { SchemaNode } from '../../src-renderer/components/schema-nodes.js';
import { formHasInputAt, parseMessagePath } from '../../src-renderer/stores/message-places.js';
import CaseEditorView from '../../src-renderer/views/CaseEditorView.vue';
import { fakeTransport } from './fake-transport.js';

/** A 0.2 m x 0.1 m box one 4 mm cell deep. */
const PRESET = {
  name: 'flat', description: '',
  json: { name: 'flat', grid: { cells: [50, 25, 1], cellSize: [0.004, 0.004, 0.004] }, initial: { kind: 'maxwellian', numberDensity: 1e20, temperature: 300, velocity: [0, 0, 0] }, run: { steps: 10, dt: 1e-6 } },
};
/** What the check says once the body is there: three warnings about the body's shape, one at an input, one at a group. */
const THIN = ['x', 'y', 'z'].map((a) => `body "body1" is 0.0004 m thick along ${a}, thinner than a cell`);
const DT = 'dt exceeds a quarter of the cell residence time';
const GRID = 'the grid holds fewer than 10 cells along some axis';

beforeEach(() => setActivePinia(createPinia()));

/** How often `text` occurs in `all`. */
const count = (all: string, text: string) => all.split(text).length - 1;

describe('case editor messages after "Add body"', () => {
  it('shows each warning exactly once, in the one place that fits it', async () => {
    const checkCase = (r: unknown) => {
      const bodies = ((r as { caseJson: { bodies?: unknown[] } }).caseJson.bodies ?? []).length;
      const warnings = [
        { code: 'dt-residence', field: 'run.dt', message: DT }, { code: 'grid', field: 'grid', message: GRID },
        ...(bodies > 0 ? THIN.map((message) => ({ code: 'body-thin', field: 'bodies[0].shape', message })) : []),
      ];
      return { ok: true, issues: [], prelaunch: { errors: [], warnings, estimates: {} }, adapter: 'fake' };
    };
    useTransport(fakeTransport({ listPresets: () => [PRESET], checkCase }).transport);
    const router = createRouter({ history: createMemoryHistory(), routes: [{ path: '/', component: CaseEditorView }, { path: '/launch', component: CaseEditorView }] });
    const w = mount(CaseEditorView, { global: { plugins: [router] } });
    await flushPromises();
    await w.find('[data-test="add-body"]').trigger('click');
    await new Promise((r) => setTimeout(r, 400)); // the check runs a moment after the edit
    await flushPromises();
    const all = w.text();
    for (const m of [...THIN, DT, GRID]) expect(count(all, m), m).toBe(1);
    // where: the body's warnings under its row, dt next to its input, the grid's in the pre-launch list
    const bodyMsgs = w.find('[data-test="body-messages-0"]').text();
    for (const m of THIN) expect(bodyMsgs).toContain(m);
    const dtField = w.findAll('.field').find((f) => f.find('input[data-field="run.dt"]').exists())!;
    expect(dtField.find('[data-test="msg-warning"]').text()).toContain(DT);
    const pre = w.find('[data-test="prelaunch"]').text();
    expect(pre).toContain(`grid: ${GRID}`);
    expect(w.find('[data-test="prelaunch-elsewhere"]').text()).toBe('Shown next to their fields in the form: run.dt. Shown under their body in the bodies list: bodies[0].shape (3).');
    expect(w.find('[data-test="check-status"]').text()).toBe('ready, 5 warning(s)');
  });
});

describe('where the form has an input for a message path', () => {
  const schema = caseJsonSchema() as SchemaNode;
  const c = { ...PRESET.json, boundaries: { xmin: { type: 'diffuse', temperature: 300 } }, bodies: [{ name: 'b', shape: { type: 'sphere', center: [0, 0, 0], radius: 1 }, surface: { model: 'diffuse' } }] };
  const at = (path: string) => formHasInputAt(schema, c, parseMessagePath(path));

  it('finds inputs (numbers, tuple items, the tuple, a variant\'s field) and refuses groups and a union\'s key', () => {
    expect(parseMessagePath('bodies[0].shape.center[2]')).toEqual(['bodies', 0, 'shape', 'center', 2]);
    for (const p of ['run.dt', 'grid.cells[1]', 'grid.cells', 'bodies[0].shape.radius', 'bodies[0].shape.center[2]', 'boundaries.xmin.temperature']) expect(at(p), p).toBe(true);
    for (const p of ['grid', 'bodies', 'bodies[0]', 'bodies[0].shape', 'bodies[1].name', 'boundaries.xmin.type', 'bodies[0].shape.min', 'run.dt.x', 'nosuch']) expect(at(p), p).toBe(false);
  });
});
