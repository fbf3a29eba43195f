// Scaling studies (multi-GPU): the list to pick from (empty until studies are recorded).
import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { StudyInfo } from '../../src-main/common/contract/types.js';
import { getApi } from '../api/index.js';
import { errorText } from './errors.js';

export const useScalingStore = defineStore('scaling', () => {
  // State
  const studies = ref<StudyInfo[]>([]);
  const loaded = ref(false);
  const error = ref<string | null>(null);

  // Actions
  /** Loads the studies. */
  async function load(): Promise<void> {
    try {
      studies.value = await getApi().listStudies({});
    } catch (e) {
      error.value = errorText(e);
    } finally {
      loaded.value = true;
    }
  }

  return { studies, loaded, error, load };
});
