// coarse-counts.wgsl: a rank's particle counts summed over the blocks of the coarse grid a rebalance check's first
// round gathers (src-main/cluster/decomposition/coarse-grid.ts; phases/coarse-counts.ts). One invocation per local cell
// (x fastest within the rank's box, the order of the per-cell counts): its count added to its block's with one atomic
// add. Integers: exact, and independent of the order of the adds (the host's coarseCountsOf gives the same sums). The
// host clears the blocks before the dispatch.

// the per-cell counts of the last sort (SimState.lastCounts), local order
@group(0) @binding(1) var<storage, read> cellCounts: array<u32>;
// one count per block of the whole coarse grid (blocks outside this rank's box stay 0)
@group(0) @binding(2) var<storage, read_write> blocks: array<atomic<u32>>;
// the box's lo x, y, z; its cells along x, y; cells per block side; blocks along x, y; local cells
@group(0) @binding(3) var<storage, read> coarse: array<u32, 9>;

@compute @workgroup_size(256)
fn coarse_counts(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                 @builtin(local_invocation_index) li: u32) {
  let i = (wg.y * nwg.x + wg.x) * 256u + li;
  if (i >= coarse[8]) { return; }
  let n = cellCounts[i];
  if (n == 0u) { return; }
  let sx = coarse[3];
  let sy = coarse[4];
  let x = coarse[0] + i % sx;
  let y = coarse[1] + (i / sx) % sy;
  let z = coarse[2] + i / (sx * sy);
  let b = coarse[5];
  atomicAdd(&blocks[x / b + coarse[6] * (y / b + coarse[7] * (z / b))], n);
}
