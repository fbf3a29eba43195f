// Staging buffers kept across a re-split (issue 24: freeing pinned host memory inside the loop held up the next submit):
// the sampling state's read staging stays when a rank's cell count changes (fewer cells are read from its start, too
// small ones are replaced at the next read), and the read-back's released staging is taken again by new sources. Every
// read must still give exactly what the GPU holds, whatever the staging's size.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gpu } from '../../src-main/solver/gpu/device.js';
import { Readback, STORAGE, makeBufferWith } from '../../src-main/solver/gpu/buffers.js';
import { SAMPLE_PARTS, SampleBuffers, partPlanes, type SampleLayout, type SampleState } from '../../src-main/solver/sample-buffers.js';
import { gpuForTests } from '../physics/harness.js';

let gpu: Gpu;
beforeAll(async () => { gpu = await gpuForTests(); });
afterAll(() => gpu?.device.destroy());

const layout: SampleLayout = { species: 2, moments: 3, fields: 4 };

/** A state of n cells whose every value differs (seeded by `seed`). */
function stateOf(n: number, seed: number): SampleState {
  const u = (k: number) => Uint32Array.from({ length: partPlanes(SAMPLE_PARTS[k], layout) * n }, (_, i) => (seed * 7919 + k * 104729 + i * 31) >>> 0);
  return { runLo: u(0), runHi: u(1), blockLo: u(2), blockHi: u(3), welford: Float32Array.from({ length: partPlanes('welford', layout) * n }, (_, i) => seed + i / 8) };
}

describe('staging kept across a re-split', () => {
  it('the sampling state reads back exactly after the cells shrink (kept staging) and grow (new staging)', async () => {
    const sample = new SampleBuffers(gpu.device, layout, true, 1000, [1, 1], [{ rotationalDof: 0, thetaV: 0 }, { rotationalDof: 0, thetaV: 0 }]);
    sample.prepareRead();
    const first = stateOf(1000, 1);
    sample.write(first);
    expect((await sample.read()).state).toEqual(first);
    // fewer cells: the kept staging (1000 cells) serves, no new staging buffer
    sample.reallocate(600);
    const fewer = stateOf(600, 2);
    sample.write(fewer);
    const device = gpu.device;
    const create = device.createBuffer.bind(device);
    let made = 0;
    device.createBuffer = (d: GPUBufferDescriptor) => { made += 1; return create(d); };
    let read: { state: SampleState; overflow: boolean };
    try {
      read = await sample.read();
    } finally {
      device.createBuffer = create;
    }
    expect(made).toBe(0);
    expect(read.state).toEqual(fewer);
    expect(read.overflow).toBe(false);
    // into arrays of this state's sizes (the end of a run's arenas) as well
    const into = stateOf(600, 9);
    expect((await sample.read({ into })).state).toEqual(fewer);
    expect(into).toEqual(fewer);
    // more cells than the staging holds: replaced at this read, and exact
    sample.reallocate(1500);
    const more = stateOf(1500, 3);
    sample.write(more);
    expect((await sample.read()).state).toEqual(more);
    sample.destroy();
  });

  it('a released read-back staging buffer is taken by a new source it fits, and reads stay exact', async () => {
    const readback = new Readback(gpu.device);
    const big = Uint32Array.from({ length: 4096 }, (_, i) => i * 3 + 1);
    const a = makeBufferWith(gpu.device, 'a', big, STORAGE);
    expect(new Uint32Array(await readback.read(a, big.byteLength))).toEqual(big);
    readback.release();
    const small = Uint32Array.from({ length: 1000 }, (_, i) => 77 - i);
    const b = makeBufferWith(gpu.device, 'b', small, STORAGE);
    const device = gpu.device;
    const create = device.createBuffer.bind(device);
    let made = 0;
    device.createBuffer = (d: GPUBufferDescriptor) => { made += 1; return create(d); };
    let got: ArrayBuffer;
    try {
      got = await readback.read(b, small.byteLength);
    } finally {
      device.createBuffer = create;
    }
    expect(made).toBe(0);
    expect(new Uint32Array(got)).toEqual(small);
    // a source larger than any spare gets a new staging buffer, and reads exactly
    const larger = Uint32Array.from({ length: 9000 }, (_, i) => i ^ 0x5a5a);
    const c = makeBufferWith(gpu.device, 'c', larger, STORAGE);
    expect(new Uint32Array(await readback.read(c, larger.byteLength))).toEqual(larger);
    for (const x of [a, b, c]) x.destroy();
  });
});
