// What one compute dispatch costs on this adapter beyond its work (issue 24: a rank's halo pass is a dozen small
// dispatches). Times K dispatches of a kernel that reads and writes one u32 per invocation, each dispatch a
// hazard on the one before (Dawn puts a barrier between them), for several sizes: in one compute pass, and each in
// a pass of its own; GPU timestamps around the whole and the wall clock to onSubmittedWorkDone.
// Usage: node bench/dispatch-cost.mjs [K]   (prints one line per case: µs per dispatch, GB/s of the work)
import { openGpu } from '../out/src-main/solver/gpu/device.js';

const K = Number(process.argv[2] ?? 200);
const gpu = await openGpu();
const { device } = gpu;
console.log('adapter', gpu.adapter.description, 'timestamps', gpu.hasTimestamps);
const WG = 256;
const code = `
@group(0) @binding(0) var<storage, read_write> a: array<u32>;
@group(0) @binding(1) var<uniform> n: vec4<u32>;
@compute @workgroup_size(${WG}) fn touch(@builtin(global_invocation_id) g: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = g.x + g.y * nwg.x * ${WG}u;
  if (i < n.x) { a[i] = a[i] * 1664525u + 1013904223u; }
}`;
const module = device.createShaderModule({ code });
const pipeline = device.createComputePipeline({ layout: 'auto', compute: { module, entryPoint: 'touch' } });
const maxN = 32 * 1024 * 1024;
const data = device.createBuffer({ size: 4 * maxN, usage: GPUBufferUsage.STORAGE });
const query = gpu.hasTimestamps ? device.createQuerySet({ type: 'timestamp', count: 2 }) : null;
const resolve = device.createBuffer({ size: 16, usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC });
const read = device.createBuffer({ size: 16, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });

/** Workgroup grid for n invocations (x at most 65535). */
function dims(n) {
  const groups = Math.ceil(n / WG);
  const x = Math.min(groups, 65535);
  return [x, Math.ceil(groups / x)];
}

/** Runs k dispatches over n invocations, in one pass or one pass each; returns [gpu µs, wall µs] of the whole. */
async function time(n, k, passEach) {
  const uniform = device.createBuffer({ size: 16, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
  device.queue.writeBuffer(uniform, 0, new Uint32Array([n, 0, 0, 0]));
  const group = device.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries: [{ binding: 0, resource: { buffer: data } }, { binding: 1, resource: { buffer: uniform } }] });
  const enc = device.createCommandEncoder();
  const [x, y] = dims(n);
  const stamps = (first, last) => (query && (first || last) ? { querySet: query, ...(first ? { beginningOfPassWriteIndex: 0 } : {}), ...(last ? { endOfPassWriteIndex: 1 } : {}) } : undefined);
  if (passEach) {
    for (let j = 0; j < k; j++) {
      const p = enc.beginComputePass({ timestampWrites: stamps(j === 0, j === k - 1) });
      p.setPipeline(pipeline); p.setBindGroup(0, group); p.dispatchWorkgroups(x, y); p.end();
    }
  } else {
    const p = enc.beginComputePass({ timestampWrites: stamps(true, true) });
    p.setPipeline(pipeline); p.setBindGroup(0, group);
    for (let j = 0; j < k; j++) p.dispatchWorkgroups(x, y);
    p.end();
  }
  if (query) { enc.resolveQuerySet(query, 0, 2, resolve, 0); enc.copyBufferToBuffer(resolve, 0, read, 0, 16); }
  const t0 = performance.now();
  device.queue.submit([enc.finish()]);
  await device.queue.onSubmittedWorkDone();
  const wall = 1000 * (performance.now() - t0);
  let gpuUs = NaN;
  if (query) {
    await read.mapAsync(GPUMapMode.READ);
    const t = new BigUint64Array(read.getMappedRange().slice(0));
    read.unmap();
    gpuUs = Number(t[1] - t[0]) / 1000;
  }
  return [gpuUs, wall];
}

for (const n of [256, 65536, 1 << 20, 4 << 20, 32 << 20]) {
  const k = n >= (32 << 20) ? Math.max(10, K / 10) : K;
  for (const passEach of [false, true]) {
    await time(n, k, passEach); // warm
    const runs = [];
    for (let r = 0; r < 3; r++) runs.push(await time(n, k, passEach));
    const best = runs.reduce((a, b) => (a[0] < b[0] ? a : b));
    const per = best[0] / k;
    console.log(`n ${String(n).padStart(9)} ${passEach ? 'pass each' : 'one pass '} dispatches ${k}: ${per.toFixed(2)} µs each on the GPU (${(best[1] / k).toFixed(2)} µs wall), ${(8 * n / per / 1e3).toFixed(0)} GB/s`);
  }
}
// What a copy between a staging buffer and the GPU's memory costs between two compute passes (a rank's step copies
// its migrants to a map-read buffer and its arrivals from a map-write one), and what a submit boundary costs: each
// case k times (pass over n, copy of `bytes`), GPU timestamps from the first pass to the last.
const bytes = 2.4e6;
const staged = {
  d2h: [device.createBuffer({ size: bytes, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC }), device.createBuffer({ size: bytes, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST })],
  h2d: [device.createBuffer({ size: bytes, usage: GPUBufferUsage.MAP_WRITE | GPUBufferUsage.COPY_SRC }), device.createBuffer({ size: bytes, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST })],
  d2d: [device.createBuffer({ size: bytes, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC }), device.createBuffer({ size: bytes, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST })],
};
const many = query ? device.createQuerySet({ type: 'timestamp', count: 2 * 64 }) : null;
const manyResolve = device.createBuffer({ size: 8 * 128, usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC });
const manyRead = device.createBuffer({ size: 8 * 128, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });

/** k rounds of (a pass over n, then `copy` or nothing), in one command buffer or one submit per round; GPU µs from first to last. */
async function rounds(n, k, copy, submitEach) {
  const uniform = device.createBuffer({ size: 16, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
  device.queue.writeBuffer(uniform, 0, new Uint32Array([n, 0, 0, 0]));
  const group = device.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries: [{ binding: 0, resource: { buffer: data } }, { binding: 1, resource: { buffer: uniform } }] });
  const [x, y] = dims(n);
  const buffers = [];
  let enc = device.createCommandEncoder();
  for (let j = 0; j < k; j++) {
    const p = enc.beginComputePass({ timestampWrites: many ? { querySet: many, beginningOfPassWriteIndex: 2 * j, endOfPassWriteIndex: 2 * j + 1 } : undefined });
    p.setPipeline(pipeline); p.setBindGroup(0, group); p.dispatchWorkgroups(x, y); p.end();
    if (copy) enc.copyBufferToBuffer(staged[copy][0], 0, staged[copy][1], 0, bytes);
    if (submitEach) { buffers.push(enc.finish()); enc = device.createCommandEncoder(); }
  }
  if (many) { enc.resolveQuerySet(many, 0, 2 * k, manyResolve, 0); enc.copyBufferToBuffer(manyResolve, 0, manyRead, 0, 16 * k); }
  buffers.push(enc.finish());
  if (submitEach) for (const b of buffers) device.queue.submit([b]);
  else device.queue.submit(buffers);
  await device.queue.onSubmittedWorkDone();
  if (!many) return NaN;
  await manyRead.mapAsync(GPUMapMode.READ);
  const t = new BigUint64Array(manyRead.getMappedRange().slice(0, 16 * k));
  manyRead.unmap();
  // the time from one pass's end to the next pass's beginning: what lies between (a copy, a submit boundary)
  let between = 0;
  for (let j = 1; j < k; j++) between += Number(t[2 * j] - t[2 * j - 1]);
  return [Number(t[2 * k - 1] - t[0]) / 1000 / k, between / 1000 / (k - 1)];
}

for (const n of [1 << 20, 8 << 20]) {
  for (const [copy, submitEach] of [[null, false], ['d2d', false], ['d2h', false], ['h2d', false], [null, true], ['d2h', true]]) {
    await rounds(n, 32, copy, submitEach);
    const runs = [];
    for (let r = 0; r < 3; r++) runs.push(await rounds(n, 32, copy, submitEach));
    const best = runs.reduce((a, b) => (a[0] < b[0] ? a : b));
    console.log(`rounds of a pass over ${n} ${copy ? `then a ${bytes / 1e6} MB copy ${copy}` : 'alone'}${submitEach ? ', a submit each' : ''}: ${best[0].toFixed(2)} µs a round, ${best[1].toFixed(2)} µs between passes`);
  }
}
process.exit(0);
