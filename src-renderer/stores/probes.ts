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
  /** The line's ends and the point as the panel edits them (m); which end a click on the map sets next. */
  const from = ref<Vec3>([0, 0, 0]);
  const to = ref<Vec3>([0, 0, 0]);
  const at = ref<Vec3>([0, 0, 0]);
  const nextEnd = ref<'from' | 'to'>('from');

  // Actions
  /** Forgets every probe (another run or another comparison). */
  function clear(): void {
    lines.value = [];
    points.value = [];
    error.value = null;
  }

  /** A point picked on the map: the next end of the line (from, then to, in turn) and the point probe's point. */
  function pick(point: Vec3): void {
    if (nextEnd.value === 'from') from.value = point; else to.value = point;
    nextEnd.value = nextEnd.value === 'from' ? 'to' : 'from';
    at.value = point;
  }

  /** Sets the line (and the next click's end back to `from`). */
  function setLine(a: Vec3, b: Vec3): void {
    from.value = a;
    to.value = b;
    nextEnd.value = 'from';
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

  return { lines, points, loading, error, from, to, at, nextEnd, clear, pick, setLine, probeLine, probePoint, lineCsv, pointCsv };
});
