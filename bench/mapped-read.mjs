// How fast the host reads a mapped read-back (issue 24: the loop's periodic totals sum 215,000 workgroup partials,
// 6.9 MB, in the mapped range of a MAP_READ staging buffer, and a wedge rank's event loop stalled 17-22 ms there).
// For a few sizes: the map's wait, then the time to sum the range as f32 in a JS loop, to copy it to a host array
// (slice), and to sum that copy; three rounds each.
// Usage: node bench/mapped-read.mjs   (one line per size and round, milliseconds)
import { openGpu } from '../out/src-main/solver/gpu/device.js';

const gpu = await openGpu();
const { device } = gpu;
console.log('adapter', gpu.adapter.description);

/** Sums a Float32Array of 8-word records into 8 doubles, as conservation.ts does. */
function sum8(f) {
  const s = new Float64Array(8);
  for (let b = 0; b < f.length / 8; b++) for (let k = 0; k < 8; k++) s[k] += f[b * 8 + k];
  return s;
}

for (const mb of [0.25, 1, 6.9, 16]) {
  const bytes = Math.ceil((mb * 2 ** 20) / 32) * 32;
  const src = device.createBuffer({ size: bytes, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC });
  device.queue.writeBuffer(src, 0, new Float32Array(bytes / 4).fill(1.5));
  const staging = device.createBuffer({ size: bytes, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  for (let round = 0; round < 3; round++) {
    const enc = device.createCommandEncoder();
    enc.copyBufferToBuffer(src, 0, staging, 0, bytes);
    device.queue.submit([enc.finish()]);
    const t0 = performance.now();
    await staging.mapAsync(GPUMapMode.READ);
    const t1 = performance.now();
    const range = staging.getMappedRange();
    const direct = sum8(new Float32Array(range));
    const t2 = performance.now();
    const copy = range.slice(0);
    const t3 = performance.now();
    const again = sum8(new Float32Array(copy));
    const t4 = performance.now();
    staging.unmap();
    if (direct[0] !== again[0]) throw new Error('sums differ');
    console.log(`${mb} MB round ${round}: map ${(t1 - t0).toFixed(2)} ms, sum in the mapped range ${(t2 - t1).toFixed(2)} ms, ` +
      `copy out ${(t3 - t2).toFixed(2)} ms, sum of the copy ${(t4 - t3).toFixed(2)} ms`);
  }
  staging.destroy();
  src.destroy();
}
device.destroy();
