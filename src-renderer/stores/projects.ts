// Projects and their runs: list, create, rename, archive, and the runs of the selected project with the case
// parameters that differ across them and the runs ticked for comparing.
import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import type { ProjectRecord, RunParameter, RunRecord } from '../../src-main/common/contract/types.js';
import { getApi } from '../api/index.js';
import { errorText } from './errors.js';

export const useProjectsStore = defineStore('projects', () => {
  // State
  const projects = ref<ProjectRecord[]>([]);
  const runs = ref<RunRecord[]>([]);
  const params = ref<RunParameter[]>([]);
  const picked = ref<number[]>([]);
  const selected = ref<string | null>(null);
  const showArchived = ref(false);
  const loading = ref(false);
  const error = ref<string | null>(null);

  // Computed
  const selectedProject = computed(() => projects.value.find((p) => p.name === selected.value) ?? null);

  // Actions
  /** Runs a call, keeping `error` for the view (null on success). */
  async function guarded<T>(work: () => Promise<T>): Promise<T | undefined> {
    error.value = null;
    try {
      return await work();
    } catch (e) {
      error.value = errorText(e);
      return undefined;
    }
  }

  /** Reloads the project list (and the runs of the selected project). */
  async function load(): Promise<void> {
    loading.value = true;
    await guarded(async () => {
      projects.value = await getApi().listProjects({ includeArchived: showArchived.value });
      if (selected.value === null && projects.value.length > 0) selected.value = projects.value[0].name;
      await loadRuns();
    });
    loading.value = false;
  }

  /** Reloads the runs of the selected project and their differing parameters (ticks kept on runs still listed). */
  async function loadRuns(): Promise<void> {
    runs.value = selected.value === null ? [] : await getApi().listRuns({ project: selected.value });
    params.value = runs.value.length > 1 ? await getApi().runParameters({ runIds: runs.value.map((r) => r.id) }) : [];
    picked.value = picked.value.filter((id) => runs.value.some((r) => r.id === id));
  }

  /** Ticks or unticks a run for comparing. */
  function toggle(id: number): void {
    picked.value = picked.value.includes(id) ? picked.value.filter((x) => x !== id) : [...picked.value, id];
  }

  /** Selects a project and loads its runs. */
  async function select(name: string): Promise<void> {
    selected.value = name;
    await guarded(loadRuns);
  }

  /** Creates a project and selects it; false when refused (error says why). */
  async function create(name: string): Promise<boolean> {
    const p = await guarded(() => getApi().createProject({ name }));
    if (!p) return false;
    selected.value = p.name;
    await load();
    return true;
  }

  /** Renames a project. */
  async function rename(name: string, newName: string): Promise<boolean> {
    const p = await guarded(() => getApi().renameProject({ name, newName }));
    if (!p) return false;
    if (selected.value === name) selected.value = p.name;
    await load();
    return true;
  }

  /** Archives or restores a project. */
  async function archive(name: string, archived: boolean): Promise<void> {
    await guarded(() => getApi().archiveProject({ name, archived }));
    if (archived && !showArchived.value && selected.value === name) selected.value = null;
    await load();
  }

  return { projects, runs, params, picked, selected, showArchived, loading, error, selectedProject, load, loadRuns, select, create, rename, archive, toggle };
});
