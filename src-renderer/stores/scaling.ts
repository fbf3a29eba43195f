// Scaling studies (multi-GPU): the list to pick from (empty until studies are recorded) and the picked
// study's scaling report (speedup, efficiency, per-phase time, UN, the fitted model), and its exports.
import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { StudyExportFormat } from '../../src-main/common/contract/contract.js';
import type { ScalingReport } from '../../src-main/common/reports/scaling-model.js';
import type { ExportedFile, StudyInfo } from '../../src-main/common/contract/types.js';
import { getApi } from '../api/index.js';
import { errorText } from './errors.js';
import { exportWith } from './export-file.js';

export const useScalingStore = defineStore('scaling', () => {
  // State
  const studies = ref<StudyInfo[]>([]);
  const picked = ref<number | null>(null);
  const report = ref<ScalingReport | null>(null);
  const loaded = ref(false);
  const loading = ref(false);
  const error = ref<string | null>(null);
  const exporting = ref<StudyExportFormat | null>(null);
  const lastExport = ref<string | null>(null);

  // Actions
  /** Loads the studies and the report of the first. */
  async function load(): Promise<void> {
    try {
      studies.value = await getApi().listStudies({});
      if (picked.value === null && studies.value.length > 0) await pick(studies.value[0].id);
    } catch (e) {
      error.value = errorText(e);
    } finally {
      loaded.value = true;
    }
  }

  /** Picks a study and loads its scaling report. */
  async function pick(id: number): Promise<void> {
    picked.value = id;
    lastExport.value = null;
    loading.value = true;
    error.value = null;
    try {
      report.value = await getApi().getScaling({ studyId: id });
    } catch (e) {
      report.value = null;
      error.value = errorText(e);
    } finally {
      loading.value = false;
    }
  }

  /** Exports the picked study's report; resolves to the file (the view downloads it), or null with `error` set. */
  async function exportAs(format: StudyExportFormat): Promise<ExportedFile | null> {
    const studyId = picked.value;
    if (studyId === null) return null;
    return exportWith({ exporting, lastExport, error }, format, () => getApi().exportStudy({ studyId, format }));
  }

  return { studies, picked, report, loaded, loading, error, exporting, lastExport, load, pick, exportAs };
});
