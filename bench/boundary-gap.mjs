// What a command buffer boundary and a host-visible copy cost the GPU (issue 24: a rank's GPU is idle some 0.2 ms a step
// between its command buffers, DSMC_GPU_GAPS=1). Two timed compute passes P1 and P2 (each a kernel over its own 64 MB
// buffer), with what lies between them varied; per variant, the mean idle time from P1's end to P2's start (GPU
// timestamps), over ROUNDS rounds in which the host submits everything at once (the GPU is never starved):
//   one-cb            P1 and P2 in one command buffer
//   one-cb-copy-dev   one command buffer, a device-to-device copy of SIZE bytes between (P2 does not touch it)
//   one-cb-copy-read  one command buffer, a copy of SIZE bytes into a MAP_READ staging buffer between
//   one-cb-copy-write one command buffer, a copy of SIZE bytes from a MAP_WRITE staging buffer between
//   two-cb            P1 and P2 in two submits
//   two-cb-read       two submits, the first ending with the copy into MAP_READ staging
//   two-cb-read-map   the same, the staging mapped after the first submit (the host waits for it at the round's end)
//   two-cb-write      two submits, the second starting with the copy from MAP_WRITE staging
//   rank-like         two-cb-read-map and two-cb-write together
//   two-cb-read3      two-cb-read with two more copies before the big one (56 and 12 bytes from other buffers into the
//                     same staging: a rank's control words and migrant counts)
//   two-cb-write2     two-cb-write with one more copy after the big one (4 bytes into a buffer P2 uses: the arrival count)
// Then what the timestamps themselves cost: ROUNDS rounds of two-cb-read and two-cb-write together, submitted at once,
// timed (P1 and P2 each with timestamps) and untimed, the wall time per round from the first submit to the last's end.
// Usage: node bench/boundary-gap.mjs [SIZE_MB=1] [ROUNDS=50]   (one line per variant, microseconds)
import { openGpu } from '../out/src-main/solver/gpu/device.js';

const sizeMb = Number(process.argv[2] ?? 1);
const rounds = Number(process.argv[3] ?? 50);
const gpu = await openGpu();
const { device } = gpu;
console.log('adapter', gpu.adapter.description, '| copy', sizeMb, 'MB |', rounds, 'rounds');

const WORDS = 16 * 2 ** 20;
const module = device.createShaderModule({
  code: `@group(0) @binding(0) var<storage, read_write> a: array<u32>;
@compute @workgroup_size(256) fn main(@builtin(global_invocation_id) g: vec3<u32>, @builtin(num_workgroups) n: vec3<u32>) {
  let i = g.x + g.y * n.x * 256u;
  if (i < arrayLength(&a)) { a[i] = a[i] * 3u + 1u; }
}`,
});
const pipeline = device.createComputePipeline({ layout: 'auto', compute: { module, entryPoint: 'main' } });
const work = [0, 1].map(() => device.createBuffer({ size: 4 * WORDS, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST }));
const groups = work.map((buffer) => device.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries: [{ binding: 0, resource: { buffer } }] }));
const bytes = Math.ceil((sizeMb * 2 ** 20) / 16) * 16;
const src = device.createBuffer({ size: bytes, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST });
const dst = device.createBuffer({ size: bytes, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST });
const readStaging = device.createBuffer({ size: bytes, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
const writeStaging = device.createBuffer({ size: bytes, usage: GPUBufferUsage.MAP_WRITE | GPUBufferUsage.COPY_SRC, mappedAtCreation: true });
new Uint8Array(writeStaging.getMappedRange()).fill(7);
writeStaging.unmap();
const querySet = device.createQuerySet({ type: 'timestamp', count: 4 * rounds });
const resolve = device.createBuffer({ size: 8 * 4 * rounds, usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC });
const read = device.createBuffer({ size: 8 * 4 * rounds, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });

/** Records timed pass k (0: P1, 30 dispatches, long enough for the host to submit what follows; 1: P2, one) of round r. */
function pass(enc, r, k) {
  const p = enc.beginComputePass({ timestampWrites: { querySet, beginningOfPassWriteIndex: 4 * r + 2 * k, endOfPassWriteIndex: 4 * r + 2 * k + 1 } });
  p.setPipeline(pipeline);
  p.setBindGroup(0, groups[k]);
  for (let d = 0; d < (k === 0 ? 30 : 1); d++) p.dispatchWorkgroups(WORDS / 256 / 64, 64);
  p.end();
}

/** Runs one variant's rounds; returns the mean and median gap from P1's end to P2's start, in microseconds. */
async function variant(name) {
  // a command buffer that fails validation is not run: its timestamps would be stale
  device.pushErrorScope('validation');
  for (let r = 0; r < rounds; r++) {
    const twoCb = name.startsWith('two-cb') || name === 'rank-like';
    const writes = name.startsWith('two-cb-write') || name === 'rank-like' || name === 'one-cb-copy-write';
    if (writes) {
      // the host fills the upload staging as a rank does (mapped, written, unmapped), before the round's submits
      await writeStaging.mapAsync(GPUMapMode.WRITE);
      new Uint32Array(writeStaging.getMappedRange(0, 16))[0] = r;
      writeStaging.unmap();
    }
    let mapped = null;
    let enc = device.createCommandEncoder();
    pass(enc, r, 0);
    if (name === 'one-cb-copy-dev') enc.copyBufferToBuffer(src, 0, dst, 0, bytes);
    if (name === 'two-cb-read3') {
      enc.copyBufferToBuffer(work[0], 0, readStaging, 0, 56);
      enc.copyBufferToBuffer(dst, 0, readStaging, 56, 12);
    }
    if (name === 'one-cb-copy-read' || name.startsWith('two-cb-read') || name === 'rank-like') enc.copyBufferToBuffer(src, 0, readStaging, 0, bytes);
    if (name === 'one-cb-copy-write') enc.copyBufferToBuffer(writeStaging, 0, dst, 0, bytes);
    if (twoCb) {
      device.queue.submit([enc.finish()]);
      // a rank maps its status right after the submit that copies it, then submits its next command buffer
      if (name === 'two-cb-read-map' || name === 'rank-like') mapped = readStaging.mapAsync(GPUMapMode.READ);
      enc = device.createCommandEncoder();
    }
    if (name.startsWith('two-cb-write') || name === 'rank-like') enc.copyBufferToBuffer(writeStaging, 0, dst, 0, bytes);
    if (name === 'two-cb-write2') enc.copyBufferToBuffer(writeStaging, 0, work[1], 0, 4);
    pass(enc, r, 1);
    device.queue.submit([enc.finish()]);
    if (mapped) {
      await mapped;
      readStaging.unmap();
    }
  }
  await device.queue.onSubmittedWorkDone();
  const error = await device.popErrorScope();
  if (error) throw new Error(`${name}: ${error.message}`);
  const enc = device.createCommandEncoder();
  enc.resolveQuerySet(querySet, 0, 4 * rounds, resolve, 0);
  enc.copyBufferToBuffer(resolve, 0, read, 0, 8 * 4 * rounds);
  device.queue.submit([enc.finish()]);
  await read.mapAsync(GPUMapMode.READ);
  const ts = new BigUint64Array(read.getMappedRange().slice(0));
  read.unmap();
  const gaps = [];
  const p1 = [];
  for (let r = 1; r < rounds; r++) {
    gaps.push(Number(ts[4 * r + 2] - ts[4 * r + 1]) / 1000);
    p1.push(Number(ts[4 * r + 1] - ts[4 * r]) / 1000);
  }
  gaps.sort((a, b) => a - b);
  const mean = gaps.reduce((a, b) => a + b, 0) / gaps.length;
  console.log(`${name.padEnd(18)} gap mean ${mean.toFixed(1)} µs, median ${gaps[gaps.length >> 1].toFixed(1)}, p10 ${gaps[Math.floor(gaps.length / 10)].toFixed(1)}, p90 ${gaps[Math.floor((9 * gaps.length) / 10)].toFixed(1)} | P1 ${(p1.reduce((a, b) => a + b, 0) / p1.length).toFixed(1)} µs`);
}

/** Wall time per round of two-cb-read plus two-cb-write, all rounds submitted at once, with or without timestamps. */
async function wallPerRound(timed) {
  await device.queue.onSubmittedWorkDone();
  const t0 = performance.now();
  for (let r = 0; r < rounds; r++) {
    for (const k of [0, 1]) {
      const enc = device.createCommandEncoder();
      if (k === 1) enc.copyBufferToBuffer(writeStaging, 0, dst, 0, bytes);
      if (timed) pass(enc, r, k);
      else {
        const p = enc.beginComputePass();
        p.setPipeline(pipeline);
        p.setBindGroup(0, groups[k]);
        for (let d = 0; d < (k === 0 ? 30 : 1); d++) p.dispatchWorkgroups(WORDS / 256 / 64, 64);
        p.end();
      }
      if (k === 0) enc.copyBufferToBuffer(src, 0, readStaging, 0, bytes);
      device.queue.submit([enc.finish()]);
    }
  }
  await device.queue.onSubmittedWorkDone();
  return ((performance.now() - t0) * 1000) / rounds;
}

const names = ['one-cb', 'one-cb-copy-dev', 'one-cb-copy-read', 'one-cb-copy-write', 'two-cb', 'two-cb-read', 'two-cb-read3', 'two-cb-read-map', 'two-cb-write', 'two-cb-write2', 'rank-like'];
for (const name of names) await variant(name);
for (const name of names) await variant(name);
for (let k = 0; k < 2; k++) {
  const timed = await wallPerRound(true);
  const untimed = await wallPerRound(false);
  console.log(`wall per round: timed ${timed.toFixed(1)} µs, untimed ${untimed.toFixed(1)} µs (timestamps cost ${(timed - untimed).toFixed(1)} µs a round of two passes)`);
}
device.destroy();
