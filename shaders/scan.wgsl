// scan.wgsl: exclusive prefix sum of u32 values, in blocks of SCAN_PER_THREAD*WG_SIZE per workgroup (16 per
// invocation where the device gives the workgroup memory, else 8). prefix-scan.ts chains the levels: scan_blocks on
// the data, recursively on the block sums, then add_offsets back down.
// A block goes through workgroup memory, so that every load and store of the data is coalesced (invocation li takes
// values li, li + WG_SIZE, ...), while each invocation scans SCAN_PER_THREAD consecutive values serially there (one
// spare word every 32 keeps those reads on different banks); the invocations' totals are scanned in groups of 16 and
// the group totals by one invocation: four barriers a block.

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

// Values per invocation (prefix-scan.ts sets it from the device's workgroup memory).
override SCAN_PER_THREAD: u32 = 16u;
// Values per block.
override SCAN_BLOCK: u32 = SCAN_PER_THREAD * WG_SIZE;
// Words of the block in workgroup memory, one spare word every 32.
override SCAN_DATA: u32 = SCAN_BLOCK + SCAN_BLOCK / 32u;
// Invocations per group of the totals' scan, and groups (WG_SIZE a multiple of 16).
const GROUP: u32 = 16u;
override SCAN_GROUPS: u32 = WG_SIZE / GROUP;

var<workgroup> data: array<u32, SCAN_DATA>;
// the invocations' totals, then the groups'
var<workgroup> totals: array<u32, WG_SIZE + SCAN_GROUPS>;

// Flat workgroup index of a 1D-or-2D dispatch.
fn block_index(wg: vec3<u32>, nwg: vec3<u32>) -> u32 {
  return wg.y * nwg.x + wg.x;
}

// Place of the block's value i in workgroup memory (one spare word after every 32).
fn padded(i: u32) -> u32 {
  return i + (i >> 5u);
}

// Exclusive scan of each block of SCAN_BLOCK values into dst; the block's total into blockSums.
@compute @workgroup_size(WG_SIZE)
fn scan_blocks(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
               @builtin(local_invocation_index) li: u32) {
  let block = block_index(wg, nwg);
  let base = block * SCAN_BLOCK;
  for (var k = 0u; k < SCAN_PER_THREAD; k++) {
    let i = k * WG_SIZE + li;
    var x = 0u;
    if (base + i < sp.n) { x = src[base + i]; }
    data[padded(i)] = x;
  }
  workgroupBarrier();
  // this invocation's consecutive values: scanned in place, their total kept
  var run = 0u;
  for (var k = 0u; k < SCAN_PER_THREAD; k++) {
    let j = padded(li * SCAN_PER_THREAD + k);
    let x = data[j];
    data[j] = run;
    run = run + x;
  }
  totals[li] = run;
  workgroupBarrier();
  // the totals of each group of 16 invocations, scanned by its first
  if (li < SCAN_GROUPS) {
    var acc = 0u;
    for (var k = 0u; k < GROUP; k++) {
      let x = totals[li * GROUP + k];
      totals[li * GROUP + k] = acc;
      acc = acc + x;
    }
    totals[WG_SIZE + li] = acc;
  }
  workgroupBarrier();
  // the groups' totals, scanned by invocation 0; the block's total
  if (li == 0u) {
    var acc = 0u;
    for (var g = 0u; g < SCAN_GROUPS; g++) {
      let x = totals[WG_SIZE + g];
      totals[WG_SIZE + g] = acc;
      acc = acc + x;
    }
    // surplus workgroups of a 2D dispatch (more than 65535 blocks) must not store: WGSL lets an
    // out-of-bounds store land anywhere in the buffer, e.g. on the last real block's sum
    if (block < arrayLength(&blockSums)) { blockSums[block] = acc; }
  }
  workgroupBarrier();
  let before = totals[li] + totals[WG_SIZE + li / GROUP];
  for (var k = 0u; k < SCAN_PER_THREAD; k++) {
    let j = padded(li * SCAN_PER_THREAD + k);
    data[j] = data[j] + before;
  }
  workgroupBarrier();
  for (var k = 0u; k < SCAN_PER_THREAD; k++) {
    let i = k * WG_SIZE + li;
    if (base + i < sp.n) { dst[base + i] = data[padded(i)]; }
  }
}

// Adds each block's scanned offset to its values, completing a multi-block scan (coalesced, as scan_blocks loads).
@compute @workgroup_size(WG_SIZE)
fn add_offsets(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
               @builtin(local_invocation_index) li: u32) {
  let block = block_index(wg, nwg);
  let off = offsets[block];
  let base = block * SCAN_BLOCK;
  for (var k = 0u; k < SCAN_PER_THREAD; k++) {
    let idx = base + k * WG_SIZE + li;
    if (idx < sp.n) { dst[idx] = dst[idx] + off; }
  }
}
