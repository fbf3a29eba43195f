// emit-subgroup.wgsl: the migrants' stream compaction (emit_migrants, move.wgsl) with subgroup operations, on a device
// that has them (Gpu.subgroups; the source then starts with `enable subgroups;`): no workgroup memory and no barriers.
// Loaded where a pipeline names the module emit.wgsl (shader-source.ts EMIT_MODULE); emit-workgroup.wgsl is the same
// with workgroup barriers.

// Stream compaction of this subgroup's migrants (invocation li holds particle i bound for rank dest, NO_DEST for none,
// with its cell word w and order key) into their owners' segments, one destination at a time (the smallest left, the
// same for the whole subgroup): each invocation bound there takes the count of those below it (an exclusive prefix
// sum over the subgroup), the first of them reserves the subgroup's range with one atomicAdd and the others read its
// base (a subgroup maximum: every other invocation offers 0). Within a subgroup the records keep the particles' order;
// a subgroup with no migrant leaves after one subgroupMin. The order of records in a segment never matters: the
// receiving rank orders arrivals by their keys. Returns the slot of particle i's record in its destination's segment
// (NO_DEST when it emitted none). Call with every invocation of the subgroup (in bounds or not), as the workgroup
// version needs every invocation of the workgroup; `li` is unused here.
fn emit_migrants(i: u32, dest: u32, li: u32, w: u32, key: vec2<u32>) -> u32 {
  var left = dest;
  var at = NO_DEST;
  loop {
    let d = subgroupMin(left);
    if (d == NO_DEST) { break; }
    let mine = left == d;
    let one = select(0u, 1u, mine);
    let before = subgroupExclusiveAdd(one);
    let total = subgroupAdd(one);
    var reserved = 0u;
    if (mine && before == 0u) { reserved = atomicAdd(&migCounts[d], total); }
    let base = subgroupMax(reserved);
    if (mine) {
      write_migrant(i, d, base + before, w, key);
      at = base + before;
      left = NO_DEST;
    }
  }
  return at;
}
