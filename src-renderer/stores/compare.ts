// Comparing runs: the completed runs to pick from, the comparison, a field difference map, the first two runs' maps side
// by side, their bodies' surface results (overlaid distributions) and the grid the probes start from.
import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import type { FieldDifferenceSlice, FieldSlice, RunComparison, RunParameter, RunRecord, SurfaceView } from '../../src-main/common/contract/types.js';
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
  /** The first two picked runs' maps of the same slice, side by side (empty when either has none: `sideBySideNote` says why). */
  const sideBySide = ref<FieldSlice[]>([]);
  const sideBySideNote = ref<string | null>(null);
  /** Whether the side-by-side maps are shown (off until asked for: two more maps to load on every slice change). */
  const sideBySideOn = ref(false);
  const choice = ref<SliceChoice>(defaultSlice());
  const loading = ref(false);
  const error = ref<string | null>(null);
  /** The first compared run's grid (the probes' default line and point). */
  const grid = ref<{ cells: [number, number, number]; cellSize: [number, number, number] } | null>(null);
  /** Per-triangle surface results of the compared runs that have them (overlaid Cp, Cf, Ch), and the runs without. */
  const surfaces = ref<{ runId: number; view: SurfaceView }[]>([]);
  const surfaceNote = ref<string | null>(null);

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
      await Promise.all([loadDifference(), loadSideBySide(), loadSurfaces(), loadGrid()]);
    } catch (e) {
      error.value = errorText(e);
    } finally {
      loading.value = false;
    }
  }

  /** The first two picked runs' maps of the current choice. */
  async function loadSideBySide(): Promise<void> {
    const c = choice.value;
    if (!sideBySideOn.value || !result.value) { sideBySide.value = []; sideBySideNote.value = null; return; }
    try {
      sideBySide.value = await Promise.all(picked.value.slice(0, 2).map((runId) => getApi().getFieldSlice({ runId, field: c.field, axis: c.axis, index: c.index ?? undefined })));
      sideBySideNote.value = null;
    } catch (e) {
      sideBySide.value = [];
      sideBySideNote.value = errorText(e);
    }
  }

  /** Shows or hides the side-by-side maps. */
  async function showSideBySide(on: boolean): Promise<void> {
    sideBySideOn.value = on;
    await loadSideBySide();
  }

  /** The first compared run's grid, for the probes (null when it cannot be read: the probes then start at the origin). */
  async function loadGrid(): Promise<void> {
    try {
      const first = await getApi().getRun({ runId: picked.value[0] });
      const cellSize = (first.caseJson as { grid?: { cellSize?: [number, number, number] } }).grid?.cellSize;
      grid.value = cellSize ? { cells: first.cells, cellSize } : null;
    } catch {
      grid.value = null;
    }
  }

  /** The surface results of every compared run with bodies (a run without them is named in the note). */
  async function loadSurfaces(): Promise<void> {
    surfaces.value = [];
    surfaceNote.value = null;
    const c = result.value?.comparison;
    if (!c?.surface || c.surface.bodies.length === 0) return;
    const got = await Promise.all(c.runs.map(async (r) => {
      try {
        return { runId: r.id, view: await getApi().getSurface({ runId: r.id }) };
      } catch (e) {
        return { runId: r.id, error: errorText(e) };
      }
    }));
    surfaces.value = got.filter((g): g is { runId: number; view: SurfaceView } => 'view' in g);
    const failed = got.filter((g): g is { runId: number; error: string } => 'error' in g);
    surfaceNote.value = failed.length ? failed.map((f) => `run ${f.runId}: ${f.error}`).join('; ') : null;
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
    await Promise.all([loadDifference(), loadSideBySide()]);
  }

  return {
    candidates, params, picked, result, difference, differenceNote, sideBySide, sideBySideNote, sideBySideOn, choice, loading, error, grid, surfaces, surfaceNote, canCompare,
    loadCandidates, pick, toggle, compare, choose, showSideBySide,
  };
});
