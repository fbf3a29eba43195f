// What making a buffer costs on this adapter (issue 24: a re-split makes a rank's per-cell buffers, its grown migrant
// buffers and its staging anew): for several sizes, the host's milliseconds to create a storage buffer, one created
// mapped with data copied in (makeBufferWith), a map-read and a map-write staging buffer, and to destroy each; then
// the GPU's first use of a fresh storage buffer (a pass that writes one word of it: Dawn clears it first) against a
// used one, wall clock to onSubmittedWorkDone.
// Usage: node bench/buffer-cost.mjs [MB ...]   (default 10 100 750)
import { openGpu } from '../out/src-main/solver/gpu/device.js';

const sizes = (process.argv.slice(2).length ? process.argv.slice(2) : ['10', '100', '750']).map((s) => Math.round(Number(s) * 1e6 / 16) * 16);
const gpu = await openGpu();
const { device } = gpu;
console.log('adapter', gpu.adapter.description);
const STORAGE = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC;
const code = `@group(0) @binding(0) var<storage, read_write> a: array<u32>;
@compute @workgroup_size(1) fn one() { a[0] = a[0] + 1u; }`;
const pipeline = device.createComputePipeline({ layout: 'auto', compute: { module: device.createShaderModule({ code }), entryPoint: 'one' } });

/** Milliseconds of f() on the host. */
function ms(f) {
  const t = performance.now();
  const out = f();
  return [performance.now() - t, out];
}

/** Wall milliseconds until a one-word pass over buf is done on the GPU. */
async function firstUse(buf) {
  const t = performance.now();
  const enc = device.createCommandEncoder();
  const pass = enc.beginComputePass();
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, device.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries: [{ binding: 0, resource: { buffer: buf } }] }));
  pass.dispatchWorkgroups(1);
  pass.end();
  device.queue.submit([enc.finish()]);
  await device.queue.onSubmittedWorkDone();
  return performance.now() - t;
}

const fmt = (x) => x.toFixed(1).padStart(7);
for (let round = 0; round < 2; round++) {
  for (const bytes of sizes) {
    const mb = (bytes / 1e6).toFixed(0);
    const [tStorage, storage] = ms(() => device.createBuffer({ size: bytes, usage: STORAGE }));
    const tFirst = await firstUse(storage);
    const tAgain = await firstUse(storage);
    const data = new Uint8Array(bytes);
    const [tWith, withData] = ms(() => {
      const b = device.createBuffer({ size: bytes, usage: STORAGE, mappedAtCreation: true });
      new Uint8Array(b.getMappedRange()).set(data);
      b.unmap();
      return b;
    });
    const [tRead, read] = ms(() => device.createBuffer({ size: bytes, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST }));
    const [tWrite, write] = ms(() => device.createBuffer({ size: bytes, usage: GPUBufferUsage.MAP_WRITE | GPUBufferUsage.COPY_SRC }));
    const tMap = performance.now();
    await write.mapAsync(GPUMapMode.WRITE);
    const mapMs = performance.now() - tMap;
    write.unmap();
    const [tWriteBuffer] = ms(() => device.queue.writeBuffer(storage, 0, data));
    await device.queue.onSubmittedWorkDone();
    const [tDestroy] = ms(() => { for (const b of [storage, withData, read, write]) b.destroy(); });
    console.log(`round ${round} ${mb.padStart(5)} MB: storage create ${fmt(tStorage)} first use ${fmt(tFirst)} again ${fmt(tAgain)} | mapped with data ${fmt(tWith)} | map-read staging ${fmt(tRead)} | map-write staging ${fmt(tWrite)} first map ${fmt(mapMs)} | queue.writeBuffer ${fmt(tWriteBuffer)} | destroy all 4 ${fmt(tDestroy)} ms`);
  }
}
// what destroying a buffer costs the next submit (the driver frees it then): an empty submit after destroying a used
// buffer of each kind, against one after destroying nothing
async function emptySubmit() {
  const t = performance.now();
  device.queue.submit([device.createCommandEncoder().finish()]);
  await device.queue.onSubmittedWorkDone();
  return performance.now() - t;
}
for (const bytes of sizes) {
  const mb = (bytes / 1e6).toFixed(0);
  const base = await emptySubmit();
  const storage = device.createBuffer({ size: bytes, usage: STORAGE });
  await firstUse(storage);
  const [tStorage] = ms(() => storage.destroy());
  const afterStorage = await emptySubmit();
  const read = device.createBuffer({ size: bytes, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  await read.mapAsync(GPUMapMode.READ);
  read.unmap();
  const [tRead] = ms(() => read.destroy());
  const afterRead = await emptySubmit();
  const write = device.createBuffer({ size: bytes, usage: GPUBufferUsage.MAP_WRITE | GPUBufferUsage.COPY_SRC, mappedAtCreation: true });
  write.unmap();
  const [tWrite] = ms(() => write.destroy());
  const afterWrite = await emptySubmit();
  console.log(`destroy ${mb.padStart(5)} MB: empty submit ${fmt(base)} | storage destroy ${fmt(tStorage)} next submit ${fmt(afterStorage)} | map-read destroy ${fmt(tRead)} next submit ${fmt(afterRead)} | map-write destroy ${fmt(tWrite)} next submit ${fmt(afterWrite)} ms`);
}
device.destroy();
