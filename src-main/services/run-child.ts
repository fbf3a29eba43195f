// Entry of a run child process (forked by run-launcher.ts): runs one case like `dsmc run` (runCase +
// RunRecorder into the run database) and posts progress and step statistics to the parent; a cancel
// message stops the loop after the current submit and the run is recorded cancelled with what it sampled (stop and keep).
import { RunRecorder } from '../cli/run-recorder.js';
import { PrelaunchRefused, checkCase, loadCase, runCase } from '../solver/run-case.js';
import { buildTables } from '../solver/tables.js';
import { openGpu } from '../solver/gpu/device.js';
import { RunStore } from '../store/run-store.js';
import type { FromChild, LiveView, ToChild } from './child-messages.js';
import { LiveFields } from './live-fields.js';

/** Sends a message to the parent (no-op when the channel is gone). */
function post(m: FromChild): void {
  if (process.connected) process.send?.(m);
}

/** The live view's current choice (changed by 'view' messages), and the live fields once the run has samples. */
let view: LiveView = { field: 'n', axis: 'z' };
let live: LiveFields | null = null;

/** Runs the case of a start message to the end, posting what happens. */
async function runStart(m: Extract<ToChild, { type: 'start' }>, controller: AbortController): Promise<void> {
  let c;
  try {
    c = loadCase(m.caseJson);
  } catch (e) {
    post({ type: 'refused', message: `invalid case, fix these fields:\n${(e as Error).message}` });
    return;
  }
  const store = RunStore.open({ dataDir: m.dataDir });
  const gpu = await openGpu();
  try {
    // one build of the solver tables for the check and the run (a case with bodies takes seconds to mesh and cut)
    const tables = buildTables(c);
    const prelaunch = checkCase(c, gpu, tables);
    if (!prelaunch.ok) {
      post({ type: 'refused', message: new PrelaunchRefused(prelaunch).message });
      return;
    }
    const recorder = RunRecorder.start(store, m.project, c, gpu.adapter);
    post({ type: 'started', runId: recorder.runId, steps: c.run.steps });
    try {
      // a cancel message stops the loop after its current submit and keeps what it ran and sampled (stop and keep)
      const { summary, result } = await runCase(c, {
        gpu, tables, signal: controller.signal, keepOnStop: true,
        onProgress: (p) => post({ type: 'progress', ...p }),
        onBatch: (b) => post({ type: 'phases', phases: b.phases }),
        // slices of the plane's cells, read from the solver's GPU at most twice a second
        onFields: async (fields) => {
          live ??= new LiveFields(c, view, (slice) => post({ type: 'field', slice }), 500, fields);
          await live.tick();
        },
        onSteps: (s) => {
          recorder.onSteps(s);
          post({ type: 'steps', steps: s.map((x) => ({ step: x.step, particles: x.particlesAfter, injected: x.injected, collisions: x.collisions, candidates: x.candidates })) });
        },
      });
      if (controller.signal.aborted && result.steps < c.run.steps) {
        post({ type: 'ended', status: 'cancelled', reason: recorder.stopped(c, summary, result, 'from the app') });
        return;
      }
      recorder.complete(c, summary, result);
      post({ type: 'ended', status: 'completed', reason: null });
    } catch (e) {
      const status = recorder.fail(e, controller.signal.aborted ? 'cancelled from the app' : undefined);
      post({ type: 'ended', status, reason: e instanceof Error ? e.message : String(e) });
    }
  } finally {
    gpu.device.destroy();
    store.close();
  }
}

const controller = new AbortController();
process.on('message', (m: ToChild) => {
  if (m.type === 'cancel') controller.abort();
  else if (m.type === 'view') { view = m.view; live?.setView(m.view); }
  else if (m.type === 'start') {
    runStart(m, controller)
      .catch((e: unknown) => post({ type: 'refused', message: e instanceof Error ? e.message : String(e) }))
      .finally(() => setTimeout(() => process.exit(0), 50));
  }
});
