// TimestampRecorder (src-main/solver/gpu/phase-timer.ts): a submit that records more passes than the recorder was made
// for (a multi-rank `--detail` step of a sampled body case has more than the loop's estimate) adds query sets instead
// of failing, and every pass is still timed and counted, across several submits.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GAP_PHASES, TimestampRecorder } from '../../src-main/solver/gpu/phase-timer.js';
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
    const gapped = new TimestampRecorder(gpu.device, 8, true);
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
});
