// coarse-counts.wgsl: a rank's particle counts, and the sums of their squares, over the blocks of the coarse grid a
// rebalance check's first round gathers (src-main/cluster/decomposition/coarse-grid.ts; phases/coarse-counts.ts). One
// invocation per local cell (x fastest within the rank's box, the order of the per-cell counts): its count n added to
// its block's with one atomic add, and n^2 (a cell's sort and collide work grow with it: balancing by time,
// src-main/cluster/orchestrator/rank-cost.ts) to the block's 64-bit sum with two (low word, carry into the high word).
// Integers: exact (squares modulo 2^64), and independent of the order of the adds (the host's coarseCountsOf and
// coarseSquaresOf give the same sums). The host clears the blocks before the dispatch.

// the per-cell counts of the last sort (SimState.lastCounts), local order
@group(0) @binding(1) var<storage, read> cellCounts: array<u32>;
// three words per block of the whole coarse grid (blocks outside this rank's box stay 0), in three planes of
// coarse[9] words each: the counts, then the low and the high words of the sums of squares
@group(0) @binding(2) var<storage, read_write> blocks: array<atomic<u32>>;
// the box's lo x, y, z; its cells along x, y; cells per block side; blocks along x, y; local cells; blocks in all
@group(0) @binding(3) var<storage, read> coarse: array<u32, 10>;

// n^2 as (low, high) words, exact for any u32 n: n = a 2^16 + b, n^2 = a^2 2^32 + a b 2^17 + b^2.
fn square64(n: u32) -> vec2<u32> {
  let a = n >> 16u;
  let b = n & 0xffffu;
  let m = a * b;
  let lo = b * b + (m << 17u);
  let carry = select(0u, 1u, lo < (m << 17u));
  return vec2<u32>(lo, a * a + (m >> 15u) + carry);
}

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
  let k = x / b + coarse[6] * (y / b + coarse[7] * (z / b));
  atomicAdd(&blocks[k], n);
  let sq = square64(n);
  let old = atomicAdd(&blocks[coarse[9] + k], sq.x);
  let carry = select(0u, 1u, old + sq.x < old);
  if (sq.y + carry != 0u) { atomicAdd(&blocks[2u * coarse[9] + k], sq.y + carry); }
}
