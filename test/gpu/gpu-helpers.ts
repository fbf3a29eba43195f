// Test-side helpers for the GPU tests: opening the device, one-shot compute passes and read-backs.
import { expect } from 'vitest';
import { STORAGE, makeBuffer, makeBufferWith, readBuffer } from '../../src-main/solver/gpu/buffers.js';
import { openGpu, type Gpu } from '../../src-main/solver/gpu/device.js';
import { mulberry32Words } from '../seeded-random.js';

export { openGpu, type Gpu };

/** A storage buffer (copy src/dst) holding data. */
export function storageWith(device: GPUDevice, label: string, data: ArrayBufferView): GPUBuffer {
  return makeBufferWith(device, label, data, STORAGE);
}

/** An empty storage buffer (copy src/dst) of `bytes`. */
export function storage(device: GPUDevice, label: string, bytes: number): GPUBuffer {
  return makeBuffer(device, label, bytes);
}

/** Records one compute pass with `record` and submits it. */
export function runPass(device: GPUDevice, label: string, record: (pass: GPUComputePassEncoder) => void): void {
  const enc = device.createCommandEncoder({ label });
  const pass = enc.beginComputePass({ label });
  record(pass);
  pass.end();
  device.queue.submit([enc.finish()]);
}

/** The first n u32 words of a buffer. */
export async function readU32(device: GPUDevice, buf: GPUBuffer, n: number, offsetWords = 0): Promise<Uint32Array> {
  return new Uint32Array(await readBuffer(device, buf, 4 * n, 4 * offsetWords));
}

/** The first n f32 values of a buffer. */
export async function readF32(device: GPUDevice, buf: GPUBuffer, n: number): Promise<Float32Array> {
  return new Float32Array(await readBuffer(device, buf, 4 * n));
}

/** Fails the test when the device reported a validation or out-of-memory error. */
export async function expectNoGpuErrors(gpu: Gpu): Promise<void> {
  await gpu.device.queue.onSubmittedWorkDone();
  expect(gpu.errors).toEqual([]);
}

/** Deterministic 32-bit PRNG for test inputs. */
export const mulberry32 = mulberry32Words;
