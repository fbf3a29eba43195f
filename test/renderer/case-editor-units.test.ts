// @vitest-environment happy-dom
// Issue 27, item 12: the case editor prints every number's unit beside its input (not only in tooltips), lists the
// pre-launch estimates in words with units and readable numbers, takes a multi-line description, and shows a
// species' rotation and vibration sub-forms (and the initial internal temperatures, the mole fractions) only where
// they apply.
import { flushPromises, mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import { createMemoryHistory, createRouter } from 'vue-router';
import { caseJsonSchema } from '../../src-main/common/case-schema.js';
import { caseFieldUnit } from '../../src-main/common/case-units.js';
import { useTransport } from '../../src-renderer/api/index.js';
import SchemaForm from '../../src-renderer/components/SchemaForm.vue';
import { nodeKind, unionVariants, type SchemaNode } from '../../src-renderer/components/schema-nodes.js';
import CaseEditorView from '../../src-renderer/views/CaseEditorView.vue';
import { fakeTransport } from './fake-transport.js';

const FACES = ['xmin', 'xmax', 'ymin', 'ymax', 'zmin', 'zmax'];
const ARGON = { name: 'Ar', mass: 6.63e-26, dRef: 4.11e-10, omega: 0.81, tRef: 273.15 };

/** A one-species case with diffuse walls on y (so wall temperatures and velocities are in the form). */
function caseWith(species: object[], extra: Record<string, unknown> = {}) {
  return {
    name: 'box',
    description: 'first line\nsecond line',
    grid: { cells: [4, 5, 6], cellSize: [1e-5, 1e-5, 1e-5] },
    species,
    particles: { perCell: 10 },
    initial: { kind: 'maxwellian', numberDensity: 1e22, temperature: 273 },
    boundaries: Object.fromEntries(FACES.map((f) => [f, f.startsWith('y') ? { type: 'diffuse', temperature: 300 } : { type: 'specular' }])),
    run: { steps: 10, dt: 1e-9 },
    bodies: [{ name: 'ball', shape: { type: 'sphere', center: [0, 0, 0], radius: 1e-5 }, surface: { model: 'diffuse', temperature: 300 } }],
    ...extra,
  };
}

type Messages = Map<string, { level: 'error' | 'warning'; text: string }[]>;

/** Mounts the form on a case. */
function mountForm(value: object, messages: Messages = new Map()) {
  return mount(SchemaForm, { props: { schema: caseJsonSchema() as SchemaNode, value, path: [], label: 'case', messages } });
}

/** The unit printed beside the input named `field`. */
function unitOf(w: ReturnType<typeof mountForm>, field: string): string | undefined {
  const row = w.findAll('.field').find((f) => f.find(`[data-field="${field}"]`).exists());
  if (!row) throw new Error(`no input for ${field} in the form`);
  const unit = row.find('[data-test="unit"]');
  return unit.exists() ? unit.text() : undefined;
}

/** Every number (or tuple/enum of numbers) in the schema with its path; list items as index 0, union variants all. */
function numericLeaves(node: SchemaNode, path: (string | number)[]): (string | number)[][] {
  const kind = nodeKind(node);
  if (kind === 'union') return unionVariants(node).flatMap((v) => numericLeaves({ ...v.node, type: 'object' }, path));
  if (kind === 'object') return Object.entries(node.properties ?? {}).flatMap(([k, c]) => numericLeaves(c, [...path, k]));
  if (kind === 'list') return numericLeaves(node.items ?? {}, [...path, 0]);
  if (kind === 'number' || kind === 'tuple' || (kind === 'enum' && typeof node.enum?.[0] === 'number')) return [path];
  return [];
}

beforeEach(() => setActivePinia(createPinia()));

describe('units in the case editor', () => {
  it('has a unit (or "a pure number") for every number of the case schema', () => {
    const leaves = numericLeaves(caseJsonSchema() as SchemaNode, []);
    expect(leaves.length).toBeGreaterThan(40);
    const missing = leaves.filter((p) => caseFieldUnit(p) === undefined).map((p) => p.join('.'));
    expect(missing, 'add these fields to src-main/common/case-units.ts').toEqual([]);
  });

  it('prints the unit beside each input, tuples and list items included', () => {
    const w = mountForm(caseWith([ARGON]));
    expect(unitOf(w, 'run.dt')).toBe('s');
    expect(unitOf(w, 'grid.cellSize[0]')).toBe('m');
    expect(unitOf(w, 'grid.cells[0]')).toBe('cells');
    expect(unitOf(w, 'initial.numberDensity')).toBe('m⁻³');
    expect(unitOf(w, 'initial.velocity[0]')).toBe('m/s');
    expect(unitOf(w, 'species[0].mass')).toBe('kg');
    expect(unitOf(w, 'species[0].dRef')).toBe('m');
    expect(unitOf(w, 'boundaries.ymin.temperature')).toBe('K');
    expect(unitOf(w, 'bodies[0].shape.radius')).toBe('m');
    expect(unitOf(w, 'bodies[0].surface.temperature')).toBe('K');
    expect(unitOf(w, 'particles.perCell')).toBe('particles / cell');
    // a pure number has no unit
    expect(unitOf(w, 'species[0].omega')).toBeUndefined();
  });
});

describe('the description', () => {
  it('is a multi-line text area that keeps line breaks', async () => {
    const w = mountForm(caseWith([ARGON]));
    const area = w.find('textarea[data-field="description"]');
    expect(area.exists()).toBe(true);
    expect((area.element as HTMLTextAreaElement).value).toBe('first line\nsecond line');
    await area.setValue('a shock tube\n\nshrink: --set grid.cells=[40,1,1]');
    expect(w.emitted('update')).toEqual([[['description'], 'a shock tube\n\nshrink: --set grid.cells=[40,1,1]']]);
    expect(w.find('input[data-field="name"]').exists()).toBe(true);
  });
});

describe('species sub-forms shown only where they apply', () => {
  it('leaves out rotation, Parker and vibration for an atom, and says where they apply', () => {
    const w = mountForm(caseWith([ARGON]));
    expect(w.find('[data-field="species[0].mass"]').exists()).toBe(true);
    expect(w.find('[data-field="species[0].rotationalRelaxation"]').exists()).toBe(false);
    expect(w.find('fieldset[data-field="species[0].parker"]').exists()).toBe(false);
    expect(w.find('fieldset[data-field="species[0].vibration"]').exists()).toBe(false);
    expect(w.find('[data-field="initial.rotationalTemperature"]').exists()).toBe(false);
    expect(w.find('[data-field="initial.vibrationalTemperature"]').exists()).toBe(false);
    expect(w.find('[data-field="initial.fractions"]').exists()).toBe(false);
    const note = w.find('fieldset[data-field="species[0]"] > [data-test="not-applicable"]').text();
    expect(note).toContain('parker, vibration');
    expect(note).toContain('rotationalDof 2');
  });

  it('shows them for a molecule, its own or a library one, and the initial internal temperatures with it', () => {
    const n2 = { ...ARGON, name: 'N2', rotationalDof: 2 };
    for (const species of [[n2], [{ use: 'N2' }]]) {
      const w = mountForm(caseWith(species));
      expect(w.find('[data-field="species[0].rotationalRelaxation"]').exists(), JSON.stringify(species)).toBe(true);
      expect(w.find('fieldset[data-field="species[0].parker"]').exists()).toBe(true);
      expect(w.find('fieldset[data-field="species[0].vibration"]').exists()).toBe(true);
      expect(w.find('[data-field="initial.rotationalTemperature"]').exists()).toBe(true);
    }
    // the library's N2 vibrates, a hand-written molecule without a vibration block does not
    expect(mountForm(caseWith([{ use: 'N2' }])).find('[data-field="initial.vibrationalTemperature"]').exists()).toBe(true);
    expect(mountForm(caseWith([n2])).find('[data-field="initial.vibrationalTemperature"]').exists()).toBe(false);
    expect(mountForm(caseWith([{ use: 'Ar' }])).find('fieldset[data-field="species[0].vibration"]').exists()).toBe(false);
  });

  it('hides the constant Zvib under Millikan-White and the constant Zrot under Parker', () => {
    const n2 = { ...ARGON, name: 'N2', rotationalDof: 2, parker: { zInf: 18.1, tStar: 91.5 }, vibration: { characteristicTemperature: 3371, millikanWhite: true } };
    const w = mountForm(caseWith([n2]));
    expect(w.find('[data-field="species[0].vibration.characteristicTemperature"]').exists()).toBe(true);
    expect(w.find('[data-field="species[0].vibration.relaxation"]').exists()).toBe(false);
    expect(w.find('[data-field="species[0].rotationalRelaxation"]').exists()).toBe(false);
    expect(unitOf(w, 'species[0].parker.tStar')).toBe('K');
  });

  it('still shows a field that does not apply when it is set or the check names it, so it can be fixed', () => {
    const withParker = mountForm(caseWith([{ ...ARGON, parker: { zInf: 18, tStar: 90 } }]));
    expect(withParker.find('fieldset[data-field="species[0].parker"]').exists()).toBe(true);
    const named = mountForm(caseWith([ARGON]), new Map([['species[0].vibration', [{ level: 'error' as const, text: 'needs rotationalDof 2' }]]]));
    expect(named.find('fieldset[data-field="species[0].vibration"]').exists()).toBe(true);
  });

  it('shows what a library species gives a field left empty: placeholders, its rotationalDof and Millikan-White', () => {
    const w = mountForm(caseWith([{ use: 'N2' }]));
    expect(w.find('input[data-field="species[0].mass"]').attributes('placeholder')).toBe('N2: 4.65e-26');
    expect(w.find('input[data-field="species[0].vibration.characteristicTemperature"]').attributes('placeholder')).toBe('N2: 3371');
    expect((w.find('select[data-field="species[0].rotationalDof"]').element as HTMLSelectElement).value).toBe('2');
    expect((w.find('input[data-field="species[0].vibration.millikanWhite"]').element as HTMLInputElement).checked).toBe(true);
    // N2 of the library relaxes its vibration by Millikan-White: its constant Zvib does not apply
    expect(w.find('[data-field="species[0].vibration.relaxation"]').exists()).toBe(false);
    // a hand-written species keeps the schema's defaults as hints
    expect(mountForm(caseWith([ARGON])).find('input[data-field="run.seed"]').attributes('placeholder')).toBe('default 1');
  });

  it('shows mole fractions for a mixture', () => {
    const w = mountForm(caseWith([ARGON, { use: 'N2' }]));
    expect(w.find('[data-field="initial.fractions"]').exists()).toBe(true);
  });

  it('stores rotationalDof 2 picked in its select as the number 2', async () => {
    const w = mountForm(caseWith([ARGON]));
    await w.find('select[data-field="species[0].rotationalDof"]').setValue('2');
    expect(w.emitted('update')).toEqual([[['species', 0, 'rotationalDof'], 2]]);
  });
});

describe('the estimates table', () => {
  it('lists the pre-launch estimates in words with units and readable numbers', async () => {
    const estimates = {
      fnum: 1.234e12, particles: 81920, referenceParticles: 125.8e6, meanFreePath: 2.35e-3, meanCollisionTime: 4.12e-8,
      cellResidenceTime: 9.5e-7, particlesPerCell: 20, totalBufferBytes: 1610612736, bytesPerParticle: 52, 'rotationalRelaxationTime N2': 1.2e-6,
    };
    const preset = { name: 'box', description: '', json: caseWith([ARGON]) };
    useTransport(fakeTransport({
      listPresets: () => [preset],
      checkCase: () => ({ ok: true, issues: [], prelaunch: { errors: [], warnings: [], estimates }, adapter: 'fake' }),
    }).transport);
    const router = createRouter({ history: createMemoryHistory(), routes: [{ path: '/case', component: CaseEditorView }, { path: '/launch', component: CaseEditorView }] });
    void router.push('/case');
    await router.isReady();
    const w = mount(CaseEditorView, { global: { plugins: [router] } });
    await flushPromises();
    await new Promise((r) => setTimeout(r, 300));
    await flushPromises();
    const row = (key: string) => w.find(`[data-test="estimates"] tr[data-key="${key}"]`).text();
    expect(row('meanFreePath')).toBe('mean free path2.35 mm');
    expect(row('meanCollisionTime')).toContain('41.2 ns');
    expect(row('cellResidenceTime')).toContain('950 ns');
    expect(row('particles')).toContain('81,920 particles');
    expect(row('referenceParticles')).toContain('125.8 million particles');
    expect(row('fnum')).toContain('1.23×10¹² molecules / particle');
    expect(row('totalBufferBytes')).toContain('1.50 GiB');
    expect(row('rotationalRelaxationTime N2')).toBe('N2: rotational relaxation time1.2 µs');
    expect(w.find('[data-test="estimates"]').text()).not.toMatch(/\de[+-]?\d/);
    w.unmount();
  });
});
