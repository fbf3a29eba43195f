// Shared inputs for the run-store tests: temporary data folders and small but complete runs.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FIELD_NAMES, type FieldName } from '../../src-main/common/field-names.js';
import type { FieldSet, PhaseRecord, StepRecord, TotalsRecord } from '../../src-main/common/run-record.js';
import type { RunSummary } from '../../src-main/common/run-summary.js';
import type { CreateRunInput } from '../../src-main/store/run-store.js';

/** A fresh temporary folder; remove it with removeDir. */
export function tempDir(prefix = 'dsmc-store-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Removes a temporary folder. */
export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** A small case as the store keeps it (any JSON object works). */
export function caseJson(name = 'box', cells: [number, number, number] = [2, 2, 2]): Record<string, unknown> {
  return { name, grid: { cells, cellSize: [1e-5, 1e-5, 1e-5] }, run: { steps: 10, dt: 7e-9, seed: 1, stepsPerSubmit: 5 } };
}

/** createRun's input for that case. */
export function runInput(over: Partial<CreateRunInput> = {}): CreateRunInput {
  return {
    project: 'p1', caseName: 'box', caseJson: caseJson(), seed: 7, ranks: 1, gpus: 1,
    adapter: { description: 'test adapter', backend: 'vulkan' }, productVersion: '0.0.0-test', ...over,
  };
}

/** Steps first..last with made-up statistics. */
export function steps(first: number, last: number): StepRecord[] {
  const out: StepRecord[] = [];
  for (let s = first; s <= last; s++) out.push({ step: s, particles: 1000 + s, injected: s % 3, collisions: 70 + s, candidates: 100 + s });
  return out;
}

/** Totals at the given steps. */
export function totals(at: number[]): TotalsRecord[] {
  return at.map((step) => ({ step, particles: 1000 + step, kineticEnergy: 1e-15 * (1 + step), momentum: [1e-22 * step, -2e-22, 0.5e-22] }));
}

/** Phase timings of rank 0. */
export function phases(): PhaseRecord[] {
  return ['move', 'sort', 'collide', 'sample'].map((phase, i) => ({
    rank: 0, phase, calls: 10, totalSeconds: 0.01 * (i + 1), minSeconds: 0.0005, maxSeconds: 0.002 * (i + 1),
  }));
}

/** A summary consistent with `phases()`. */
export function summary(): RunSummary {
  const ph: RunSummary['phases'] = {};
  for (const p of phases()) {
    ph[p.phase] = { calls: p.calls, totalSeconds: p.totalSeconds, avgSeconds: p.totalSeconds / p.calls, minSeconds: p.minSeconds,
      maxSeconds: p.maxSeconds, percentOfLoop: 10, secondsPerParticleStep: 1e-9 };
  }
  return {
    case: 'box', steps: 10, particles: 1010, meanParticles: 1005, particleSteps: 10050, seconds: 0.2, particleStepsPerSecond: 50250,
    collisionsPerParticleStep: 0.07, candidatesPerParticleStep: 0.1, timing: 'wall-clock', phases: ph, otherSeconds: 0.1,
    host: { encodeSeconds: 0.01, waitSeconds: 0.05, readbackSeconds: 0.01, submits: 2 },
    conservation: { particlesStart: 1000, particlesEnd: 1010, momentumRelDrift: null, energyRelDrift: 1e-7 },
    samples: 10, fieldsSha256: 'ab'.repeat(32), capacity: 2048, bytesPerParticle: 90, adapter: { description: 'test adapter', backend: 'vulkan' },
  };
}

/** Fields on a grid with awkward values (NaN, -0, subnormals, infinities) and NaN errors in places. */
export function fields(cells: [number, number, number] = [2, 2, 2]): FieldSet {
  const n = cells[0] * cells[1] * cells[2];
  const values = {} as Record<FieldName, Float64Array>;
  const errors = {} as Record<FieldName, Float64Array>;
  FIELD_NAMES.forEach((name, k) => {
    const v = new Float64Array(n);
    const e = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      v[i] = Math.sin(1 + i + 17 * k) * 10 ** (k - 6);
      e[i] = i % 3 === 0 ? NaN : Math.abs(v[i]) * 1e-3;
    }
    v[0] = -0;
    if (n > 1) v[1] = 5e-324;
    if (n > 2) v[2] = Infinity;
    values[name] = v;
    errors[name] = e;
  });
  // a NaN with a payload other than the default one: must come back with the same bits
  new DataView(errors.T.buffer).setBigUint64(8, 0x7ff8_0000_dead_beefn, true);
  return { cells, cellSize: [1e-5, 2e-5, 3e-5], samples: 10, blocks: 5, values, errors };
}
