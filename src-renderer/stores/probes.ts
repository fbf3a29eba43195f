// Line and point probes of one run (run detail) or of several (compare, the same line overlaid): what was asked,
// what came back, and the CSV of it. The probes are computed by the services from the stored fields.
import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { LineProbe, PointProbe } from '../../src-main/common/probes/probe-types.js';
import { lineProbeCsv, pointProbeCsv } from '../../src-main/common/probes/probe-csv.js';
import { getApi } from '../api/index.js';
import { errorText } from './errors.js';

type Vec3 = [number, number, number];

export const useProbeStore = defineStore('probes', () => {
  // State
  const lines = ref<LineProbe[]>([]);
  const points = ref<PointProbe[]>([]);
  const loading = ref(false);
  const error = ref<string | null>(null);

  // Actions
  /** Forgets every probe (another run or another comparison). */
  function clear(): void {
    lines.value = [];
    points.value = [];
    error.value = null;
  }

  /** Probes the segment from -> to in each run; on an error keeps none and says why. */
  async function probeLine(runIds: number[], from: Vec3, to: Vec3): Promise<void> {
    loading.value = true;
    error.value = null;
    try {
      lines.value = await Promise.all(runIds.map((runId) => getApi().probeLine({ runId, from, to })));
    } catch (e) {
      lines.value = [];
      error.value = errorText(e);
    } finally {
      loading.value = false;
    }
  }

  /** Probes the point `at` in each run; on an error keeps none and says why. */
  async function probePoint(runIds: number[], at: Vec3): Promise<void> {
    loading.value = true;
    error.value = null;
    try {
      points.value = await Promise.all(runIds.map((runId) => getApi().probePoint({ runId, at })));
    } catch (e) {
      points.value = [];
      error.value = errorText(e);
    } finally {
      loading.value = false;
    }
  }

  /** The line probes as CSV text (every run in one table). */
  function lineCsv(): string {
    return lineProbeCsv(lines.value);
  }

  /** The point probes as CSV text. */
  function pointCsv(): string {
    return pointProbeCsv(points.value);
  }

  return { lines, points, loading, error, clear, probeLine, probePoint, lineCsv, pointCsv };
});
