// TimestampRecorder (src-main/solver/gpu/phase-timer.ts): a submit that records more passes than the recorder was made
// for (a multi-rank `--detail` step of a sampled body case has more than the loop's estimate) adds query sets instead
// of failing, and every pass is still timed and counted, across several submits.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GAP_PHASES, TimestampRecorder } from '../../src-main/solver/gpu/phase-timer.js';
import { estimatedTotals, gpuSecondsBetween, type PhaseTotals } from '../../src-main/solver/gpu/phase-totals.js';
import { expectNoGpuErrors, openGpu, type Gpu } from './gpu-helpers.js';

let gpu: Gpu;

beforeAll(async () => {
  gpu = await openGpu();
});
afterAll(() => gpu?.device.destroy());

describe('TimestampRecorder', () => {
  it('grows past its first size (more than one query set) and times every pass of each submit', async () => {
    expect(gpu.hasTimestamps).toBe(true);
    const rec = new TimestampRecorder(gpu.device, 3);
    expect(rec.maxPasses).toBe(2048);
    // 2500 passes of two phases in one submit (two query sets), 10 in the next; "b" continues its open call
    for (let k = 0; k < 2500; k++) rec.pass(k % 2 === 0 ? 'a' : 'b', () => {}, k % 2 === 1);
    expect(rec.maxPasses).toBe(4096);
    await rec.submit();
    for (let k = 0; k < 10; k++) rec.pass('a', () => {});
    rec.flush();
    for (let k = 0; k < 5000; k++) rec.pass('c', () => {}, true);
    await rec.submit();
    expect(rec.maxPasses).toBe(8192);
    const t = rec.totals();
    expect(t.get('a')?.calls).toBe(1250 + 10);
    // "b" always continued an open call of its own: one call per submit it was in
    expect(t.get('b')?.calls).toBe(1);
    expect(t.get('c')?.calls).toBe(1);
    for (const name of ['a', 'b', 'c']) expect(t.get(name)!.totalSeconds).toBeGreaterThanOrEqual(0);
    await expectNoGpuErrors(gpu);
  });

  it('books the GPU idle gaps between passes, command buffers and submits when asked, and only then', async () => {
    const gapped = new TimestampRecorder(gpu.device, 8, { gaps: true });
    const plain = new TimestampRecorder(gpu.device, 8);
    for (const rec of [gapped, plain]) {
      for (let batch = 0; batch < 3; batch++) {
        rec.pass('a', () => {});
        rec.pass('b', () => {});
        rec.flush();
        rec.pass('a', () => {});
        await rec.submit();
      }
    }
    const t = gapped.totals();
    // one call of each per submit; the gap between submits from the second submit on
    expect(t.get(GAP_PHASES.within)?.calls).toBe(3);
    expect(t.get(GAP_PHASES.submits)?.calls).toBe(3);
    expect(t.get(GAP_PHASES.batches)?.calls).toBe(2);
    // the host waited for each submit before it recorded the next: the GPU was idle between them
    expect(t.get(GAP_PHASES.batches)!.totalSeconds).toBeGreaterThan(0);
    for (const name of Object.values(GAP_PHASES)) expect(t.get(name)!.totalSeconds).toBeGreaterThanOrEqual(0);
    expect([...plain.totals().keys()].sort()).toEqual(['a', 'b']);
    expect(t.get('a')?.calls).toBe(plain.totals().get('a')?.calls);
    await expectNoGpuErrors(gpu);
  });

  it('times every n-th call of each phase, runs the others untimed in a shared pass, and estimates the totals from the timed ones', async () => {
    // a pass adds 1 to a counter: every call runs, timed or not
    const module = gpu.device.createShaderModule({ code: '@group(0) @binding(0) var<storage, read_write> n: array<atomic<u32>>;\n@compute @workgroup_size(1) fn main() { atomicAdd(&n[0], 1u); }' });
    const pipeline = gpu.device.createComputePipeline({ layout: 'auto', compute: { module, entryPoint: 'main' } });
    const counter = gpu.device.createBuffer({ size: 16, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST });
    const copy = gpu.device.createBuffer({ size: 16, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC });
    const read = gpu.device.createBuffer({ size: 16, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
    const group = gpu.device.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries: [{ binding: 0, resource: { buffer: counter } }] });
    const add = (p: GPUComputePassEncoder) => { p.setPipeline(pipeline); p.setBindGroup(0, group); p.dispatchWorkgroups(1); };
    const rec = new TimestampRecorder(gpu.device, 8, { every: 4 });
    expect(rec.timedEvery).toBe(4);
    // 10 steps in two submits: "a" once a step, "b" once a step in two parts (the second continues the first)
    for (const steps of [6, 4]) {
      for (let k = 0; k < steps; k++) {
        rec.pass('a', add);
        rec.pass('b', add);
        // a copy between passes (the encoder ends the shared untimed pass first)
        rec.encoder.copyBufferToBuffer(counter, 0, copy, 0, 16);
        rec.pass('b', add, true);
        if (k === 2) rec.flush();
      }
      await rec.submit();
    }
    const t = rec.totals();
    expect(t.get('a')?.calls).toBe(10);
    expect(t.get('b')?.calls).toBe(10);
    for (const name of ['a', 'b']) {
      const p = t.get(name)!;
      // the timed calls (0, 4 and 8) measured something; the total is the first's plus nine at the mean of the others
      expect(p.sampled?.timedCalls).toBe(3);
      expect(p.totalSeconds).toBeGreaterThan(0);
      expect(p.totalSeconds).toBeGreaterThanOrEqual(10 * p.minSeconds * 0.999);
      expect(p.totalSeconds).toBeLessThanOrEqual(10 * p.maxSeconds * 1.001);
    }
    // every pass ran: 30 additions
    const enc = gpu.device.createCommandEncoder();
    enc.copyBufferToBuffer(counter, 0, read, 0, 16);
    gpu.device.queue.submit([enc.finish()]);
    await read.mapAsync(GPUMapMode.READ);
    expect(new Uint32Array(read.getMappedRange())[0]).toBe(30);
    read.unmap();
    // every call timed again from now on: the next three calls of "a" are timed, so its mean moves to theirs
    rec.timeEvery(1);
    expect(rec.timedEvery).toBe(1);
    for (let k = 0; k < 3; k++) rec.pass('a', add);
    await rec.submit();
    expect(rec.totals().get('a')?.calls).toBe(13);
    expect(() => rec.timeEvery(0)).toThrow(/whole number from 1/);
    await expectNoGpuErrors(gpu);
  });

  it('times every call while it books the gaps (they are only known between consecutive timed passes)', () => {
    const rec = new TimestampRecorder(gpu.device, 8, { every: 8, gaps: true });
    expect(rec.timedEvery).toBe(1);
    rec.timeEvery(8);
    expect(rec.timedEvery).toBe(1);
  });

  it('gives the GPU seconds between two snapshots of the totals: exact where every call is timed, never negative where some are', () => {
    const t = (calls: number, totalSeconds: number, timed?: [number, number]): PhaseTotals =>
      ({ calls, totalSeconds, minSeconds: 0, maxSeconds: 0, ...(timed ? { sampled: { timedCalls: timed[0], timedSeconds: timed[1], untimedMean: timed[1] / timed[0] } } : {}) });
    // every call timed: the difference of the totals; host phases and the GPU's gaps left out
    const full0 = new Map([['move', t(4, 4)], ['exchange', t(4, 9)]]);
    const full1 = new Map([['move', t(8, 7)], ['exchange', t(8, 20)], ['gpu-gap.submits', t(1, 5)]]);
    expect(gpuSecondsBetween(full0, full1)).toBeCloseTo(3, 12);
    // 1 call in 4 timed: 8 calls, 2 timed (1 s and 3 s); then 8 more, 2 more timed (0.1 s each): the estimated total falls
    // from 16 to 6.6, but the batch's GPU seconds are its timed 0.2 s plus its 6 untimed calls at the mean 1.05 s
    const s0 = new Map([['move', t(8, 16, [2, 4])]]);
    const s1 = new Map([['move', t(16, 16 * 4.2 / 4, [4, 4.2])]]);
    expect(gpuSecondsBetween(s0, s1)).toBeCloseTo(0.2 + 6 * 1.05, 12);
    // from fully timed totals (nothing sampled yet) to sampled ones
    expect(gpuSecondsBetween(new Map([['move', t(2, 2)]]), new Map([['move', t(10, 10 * 2.5 / 3, [3, 2.5])]]))).toBeCloseTo(0.5 + 7 * (2.5 / 3), 12);
  });

  it('estimates a sampled phase from its first call as measured and the others at the mean of its other timed calls', () => {
    // a run's first step is unlike the rest (a rank's whole move and sort): 8 s, then timed calls of 1 s and 3 s
    const timed: PhaseTotals = { calls: 3, totalSeconds: 12, minSeconds: 1, maxSeconds: 8 };
    const e = estimatedTotals(timed, 8, 21);
    expect(e.calls).toBe(24);
    expect(e.sampled?.untimedMean).toBe(2);
    expect(e.totalSeconds).toBe(8 + 23 * 2);
    expect({ timedCalls: e.sampled?.timedCalls, timedSeconds: e.sampled?.timedSeconds, minSeconds: e.minSeconds, maxSeconds: e.maxSeconds }).toEqual({ timedCalls: 3, timedSeconds: 12, minSeconds: 1, maxSeconds: 8 });
    // only the first call timed: the others at its time
    expect(estimatedTotals({ calls: 1, totalSeconds: 5, minSeconds: 5, maxSeconds: 5 }, 5, 3).totalSeconds).toBe(20);
    // a batch after it: its timed call's seconds plus its untimed calls at 2 s
    const before = new Map([['sort', e]]);
    const after = new Map([['sort', estimatedTotals({ calls: 4, totalSeconds: 14, minSeconds: 1, maxSeconds: 8 }, 8, 28)]]);
    expect(gpuSecondsBetween(before, after)).toBeCloseTo(2 + 7 * 2, 12);
  });
});
