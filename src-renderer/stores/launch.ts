// Launch settings: the GPUs discovered, how many ranks, the decomposition, and the launch itself.
import { defineStore } from 'pinia';
import { ref } from 'vue';
import { DECOMPOSITIONS, type Decomposition } from '../../src-main/common/contract/contract.js';
import type { GpuInfo } from '../../src-main/common/contract/types.js';
import { getApi } from '../api/index.js';
import { errorText } from './errors.js';

export const useLaunchStore = defineStore('launch', () => {
  // State
  const gpus = ref<GpuInfo[]>([]);
  const selectedGpus = ref<number[]>([0]);
  const ranks = ref(1);
  const decomposition = ref<Decomposition>('slab');
  const project = ref('default');
  const launching = ref(false);
  const error = ref<string | null>(null);

  // Actions
  /** Discovers the GPUs (the default adapter for now). */
  async function loadGpus(): Promise<void> {
    try {
      gpus.value = await getApi().listGpus({});
    } catch (e) {
      error.value = errorText(e);
    }
  }

  /** Launches the case; resolves to the run id, or null with `error` set. */
  async function launch(caseJson: unknown): Promise<number | null> {
    launching.value = true;
    error.value = null;
    try {
      const { runId } = await getApi().launchRun({ project: project.value, caseJson, ranks: ranks.value, gpus: selectedGpus.value, decomposition: decomposition.value });
      return runId;
    } catch (e) {
      error.value = errorText(e);
      return null;
    } finally {
      launching.value = false;
    }
  }

  return { gpus, selectedGpus, ranks, decomposition, decompositions: DECOMPOSITIONS, project, launching, error, loadGpus, launch };
});
