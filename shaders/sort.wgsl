// sort.wgsl: the index phase. Particles were counted per cell as they moved (move.wgsl,
// inject.wgsl), each remembering its arrival slot; a prefix scan of the counts gives each cell's
// start, `scatter` writes every particle's index at start + slot (arrival order depends on thread
// timing), `rank_particles` puts each particle's index at start + the number of its cell's particles
// that go `before` it (one invocation per particle, so any cell size works and big cells are not one
// thread's serial work; the order does not depend on timing, so runs are bitwise reproducible) and its
// cell word there in the other set's cell array, and `permute` gathers the other particle arrays into the
// other buffer set in that order, dropping particles that left. No cap on particles per cell.
//
// Scratch lives in the other set, unused until `permute` fills it (SORT_SCRATCH in
// particle-attributes.ts): the arrival slots in its vz array (one rank; several ranks keep them in a
// buffer of their own), the arrival order in its px array, the sorted order in its vy array
// (permute reads ranked[k] before it writes vy[k]).
// `cell` is the particles' cell words after the move: on one rank the set's cell array, on several ranks the set's
// moved-cell array (move.wgsl), while the set's cell array (`cellBefore`) still holds the words before the move, which
// place_ranked orders moved particles by; the order puts `cell` in sorted order into the other set's cell array.

@group(0) @binding(0) var<uniform> params: SimParams;
@group(0) @binding(1) var<storage, read> ctl: array<u32>;
@group(0) @binding(2) var<storage, read> cell: array<u32>;
// multi-rank, rank_*: the cell words before the move (the sorted set's cell array)
@group(0) @binding(25) var<storage, read> cellBefore: array<u32>;
@group(0) @binding(3) var<storage, read> cellCounts: array<u32>;
@group(0) @binding(4) var<storage, read> slot: array<u32>;
@group(0) @binding(5) var<storage, read> starts: array<u32>;
@group(0) @binding(6) var<storage, read_write> order: array<u32>;
// multi-rank: the in-cell order keys of the particles that did not move here (injected, arrived; every one at the
// first sort and after a relayout)
@group(0) @binding(22) var<storage, read> keys: array<vec2<u32>>;
// rank_particles: the cells' particles in arrival order (what scatter wrote to `order`, bound read-only here, so
// the many reads of each cell's list may take the read-only cache path) and the sorted order (the other set's
// vy array, which permute binds as dst4)
@group(0) @binding(24) var<storage, read> arrived: array<u32>;
// the same list four indices a load (count_below; both bindings read-only, so one buffer may take both)
@group(0) @binding(39) var<storage, read> arrived4: array<vec4<u32>>;
@group(0) @binding(23) var<storage, read_write> ranked: array<u32>;
// the order also writes each particle's cell word at its sorted place, into the other set's cell array (permute moves
// the six other arrays)
@group(0) @binding(38) var<storage, read_write> sortedCell: array<u32>;

// Particle i goes to sorted place k: its index into the sorted order (permute gathers by it), its cell word after the
// move into the other set's cell array (read again here: the load that found its cell brought it into the cache).
fn put_sorted(i: u32, k: u32) {
  ranked[k] = i;
  sortedCell[k] = cell[i];
}
// scatter also records the new live count (control words read-write, step statistics)
@group(0) @binding(1) var<storage, read_write> ctlRW: array<u32>;
@group(0) @binding(7) var<storage, read_write> stats: array<u32>;
// permute: six arrays moved as raw 32-bit words (px .. vz); dst4 holds the sorted order on entry
@group(0) @binding(8) var<storage, read> src0: array<u32>;
@group(0) @binding(9) var<storage, read> src1: array<u32>;
@group(0) @binding(10) var<storage, read> src2: array<u32>;
@group(0) @binding(11) var<storage, read> src3: array<u32>;
@group(0) @binding(12) var<storage, read> src4: array<u32>;
@group(0) @binding(13) var<storage, read> src5: array<u32>;
@group(0) @binding(15) var<storage, read_write> dst0: array<u32>;
@group(0) @binding(16) var<storage, read_write> dst1: array<u32>;
@group(0) @binding(17) var<storage, read_write> dst2: array<u32>;
@group(0) @binding(18) var<storage, read_write> dst3: array<u32>;
@group(0) @binding(19) var<storage, read_write> dst4: array<u32>;
@group(0) @binding(20) var<storage, read_write> dst5: array<u32>;
// the internal energy words (permute_rotation, a pass of its own)
@group(0) @binding(34) var<storage, read> srcEint: array<u32>;
@group(0) @binding(35) var<storage, read_write> dstEint: array<u32>;
@group(0) @binding(36) var<storage, read> rankedIn: array<u32>;

// Writes each particle's index at its cell's start plus its arrival slot; invocation 0 also sets the
// live count to the scan total (read by permute and the next step; N_ALL is not touched).
@compute @workgroup_size(WG_SIZE)
fn scatter(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
           @builtin(local_invocation_index) li: u32) {
  let i = flat_id(wg, nwg, li);
  if (i == 0u) {
    let last = params.nLocal - 1u;
    let n = starts[last] + cellCounts[last];
    ctlRW[CTL_N] = n;
    stats[ctlRW[CTL_STATS_SLOT] + ST_N_AFTER] = n;
  }
  // dispatched for the host's bound on the live count (SimState.liveBound): any more in the loop (grid_stride)
  if (i < ctlRW[CTL_N_ALL]) { scatter_one(i); }
  for (var j = i + grid_stride(nwg); j < ctlRW[CTL_N_ALL]; j += grid_stride(nwg)) { scatter_one(j); }
}

// Writes particle i's index to its slot in its cell's list (particles that left or migrated have none).
fn scatter_one(i: u32) {
  let c = local_cell(i);
  if (c != INVALID_CELL) { order[starts[c] + slot[i]] = i; }
}

// Local cell of particle i, or INVALID_CELL when it left the box or is a migrant (other ranks' cells
// were not counted here and are left out).
fn local_cell(i: u32) -> u32 {
  let w = cell[i];
  if (w == INVALID_CELL) { return INVALID_CELL; }
  let g = cell_part(w);
  if (params.localDense == 1u) {
    // the box spans x and y: the local id is the global one less the base, owned when in range
    let l = g - params.cellBase;
    if (l >= params.nLocal) { return INVALID_CELL; }
    return l;
  }
  let v = coords_of_cell(g, params);
  if (!owns_coords(v, params)) { return INVALID_CELL; }
  return local_of_coords(v, params);
}

// Split steps: the particles of halo cells the interior pass met below the interior side (indices, in no particular
// order), and their count (common.wgsl: HW_LISTED).
@group(0) @binding(32) var<storage, read_write> haloParticles: array<u32>;
// Split steps, interior pass: per local cell (three planes of nLocal words: split.wgsl:mask_counts clears them,
// scatter_interior fills them, rank_split reads them), of its particles from the interior side's end on (crossed from
// the halo side, injected, the step before's products): the lowest and the highest old cell of their order keys, and
// how many. The particles of a cell with none are all ordered by index, as on one rank; so is a moved particle of
// the interior side whose old cell lies below (or above: after all of them) every such key's.
@group(0) @binding(37) var<storage, read_write> mixedRW: array<atomic<u32>>;
@group(0) @binding(37) var<storage, read> mixed: array<u32>;
@group(0) @binding(33) var<storage, read_write> haloWork: array<atomic<u32>>;

// The end of the interior side of the step before: particles below it are moved particles the interior pass of the
// step before sorted (place_ranked's lo and width), from the control words N_MOVED, N_INTERIOR_BEFORE and PRODUCTS.
fn interior_side(moved: u32, interiorBefore: u32, products: u32) -> u32 {
  return min(interiorBefore, moved - min(products, moved));
}

// Split steps, interior pass: scatters the particles of interior cells. The particles of halo cells wait for the halo
// pass, which takes every particle from the interior side's end on (the halo side of the step before, its products,
// the injected particles and the arrivals: mostly halo cells' particles) and those listed here: the few below it that
// moved into a halo cell (one atomic each on the list's length, no workgroup barriers). After a step with no interior
// part (the first, a redone one, a relayout) the side is empty and the halo pass takes every particle, as the host's
// sizing from that step's halo count (N - N_INTERIOR) expects. The halo pass's scan glue (split.wgsl:finish_halo) sets
// the live count instead of invocation 0 here.
@compute @workgroup_size(WG_SIZE)
fn scatter_interior(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                    @builtin(local_invocation_index) li: u32) {
  let side = interior_side(ctlRW[CTL_N_MOVED], ctlRW[CTL_N_INTERIOR_BEFORE], ctlRW[CTL_PRODUCTS]);
  let end = ctlRW[CTL_N_ALL];
  // dispatched for the host's bound on the live count (SimState.liveBound): any more in the loop
  let i = flat_id(wg, nwg, li);
  if (i < end) { scatter_interior_one(i, side); }
  for (var j = i + grid_stride(nwg); j < end; j += grid_stride(nwg)) { scatter_interior_one(j, side); }
}

// scatter_interior for live particle i.
fn scatter_interior_one(i: u32, side: u32) {
  // the slot, the cell's start and its halo bit are read before any branch, at once (the bounds checks of WGSL keep
  // the loads of a particle that left within the buffers): the chain of dependent loads is one rank's
  let arrival = slot[i];
  let c = local_cell(i);
  let start = starts[c];
  let halo = is_halo(c);
  if (c == INVALID_CELL) { return; }
  if (halo) {
    if (i < side) { haloParticles[atomicAdd(&haloWork[HW_LISTED], 1u)] = i; }
    return;
  }
  order[start + arrival] = i;
  // few particles are not: those that crossed from the halo side, injected ones, the step before's products
  if (i >= side) {
    let old = order_key(i, ctlRW[CTL_N_MOVED]).x;
    atomicMin(&mixedRW[c], old);
    atomicMax(&mixedRW[params.nLocal + c], old);
    atomicAdd(&mixedRW[2u * params.nLocal + c], 1u);
  }
}

// The halo pass's k-th particle: the k-th one the interior pass listed, then those from the interior side's end on
// (arrivals included: append_arrivals put them in the last CTL_ARRIVALS slots below CTL_N_ALL).
fn halo_item(k: u32, listed: u32, side: u32) -> u32 {
  if (k < listed) { return haloParticles[k]; }
  return side + (k - listed);
}

// Split steps, halo pass: scatters the particles in halo cells among the listed ones (HW_LISTED of them) and those
// from the interior side's end on (halo_item; the arrivals are the last CTL_ARRIVALS below CTL_N_ALL). The host sizes
// the dispatch from the step before (an indirect dispatch costs more on Dawn); a grid-stride loop covers any count.
// An arrival outside the halo makes the host redo the step whole, so it is skipped here.
@compute @workgroup_size(WG_SIZE)
fn scatter_halo(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                @builtin(local_invocation_index) li: u32) {
  let listed = atomicLoad(&haloWork[HW_LISTED]);
  let side = interior_side(ctlRW[CTL_N_MOVED], ctlRW[CTL_N_INTERIOR_BEFORE], ctlRW[CTL_PRODUCTS]);
  let items = listed + ctlRW[CTL_N_ALL] - min(side, ctlRW[CTL_N_ALL]);
  let stride = grid_stride(nwg);
  for (var k = flat_id(wg, nwg, li); k < items; k += stride) {
    let i = halo_item(k, listed, side);
    let c = local_cell(i);
    if (c != INVALID_CELL && is_halo(c)) { order[starts[c] + slot[i]] = i; }
  }
}

// Writes particle i's index at its sorted place in local cell c: the cell's start plus the number of the
// cell's particles (listed by scatter in arrival order) that go before it. The order inside a cell: by buffer
// index on one rank (the buffer is in (cell, rank in cell) order and injected particles follow it). On several
// ranks the buffer holds the interior cells of the step before in cell order, then its halo cells in cell order
// (split steps): two of this rank's moved particles (slots below CTL_N_MOVED) on the same side of that boundary
// go by index too; otherwise (across it, injected or arrived particles) by the keys (old global cell, rank in it),
// which are unique; equal keys (never made) would still go by index, so that every particle gets a place of its
// own. A moved particle's key is not stored (order_key): its old cell decides every comparison that reaches the
// keys, since two moved particles of one old cell lie on one side of the boundary (a cell's particles are
// contiguous) and every other particle's old cell is another (an arrival's belonged to another rank, an injected
// key has INJECTED_KEY set). What particle i brings to the comparisons is read once.
fn place_ranked(i: u32, c: u32) {
  let s = starts[c];
  let n = cellCounts[c];
  if (SPLIT_PASS == 1u) {
    // the interior pass: the cell's count of particles from the interior side's end on (`crossed`: scatter_interior)
    // is read with its start and count, before any branch (a load behind a branch waits for the one before: a chain
    // one load longer than one rank's). It binds the masked counts: 0 for a halo cell (the halo pass ranks its
    // particles), never for the interior cell a particle is in. A cell with no crossed particle is ordered by index
    let crossed = mixed[2u * params.nLocal + c];
    if (n == 0u) { return; }
    if (crossed == 0u) {
      place_by_index(i, s, n);
      return;
    }
    // a moved particle of the interior side goes by index among the cell's particles (crossed ones have higher
    // indices), plus all crossed ones when its old cell lies above every one of their keys' old cells, none when below
    // (two particles of one old cell, a product and its neighbour, take the keys below)
    let side = interior_side(ctl[CTL_N_MOVED], ctl[CTL_N_INTERIOR_BEFORE], ctl[CTL_PRODUCTS]);
    if (i < side) {
      let old = cell_part(cellBefore[i]);
      if (old < mixed[c]) {
        place_by_index(i, s, n);
        return;
      }
      if (old > mixed[params.nLocal + c]) {
        place_by_index_after(i, s, n, crossed);
        return;
      }
    } else if (place_crossed(i, s, n, side)) {
      return;
    }
  }
  var r = 0u;
  if (!MULTI_RANK) {
    if (REACTIONS && ctl[CTL_PRODUCTS] > 0u) {
      place_with_products(i, s, n);
      return;
    }
    place_by_index(i, s, n);
    return;
  }
  // the moved particles on particle i's side of the split, [lo, lo + width): those go by index against it (the step
  // before's products, the last CTL_PRODUCTS moved ones, are ordered by their keys: order_key)
  let moved = ctl[CTL_N_MOVED];
  let regular = moved - min(ctl[CTL_PRODUCTS], moved);
  let split = ctl[CTL_N_INTERIOR_BEFORE];
  var lo = 0u;
  var width = 0u;
  if (i < regular) {
    if (i < split) {
      width = min(split, regular);
    } else {
      lo = split;
      width = regular - split;
    }
  }
  // a whole sort (the first step, a redone one): most cells hold only particles that moved here from one side of the
  // split, all ordered by index: count by index and check that on the way, without branches (the halo pass, whose
  // cells mostly hold arrivals, and the interior pass's marked cells skip it)
  if (SPLIT_PASS == 0u && n > 0u) {
    var pure = true;
    for (var q = s >> 2u; q <= (s + n - 1u) >> 2u; q++) {
      let b = arrived4[q];
      let lanes = cell_lanes(q, s, n);
      r += count4((b < vec4<u32>(i)) & lanes);
      pure = pure && !any(lanes & ((b - vec4<u32>(lo)) >= vec4<u32>(width)));
    }
    if (pure) {
      put_sorted(i, s + r);
      return;
    }
    r = 0u;
  }
  put_sorted(i, s + count_before_keyed(i, s, n, lo, width, moved));
}

// How many of the n particles from index s in `arrived` go before particle i: those in [lo, lo + width) (moved
// particles on i's side of the split) by index, the others by their order keys. Four a load (arrived4),
// and a block's keys read together (keys_before4), so that their loads overlap instead of waiting one after another.
fn count_before_keyed(i: u32, s: u32, n: u32, lo: u32, width: u32, moved: u32) -> u32 {
  if (n == 0u) { return 0u; }
  let mine = order_key(i, moved);
  var r = 0u;
  for (var q = s >> 2u; q <= (s + n - 1u) >> 2u; q++) {
    let b = arrived4[q];
    let lanes = cell_lanes(q, s, n);
    let byIndex = (b - vec4<u32>(lo)) < vec4<u32>(width);
    r += count4(lanes & byIndex & (b < vec4<u32>(i)));
    let keyed = lanes & !byIndex;
    if (any(keyed)) { r += count4(keyed & keys_before4(b, i, mine, moved)); }
  }
  return r;
}

// The lanes of aligned block q of `arrived4` that hold entries of the cell's list [s, s + n).
fn cell_lanes(q: u32, s: u32, n: u32) -> vec4<bool> {
  let at = vec4<u32>(4u * q) + vec4<u32>(0u, 1u, 2u, 3u);
  return (at >= vec4<u32>(s)) & (at < vec4<u32>(s + n));
}

// How many lanes of m are true.
fn count4(m: vec4<bool>) -> u32 {
  return dot(select(vec4<u32>(0u), vec4<u32>(1u), m), vec4<u32>(1u));
}

// For each of the four particles of block b, whether it goes before particle i (key mine) by their order keys
// (order_key; keys are unique, equal ones, never made, would go by index): both words a key may come from are read
// for every lane, at once, and the right one chosen.
fn keys_before4(b: vec4<u32>, i: u32, mine: vec2<u32>, moved: u32) -> vec4<bool> {
  let old = vec4<u32>(cellBefore[b.x], cellBefore[b.y], cellBefore[b.z], cellBefore[b.w]) & vec4<u32>(CELL_MASK);
  let k0 = keys[b.x];
  let k1 = keys[b.y];
  let k2 = keys[b.z];
  let k3 = keys[b.w];
  let isMoved = b < vec4<u32>(moved);
  let kx = select(vec4<u32>(k0.x, k1.x, k2.x, k3.x), old, isMoved);
  let ky = select(vec4<u32>(k0.y, k1.y, k2.y, k3.y), b, isMoved);
  let mx = vec4<u32>(mine.x);
  let my = vec4<u32>(mine.y);
  return (kx < mx) | ((kx == mx) & ((ky < my) | ((ky == my) & (b < vec4<u32>(i)))));
}

// Split steps, interior pass: the place of crossed particle i (from the interior side's end on) in its cell of n
// particles from index s. The cell's moved particles of the interior side lie in old-cell order by index, so the old
// cells of the lowest and highest of their indices bound all of theirs: when i's key's old cell lies below (above)
// both, i goes before (after) all of them, and only the cell's other crossed particles are compared by key (a few).
// False, placing nothing, when it lies between (the caller compares every key).
fn place_crossed(i: u32, s: u32, n: u32, side: u32) -> bool {
  let moved = ctl[CTL_N_MOVED];
  let mine = order_key(i, moved);
  var lowest = 0xffffffffu;
  var highest = 0u;
  var inside = 0u;
  var r = 0u;
  // four a load, as count_before_keyed
  for (var q = s >> 2u; q <= (s + n - 1u) >> 2u; q++) {
    let b = arrived4[q];
    let lanes = cell_lanes(q, s, n);
    let below = lanes & (b < vec4<u32>(side));
    let low = select(vec4<u32>(0xffffffffu), b, below);
    let high = select(vec4<u32>(0u), b, below);
    lowest = min(lowest, min(min(low.x, low.y), min(low.z, low.w)));
    highest = max(highest, max(max(high.x, high.y), max(high.z, high.w)));
    inside += count4(below);
    let keyed = lanes & !below;
    if (any(keyed)) { r += count4(keyed & keys_before4(b, i, mine, moved)); }
  }
  if (inside > 0u) {
    if (mine.x > cell_part(cellBefore[highest])) {
      r += inside;
    } else if (mine.x >= cell_part(cellBefore[lowest])) {
      return false;
    }
  }
  put_sorted(i, s + r);
  return true;
}


// Particle i's place in the cell of n particles from index s when all of them go by index (the one-rank order).
fn place_by_index(i: u32, s: u32, n: u32) {
  place_by_index_after(i, s, n, 0u);
}

// Particle i's place in the cell of n particles from index s: after `before` particles of higher index (the crossed
// ones of a split step's interior pass whose keys all go first) and every particle of lower index.
fn place_by_index_after(i: u32, s: u32, n: u32, before: u32) {
  put_sorted(i, s + before + count_below(i, s, n));
}

// How many of the n particle indices from s in `arrived` lie below i, four a load (arrived4: the list's aligned blocks of
// four from the one holding s to the one holding s + n - 1, the lanes outside the cell masked off): a quarter of the
// loads and compares of one index at a time.
fn count_below(i: u32, s: u32, n: u32) -> u32 {
  if (n == 0u) { return 0u; }
  let first = s >> 2u;
  let last = (s + n - 1u) >> 2u;
  let mine = vec4<u32>(i);
  // only the end blocks hold lanes of other cells
  var r = count4((arrived4[first] < mine) & cell_lanes(first, s, n));
  if (first == last) { return r; }
  r += count4((arrived4[last] < mine) & cell_lanes(last, s, n));
  for (var q = first + 1u; q < last; q++) { r += count4(arrived4[q] < mine); }
  return r;
}

// One rank with the step before's products (REACTIONS): particle i's place in local cell c (first index s, n
// particles). The buffer is in cell order up to the first product; a product goes after the particles of the cell it
// was made in (productInfo .z: that cell's last index) and after the products made there before it (by index). Keys
// (index, 0) and (that last index, 1 + its number among the products) order every particle so.
fn place_with_products(i: u32, s: u32, n: u32) {
  let end = ctl[CTL_N_MOVED];
  let first = end - ctl[CTL_PRODUCTS];
  let half = product_final(ctl[CTL_STEP] - 1u, arrayLength(&productInfo));
  let mine = product_order_key(i, first, end, half);
  var r = 0u;
  for (var k = 0u; k < n; k++) {
    let ko = product_order_key(arrived[s + k], first, end, half);
    r += select(0u, 1u, ko.x < mine.x || (ko.x == mine.x && ko.y < mine.y));
  }
  put_sorted(i, s + r);
}

// The one-rank order key of particle o (place_with_products).
fn product_order_key(o: u32, first: u32, end: u32, half: u32) -> vec2<u32> {
  if (o < first || o >= end) { return vec2<u32>(o, 0u); }
  return vec2<u32>(productInfo[half + o - first].z, 1u + o - first);
}

// The step before's products (REACTIONS): per product (parent, rank in its cell, last index of its cell, 0).
@group(0) @binding(60) var<storage, read> productInfo: array<vec4<u32>>;

// The order key of particle o of the sorted set: a moved particle's (below `moved`) is its cell before the move and
// its index (never decisive: a moved particle of the same old cell is on its side of the split, compared by index
// before any key), another's the stored key (old global cell, rank in it).
fn order_key(o: u32, moved: u32) -> vec2<u32> {
  if (o < moved) { return vec2<u32>(cell_part(cellBefore[o]), o); }
  return keys[o];
}

// One invocation per particle: its sorted place in its cell (particles that left or migrated have none).
@compute @workgroup_size(WG_SIZE)
fn rank_particles(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                  @builtin(local_invocation_index) li: u32) {
  // dispatched for the host's bound on the live count (SimState.liveBound): any more in the loop
  let i = flat_id(wg, nwg, li);
  if (i < ctl[CTL_N_ALL]) { rank_one(i); }
  for (var j = i + grid_stride(nwg); j < ctl[CTL_N_ALL]; j += grid_stride(nwg)) { rank_one(j); }
}

// Particle i's sorted place in its cell, if it has one here (not left, not a migrant).
fn rank_one(i: u32) {
  let c = local_cell(i);
  if (c != INVALID_CELL) { place_ranked(i, c); }
}

// Split steps: the interior pass ranks the particles of interior cells (one invocation per particle), the halo
// pass those of halo cells among its items (halo_item: the same grid-stride loop as scatter_halo).
@compute @workgroup_size(WG_SIZE)
fn rank_split(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
              @builtin(local_invocation_index) li: u32) {
  if (SPLIT_PASS == 1u) {
    // dispatched for the host's bound on the live count: any more in the loop
    let i = flat_id(wg, nwg, li);
    if (i < ctl[CTL_N_ALL]) { rank_one(i); }
    for (var j = i + grid_stride(nwg); j < ctl[CTL_N_ALL]; j += grid_stride(nwg)) { rank_one(j); }
    return;
  }
  let listed = atomicLoad(&haloWork[HW_LISTED]);
  let side = interior_side(ctl[CTL_N_MOVED], ctl[CTL_N_INTERIOR_BEFORE], ctl[CTL_PRODUCTS]);
  let items = listed + ctl[CTL_N_ALL] - min(side, ctl[CTL_N_ALL]);
  let stride = grid_stride(nwg);
  for (var k = flat_id(wg, nwg, li); k < items; k += stride) {
    let i = halo_item(k, listed, side);
    let c = local_cell(i);
    if (c != INVALID_CELL && is_halo(c)) { place_ranked(i, c); }
  }
}

// Gathers six particle arrays into sorted order: dst[k] = src[ranked[k]], ranked[k] = dst4[k] (the seventh, the cell
// words, the order put in place).
@compute @workgroup_size(WG_SIZE)
fn permute(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
           @builtin(local_invocation_index) li: u32) {
  // dispatched for the host's bound on the live count (SimState.liveBound): any more in the loop
  let k = flat_id(wg, nwg, li);
  if (k < ctl[CTL_N]) { permute_one(k); }
  for (var j = k + grid_stride(nwg); j < ctl[CTL_N]; j += grid_stride(nwg)) { permute_one(j); }
}

// Gathers the internal energy words into sorted order (before permute overwrites the ranked order in dst4).
@compute @workgroup_size(WG_SIZE)
fn permute_rotation(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                    @builtin(local_invocation_index) li: u32) {
  let k = flat_id(wg, nwg, li);
  if (k < ctl[CTL_N]) { permute_internal(k); }
  for (var j = k + grid_stride(nwg); j < ctl[CTL_N]; j += grid_stride(nwg)) { permute_internal(j); }
}

// dst[k] = src[ranked[k]] for the internal energy words of slot k.
fn permute_internal(k: u32) {
  let first = rankedIn[k] * INTERNAL_WORDS;
  for (var w = 0u; w < INTERNAL_WORDS; w++) { dstEint[k * INTERNAL_WORDS + w] = srcEint[first + w]; }
}

// Split steps: permute_rotation for the slots permute_split gathers in this pass (before it).
@compute @workgroup_size(WG_SIZE)
fn permute_rotation_split(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                          @builtin(local_invocation_index) li: u32) {
  let r = split_slots(wg, nwg, li);
  for (var k = r.x; k < r.y; k += r.z) { permute_internal(k); }
}

// This invocation's slots of a split pass as (first, end, stride) of a grid-stride loop: the interior pass [0,
// N_INTERIOR) (dispatched for the host's bound on the live count), the halo pass [N_INTERIOR, N).
fn split_slots(wg: vec3<u32>, nwg: vec3<u32>, li: u32) -> vec3<u32> {
  let interior = ctl[CTL_N_INTERIOR];
  let stride = grid_stride(nwg);
  if (SPLIT_PASS == 1u) { return vec3<u32>(flat_id(wg, nwg, li), interior, stride); }
  return vec3<u32>(interior + flat_id(wg, nwg, li), ctl[CTL_N], stride);
}

// Split steps: the interior pass gathers slots [0, N_INTERIOR) (dispatched for the host's bound on the live count), the
// halo pass [N_INTERIOR, N) (dispatched for about as many as the step before had); a grid-stride loop takes any more.
@compute @workgroup_size(WG_SIZE)
fn permute_split(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                 @builtin(local_invocation_index) li: u32) {
  let r = split_slots(wg, nwg, li);
  for (var k = r.x; k < r.y; k += r.z) { permute_one(k); }
}

// dst[k] = src[ranked[k]] for six arrays (ranked[k] is dst4[k] on entry; the order wrote the cell words: put_sorted).
fn permute_one(k: u32) {
  let i = dst4[k];
  dst0[k] = src0[i];
  dst1[k] = src1[i];
  dst2[k] = src2[i];
  dst3[k] = src3[i];
  dst4[k] = src4[i];
  dst5[k] = src5[i];
}
