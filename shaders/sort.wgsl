// sort.wgsl: the index phase. Particles were counted per cell as they moved (move.wgsl,
// inject.wgsl), each remembering its arrival slot; a prefix scan of the counts gives each cell's
// start, `scatter` writes every particle's index at start + slot, `order_cells` sorts each cell's
// indices ascending (arrival order depends on thread timing; index order does not, so the sort is
// stable and runs are bitwise reproducible), and `permute` gathers all particle arrays into the other
// buffer set in that order, dropping particles that left. No cap on particles per cell.
//
// Scratch lives in the other set, unused until `permute` fills it: the arrival slots in its vz
// array, the sorted order in its cell array (permute reads order[k] before it writes cell[k]).

@group(0) @binding(0) var<uniform> params: SimParams;
@group(0) @binding(1) var<storage, read> ctl: array<u32>;
@group(0) @binding(2) var<storage, read> cell: array<u32>;
@group(0) @binding(3) var<storage, read> cellCounts: array<u32>;
@group(0) @binding(4) var<storage, read> slot: array<u32>;
@group(0) @binding(5) var<storage, read> starts: array<u32>;
@group(0) @binding(6) var<storage, read_write> order: array<u32>;
// multi-rank: the in-cell order keys (move.wgsl)
@group(0) @binding(22) var<storage, read> keys: array<vec2<u32>>;
// scatter also records the new live count (control words read-write, step statistics)
@group(0) @binding(1) var<storage, read_write> ctlRW: array<u32>;
@group(0) @binding(7) var<storage, read_write> stats: array<u32>;
// permute: seven arrays moved as raw 32-bit words; dst6 holds the order on entry
@group(0) @binding(8) var<storage, read> src0: array<u32>;
@group(0) @binding(9) var<storage, read> src1: array<u32>;
@group(0) @binding(10) var<storage, read> src2: array<u32>;
@group(0) @binding(11) var<storage, read> src3: array<u32>;
@group(0) @binding(12) var<storage, read> src4: array<u32>;
@group(0) @binding(13) var<storage, read> src5: array<u32>;
@group(0) @binding(14) var<storage, read> src6: array<u32>;
@group(0) @binding(15) var<storage, read_write> dst0: array<u32>;
@group(0) @binding(16) var<storage, read_write> dst1: array<u32>;
@group(0) @binding(17) var<storage, read_write> dst2: array<u32>;
@group(0) @binding(18) var<storage, read_write> dst3: array<u32>;
@group(0) @binding(19) var<storage, read_write> dst4: array<u32>;
@group(0) @binding(20) var<storage, read_write> dst5: array<u32>;
@group(0) @binding(21) var<storage, read_write> dst6: array<u32>;

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
  if (i >= ctlRW[CTL_N_ALL]) { return; }
  let c = local_cell(i);
  if (c != INVALID_CELL) { order[starts[c] + slot[i]] = i; }
}

// Local cell of particle i, or INVALID_CELL when it left the box or is a migrant (other ranks' cells
// were not counted here and are left out).
fn local_cell(i: u32) -> u32 {
  let w = cell[i];
  if (w == INVALID_CELL) { return INVALID_CELL; }
  let g = cell_part(w);
  if (!owns_cell(g, params)) { return INVALID_CELL; }
  return g - params.cellBase;
}

// Split steps: the particles of halo cells the interior pass met (indices), and their count (common.wgsl: HW_LISTED).
@group(0) @binding(32) var<storage, read_write> haloParticles: array<u32>;
@group(0) @binding(33) var<storage, read_write> haloWork: array<atomic<u32>>;
var<workgroup> wgListed: atomic<u32>;
var<workgroup> wgListBase: u32;

// Split steps, interior pass: scatters the particles of interior cells and lists those of halo cells for the halo
// pass (one atomic per workgroup on the list length; the halo pass sorts each cell by `before`, so list order does
// not matter). The halo pass's scan glue (split.wgsl:finish_halo) sets the live count instead of invocation 0 here.
@compute @workgroup_size(WG_SIZE)
fn scatter_interior(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                    @builtin(local_invocation_index) li: u32) {
  if (li == 0u) { atomicStore(&wgListed, 0u); }
  workgroupBarrier();
  let i = flat_id(wg, nwg, li);
  var listed = false;
  var at = 0u;
  if (i < ctlRW[CTL_N_ALL]) {
    let c = local_cell(i);
    if (c != INVALID_CELL) {
      if (is_halo(c)) {
        listed = true;
        at = atomicAdd(&wgListed, 1u);
      } else {
        order[starts[c] + slot[i]] = i;
      }
    }
  }
  workgroupBarrier();
  if (li == 0u) {
    let n = atomicLoad(&wgListed);
    if (n > 0u) { wgListBase = atomicAdd(&haloWork[HW_LISTED], n); }
  }
  workgroupBarrier();
  if (listed) { haloParticles[wgListBase + at] = i; }
}

// Split steps, halo pass: scatters the listed particles (HW_LISTED of them) and the arrivals (which
// append_arrivals put in the last CTL_ARRIVALS slots below CTL_N_ALL) that are in halo cells. The host sizes the
// dispatch from the step before (an indirect dispatch costs more on Dawn); a grid-stride loop covers any count. An
// arrival outside the halo makes the host redo the step whole, so it is skipped here.
@compute @workgroup_size(WG_SIZE)
fn scatter_halo(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                @builtin(local_invocation_index) li: u32) {
  let listed = atomicLoad(&haloWork[HW_LISTED]);
  let arrived = ctlRW[CTL_ARRIVALS];
  let firstArrival = ctlRW[CTL_N_ALL] - arrived;
  let stride = nwg.x * nwg.y * WG_SIZE;
  for (var k = flat_id(wg, nwg, li); k < listed + arrived; k += stride) {
    var i = firstArrival + (k - listed);
    if (k < listed) { i = haloParticles[k]; }
    let c = local_cell(i);
    if (c != INVALID_CELL && is_halo(c)) { order[starts[c] + slot[i]] = i; }
  }
}

// True when particle a goes before particle b inside a cell: by buffer index on one rank (the buffer
// is in (cell, rank in cell) order and injected particles follow it). On several ranks the buffer holds
// the interior cells of the step before in cell order, then its halo cells in cell order (split steps):
// two of this rank's moved particles (slots below CTL_N_MOVED) on the same side of that boundary go by
// index too; otherwise (across it, injected or arrived particles) by the explicit keys (old global cell,
// rank in it).
fn before(a: u32, b: u32) -> bool {
  if (!MULTI_RANK) { return a < b; }
  let moved = ctl[CTL_N_MOVED];
  let split = ctl[CTL_N_INTERIOR_BEFORE];
  if (a < moved && b < moved && (a < split) == (b < split)) { return a < b; }
  let ka = keys[a];
  let kb = keys[b];
  return ka.x < kb.x || (ka.x == kb.x && ka.y < kb.y);
}

// Sorts each cell's particle indices into `before` order by insertion sort in place (cells hold a few
// tens and arrive nearly in order, so this is a read pass with few writes; any count works).
@compute @workgroup_size(WG_SIZE)
fn order_cells(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
               @builtin(local_invocation_index) li: u32) {
  let c = flat_id(wg, nwg, li);
  if (c < params.nLocal) { order_cell(c); }
}

// Split steps: the interior pass orders the interior cells (one invocation per local cell), the halo pass
// the halo cells (one invocation per entry of the halo list).
@compute @workgroup_size(WG_SIZE)
fn order_split(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
               @builtin(local_invocation_index) li: u32) {
  let k = flat_id(wg, nwg, li);
  if (SPLIT_PASS == 1u) {
    if (k < params.nLocal && !is_halo(k)) { order_cell(k); }
  } else if (k < ctl[CTL_HALO_CELLS]) {
    order_cell(haloList[k]);
  }
}

// Insertion sort of local cell c's indices into `before` order.
fn order_cell(c: u32) {
  let s = starts[c];
  let n = cellCounts[c];
  if (n < 2u) { return; }
  var prev = order[s];
  for (var k = 1u; k < n; k++) {
    let item = order[s + k];
    if (before(prev, item)) {
      prev = item;
      continue;
    }
    // item belongs further left: shift the larger ones right
    var j = k;
    while (j > 0u) {
      let left = order[s + j - 1u];
      if (before(left, item)) { break; }
      order[s + j] = left;
      j = j - 1u;
    }
    order[s + j] = item;
    prev = order[s + k];
  }
}

// Gathers the seven particle arrays into sorted order: dst[k] = src[order[k]], order[k] = dst6[k].
@compute @workgroup_size(WG_SIZE)
fn permute(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
           @builtin(local_invocation_index) li: u32) {
  let k = flat_id(wg, nwg, li);
  if (k < ctl[CTL_N]) { permute_one(k); }
}

// Split steps: the interior pass gathers slots [0, N_INTERIOR) (dispatched over the capacity), the halo pass
// [N_INTERIOR, N) (dispatched for about as many as the step before had, with a grid-stride loop for the rest).
@compute @workgroup_size(WG_SIZE)
fn permute_split(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                 @builtin(local_invocation_index) li: u32) {
  let interior = ctl[CTL_N_INTERIOR];
  if (SPLIT_PASS == 1u) {
    let k = flat_id(wg, nwg, li);
    if (k < interior) { permute_one(k); }
    return;
  }
  let stride = nwg.x * nwg.y * WG_SIZE;
  for (var k = interior + flat_id(wg, nwg, li); k < ctl[CTL_N]; k += stride) { permute_one(k); }
}

// dst[k] = src[order[k]] for the seven arrays (order[k] is dst6[k] on entry).
fn permute_one(k: u32) {
  let i = dst6[k];
  dst0[k] = src0[i];
  dst1[k] = src1[i];
  dst2[k] = src2[i];
  dst3[k] = src3[i];
  dst4[k] = src4[i];
  dst5[k] = src5[i];
  dst6[k] = src6[i];
}
