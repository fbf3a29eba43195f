// split.wgsl: the scan glue of a split step (multi-rank, common.wgsl: SPLIT_PASS). The interior pass
// scans the counts of the interior cells only (halo cells count 0), so interior cells take the slots
// [0, N_INTERIOR) and can be sorted and collided before any arrival is known; the halo pass scans the
// counts of the halo list's cells (arrivals included) and places them after N_INTERIOR. When an arrival
// landed outside the halo, the host redoes the step whole instead: restore_full undoes what the interior
// pass changed besides the idle set, then the plain sort and collide run from the untouched source set.

@group(0) @binding(0) var<uniform> params: SimParams;
@group(0) @binding(1) var<storage, read_write> ctl: array<u32>;
@group(0) @binding(2) var<storage, read> counts: array<u32>;
@group(0) @binding(3) var<storage, read_write> masked: array<u32>;
@group(0) @binding(4) var<storage, read_write> starts: array<u32>;
@group(0) @binding(5) var<storage, read_write> stats: array<u32>;
@group(0) @binding(6) var<storage, read> scanned: array<u32>;
@group(0) @binding(7) var<storage, read_write> sigmaCrMax: array<f32>;
@group(0) @binding(8) var<storage, read_write> remainder: array<f32>;
@group(0) @binding(9) var<storage, read_write> savedSigmaCrMax: array<f32>;
@group(0) @binding(10) var<storage, read_write> savedRemainder: array<f32>;
@group(0) @binding(11) var<storage, read_write> haloWork: array<u32>;
// per local cell, three planes: the lowest and highest old cell of the keys of its particles from the interior side's
// end on, and how many (sort.wgsl: mixed; filled by the interior scatter)
@group(0) @binding(12) var<storage, read_write> mixed: array<u32>;

// Interior pass, per local cell: its count, or 0 for a halo cell; also saves the cell's collision state,
// which restore_full puts back if the step has to be redone, and clears its crossed particles' keys for the interior
// scatter.
@compute @workgroup_size(WG_SIZE)
fn mask_counts(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
               @builtin(local_invocation_index) li: u32) {
  let c = flat_id(wg, nwg, li);
  if (c >= params.nLocal) { return; }
  masked[c] = select(counts[c], 0u, is_halo(c));
  savedSigmaCrMax[c] = sigmaCrMax[c];
  savedRemainder[c] = remainder[c];
  mixed[c] = 0xffffffffu;
  mixed[params.nLocal + c] = 0u;
  mixed[2u * params.nLocal + c] = 0u;
}

// After the interior scan (into starts): the number of interior particles; the interior scatter's list of halo
// particles starts empty.
@compute @workgroup_size(1)
fn interior_total() {
  let last = params.nLocal - 1u;
  ctl[CTL_N_INTERIOR] = starts[last] + masked[last];
  haloWork[HW_LISTED] = 0u;
}

// Halo pass, per entry of the halo list: that cell's count, for the scan of the halo cells.
@compute @workgroup_size(WG_SIZE)
fn gather_halo(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
               @builtin(local_invocation_index) li: u32) {
  let k = flat_id(wg, nwg, li);
  if (k < ctl[CTL_HALO_CELLS]) { masked[k] = counts[halo_cell(k, params.nLocal)]; }
}

// After the halo scan (into `scanned`): the halo cells' starts follow the interior particles; invocation 0
// sets the live count.
@compute @workgroup_size(WG_SIZE)
fn finish_halo(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
               @builtin(local_invocation_index) li: u32) {
  let k = flat_id(wg, nwg, li);
  let h = ctl[CTL_HALO_CELLS];
  let base = ctl[CTL_N_INTERIOR];
  if (k < h) { starts[halo_cell(k, params.nLocal)] = base + scanned[k]; }
  if (k != 0u) { return; }
  var n = base;
  if (h > 0u) { n = n + scanned[h - 1u] + masked[h - 1u]; }
  ctl[CTL_N] = n;
  stats[ctl[CTL_STATS_SLOT] + ST_N_AFTER] = n;
}

// Before a step is redone whole: per cell, the collision state from before the interior pass; invocation 0
// drops the interior pass's collision counts (only collide adds to them, and begin_step zeroed them) and
// marks the buffer as plain cell order for the next step (no interior part first).
@compute @workgroup_size(WG_SIZE)
fn restore_full(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                @builtin(local_invocation_index) li: u32) {
  let c = flat_id(wg, nwg, li);
  if (c < params.nLocal) {
    sigmaCrMax[c] = savedSigmaCrMax[c];
    remainder[c] = savedRemainder[c];
  }
  if (c != 0u) { return; }
  let slot = ctl[CTL_STATS_SLOT];
  stats[slot + ST_COLLISIONS] = 0u;
  stats[slot + ST_CANDIDATES] = 0u;
  ctl[CTL_N_INTERIOR] = 0u;
  // the interior pass's reactions and products (REACTIONS) are dropped too: the redo makes them again
  if (REACTIONS) {
    stats[slot + ST_REACTIONS] = 0u;
    let base = reaction_words(params);
    stats[base + RX_MADE] = 0u;
    stats[base + RX_OVERFLOW] = 0u;
    for (var r = 0u; r < RX_MAX_REACTIONS; r++) { stats[base + RX_STEP_TALLY + r] = 0u; }
  }
}
