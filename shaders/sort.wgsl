// sort.wgsl: the index phase. A counting sort groups particles by cell every step with no cap on
// particles per cell; inside a cell, particles are ordered by particle id so that the order (and so
// every random draw that follows) is deterministic. `permute` then gathers each attribute into the
// other buffer set, which also compacts away particles that left the box.

@group(0) @binding(0) var<uniform> params: SimParams;
@group(0) @binding(1) var<storage, read> ctl: array<u32>;
@group(0) @binding(2) var<storage, read> cell: array<u32>;
@group(0) @binding(3) var<storage, read_write> counts: array<atomic<u32>>;
@group(0) @binding(4) var<storage, read_write> slot: array<u32>;
@group(0) @binding(5) var<storage, read> starts: array<u32>;
@group(0) @binding(6) var<storage, read_write> order: array<u32>;
@group(0) @binding(7) var<storage, read> pid: array<u32>;
// counts as plain values once counting is over (same binding as `counts`, other entry points)
@group(0) @binding(3) var<storage, read> cellCounts: array<u32>;
// permute: six (positions, velocities) or three (cell, id, species) arrays moved as raw 32-bit words
@group(0) @binding(8) var<storage, read> src0: array<u32>;
@group(0) @binding(9) var<storage, read> src1: array<u32>;
@group(0) @binding(10) var<storage, read> src2: array<u32>;
@group(0) @binding(11) var<storage, read> src3: array<u32>;
@group(0) @binding(12) var<storage, read> src4: array<u32>;
@group(0) @binding(13) var<storage, read> src5: array<u32>;
@group(0) @binding(14) var<storage, read_write> dst0: array<u32>;
@group(0) @binding(15) var<storage, read_write> dst1: array<u32>;
@group(0) @binding(16) var<storage, read_write> dst2: array<u32>;
@group(0) @binding(17) var<storage, read_write> dst3: array<u32>;
@group(0) @binding(18) var<storage, read_write> dst4: array<u32>;
@group(0) @binding(19) var<storage, read_write> dst5: array<u32>;

// Zeroes the per-cell counters.
@compute @workgroup_size(WG_SIZE)
fn clear_counts(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                @builtin(local_invocation_index) li: u32) {
  let c = flat_id(wg, nwg, li);
  if (c < params.nCells) { atomicStore(&counts[c], 0u); }
}

// Counts particles per cell; each particle remembers its arrival slot in the cell.
@compute @workgroup_size(WG_SIZE)
fn count_cells(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
               @builtin(local_invocation_index) li: u32) {
  let i = flat_id(wg, nwg, li);
  if (i >= ctl[CTL_N_ALL]) { return; }
  let c = cell[i];
  if (c != INVALID_CELL) { slot[i] = atomicAdd(&counts[c], 1u); }
}

// Writes each particle's index at its cell's start plus its arrival slot.
@compute @workgroup_size(WG_SIZE)
fn scatter(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
           @builtin(local_invocation_index) li: u32) {
  let i = flat_id(wg, nwg, li);
  if (i >= ctl[CTL_N_ALL]) { return; }
  let c = cell[i];
  if (c != INVALID_CELL) { order[starts[c] + slot[i]] = i; }
}

// Orders each cell's particles by id (insertion sort: cells hold a few tens; any count works).
@compute @workgroup_size(WG_SIZE)
fn order_cells(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
               @builtin(local_invocation_index) li: u32) {
  let c = flat_id(wg, nwg, li);
  if (c >= params.nCells) { return; }
  let s = starts[c];
  let n = cellCounts[c];
  for (var k = 1u; k < n; k++) {
    let item = order[s + k];
    let key = pid[item];
    var j = k;
    while (j > 0u) {
      let prev = order[s + j - 1u];
      let pk = pid[prev];
      // ties (only after 2^32 ids) fall back to the buffer index, still deterministic
      if (pk < key || (pk == key && prev < item)) { break; }
      order[s + j] = prev;
      j = j - 1u;
    }
    order[s + j] = item;
  }
}

// Gathers six arrays into sorted order: dst[k] = src[order[k]].
@compute @workgroup_size(WG_SIZE)
fn permute6(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
            @builtin(local_invocation_index) li: u32) {
  let k = flat_id(wg, nwg, li);
  if (k >= ctl[CTL_N]) { return; }
  let i = order[k];
  dst0[k] = src0[i];
  dst1[k] = src1[i];
  dst2[k] = src2[i];
  dst3[k] = src3[i];
  dst4[k] = src4[i];
  dst5[k] = src5[i];
}

// Gathers three arrays into sorted order.
@compute @workgroup_size(WG_SIZE)
fn permute3(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
            @builtin(local_invocation_index) li: u32) {
  let k = flat_id(wg, nwg, li);
  if (k >= ctl[CTL_N]) { return; }
  let i = order[k];
  dst0[k] = src0[i];
  dst1[k] = src1[i];
  dst2[k] = src2[i];
}
