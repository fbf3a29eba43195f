// Comparing runs: the completed runs to pick from, the comparison, and a field difference map.
import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import type { FieldDifferenceSlice, RunComparison, RunParameter, RunRecord } from '../../src-main/common/contract/types.js';
import { getApi } from '../api/index.js';
import { errorText } from './errors.js';
import { choiceWithin, defaultSlice, type SliceChoice } from './field-view.js';
import { keptResults } from '../../src-main/common/kept-results.js';

export const useCompareStore = defineStore('compare', () => {
  // State
  const candidates = ref<RunRecord[]>([]);
  const params = ref<RunParameter[]>([]);
  const picked = ref<number[]>([]);
  const result = ref<RunComparison | null>(null);
  const difference = ref<FieldDifferenceSlice | null>(null);
  const differenceNote = ref<string | null>(null);
  const choice = ref<SliceChoice>(defaultSlice());
  const loading = ref(false);
  const error = ref<string | null>(null);

  // Computed
  const canCompare = computed(() => picked.value.length >= 2);

  // Actions
  /** Loads the runs of every project that kept results (completed, or stopped and kept) and the case parameters that differ across them. */
  async function loadCandidates(): Promise<void> {
    try {
      candidates.value = (await getApi().listRuns({})).filter(keptResults);
      params.value = candidates.value.length > 1 ? await getApi().runParameters({ runIds: candidates.value.map((r) => r.id) }) : [];
    } catch (e) {
      error.value = errorText(e);
    }
  }

  /** Picks exactly these runs (the projects view's selection) for the next comparison. */
  function pick(ids: number[]): void {
    picked.value = [...ids];
  }

  /** Adds or removes a run from the comparison. */
  function toggle(id: number): void {
    picked.value = picked.value.includes(id) ? picked.value.filter((x) => x !== id) : [...picked.value, id];
  }

  /** Compares the picked runs, and maps the first two's field difference. */
  async function compare(): Promise<void> {
    if (!canCompare.value) { error.value = 'pick at least two runs to compare (tick them in the list)'; return; }
    loading.value = true;
    error.value = null;
    try {
      result.value = await getApi().compareRuns({ runIds: picked.value });
      choice.value = choiceWithin(choice.value, result.value.fieldNames);
      await loadDifference();
    } catch (e) {
      error.value = errorText(e);
    } finally {
      loading.value = false;
    }
  }

  /** The difference map of the first two picked runs for the current choice (a note when impossible). */
  async function loadDifference(): Promise<void> {
    const [a, b] = picked.value;
    const c = choice.value;
    try {
      difference.value = await getApi().compareFieldSlice({ runIds: [a, b], field: c.field, axis: c.axis, index: c.index ?? undefined });
      differenceNote.value = null;
    } catch (e) {
      difference.value = null;
      differenceNote.value = errorText(e);
    }
  }

  /** Changes the difference map's slice. */
  async function choose(next: Partial<SliceChoice>): Promise<void> {
    choice.value = { ...choice.value, ...next, index: next.axis && next.axis !== choice.value.axis ? null : (next.index ?? choice.value.index) };
    await loadDifference();
  }

  return { candidates, params, picked, result, difference, differenceNote, choice, loading, error, canCompare, loadCandidates, pick, toggle, compare, choose };
});
