// Where the move's and the permute's time goes (issue 24: on one H200 the box's move takes 3.46 ms and its permute
// 3.12 ms of a 10.1 ms step): synthetic kernels over N particles held as the solver holds them (seven 32-bit arrays,
// sorted by cell, about 20 a cell, a fifth moving to a neighbour cell each step), each timed alone:
//   copy7       the seven arrays read and written in place order (the floor of any pass over the particles)
//   stream      the move's traffic without its count: seven arrays read, positions advanced, seven written
//   atomic      stream plus the move's count (slot[i] = atomicAdd(&counts[cell], 1))
//   aggregated  stream plus the count one atomic per run of equal cells in a subgroup (needs 'subgroups'; the
//               solver's count-subgroup.wgsl without its handling of subgroups over 32 lanes or partly empty)
//   gather7     the permute: dst[k] = src[idx[k]] for each of the seven arrays, idx the sorted order
//   scatter7    the permute as a scatter: dst[place[i]] = src[i], place the inverse of idx
//   gather2v4   the same records as two vec4 arrays (what a structure of two vec4s would cost)
// With --check (a small N on any adapter) it checks that the aggregated count hands every cell's particles the
// slots 0..n-1 once each, as the atomic one does.
// Usage: node bench/move-probe.mjs [N=1e8] [K=20] [--check]
import { openGpu } from '../out/src-main/solver/gpu/device.js';

const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const check = process.argv.includes('--check');
const N = Math.round(Number(args[0] ?? 1e8));
const K = Number(args[1] ?? 20);
const PER_CELL = 20;
// openGpu names the adapter; the probe's own device asks for subgroups whatever DSMC_SUBGROUPS says
const gpu = await openGpu();
const adapter = await gpu.instance.requestAdapter({ powerPreference: 'high-performance' });
const hasSubgroups = adapter.features.has('subgroups');
const device = await adapter.requestDevice({
  requiredFeatures: ['timestamp-query', 'subgroups'].filter((f) => adapter.features.has(f)),
  requiredLimits: { maxStorageBufferBindingSize: adapter.limits.maxStorageBufferBindingSize, maxBufferSize: adapter.limits.maxBufferSize, maxStorageBuffersPerShaderStage: adapter.limits.maxStorageBuffersPerShaderStage },
});
device.addEventListener('uncapturederror', (e) => { console.error('WebGPU error:', e.error.message.split('\n')[0]); process.exit(1); });
console.log('adapter', gpu.adapter.description, 'subgroups', hasSubgroups, 'sizes', adapter.info.subgroupMinSize, adapter.info.subgroupMaxSize, 'N', N);

// the cells: a box of about N / PER_CELL cells, x fastest
const cells = Math.ceil(N / PER_CELL);
const nx = Math.max(4, Math.round(Math.cbrt(cells)));
const nxy = nx * nx;
const newCell = new Uint32Array(N);
let seed = 12345;
const rand = () => { seed = (seed * 1664525 + 1013904223) >>> 0; return seed / 4294967296; };
const steps = [1, -1, nx, -nx, nxy, -nxy];
for (let i = 0; i < N; i++) {
  const c = Math.floor(i / PER_CELL);
  let d = c;
  if (rand() < 0.2) { d = c + steps[Math.floor(rand() * 6)]; if (d < 0 || d >= cells) d = c; }
  newCell[i] = d;
}
// the sorted order: by new cell, then index (the old cell grows with the index)
const idx = new Uint32Array(N);
{
  const start = new Uint32Array(cells + 1);
  for (let i = 0; i < N; i++) start[newCell[i] + 1]++;
  for (let c = 0; c < cells; c++) start[c + 1] += start[c];
  for (let i = 0; i < N; i++) idx[start[newCell[i]]++] = i;
}
const WG = 256;
const STORAGE = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC;
const buf = (bytes, data) => {
  const b = device.createBuffer({ size: bytes, usage: STORAGE });
  if (data) device.queue.writeBuffer(b, 0, data);
  return b;
};
const src = Array.from({ length: 7 }, (_, a) => buf(4 * N, a === 6 ? newCell : null));
const dst = Array.from({ length: 7 }, () => buf(4 * N));
const target = buf(4 * N, newCell);
const order = buf(4 * N, idx);
const counts = buf(4 * cells);
// each particle's place in the sorted order (the permute as a scatter)
const inverse = buf(4 * N, (() => { const inv = new Uint32Array(N); for (let k = 0; k < N; k++) inv[idx[k]] = k; return inv; })());
const slot = buf(4 * N);
const params = device.createBuffer({ size: 16, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
device.queue.writeBuffer(params, 0, new Uint32Array([N, 0, 0, 0]));

const head = (extra) => `${extra}
@group(0) @binding(0) var<uniform> P: vec4<u32>;
fn gid(wg: vec3<u32>, nwg: vec3<u32>, li: u32) -> u32 { return (wg.x + wg.y * nwg.x) * ${WG}u + li; }
`;
const arrays = (names, type, base) => names.map((n, j) => `@group(0) @binding(${base + j}) var<storage, read_write> ${n}: array<${type}>;`).join('\n');
const seven = (p) => Array.from({ length: 7 }, (_, j) => `${p}${j}`);
const streamBody = `
  let x = s0[i] + s3[i] * 1e-3; let y = s1[i] + s4[i] * 1e-3; let z = s2[i] + s5[i] * 1e-3;
  s0[i] = x; s1[i] = y; s2[i] = z; s3[i] = s3[i] * 0.999; s4[i] = s4[i] * 0.999; s5[i] = s5[i] * 0.999;
  let c = newc[i];
  c6[i] = c;`;
const kernels = {
  copy7: head('') + `${arrays(seven('s'), 'u32', 1)}\n${arrays(seven('d'), 'u32', 8)}
@compute @workgroup_size(${WG}) fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) li: u32) {
  let i = gid(wg, nwg, li); if (i >= P.x) { return; }
  ${seven('').map((_, j) => `d${j}[i] = s${j}[i];`).join(' ')}
}`,
  stream: head('') + `${arrays(['s0', 's1', 's2', 's3', 's4', 's5'], 'f32', 1)}\n${arrays(['c6', 'newc'], 'u32', 7)}
@compute @workgroup_size(${WG}) fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) li: u32) {
  let i = gid(wg, nwg, li); if (i >= P.x) { return; }${streamBody}
}`,
  atomic: head('') + `${arrays(['s0', 's1', 's2', 's3', 's4', 's5'], 'f32', 1)}\n${arrays(['c6', 'newc', 'slot'], 'u32', 7)}
@group(0) @binding(10) var<storage, read_write> counts: array<atomic<u32>>;
@compute @workgroup_size(${WG}) fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) li: u32) {
  let i = gid(wg, nwg, li); if (i >= P.x) { return; }${streamBody}
  slot[i] = atomicAdd(&counts[c], 1u);
}`,
  aggregated: head('enable subgroups;\ndiagnostic(off, subgroup_uniformity);') + `${arrays(['s0', 's1', 's2', 's3', 's4', 's5'], 'f32', 1)}\n${arrays(['c6', 'newc', 'slot'], 'u32', 7)}
@group(0) @binding(10) var<storage, read_write> counts: array<atomic<u32>>;
@compute @workgroup_size(${WG}) fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) li: u32,
    @builtin(subgroup_invocation_id) lane: u32, @builtin(subgroup_size) size: u32) {
  let i = gid(wg, nwg, li);
  var key = 0xffffffffu;
  if (i < P.x) {${streamBody}
    key = c;
  }
  // runs of equal keys in lane order: one atomic each (by the run's first lane), the base shared by a shuffle
  let before = subgroupShuffleUp(key, 1u);
  let first = lane == 0u || before != key;
  let heads = subgroupBallot(first).x;
  let upTo = select((2u << lane) - 1u, 0xffffffffu, lane == 31u);
  let start = firstLeadingBit(heads & upTo);
  let above = heads & ~upTo;
  let end = select(size, firstTrailingBit(above), above != 0u);
  var base = 0u;
  if (first && key != 0xffffffffu) { base = atomicAdd(&counts[key], end - lane); }
  let runBase = subgroupShuffle(base, start);
  if (key != 0xffffffffu) { slot[i] = runBase + lane - start; }
}`,
  gather7: head('') + `${arrays(seven('s'), 'u32', 1)}\n${arrays(seven('d'), 'u32', 8)}
@group(0) @binding(15) var<storage, read> order: array<u32>;
@compute @workgroup_size(${WG}) fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) li: u32) {
  let k = gid(wg, nwg, li); if (k >= P.x) { return; }
  let i = order[k];
  ${seven('').map((_, j) => `d${j}[k] = s${j}[i];`).join(' ')}
}`,
  scatter7: head('') + `${arrays(seven('s'), 'u32', 1)}\n${arrays(seven('d'), 'u32', 8)}
@group(0) @binding(15) var<storage, read> dest: array<u32>;
@compute @workgroup_size(${WG}) fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) li: u32) {
  let i = gid(wg, nwg, li); if (i >= P.x) { return; }
  let k = dest[i];
  ${seven('').map((_, j) => `d${j}[k] = s${j}[i];`).join(' ')}
}`,
  gather2v4: head('') + `${arrays(['sp', 'sv'], 'vec4<u32>', 1)}\n${arrays(['dp', 'dv'], 'vec4<u32>', 3)}
@group(0) @binding(5) var<storage, read> order: array<u32>;
@compute @workgroup_size(${WG}) fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) li: u32) {
  let k = gid(wg, nwg, li); if (k >= P.x) { return; }
  let i = order[k];
  dp[k] = sp[i]; dv[k] = sv[i];
}`,
};
const bindings = {
  copy7: [...src, ...dst],
  stream: [...src.slice(0, 6), src[6], target],
  atomic: [...src.slice(0, 6), src[6], target, slot, counts],
  aggregated: [...src.slice(0, 6), src[6], target, slot, counts],
  gather7: [...src, ...dst, order],
  scatter7: [...src, ...dst, inverse],
  gather2v4: null,
};
// gather2v4 reads N vec4 records from two buffers of 16 N bytes: made of their own
const v4 = hasRoomForV4() ? [0, 1, 2, 3].map(() => device.createBuffer({ size: 16 * N, usage: STORAGE })) : null;
if (v4) bindings.gather2v4 = [...v4, order];

/** Whether two more pairs of 16 N-byte buffers fit the binding limit. */
function hasRoomForV4() { return 16 * N <= adapter.limits.maxStorageBufferBindingSize; }

const query = device.createQuerySet({ type: 'timestamp', count: 2 });
const resolve = device.createBuffer({ size: 16, usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC });
const read = device.createBuffer({ size: 16, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
const groups = Math.ceil(N / WG);
const gx = Math.min(groups, 65535), gy = Math.ceil(groups / gx);

/** Builds kernel `name`'s pipeline and bind group, or null when the adapter cannot run it. */
function pipelineOf(name) {
  // the probe's run count reads one 32-bit word of the ballot
  if (!bindings[name] || (name === 'aggregated' && (!hasSubgroups || adapter.info.subgroupMaxSize > 32))) return null;
  const module = device.createShaderModule({ code: kernels[name] });
  const pipeline = device.createComputePipeline({ layout: 'auto', compute: { module, entryPoint: 'main' } });
  const entries = [{ binding: 0, resource: { buffer: params } }, ...bindings[name].map((b, j) => ({ binding: j + 1, resource: { buffer: b } }))];
  return { pipeline, group: device.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries }) };
}

/** GPU µs per dispatch of k dispatches of `p` in one pass. */
async function time(p, k) {
  const enc = device.createCommandEncoder();
  const pass = enc.beginComputePass({ timestampWrites: { querySet: query, beginningOfPassWriteIndex: 0, endOfPassWriteIndex: 1 } });
  pass.setPipeline(p.pipeline); pass.setBindGroup(0, p.group);
  for (let j = 0; j < k; j++) pass.dispatchWorkgroups(gx, gy);
  pass.end();
  enc.resolveQuerySet(query, 0, 2, resolve, 0);
  enc.copyBufferToBuffer(resolve, 0, read, 0, 16);
  device.queue.submit([enc.finish()]);
  await read.mapAsync(GPUMapMode.READ);
  const t = new BigUint64Array(read.getMappedRange().slice(0));
  read.unmap();
  return Number(t[1] - t[0]) / 1000 / k;
}

/** Reads buffer b (u32) back. */
async function readBack(b, n) {
  const r = device.createBuffer({ size: 4 * n, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  const enc = device.createCommandEncoder();
  enc.copyBufferToBuffer(b, 0, r, 0, 4 * n);
  device.queue.submit([enc.finish()]);
  await r.mapAsync(GPUMapMode.READ);
  const out = new Uint32Array(r.getMappedRange().slice(0));
  r.unmap();
  return out;
}

if (check) {
  // one dispatch of each counting kernel from zeroed counts: every cell's slots are 0..n-1, each once
  for (const name of ['atomic', 'aggregated']) {
    const p = pipelineOf(name);
    if (!p) { console.log(name, 'not run (no subgroups, or more than 32 lanes)'); continue; }
    device.queue.writeBuffer(counts, 0, new Uint32Array(cells));
    const enc = device.createCommandEncoder();
    const pass = enc.beginComputePass();
    pass.setPipeline(p.pipeline); pass.setBindGroup(0, p.group); pass.dispatchWorkgroups(gx, gy); pass.end();
    device.queue.submit([enc.finish()]);
    const got = await readBack(slot, N);
    const n = await readBack(counts, cells);
    const seen = new Map();
    let bad = 0;
    for (let i = 0; i < N; i++) {
      const c = newCell[i];
      const s = got[i];
      const key = c * 4096 + s;
      if (s >= n[c] || seen.has(key)) bad++;
      seen.set(key, 1);
    }
    let total = 0;
    for (let c = 0; c < cells; c++) total += n[c];
    console.log(name, bad === 0 && total === N ? 'slots ok' : `BAD: ${bad} wrong slots, ${total} counted of ${N}`);
    if (bad !== 0 || total !== N) process.exitCode = 1;
  }
}
// the clocks up first: half a second of the stream kernel
{
  const p = pipelineOf('stream');
  const t0 = performance.now();
  while (performance.now() - t0 < 500) await time(p, K);
}
const bytes = { copy7: 56, stream: 60, atomic: 64, aggregated: 64, gather7: 60, scatter7: 60, gather2v4: 68 };
for (const name of Object.keys(kernels)) {
  const p = pipelineOf(name);
  if (!p) { console.log(`${name.padEnd(11)} not run`); continue; }
  await time(p, 2);
  const us = await time(p, K);
  console.log(`${name.padEnd(11)} ${us.toFixed(1).padStart(8)} µs  ${(bytes[name] * N / us / 1e3).toFixed(0).padStart(5)} GB/s nominal  ${(1e6 * us / N).toFixed(2)} ps a particle`);
}
process.exit(process.exitCode ?? 0);
