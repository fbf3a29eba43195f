// move.wgsl: the move phase. Each live particle flies for dt through the box (advance.wgsl), meets
// the face boundary conditions, gets its new cell word (INVALID_CELL once it left) and is counted in
// its new cell; its arrival slot there goes to `slot` (the sort's scratch, see sort.wgsl).
// In a multi-rank run (MULTI_RANK) the new cell word goes to `moved` (the set's moved-cell array) and `cell` keeps
// the word the particle had before the move: the sort orders a moved particle by that old cell and its index
// (sort.wgsl: place_ranked), so that no order key is written for it. A particle that lands in a cell another rank
// owns is a migrant: it is not counted here, and a copy goes to its owner's segment of the migrant buffer by a
// stream compaction per subgroup where the device has subgroups, per workgroup otherwise (emit_migrant in the count
// module; emit_migrants here), with its key (old global cell, rank in that cell); its
// rank goes to its `slot`, should collect_all emit it again. The host sends the segments, the receiving rank appends
// them with append_arrivals, which writes the arrivals' keys (as inject.wgsl does for injected particles).

// Which live particles a move dispatch takes (a rank of several may move a step in two parts, so that the
// GPU has work while the host exchanges the step before's migrants): 0 all of [0, N) for step CTL_STEP;
// 1 the interior part [0, N_INTERIOR) of the set the step before's interior pass just sorted and collided,
// for the next step (CTL_STEP + 1; begin_step has not run yet); 2 the rest [N_INTERIOR_BEFORE, N) once
// begin_step has. Each particle's flight depends only on itself, so the parts give what one dispatch gives.
override MOVE_PART: u32 = 0u;

// The step a move dispatch computes.
fn move_step() -> u32 {
  if (MOVE_PART == 1u) { return ctl[CTL_STEP] + 1u; }
  return ctl[CTL_STEP];
}

// The first particle and the end of the range a move dispatch takes (MOVE_PART).
fn move_range() -> vec2<u32> {
  if (MOVE_PART == 1u) { return vec2<u32>(0u, ctl[CTL_N_INTERIOR]); }
  if (MOVE_PART == 2u) { return vec2<u32>(ctl[CTL_N_INTERIOR_BEFORE], ctl[CTL_N]); }
  return vec2<u32>(0u, ctl[CTL_N]);
}

// Largest world size (ranks) the owner lookup holds (MAX_RANKS in src-main/solver/subdomain.ts).
const MAX_RANKS: u32 = 256u;

// Every rank's box [lo, hi) (the owner lookup of migrants); unused entries are empty.
struct Boxes {
  lo: array<vec4<u32>, MAX_RANKS>,
  hi: array<vec4<u32>, MAX_RANKS>,
}

@group(0) @binding(0) var<uniform> params: SimParams;
@group(0) @binding(1) var<storage, read> ctl: array<u32>;
@group(0) @binding(2) var<uniform> faces: array<FaceInfo, 6>;
@group(0) @binding(3) var<uniform> faceSpecies: array<FaceSpecies, 96>;
@group(0) @binding(4) var<storage, read_write> px: array<f32>;
@group(0) @binding(5) var<storage, read_write> py: array<f32>;
@group(0) @binding(6) var<storage, read_write> pz: array<f32>;
@group(0) @binding(7) var<storage, read_write> vx: array<f32>;
@group(0) @binding(8) var<storage, read_write> vy: array<f32>;
@group(0) @binding(9) var<storage, read_write> vz: array<f32>;
// the cell words before the move (one rank: the move writes the new ones here too)
@group(0) @binding(10) var<storage, read_write> cell: array<u32>;
@group(0) @binding(11) var<storage, read_write> counts: array<atomic<u32>>;
@group(0) @binding(12) var<storage, read_write> slot: array<u32>;
// cell starts of the step before (the particles are still in that order): a particle's rank in its cell
@group(0) @binding(13) var<storage, read> starts: array<u32>;
// multi-rank only: in-cell order keys (injected, arrived and relaid-out particles; collect_all reads them), the
// migrant buffer (one segment per destination rank), the migrants per destination (entry worldSize counts misrouted
// arrivals), every rank's box, arrivals
@group(0) @binding(14) var<storage, read_write> keys: array<vec2<u32>>;
@group(0) @binding(15) var<storage, read_write> migOut: array<u32>;
@group(0) @binding(16) var<storage, read_write> migCounts: array<atomic<u32>>;
@group(0) @binding(17) var<uniform> boxes: Boxes;
@group(0) @binding(18) var<storage, read> arrivals: array<u32>;
// internal energy per particle, INTERNAL_WORDS words (rotational, vibrational; J; a stub unless HAS_ROTATION)
@group(0) @binding(19) var<storage, read_write> eint: array<f32>;
// multi-rank only: the cell words after the move (what the sort reads; a stub on one rank)
@group(0) @binding(20) var<storage, read_write> moved: array<u32>;

// Writes particle i's cell word after the move: to `moved` on several ranks, in place on one.
fn set_moved_cell(i: u32, w: u32) {
  if (MULTI_RANK) {
    moved[i] = w;
  } else {
    cell[i] = w;
  }
}

// The rank whose box holds cell coordinates v.
fn owner_of(v: vec3<u32>) -> u32 {
  for (var r = 0u; r < params.worldSize; r++) {
    if (all(v >= boxes.lo[r].xyz) && all(v < boxes.hi[r].xyz)) { return r; }
  }
  return params.worldSize;
}

// No destination: the invocation holds no migrant (or has emitted it already).
const NO_DEST: u32 = 0xffffffffu;
// Words of the workgroup's bit mask (one bit per invocation).
override MASK_WORDS: u32 = (WG_SIZE + 31u) / 32u;

// Stream compaction of a workgroup's migrants (emit_migrants).
var<workgroup> wgMask: array<atomic<u32>, MASK_WORDS>;
var<workgroup> wgLeader: atomic<u32>;
var<workgroup> wgDest: u32;
var<workgroup> wgBase: u32;

// Copies particle i's internal energy words into its record in slot k of rank dest's segment (after write_migrant;
// kernels that bind eint only: the multi-rank move stays within 16 storage buffers without it).
fn write_migrant_internal(i: u32, dest: u32, k: u32) {
  if (dest >= params.worldSize || k >= params.segCap) { return; }
  let o = (dest * params.segCap + k) * MIGRANT_WORDS + MIGRANT_INTERNAL;
  for (var w = 0u; w < INTERNAL_WORDS; w++) { migOut[o + w] = bitcast<u32>(eint[i * INTERNAL_WORDS + w]); }
}

// Copies particle i (cell word w after the move, order key `key`) into slot k of rank dest's segment of the migrant
// buffer. A full segment only counts: the particle stays in place (valid cell word, not counted here), the host sees
// the count above the segment capacity, grows the buffer and collects again (collect_all). Misrouted
// (dest == worldSize): counted only.
fn write_migrant(i: u32, dest: u32, k: u32, w: u32, key: vec2<u32>) {
  if (dest >= params.worldSize || k >= params.segCap) { return; }
  let o = (dest * params.segCap + k) * MIGRANT_WORDS;
  migOut[o] = bitcast<u32>(px[i]);
  migOut[o + 1u] = bitcast<u32>(py[i]);
  migOut[o + 2u] = bitcast<u32>(pz[i]);
  migOut[o + 3u] = bitcast<u32>(vx[i]);
  migOut[o + 4u] = bitcast<u32>(vy[i]);
  migOut[o + 5u] = bitcast<u32>(vz[i]);
  migOut[o + 6u] = w;
  migOut[o + 7u] = key.x;
  migOut[o + 8u] = key.y;
}

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

// emit_migrant (the count module's: by subgroup where there are subgroups), with each record's internal energy words
// when a species rotates.
fn emit_with_internal(i: u32, dest: u32, li: u32, w: u32, key: vec2<u32>) {
  let at = emit_migrant(i, dest, li, w, key);
  if (HAS_ROTATION && at != NO_DEST) { write_migrant_internal(i, dest, at); }
}

// No cell to count in (an invocation past the live particles, or a particle that left or migrates).
const NO_COUNT: u32 = 0xffffffffu;

// Whether move_one leaves its particle's count to move_particles (count_moved in the count module: count-subgroup.wgsl
// takes one atomic per run of equal cells in a subgroup), which its entry point sets; otherwise each particle counts
// itself with an atomic of its own.
var<private> deferCounts: bool = false;
// The local cell the particle move_one just moved is to be counted in (deferCounts), else NO_COUNT.
var<private> deferredCell: u32 = NO_COUNT;

// Counts particle i in local cell c (its arrival slot there goes to `slot`), or leaves that to count_moved.
fn count_in(i: u32, c: u32) {
  if (deferCounts) {
    deferredCell = c;
  } else {
    slot[i] = atomicAdd(&counts[c], 1u);
  }
}

// Counts particle i in its new cell g (at coordinates v) here and returns NO_DEST, or returns the rank
// that owns that cell (the particle migrates there; its slot keeps `rank`, its rank in its old cell, the second
// word of its key, for collect_all).
fn place(i: u32, g: u32, v: vec3<u32>, rank: u32) -> u32 {
  if (owns_coords(v, params)) {
    count_in(i, local_of_coords(v, params));
    return NO_DEST;
  }
  slot[i] = rank;
  return owner_of(v);
}

// The step before's products (REACTIONS): per product (parent, rank in its cell, last index of its cell, 0).
@group(0) @binding(60) var<storage, read> productInfo: array<vec4<u32>>;

// The rank of product i (one of the last ctl[CTL_PRODUCTS] of the `end` live particles, made in `step`) in the cell it
// was made in, or 0xffffffff when particle i is not one of them.
fn product_rank(i: u32, end: u32, step: u32) -> u32 {
  let first = end - min(ctl[CTL_PRODUCTS], end);
  if (i < first || i >= end) { return 0xffffffffu; }
  return productInfo[product_final(step, arrayLength(&productInfo)) + i - first].y;
}

// The rank of live particle i in its cell when it is a product of the step before (REACTIONS: the rank the collisions
// gave it, the same on any number of ranks), else 0xffffffff. The early part of a move (MOVE_PART 1) takes only
// particles the interior pass sorted, none of them a product. Reacting gases move with move_rotating (a reacting case
// has a molecule): move_particles stays within 16 storage buffers without productInfo.
fn moved_product_rank(i: u32) -> u32 {
  if (!REACTIONS || MOVE_PART == 1u) { return 0xffffffffu; }
  return product_rank(i, ctl[CTL_N_MOVED], move_step() - 1u);
}

// What moving one particle gives: the rank it migrates to (or NO_DEST), its internal energy afterwards, its cell
// word after the move and its order key (old global cell, rank in that cell).
struct Moved {
  dest: u32,
  eint: vec2<f32>,
  word: u32,
  key: vec2<u32>,
}

// Advances live particle i (rotational and vibrational energy e), applies boundaries, re-indexes and counts it. Its random stream is
// keyed by (cell, rank in cell) at the start of the step: the same on any number of ranks. `cell` keeps its old
// word on several ranks (set_moved_cell).
fn move_one(i: u32, e: vec2<f32>, productRank: u32) -> Moved {
  let w = cell[i];
  let g0 = cell_part(w);
  let sp = species_part(w);
  // its rank in its cell: its place after the cell's start, or (a product of the step before) productRank
  var rank = productRank;
  if (rank == 0xffffffffu) { rank = i - starts[local_of_cell(g0, params)]; }
  let rid = vec2<u32>(g0, rank);
  let start = Flight(vec3<f32>(px[i], py[i], pz[i]), vec3<f32>(vx[i], vy[i], vz[i]), true, e);
  faceCopy = (i >> 5u) % FACE_COPIES;
  let f = fly(start, params.dt, sp, rid, move_step());
  if (!f.alive) {
    set_moved_cell(i, INVALID_CELL);
    return Moved(NO_DEST, vec2<f32>(0.0), INVALID_CELL, rid);
  }
  px[i] = f.pos.x;
  py[i] = f.pos.y;
  pz[i] = f.pos.z;
  vx[i] = f.vel.x;
  vy[i] = f.vel.y;
  vz[i] = f.vel.z;
  let v = cell_coords(f.pos, params);
  let c = cell_id(v, params);
  let word = cell_word(c, sp);
  set_moved_cell(i, word);
  if (!MULTI_RANK) {
    count_in(i, c);
    return Moved(NO_DEST, f.eint, word, rid);
  }
  return Moved(place(i, c, v, rid.y), f.eint, word, rid);
}

// The move range as every invocation of the workgroup sees it (uniform: loop bounds around emit_migrants' barriers).
var<workgroup> wgRange: vec2<u32>;

// One invocation per live particle: move_one, its count (count_moved), then (multi-rank) its migrants go to their
// segments (emit_migrant, in the count module: by workgroup, or by subgroup where there are subgroups). The entry point move_particles (in the count module: count-atomic.wgsl or count-subgroup.wgsl)
// calls this. The host dispatches for its bound on the live count (SimState.liveBound; the rest part for about as many
// as the step before's halo cells had), not the buffers' capacity, so that idle slots cost nothing; a grid-stride
// loop, uniform in each workgroup (emit_migrants has barriers, count_moved subgroup operations), takes any more.
fn move_particles_loop(wg: vec3<u32>, nwg: vec3<u32>, li: u32) {
  if (li == 0u) { wgRange = move_range(); }
  let range = workgroupUniformLoad(&wgRange);
  let first = range.x + flat_id(wg, nwg, 0u);
  move_particle(first + li, range.y, li);
  for (var more = first + grid_stride(nwg); more < range.y; more += grid_stride(nwg)) { move_particle(more + li, range.y, li); }
}

// move_particles for particle i (below `end`, or an idle invocation): every invocation of the workgroup takes part.
fn move_particle(i: u32, end: u32, li: u32) {
  var m = Moved(NO_DEST, vec2<f32>(0.0), 0u, vec2<u32>(0u));
  deferredCell = NO_COUNT;
  if (i < end) { m = move_one(i, vec2<f32>(0.0), 0xffffffffu); }
  count_moved(i, deferredCell);
  if (MULTI_RANK) { _ = emit_migrant(i, m.dest, li, m.word, m.key); }
}

// A rotating species: move_one carrying each particle's internal energy (diffuse walls renew it), then its count
// (count_moved). The entry point move_rotating (in the count module) calls this: an entry of its own, so that
// move_particles stays within 16 storage buffers (the limit of lavapipe and others); on several ranks the particles
// that landed in other ranks' cells keep their new cell word (and their rank in their old cell in their slot) and
// collect_all emits them afterwards. Dispatched for the host's bound on the live count: the grid-stride loop, whose
// rounds every invocation of the workgroup runs (count_moved's subgroup operations), takes any more.
fn move_rotating_loop(wg: vec3<u32>, nwg: vec3<u32>, li: u32) {
  let range = move_range();
  let stride = grid_stride(nwg);
  for (var first = range.x + flat_id(wg, nwg, 0u); first < range.y; first += stride) {
    let i = first + li;
    deferredCell = NO_COUNT;
    if (i < range.y) { move_rotating_one(i); }
    count_moved(i, deferredCell);
  }
}

// move_one for live particle i of a rotating species, its internal energy words read and written back.
fn move_rotating_one(i: u32) {
  let at = i * INTERNAL_WORDS;
  if (INTERNAL_WORDS > 1u) {
    let e = move_one(i, vec2<f32>(eint[at], eint[at + 1u]), moved_product_rank(i)).eint;
    eint[at] = e.x;
    eint[at + 1u] = e.y;
  } else {
    eint[at] = move_one(i, vec2<f32>(eint[at], 0.0), moved_product_rank(i)).eint.x;
  }
}

// The rank a particle with cell word w migrates to if it is live in a cell another rank owns, else NO_DEST.
fn collect(w: u32) -> u32 {
  if (w == INVALID_CELL) { return NO_DEST; }
  let v = coords_of_cell(cell_part(w), params);
  if (owns_coords(v, params)) { return NO_DEST; }
  return owner_of(v);
}

// The order key of migrant i: a moved one's is its old cell and the rank in it that the move left in its slot
// (place), an injected one's was written with it.
fn migrant_key(i: u32) -> vec2<u32> {
  if (i < ctl[CTL_N_MOVED]) { return vec2<u32>(cell_part(cell[i]), slot[i]); }
  return keys[i];
}

// Emits particle i (below `end`) if another rank owns its cell; every invocation of the workgroup takes part.
fn collect_below(i: u32, end: u32, li: u32) {
  var dest = NO_DEST;
  var w = INVALID_CELL;
  var key = vec2<u32>(0u);
  if (i < end) {
    w = moved[i];
    dest = collect(w);
    if (dest != NO_DEST) { key = migrant_key(i); }
  }
  emit_with_internal(i, dest, li, w, key);
}

// This step's injected particles (N_ALL - N), read once per workgroup so that its grid-stride loop stays uniform.
var<workgroup> wgInjected: u32;

// After injection: emits this step's injected particles that landed in another rank's cells. The host sizes the
// dispatch by its bound on a step's injection (an indirect dispatch costs a validation pass on Dawn, which held
// 4-rank steps by milliseconds); a grid-stride loop, uniform in each workgroup, covers any count.
@compute @workgroup_size(WG_SIZE)
fn collect_injected(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                    @builtin(local_invocation_index) li: u32) {
  if (li == 0u) { wgInjected = ctl[CTL_N_ALL] - ctl[CTL_N]; }
  let injected = workgroupUniformLoad(&wgInjected);
  let first = ctl[CTL_N];
  let stride = grid_stride(nwg);
  for (var base = flat_id(wg, nwg, 0u); base < injected; base += stride) {
    collect_below(first + base + li, first + injected, li);
  }
}

// The particles before N_ALL, read once per workgroup so that collect_all's grid-stride loop stays uniform.
var<workgroup> wgAll: u32;

// After a migrant segment overflowed (the host grew the buffer and cleared the counts): emits every
// particle that is not this rank's again. Also after move_rotating on several ranks: emits the moved migrants.
// Dispatched for the host's bound on the live count; the loop (uniform in each workgroup) takes any more.
@compute @workgroup_size(WG_SIZE)
fn collect_all(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
               @builtin(local_invocation_index) li: u32) {
  if (li == 0u) { wgAll = ctl[CTL_N_ALL]; }
  let end = workgroupUniformLoad(&wgAll);
  let stride = grid_stride(nwg);
  for (var base = flat_id(wg, nwg, 0u); base < end; base += stride) {
    collect_below(base + li, end, li);
  }
}

// Appends the particles that arrived from other ranks after the N_ALL particles here and counts them
// in their cells (control.wgsl:after_arrivals then adds them to N_ALL). The arrivals buffer holds their count (word 0)
// and, from word ARRIVALS_HEADER on, their records: the host uploads both in one copy.
@compute @workgroup_size(WG_SIZE)
fn append_arrivals(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                   @builtin(local_invocation_index) li: u32) {
  let k = flat_id(wg, nwg, li);
  if (k >= arrivals[0]) { return; }
  let i = ctl[CTL_N_ALL] + k;
  let o = ARRIVALS_HEADER + k * MIGRANT_WORDS;
  px[i] = bitcast<f32>(arrivals[o]);
  py[i] = bitcast<f32>(arrivals[o + 1u]);
  pz[i] = bitcast<f32>(arrivals[o + 2u]);
  vx[i] = bitcast<f32>(arrivals[o + 3u]);
  vy[i] = bitcast<f32>(arrivals[o + 4u]);
  vz[i] = bitcast<f32>(arrivals[o + 5u]);
  let w = arrivals[o + 6u];
  keys[i] = vec2<u32>(arrivals[o + 7u], arrivals[o + 8u]);
  if (HAS_ROTATION) {
    for (var x = 0u; x < INTERNAL_WORDS; x++) { eint[i * INTERNAL_WORDS + x] = bitcast<f32>(arrivals[o + MIGRANT_INTERNAL + x]); }
  }
  let v = coords_of_cell(cell_part(w), params);
  if (!owns_coords(v, params)) {
    // routed to the wrong rank: counted for the host to stop the run; never stored as live
    moved[i] = INVALID_CELL;
    atomicAdd(&migCounts[params.worldSize], 1u);
    return;
  }
  moved[i] = w;
  slot[i] = atomicAdd(&counts[local_of_coords(v, params)], 1u);
}

// Local id of global cell coordinates v in the box the per-cell arrays had before a rebalance (params.old*).
fn old_local_of_coords(v: vec3<u32>) -> u32 {
  return (v.x - params.oldLoX) + params.oldBx * ((v.y - params.oldLoY) + params.oldBy * (v.z - params.oldLoZ));
}

// After a rebalance changed this rank's box (params' box is new, `starts` still holds the old layout, whose box
// params.old* give): keys every live particle by (cell, rank in cell) in the old layout, copies its cell word to
// `moved` (what the sort reads), then counts it in the new layout or emits it to its new owner. The sort that follows
// (CTL_N_MOVED 0: every particle by its key) keeps each cell's order. One round handles the particles
// [CTL_RELAYOUT_FROM, CTL_RELAYOUT_TO) of the live ones, so that no round emits more migrants than a binding holds.
@compute @workgroup_size(WG_SIZE)
fn relayout(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
            @builtin(local_invocation_index) li: u32) {
  let i = ctl[CTL_RELAYOUT_FROM] + flat_id(wg, nwg, li);
  var dest = NO_DEST;
  var w = INVALID_CELL;
  var key = vec2<u32>(0u);
  if (i < min(ctl[CTL_RELAYOUT_TO], ctl[CTL_N])) {
    w = cell[i];
    let g = cell_part(w);
    let v = coords_of_cell(g, params);
    // the last step's products (REACTIONS, the last CTL_PRODUCTS particles) carry their key already (products.wgsl)
    let products = min(ctl[CTL_PRODUCTS], ctl[CTL_N]);
    if (REACTIONS && i >= ctl[CTL_N] - products) {
      key = keys[i];
    } else {
      key = vec2<u32>(g, i - starts[old_local_of_coords(v)]);
    }
    keys[i] = key;
    moved[i] = w;
    dest = place(i, g, v, key.y);
  }
  emit_with_internal(i, dest, li, w, key);
}
