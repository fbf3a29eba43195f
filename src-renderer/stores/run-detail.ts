// One finished run: its record, profile (phase table, step statistics), a field slice, its bodies' surface
// results (per triangle and per body loads), and its exports.
import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import { EXPORT_FORMATS, type ExportFormat } from '../../src-main/common/contract/contract.js';
import type { ExportedFile, FieldSlice, RunDetail, SurfaceView } from '../../src-main/common/contract/types.js';
import { getApi } from '../api/index.js';
import { errorText } from './errors.js';
import { exportWith } from './export-file.js';
import { choiceWithin, defaultSlice, type SliceChoice } from './field-view.js';

export const useRunDetailStore = defineStore('runDetail', () => {
  // State
  const detail = ref<RunDetail | null>(null);
  const slice = ref<FieldSlice | null>(null);
  const choice = ref<SliceChoice>(defaultSlice());
  const exporting = ref<ExportFormat | null>(null);
  const lastExport = ref<string | null>(null);
  const error = ref<string | null>(null);
  /** Per-triangle surface results (runs with bodies), and why they could not be loaded. */
  const surface = ref<SurfaceView | null>(null);
  const surfaceError = ref<string | null>(null);

  // Computed
  /** Export formats that make sense for the run: vtk needs sampled fields, vtp bodies. */
  const exportFormats = computed<ExportFormat[]>(() => EXPORT_FORMATS.filter((f) => f !== 'vtp' || (detail.value?.bodies ?? 0) > 0));

  // Actions
  /** Loads a run and, when it kept fields, its default slice; with bodies, its surface results. */
  async function load(runId: number): Promise<void> {
    error.value = null;
    detail.value = null; // a run that cannot be loaded leaves nothing of the previous one on the page
    slice.value = null;
    surface.value = null;
    surfaceError.value = null;
    try {
      detail.value = await getApi().getRun({ runId });
      choice.value = choiceWithin(choice.value, detail.value.fieldNames); // a field the previous run had, this one may lack
      await Promise.all([detail.value.hasFields ? loadSlice() : null, detail.value.bodies > 0 ? loadSurface() : null]);
    } catch (e) {
      error.value = errorText(e);
    }
  }

  /** Loads the run's per-triangle surface results (an error stays with the surface section). */
  async function loadSurface(): Promise<void> {
    if (!detail.value) return;
    try {
      surface.value = await getApi().getSurface({ runId: detail.value.run.id });
      surfaceError.value = null;
    } catch (e) {
      surface.value = null;
      surfaceError.value = errorText(e);
    }
  }

  /** Loads the slice of the current choice. */
  async function loadSlice(): Promise<void> {
    if (!detail.value) return;
    try {
      const c = choice.value;
      slice.value = await getApi().getFieldSlice({ runId: detail.value.run.id, field: c.field, axis: c.axis, index: c.index ?? undefined });
      choice.value = { ...c, index: slice.value.index };
    } catch (e) {
      error.value = errorText(e);
    }
  }

  /** Changes the slice (a new axis starts at its middle plane). */
  async function choose(next: Partial<SliceChoice>): Promise<void> {
    choice.value = { ...choice.value, ...next, index: next.axis && next.axis !== choice.value.axis ? null : (next.index ?? choice.value.index) };
    await loadSlice();
  }

  /** Makes an export; resolves to the file (the view downloads it), or null with `error` set. */
  async function exportAs(format: ExportFormat): Promise<ExportedFile | null> {
    const runId = detail.value?.run.id;
    if (runId === undefined) return null;
    return exportWith({ exporting, lastExport, error }, format, () => getApi().exportRun({ runId, format }));
  }


  /** Adds or removes a tag of the run. */
  async function tag(tagText: string, remove = false): Promise<void> {
    if (!detail.value) return;
    error.value = null;
    try {
      detail.value = { ...detail.value, run: await getApi().tagRun({ runId: detail.value.run.id, tag: tagText, remove }) };
    } catch (e) {
      error.value = errorText(e);
    }
  }

  /** Replaces the run's notes. */
  async function saveNotes(notes: string): Promise<void> {
    if (!detail.value) return;
    error.value = null;
    try {
      detail.value = { ...detail.value, run: await getApi().setNotes({ runId: detail.value.run.id, notes }) };
    } catch (e) {
      error.value = errorText(e);
    }
  }

  /** Deletes the run and everything recorded about it; true when done. */
  async function remove(): Promise<boolean> {
    if (!detail.value) return false;
    error.value = null;
    try {
      await getApi().deleteRun({ runId: detail.value.run.id });
      detail.value = null;
      return true;
    } catch (e) {
      error.value = errorText(e);
      return false;
    }
  }

  /** Continues the (failed or cancelled) run from its newest checkpoint; true when it started. */
  async function resume(): Promise<boolean> {
    if (!detail.value) return false;
    error.value = null;
    try {
      await getApi().resumeRun({ runId: detail.value.run.id });
      return true;
    } catch (e) {
      error.value = errorText(e);
      return false;
    }
  }

  return {
    detail, slice, choice, exporting, lastExport, error, surface, surfaceError, exportFormats,
    load, loadSlice, loadSurface, choose, exportAs, tag, saveNotes, remove, resume,
  };
});
