// @vitest-environment happy-dom
// Views mounted with Pinia, the router and a fake transport: the projects view (create, errors shown as the
// services word them, empty states) and the run detail view (heatmap chart, phase table, export download).
import { flushPromises, mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createMemoryHistory, createRouter } from 'vue-router';
import { useTransport } from '../../src-renderer/api/index.js';
import ProjectsView from '../../src-renderer/views/ProjectsView.vue';
import RunDetailView from '../../src-renderer/views/RunDetailView.vue';
import { fakeTransport } from './fake-transport.js';

/** A router with the app's paths pointing at the mounted view. */
function routerAt(path: string, component: object) {
  const router = createRouter({ history: createMemoryHistory(), routes: [{ path: '/projects', component }, { path: '/runs/:id', component }, { path: '/runs/:id/live', component }] });
  void router.push(path);
  return router;
}

beforeEach(() => setActivePinia(createPinia()));

describe('ProjectsView', () => {
  it('explains the empty state, creates a project, and shows a refusal as the services word it', async () => {
    const projects: { id: number; name: string; createdAt: string; archived: boolean; runCount: number }[] = [];
    const fake = fakeTransport({
      listProjects: () => projects,
      listRuns: () => [],
      createProject: (r) => {
        const name = (r as { name: string }).name;
        if (projects.some((p) => p.name === name)) throw new Error(`a project named "${name}" already exists; choose another name`);
        const p = { id: projects.length + 1, name, createdAt: '2026-01-01T00:00:00Z', archived: false, runCount: 0 };
        projects.push(p);
        return p;
      },
    });
    useTransport(fake.transport);
    const router = routerAt('/projects', ProjectsView);
    await router.isReady();
    const w = mount(ProjectsView, { global: { plugins: [router] } });
    await flushPromises();
    expect(w.find('[data-test="empty-state"]').text()).toContain('Create a project above');
    await w.find('[data-test="new-project-name"]').setValue('nozzle');
    await w.find('form.create').trigger('submit');
    await flushPromises();
    expect(w.find('[data-test="project-nozzle"]').exists()).toBe(true);
    expect(w.text()).toContain('No runs in this project');
    await w.find('[data-test="new-project-name"]').setValue('nozzle');
    await w.find('form.create').trigger('submit');
    await flushPromises();
    expect(w.find('[data-test="error-banner"]').text()).toBe('a project named "nozzle" already exists; choose another name');
  });
});

describe('RunDetailView', () => {
  it('shows the heatmap, the phase table and downloads an export', async () => {
    const run = {
      id: 3, project: 'p', caseId: 1, caseName: 'box', caseHash: 'h', status: 'completed', reason: null, startedAt: '2026-01-01T00:00:00Z', endedAt: null,
      seed: 1, ranks: 1, gpus: 1, adapter: { description: 'fake GPU', backend: 'vulkan' }, productVersion: '0.1.0', summary: null, lastStep: 2, tags: [], notes: '',
    };
    const profile = {
      phaseTable: { ranks: 1, loopSeconds: 1, rows: [{ phase: 'move', calls: 2, avgPerCallSeconds: 0.1, callMinSeconds: 0.1, callMaxSeconds: 0.1, minSeconds: 0.2, avgSeconds: 0.2, maxSeconds: 0.2, percentOfLoop: 20, secondsPerParticle: null, secondsPerParticleStep: null }], other: { seconds: 0.8, percentOfLoop: 80 } },
      throughput: { steps: 2, meanParticles: 10, particleSteps: 20, particleStepsPerSecond: 20, secondsPerParticleStep: 0.05, loopSecondsPerParticle: 0.1, collisionsPerParticleStep: 0.07, candidatesPerParticleStep: 0.1 },
      conservation: null, steps: [{ step: 1, particles: 10, injected: 0, collisions: 1, candidates: 1 }], totals: [], timedEvery: 8,
    };
    const slice = { field: 'n', label: 'number density', unit: 'm^-3', axis: 'z', index: 1, depth: 2, axes: ['x', 'y'], width: 2, height: 2, values: [1, 2, null, 4], min: 1, max: 4, samples: 5 };
    const fake = fakeTransport({
      getRun: () => ({ run, caseJson: { name: 'box' }, profile, hasFields: true, cells: [2, 2, 2], resumeFromStep: null, bodies: 0 }),
      getFieldSlice: () => slice,
      exportRun: () => ({ fileName: 'run-3-profile.html', mimeType: 'text/html', base64: btoa('<html></html>'), savedPath: null }),
    });
    useTransport(fake.transport);
    const created: string[] = [];
    URL.createObjectURL = vi.fn(() => 'blob:x');
    URL.revokeObjectURL = vi.fn();
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) { created.push(this.download); });
    const router = routerAt('/runs/3', RunDetailView);
    await router.isReady();
    const w = mount(RunDetailView, { global: { plugins: [router] }, attachTo: document.body });
    await flushPromises();
    expect(w.find('h1').text()).toContain('Run 3: box');
    expect(w.find('[data-test="phase-table"]').text()).toContain('move');
    // how the phases were timed: one call in 8 of each, estimated
    expect(w.find('[data-test="timing-note"]').text()).toContain('one call in 8 of each phase');
    expect(w.find('[data-test="heatmap"]').exists()).toBe(true);
    expect(fake.calls.find((c) => c.method === 'getFieldSlice')?.request).toEqual({ runId: 3, field: 'n', axis: 'z', index: undefined });
    await w.find('[data-test="export-html"]').trigger('click');
    await flushPromises();
    expect(created).toEqual(['run-3-profile.html']);
    expect(w.find('[data-test="export-done"]').text()).toBe('downloaded run-3-profile.html');
    click.mockRestore();
    w.unmount();
  });
});
