// count-subgroup.wgsl: move_particles and move_rotating counting their particles one atomic per run of equal cells in a subgroup. The
// particles lie sorted by cell, so most neighbouring invocations count in the same cell: on one H200 an atomic a
// particle cost about 10 ps a particle (126M particles: 1.3 ms a step), one a run about 3.5 (bench/move-probe.mjs).
// Each invocation's slot is the run's base (its first invocation's atomic, shared by a shuffle) plus its place in the
// run: every cell's particles get the slots 0..n-1 once each, as with an atomic each (the sort orders them by key,
// not by slot, so the fields are the same). Compiled with move.wgsl when the device has subgroups.
enable subgroups;
// count_moved's subgroup operations run in control flow uniform in the workgroup (the loops of move_particles_loop and
// move_rotating_loop, whose bounds every invocation reads alike), which the uniformity analysis cannot prove
diagnostic(off, subgroup_uniformity);

// This invocation's lane in its subgroup, and the subgroup's size (set by the entry points).
var<private> lane: u32;
var<private> lanes: u32;

// The bits of a 32-bit word at and below bit b.
fn bits_up_to(b: u32) -> u32 {
  return select((2u << b) - 1u, 0xffffffffu, b == 31u);
}

// Whether lane l's bit is set in a ballot.
fn lane_in(ballot: vec4<u32>, l: u32) -> bool {
  return ((ballot[l >> 5u] >> (l & 31u)) & 1u) == 1u;
}

// The first lane of this lane's run: the highest set bit of `heads` (one bit a lane, 128 at most) at or below `lane`.
fn run_first(heads: vec4<u32>) -> u32 {
  var w = lane >> 5u;
  var bits = heads[w] & bits_up_to(lane & 31u);
  // lane 0 always heads a run, so the loop ends
  while (bits == 0u && w > 0u) {
    w -= 1u;
    bits = heads[w];
  }
  return 32u * w + firstLeadingBit(bits);
}

// The end of this lane's run: the lowest set bit of `heads` (with the lanes that take no part) above `lane`, or the
// subgroup's size.
fn run_end(heads: vec4<u32>) -> u32 {
  var w = lane >> 5u;
  var bits = heads[w] & ~bits_up_to(lane & 31u);
  while (bits == 0u) {
    w += 1u;
    if (32u * w >= lanes) { return lanes; }
    bits = heads[w];
  }
  return 32u * w + firstTrailingBit(bits);
}

// Counts particle i in local cell c (NO_COUNT: nothing to count) with the other lanes of its subgroup; every
// invocation of the subgroup calls it.
fn count_moved(i: u32, c: u32) {
  // a subgroup the workgroup leaves partly empty (a size that does not divide it) has lanes that take no part: a run
  // begins after one and ends before one
  let live = subgroupBallot(true);
  let before = subgroupShuffleUp(c, 1u);
  let first = lane == 0u || !lane_in(live, lane - 1u) || before != c;
  let heads = subgroupBallot(first);
  let start = run_first(heads);
  var base = 0u;
  if (first && c != NO_COUNT) { base = atomicAdd(&counts[c], run_end(heads | ~live) - lane); }
  let runBase = subgroupShuffle(base, start);
  if (c != NO_COUNT) { slot[i] = runBase + lane - start; }
}

// Emits particle i (bound for rank dest, NO_DEST for none; cell word w, order key `key`) into its owner's segment by
// subgroup, one destination at a time (the smallest left): each one's place is the number of lanes bound there below
// it (an exclusive subgroup sum), and the first of them reserves the subgroup's range with one atomicAdd, its base
// shared by a subgroup maximum. No workgroup barrier: a subgroup without a migrant (nearly every one of an early move,
// whose particles lie inside the rank's box) leaves after one subgroupMin. Records keep the particles' order within a
// subgroup; the receiver orders arrivals by their keys, not by their place in the segment, so the fields are the
// same as by workgroup (move.wgsl: emit_migrants). Returns the record's slot in the segment, NO_DEST when none.
// Every invocation of the subgroup calls it.
fn emit_migrant(i: u32, dest: u32, li: u32, w: u32, key: vec2<u32>) -> u32 {
  var left = dest;
  var at = NO_DEST;
  loop {
    let d = subgroupMin(left);
    if (d == NO_DEST) { break; }
    let mine = left == d;
    let one = select(0u, 1u, mine);
    let before = subgroupExclusiveAdd(one);
    let total = subgroupAdd(one);
    var base = 0u;
    if (mine && before == 0u) { base = atomicAdd(&migCounts[d], total); }
    base = subgroupMax(base);
    if (mine) {
      write_migrant(i, d, base + before, w, key);
      at = base + before;
      left = NO_DEST;
    }
  }
  return at;
}

// Notes this invocation's lane and its subgroup's size, and leaves the moved particles' counts to count_moved.
fn defer_counts(l: u32, size: u32) {
  lane = l;
  lanes = size;
  deferCounts = true;
}

@compute @workgroup_size(WG_SIZE)
fn move_particles(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                  @builtin(local_invocation_index) li: u32, @builtin(subgroup_invocation_id) l: u32,
                  @builtin(subgroup_size) size: u32) {
  defer_counts(l, size);
  move_particles_loop(wg, nwg, li);
}

@compute @workgroup_size(WG_SIZE)
fn move_rotating(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                 @builtin(local_invocation_index) li: u32, @builtin(subgroup_invocation_id) l: u32,
                 @builtin(subgroup_size) size: u32) {
  defer_counts(l, size);
  move_rotating_loop(wg, nwg, li);
}
