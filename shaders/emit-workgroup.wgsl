// emit-workgroup.wgsl: the migrants' stream compaction (emit_migrants, move.wgsl) on a device without subgroup
// operations: a bit mask and a leader in workgroup memory, three workgroup barriers a round. Loaded where a pipeline
// names the module emit.wgsl (shader-source.ts EMIT_MODULE); emit-subgroup.wgsl is the same with subgroup operations.

// Words of the workgroup's bit mask (one bit per invocation).
override MASK_WORDS: u32 = (WG_SIZE + 31u) / 32u;

// Stream compaction of a workgroup's migrants (emit_migrants).
var<workgroup> wgMask: array<atomic<u32>, MASK_WORDS>;
var<workgroup> wgLeader: atomic<u32>;
var<workgroup> wgDest: u32;
var<workgroup> wgBase: u32;

// Scan-based stream compaction of this workgroup's migrants (invocation li holds particle i bound for rank
// dest, NO_DEST for none, with its cell word w and order key) into their owners' segments, one destination at a
// time (the smallest left): the invocations bound there set their bit of a workgroup mask, each one's place is the
// number of bits below its own (a prefix popcount: the ballot scan of CUDA's warp-aggregated compaction, here
// over the workgroup), and one atomicAdd per workgroup and destination reserves the range in the segment. Within
// a workgroup the records keep the particles' order; a workgroup with no migrant leaves after one round. Returns
// the slot of particle i's record in its destination's segment (NO_DEST when it emitted none).
// Call in uniform control flow (every invocation of the workgroup, in bounds or not).
fn emit_migrants(i: u32, dest: u32, li: u32, w: u32, key: vec2<u32>) -> u32 {
  var left = dest;
  var at = NO_DEST;
  loop {
    if (li == 0u) { atomicStore(&wgLeader, NO_DEST); }
    if (li < MASK_WORDS) { atomicStore(&wgMask[li], 0u); }
    workgroupBarrier();
    if (left != NO_DEST) { atomicMin(&wgLeader, left); }
    workgroupBarrier();
    if (li == 0u) { wgDest = atomicLoad(&wgLeader); }
    let d = workgroupUniformLoad(&wgDest);
    if (d == NO_DEST) { break; }
    let mine = left == d;
    let word = li / 32u;
    let bit = 1u << (li % 32u);
    if (mine) { atomicOr(&wgMask[word], bit); }
    workgroupBarrier();
    var before = countOneBits(atomicLoad(&wgMask[word]) & (bit - 1u));
    var total = 0u;
    for (var w = 0u; w < MASK_WORDS; w++) {
      let n = countOneBits(atomicLoad(&wgMask[w]));
      total += n;
      if (w < word) { before += n; }
    }
    if (li == 0u) { wgBase = atomicAdd(&migCounts[d], total); }
    let base = workgroupUniformLoad(&wgBase);
    if (mine) {
      write_migrant(i, d, base + before, w, key);
      at = base + before;
      left = NO_DEST;
    }
  }
  return at;
}

