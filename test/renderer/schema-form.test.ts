// @vitest-environment happy-dom
// The case form generated from the real case JSON Schema: inputs for every section, edits emitted with their
// path and parsed values, messages shown next to the field they name, and boundary types switched by a select.
import { mount } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import { caseJsonSchema } from '../../src-main/common/case-schema.js';
import SchemaForm from '../../src-renderer/components/SchemaForm.vue';
import type { SchemaNode } from '../../src-renderer/components/schema-nodes.js';

const CASE = {
  name: 'box',
  grid: { cells: [4, 5, 6], cellSize: [1e-5, 1e-5, 1e-5] },
  species: [{ name: 'Ar', mass: 6.63e-26, dRef: 4.11e-10, omega: 0.81, tRef: 273.15 }],
  particles: { perCell: 10 },
  initial: { kind: 'maxwellian', numberDensity: 1e22, temperature: 273 },
  boundaries: Object.fromEntries(['xmin', 'xmax', 'ymin', 'ymax', 'zmin', 'zmax'].map((f) => [f, { type: 'specular' }])),
  run: { steps: 10, dt: 1e-9 },
};

/** Mounts the form on the case with the given messages. */
function mountForm(messages = new Map<string, { level: 'error' | 'warning'; text: string }[]>()) {
  return mount(SchemaForm, { props: { schema: caseJsonSchema() as SchemaNode, value: CASE, path: [], label: 'case', messages } });
}

describe('SchemaForm on the case schema', () => {
  it('renders an input per field with the case values, tuples as three inputs', () => {
    const w = mountForm();
    expect((w.find('input[data-field="grid.cells[1]"]').element as HTMLInputElement).value).toBe('5');
    expect((w.find('input[data-field="run.dt"]').element as HTMLInputElement).value).toBe('1e-9');
    expect((w.find('select[data-field="initial.kind"]').element as HTMLSelectElement).value).toBe('maxwellian');
    expect(w.find('input[data-field="species[0].mass"]').exists()).toBe(true);
    expect(w.findAll('select[data-field$=".type"]')).toHaveLength(6);
  });

  it('emits edits with the field path, numbers parsed (scientific notation too), bad text passed on for the check', async () => {
    const w = mountForm();
    await w.find('input[data-field="run.dt"]').setValue('5e-9');
    await w.find('input[data-field="grid.cells[2]"]').setValue('abc');
    await w.find('input[data-field="run.seed"]').setValue('');
    // setValue fires input (a plain number commits while typing) and then change (always commits)
    expect(w.emitted('update')).toEqual([[['run', 'dt'], 5e-9], [['run', 'dt'], 5e-9], [['grid', 'cells', 2], 'abc'], [['run', 'seed'], undefined]]);
  });

  it('commits numbers while the user types only when the text already reads as the number', async () => {
    const w = mountForm();
    const dt = w.find('input[data-field="run.dt"]');
    for (const text of ['7', '7e', '7e-', '7e-9']) {
      (dt.element as HTMLInputElement).value = text;
      await dt.trigger('input');
    }
    const cell = w.find('input[data-field="grid.cells[0]"]');
    for (const text of ['1', '1.', '1.5']) {
      (cell.element as HTMLInputElement).value = text;
      await cell.trigger('input');
    }
    expect(w.emitted('update')).toEqual([[['run', 'dt'], 7], [['run', 'dt'], 7e-9], [['grid', 'cells', 0], 1], [['grid', 'cells', 0], 1.5]]);
  });

  it('switches a boundary to another type through its select', async () => {
    const w = mountForm();
    await w.find('select[data-field="boundaries.ymax.type"]').setValue('diffuse');
    expect(w.emitted('update')).toEqual([[['boundaries', 'ymax'], { type: 'diffuse' }]]);
  });

  it('shows each message next to the field it names', () => {
    const w = mountForm(new Map([
      ['run.dt', [{ level: 'warning' as const, text: 'dt exceeds a quarter of the residence time' }]],
      ['grid.cells[0]', [{ level: 'error' as const, text: 'got 0; expected an integer >= 1' }]],
    ]));
    const dtField = w.findAll('.field').find((f) => f.find('input[data-field="run.dt"]').exists())!;
    expect(dtField.find('[data-test="msg-warning"]').text()).toContain('residence time');
    const cellsField = w.findAll('.field').find((f) => f.find('input[data-field="grid.cells[0]"]').exists())!;
    expect(cellsField.find('[data-test="msg-error"]').text()).toContain('expected an integer >= 1');
    expect(w.findAll('[data-test="msg-warning"]')).toHaveLength(1);
    expect(w.findAll('[data-test="msg-error"]')).toHaveLength(1);
  });
});
