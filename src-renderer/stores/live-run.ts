// One run as it goes: progress and ETA, throughput over time, step statistics, and how it ended;
// fed by live events, with a slow poll of the database as a fallback (runs followed after a restart).
import { defineStore } from 'pinia';
import { computed, ref, shallowRef } from 'vue';
import type { FieldSlice, RunEvent, RunProgress, StepRecord } from '../../src-main/common/contract/types.js';
import type { RankBalance } from '../../src-main/common/reports/rank-balance.js';
import { getApi, onRunEvent } from '../api/index.js';
import { errorText } from './errors.js';
import type { FieldName } from '../../src-main/common/field-names.js';
import { choiceWithin, defaultSlice, type SliceChoice } from './field-view.js';

/** Poll interval while no events arrive (ms). */
const POLL_MS = 2000;

export const useLiveRunStore = defineStore('liveRun', () => {
  // State
  const runId = ref<number | null>(null);
  const progress = ref<RunProgress | null>(null);
  // shallow: a long run has a record per step, and deep proxies over them cost seconds of the page's time per update
  const steps = shallowRef<StepRecord[]>([]);
  const throughput = shallowRef<[number, number][]>([]);
  const phases = ref<{ phase: string; seconds: number }[]>([]);
  const reason = ref<string | null>(null);
  const ranks = ref(1);
  const balance = ref<RankBalance | null>(null);
  const cancelling = ref(false);
  /** The run's field slice: from live events when the solver posts them, else the final fields once it completes. */
  const slice = ref<FieldSlice | null>(null);
  const choice = ref<SliceChoice>(defaultSlice());
  /** The fields the run samples (a mixture's per-species ones too), offered by the field map; undefined until known. */
  const fieldNames = ref<FieldName[] | undefined>(undefined);
  const error = ref<string | null>(null);
  let unsubscribe: (() => void) | null = null;
  let poller: ReturnType<typeof setInterval> | null = null;
  let lastEventAt = 0;
  /** The live slice is of the fields so far; once the run completes the final fields replace it. */
  let finalPending = true;

  // Computed
  const running = computed(() => progress.value?.status === 'running' || progress.value?.status === 'queued');
  const fraction = computed(() => (progress.value && progress.value.steps > 0 ? progress.value.step / progress.value.steps : 0));

  // Actions
  /** Applies one live event of the watched run. */
  function apply(e: RunEvent): void {
    const id = e.kind === 'progress' ? e.progress.runId : e.runId;
    if (id !== runId.value) return;
    lastEventAt = Date.now();
    if (e.kind === 'progress') {
      progress.value = e.progress;
      if (e.progress.status === 'running' && e.progress.elapsedSeconds > 0 && e.progress.particleStepsPerSecond > 0) throughput.value = [...throughput.value, [e.progress.elapsedSeconds, e.progress.particleStepsPerSecond]];
    } else if (e.kind === 'steps') {
      steps.value = [...steps.value, ...e.steps.filter((s) => s.step > (steps.value.at(-1)?.step ?? 0))];
    } else if (e.kind === 'phases') {
      phases.value = e.phases;
    } else if (e.kind === 'field') {
      slice.value = e.slice;
      choice.value = { field: e.slice.field, axis: e.slice.axis, index: e.slice.index };
    } else if (e.kind === 'ended') {
      reason.value = e.reason;
      if (progress.value) progress.value = { ...progress.value, status: e.status, etaSeconds: null };
      void refresh();
    }
  }

  /** Reloads the run's state from the services. */
  async function refresh(): Promise<void> {
    if (runId.value === null) return;
    try {
      const s = await getApi().getLiveRun({ runId: runId.value });
      progress.value = s.progress;
      if (s.steps.length >= steps.value.length) steps.value = s.steps;
      phases.value = s.phases;
      reason.value = s.reason;
      ranks.value = s.ranks;
      balance.value = s.balance;
      fieldNames.value = s.fieldNames;
      choice.value = choiceWithin(choice.value, s.fieldNames);
      error.value = null;
      // a completed run's final fields, or those a run stopped and kept sampled (a plain cancel keeps none: no slice)
      if ((s.progress.status === 'completed' || s.progress.status === 'cancelled') && (slice.value === null || finalPending)) { finalPending = false; await loadFinalSlice(); }
    } catch (e) {
      error.value = errorText(e);
    }
  }

  /** The completed run's final fields on the chosen slice (absent when it kept no fields). */
  async function loadFinalSlice(): Promise<void> {
    if (runId.value === null) return;
    const c = choice.value;
    try {
      slice.value = await getApi().getFieldSlice({ runId: runId.value, field: c.field, axis: c.axis, index: c.index ?? undefined });
    } catch {
      slice.value = null; // a run without sampling keeps no fields; the view says so
    }
  }

  /** Changes the field slice: the running run sends it with its next events; a finished run's is loaded. */
  async function choose(next: Partial<SliceChoice>): Promise<void> {
    if (runId.value === null) return;
    const c = { ...choice.value, ...next, index: next.axis && next.axis !== choice.value.axis ? null : (next.index ?? choice.value.index) };
    choice.value = c;
    if (!running.value) { await loadFinalSlice(); return; }
    try {
      await getApi().setLiveView({ runId: runId.value, field: c.field, axis: c.axis, index: c.index ?? undefined });
    } catch (e) {
      error.value = errorText(e);
    }
  }

  /** Starts watching a run. */
  async function watch(id: number): Promise<void> {
    stop();
    runId.value = id;
    error.value = null; // the previous run's error is not this one's
    progress.value = null;
    steps.value = [];
    throughput.value = [];
    phases.value = [];
    reason.value = null;
    slice.value = null;
    choice.value = defaultSlice();
    fieldNames.value = undefined;
    finalPending = true;
    unsubscribe = onRunEvent(apply);
    // events carry progress and steps; a multi-rank run's balance (and a run without events) is polled
    poller = setInterval(() => { if (running.value && (ranks.value > 1 || Date.now() - lastEventAt > POLL_MS)) void refresh(); }, POLL_MS);
    await refresh();
  }

  /** Stops watching. */
  function stop(): void {
    unsubscribe?.();
    unsubscribe = null;
    if (poller) clearInterval(poller);
    poller = null;
  }

  /** Asks the run to stop after its current submit and keep what it sampled (stop and keep; every rank after the same submit). */
  async function cancel(): Promise<void> {
    if (runId.value === null) return;
    cancelling.value = true;
    try {
      await getApi().cancelRun({ runId: runId.value });
    } catch (e) {
      error.value = errorText(e);
    } finally {
      cancelling.value = false;
    }
  }

  return { runId, progress, steps, throughput, phases, reason, ranks, balance, cancelling, slice, choice, fieldNames, error, running, fraction, apply, refresh, watch, stop, cancel, choose };
});
