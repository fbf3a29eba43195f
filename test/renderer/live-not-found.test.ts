// @vitest-environment happy-dom
// Issue 27, item 6's leftover on the live view: `/runs/999/live` said "loading" and showed "not found" above an empty
// live page (an empty chart, "particles: n/a", "Per-phase times appear when the run ends"). A run that cannot be
// loaded gets its error alone; a run that loads after it shows no stale error.
import { flushPromises, mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import { createMemoryHistory, createRouter } from 'vue-router';
import { useTransport } from '../../src-renderer/api/index.js';
import LiveRunView from '../../src-renderer/views/LiveRunView.vue';
import { fakeTransport } from './fake-transport.js';

beforeEach(() => setActivePinia(createPinia()));

/** A finished one-rank run's live state. */
const LIVE = {
  progress: { runId: 1, status: 'completed', step: 10, steps: 10, particles: 100, elapsedSeconds: 1, etaSeconds: null, particleStepsPerSecond: 1000 },
  steps: [{ step: 1, particles: 100, injected: 0, collisions: 1, candidates: 2 }, { step: 10, particles: 100, injected: 0, collisions: 1, candidates: 2 }],
  phases: [], reason: null, ranks: 1, balance: null,
};

describe('live view of a run that does not exist', () => {
  it('shows only the error, then the next run without it', async () => {
    const fake = fakeTransport({
      getLiveRun: (r) => {
        if ((r as { runId: number }).runId === 999) throw new Error('run 999 not found in /tmp/runs.sqlite; list runs with `dsmc runs`');
        return LIVE;
      },
      getFieldSlice: () => { throw new Error('no fields'); },
    });
    useTransport(fake.transport);
    const router = createRouter({ history: createMemoryHistory(), routes: [{ path: '/runs/:id/live', component: LiveRunView }, { path: '/runs/:id', component: LiveRunView }] });
    await router.push('/runs/999/live');
    const w = mount(LiveRunView, { global: { plugins: [router] } });
    await flushPromises();
    const text = w.text();
    expect(text).toContain('run 999 not found');
    expect(w.find('[data-test="live-status"]').text()).toBe('');
    for (const stale of ['loading', 'particles: n/a', 'Per-phase times appear', 'Throughput is plotted', 'Field slice']) expect(text, stale).not.toContain(stale);
    expect(w.find('[data-test="particle-counts"]').exists()).toBe(false);
    await router.push('/runs/1/live');
    await flushPromises();
    expect(w.text()).not.toContain('not found');
    expect(w.find('[data-test="live-status"]').text()).toBe('completed');
    expect(w.find('[data-test="particle-counts"]').text()).toContain('100 at step 1 (first recorded)');
  });
});
