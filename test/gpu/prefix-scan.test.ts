// PrefixScan (src-main/solver/gpu/prefix-scan.ts, shaders/scan.wgsl) against a host exclusive scan,
// element by element, on lengths around the block size and with two and three levels, with 16 values an invocation (the
// choice where the workgroup memory allows) and 8.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bindBuffers } from '../../src-main/solver/gpu/bind.js';
import { WORKGROUP_SIZE, makeBufferWith } from '../../src-main/solver/gpu/buffers.js';
import { PipelineCache } from '../../src-main/solver/gpu/pipeline-cache.js';
import { PrefixScan, scanPerThread } from '../../src-main/solver/gpu/prefix-scan.js';
import { ScanParams } from '../../src-main/solver/gpu/struct-layouts.js';
import { expectNoGpuErrors, mulberry32, openGpu, readU32, runPass, storage, storageWith, type Gpu } from './gpu-helpers.js';

let gpu: Gpu;
let cache: PipelineCache;

beforeAll(async () => {
  gpu = await openGpu();
  cache = new PipelineCache(gpu.device, { WG_SIZE: WORKGROUP_SIZE });
});
afterAll(() => gpu?.device.destroy());

// Host exclusive scan in u32 arithmetic.
function hostScan(values: Uint32Array): Uint32Array {
  const out = new Uint32Array(values.length);
  let run = 0;
  for (let i = 0; i < values.length; i++) {
    out[i] = run;
    run = (run + values[i]) >>> 0;
  }
  return out;
}

// Index of the first element where a and b differ, or -1.
function firstMismatch(a: Uint32Array, b: Uint32Array): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return i;
  return a.length === b.length ? -1 : a.length;
}

describe.each([16, 8])('PrefixScan, %i values an invocation', (perThread) => {
  const B = perThread * WORKGROUP_SIZE;
  for (const n of [1, 5, B - 1, B, B + 1, B * B + 3, 3_000_001]) {
    it(`scans ${n} random values exactly`, async () => {
      const device = gpu.device;
      const rnd = mulberry32(n);
      // values below 1000 keep the total of 3e6 values under 2^32
      const values = new Uint32Array(n).map(() => rnd() % 1000);
      const src = storageWith(device, 'scan-src', values);
      // one guard word after dst's n values must stay untouched
      const dst = storageWith(device, 'scan-dst', new Uint32Array(n + 1).fill(0xdeadbeef));
      const scan = new PrefixScan(device, cache, `test-${n}`, n, perThread);
      scan.bind(src, dst);
      runPass(device, `scan-${n}`, (pass) => scan.encode(pass));
      const got = await readU32(device, dst, n + 1);
      expect(got[n], 'guard word').toBe(0xdeadbeef);
      const want = hostScan(values);
      const at = firstMismatch(got.subarray(0, n), want);
      expect(at, at >= 0 ? `element ${at}: got ${got[at]}, want ${want[at]}` : '').toBe(-1);
      src.destroy();
      dst.destroy();
      await expectNoGpuErrors(gpu);
    });
  }

  it('scans all-zero and maximal-total inputs', async () => {
    const device = gpu.device;
    for (const values of [new Uint32Array(5000), new Uint32Array(4099).fill(1_000_000)]) {
      const src = storageWith(device, 'scan-src', values);
      const dst = storageWith(device, 'scan-dst', new Uint32Array(values.length).fill(0xdeadbeef));
      const scan = new PrefixScan(device, cache, 'edge', values.length, perThread);
      scan.bind(src, dst);
      runPass(device, 'scan-edge', (pass) => scan.encode(pass));
      expect(firstMismatch(await readU32(device, dst, values.length), hostScan(values))).toBe(-1);
    }
    await expectNoGpuErrors(gpu);
  });

  it('scan_blocks leaves block sums alone in the surplus workgroups of a 2D dispatch', async () => {
    // dispatchDims spills past 65535 workgroups into y, so the last row has surplus workgroups
    // (blocks > 65535 means > 67M values, too large for lavapipe); the same shape in small: 3 blocks as 2 x 2
    const device = gpu.device;
    const n = 3 * B - 7;
    const pipeline = cache.get({ file: 'scan.wgsl', entry: 'scan_blocks', constants: { SCAN_PER_THREAD: perThread } });
    const values = new Uint32Array(n).fill(1);
    const params = makeBufferWith(device, 'scan-params', ScanParams.pack({ n }), 0x40);
    const src = storageWith(device, 'scan-src', values);
    const dst = storage(device, 'scan-dst', 4 * n);
    const sums = storage(device, 'scan-sums', 4 * 3);
    const group = bindBuffers(device, pipeline, 'scan-2d', { 0: params, 1: src, 2: dst, 3: sums });
    runPass(device, 'scan-2d', (pass) => {
      pass.setPipeline(pipeline);
      pass.setBindGroup(0, group);
      pass.dispatchWorkgroups(2, 2);
    });
    expect(Array.from(await readU32(device, sums, 3))).toEqual([B, B, B - 7]);
    await expectNoGpuErrors(gpu);
  });
});

describe('scanPerThread', () => {
  it('takes 16 values an invocation where the device has 18 KB of workgroup memory (lavapipe: 32 KB)', () => {
    expect(gpu.device.limits.maxComputeWorkgroupStorageSize).toBeGreaterThanOrEqual(32768);
    expect(scanPerThread(gpu.device)).toBe(16);
    expect(scanPerThread({ limits: { maxComputeWorkgroupStorageSize: 16384 } } as GPUDevice)).toBe(8);
  });
});
