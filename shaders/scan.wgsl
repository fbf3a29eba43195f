// scan.wgsl: exclusive prefix sum of u32 values, in blocks of PER_THREAD*WG_SIZE per workgroup
// (16 per invocation: ten million cells need two levels, so the scan is three dispatches).
// prefix-scan.ts chains the levels: scan_blocks on the data, recursively on the block sums,
// then add_offsets back down.

struct ScanParams {
  n: u32,
  pad0: u32,
  pad1: u32,
  pad2: u32,
}

@group(0) @binding(0) var<uniform> sp: ScanParams;
@group(0) @binding(1) var<storage, read> src: array<u32>;
@group(0) @binding(2) var<storage, read_write> dst: array<u32>;
@group(0) @binding(3) var<storage, read_write> blockSums: array<u32>;
@group(0) @binding(4) var<storage, read> offsets: array<u32>;

const PER_THREAD: u32 = 16u;

var<workgroup> tile: array<u32, 1024>;

// Flat workgroup index of a 1D-or-2D dispatch.
fn block_index(wg: vec3<u32>, nwg: vec3<u32>) -> u32 {
  return wg.y * nwg.x + wg.x;
}

// Exclusive scan of each block of PER_THREAD*WG_SIZE values into dst; the block's total into blockSums.
@compute @workgroup_size(WG_SIZE)
fn scan_blocks(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
               @builtin(local_invocation_index) li: u32) {
  let block = block_index(wg, nwg);
  let base = block * PER_THREAD * WG_SIZE + li * PER_THREAD;
  // each invocation scans its PER_THREAD values serially
  var v: array<u32, PER_THREAD>;
  var run = 0u;
  for (var k = 0u; k < PER_THREAD; k++) {
    let idx = base + k;
    var x = 0u;
    if (idx < sp.n) { x = src[idx]; }
    v[k] = run;
    run = run + x;
  }
  tile[li] = run;
  workgroupBarrier();
  // Hillis-Steele inclusive scan of the per-invocation totals
  for (var off = 1u; off < WG_SIZE; off = off * 2u) {
    var add = 0u;
    if (li >= off) { add = tile[li - off]; }
    workgroupBarrier();
    tile[li] = tile[li] + add;
    workgroupBarrier();
  }
  let before = tile[li] - run;
  for (var k = 0u; k < PER_THREAD; k++) {
    let idx = base + k;
    if (idx < sp.n) { dst[idx] = before + v[k]; }
  }
  // surplus workgroups of a 2D dispatch (more than 65535 blocks) must not store: WGSL lets an
  // out-of-bounds store land anywhere in the buffer, e.g. on the last real block's sum
  if (li == WG_SIZE - 1u && block < arrayLength(&blockSums)) { blockSums[block] = tile[li]; }
}

// Adds each block's scanned offset to its values, completing a multi-block scan.
@compute @workgroup_size(WG_SIZE)
fn add_offsets(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
               @builtin(local_invocation_index) li: u32) {
  let block = block_index(wg, nwg);
  let off = offsets[block];
  let base = block * PER_THREAD * WG_SIZE + li * PER_THREAD;
  for (var k = 0u; k < PER_THREAD; k++) {
    let idx = base + k;
    if (idx < sp.n) { dst[idx] = dst[idx] + off; }
  }
}
