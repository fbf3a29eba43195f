// Shared helpers of the physics tests: one GPU per test file, cases from presets with overrides,
// and particle read-back.
import { readCaseFile } from '../../src-main/cli/case-file.js';
import type { Case } from '../../src-main/common/case-schema.js';
import { openGpu, type Gpu } from '../../src-main/solver/gpu/device.js';
import { Simulation } from '../../src-main/solver/loop.js';
import type { LoopOptions, LoopResult } from '../../src-main/solver/loop-types.js';
import { loadCase } from '../../src-main/solver/run-case.js';

/** Opens the default adapter (lavapipe in CI). */
export function gpuForTests(): Promise<Gpu> {
  return openGpu();
}

/** A preset with --set style overrides applied. */
export function presetCase(name: string, sets: string[] = []): Case {
  return loadCase(readCaseFile(name), sets);
}

/** Fills the box and runs the case's steps; returns the simulation (for read-back) and the result. */
export async function simulate(gpu: Gpu, c: Case, options: LoopOptions = {}): Promise<{ sim: Simulation; result: LoopResult }> {
  const sim = new Simulation(gpu, c);
  await sim.initialize();
  const result = await sim.run(options);
  return { sim, result };
}

/** Live particle velocities as f32 arrays. */
export async function velocities(sim: Simulation): Promise<{ vx: Float32Array; vy: Float32Array; vz: Float32Array }> {
  const r = await sim.readParticles(['vx', 'vy', 'vz']);
  return { vx: new Float32Array(r.vx), vy: new Float32Array(r.vy), vz: new Float32Array(r.vz) };
}

/** Temperature of a single-species particle set from its peculiar velocities: m <|v - <v>|^2> / (3k). */
export function temperatureOf(v: { vx: Float32Array; vy: Float32Array; vz: Float32Array }, mass: number): number {
  const n = v.vx.length;
  let sx = 0, sy = 0, sz = 0, s2 = 0;
  for (let i = 0; i < n; i++) {
    sx += v.vx[i]; sy += v.vy[i]; sz += v.vz[i];
    s2 += v.vx[i] * v.vx[i] + v.vy[i] * v.vy[i] + v.vz[i] * v.vz[i];
  }
  const mean2 = (sx * sx + sy * sy + sz * sz) / (n * n);
  return (mass * (s2 / n - mean2)) / (3 * 1.380649e-23);
}
