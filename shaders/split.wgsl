// split.wgsl: the scan glue of a split step (multi-rank, common.wgsl: SPLIT_PASS). The interior pass
// scans the counts of the interior cells only (halo cells count 0), so interior cells take the slots
// [0, N_INTERIOR) and can be sorted and collided before any arrival is known; the halo pass scans the
// halo cells' counts (arrivals included) and places them after N_INTERIOR, or, when an arrival landed
// in an interior cell (CTL_FULL), scans every cell from 0 and restores the per-cell collision state
// the interior pass changed, so the step is redone whole from the untouched source particles.

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

// Per cell: this pass's count (0 for the other pass's cells); the interior pass also saves the cell's
// collision state, which the halo pass restores if it has to redo the step.
@compute @workgroup_size(WG_SIZE)
fn mask_counts(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
               @builtin(local_invocation_index) li: u32) {
  let c = flat_id(wg, nwg, li);
  if (c >= params.nLocal) { return; }
  masked[c] = select(0u, counts[c], in_split_pass(c, ctl[CTL_FULL] != 0u));
  if (SPLIT_PASS == 1u) {
    savedSigmaCrMax[c] = sigmaCrMax[c];
    savedRemainder[c] = remainder[c];
  }
}

// After the interior scan (into starts): the number of interior particles.
@compute @workgroup_size(1)
fn interior_total() {
  let last = params.nLocal - 1u;
  ctl[CTL_N_INTERIOR] = starts[last] + masked[last];
}

// After the halo scan (into `scanned`): the halo cells' starts follow the interior particles (every
// cell's from 0 when redoing the step, with the collision state and counts of the interior pass undone);
// invocation 0 sets the live count.
@compute @workgroup_size(WG_SIZE)
fn finish_halo(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
               @builtin(local_invocation_index) li: u32) {
  let c = flat_id(wg, nwg, li);
  let full = ctl[CTL_FULL] != 0u;
  let base = select(ctl[CTL_N_INTERIOR], 0u, full);
  if (c < params.nLocal) {
    if (in_split_pass(c, full)) { starts[c] = base + scanned[c]; }
    if (full) {
      sigmaCrMax[c] = savedSigmaCrMax[c];
      remainder[c] = savedRemainder[c];
    }
  }
  if (c != 0u) { return; }
  let last = params.nLocal - 1u;
  let n = base + scanned[last] + masked[last];
  let slot = ctl[CTL_STATS_SLOT];
  ctl[CTL_N] = n;
  stats[slot + ST_N_AFTER] = n;
  if (full) {
    // only collide adds to these two (begin_step zeroed them): drop the interior pass's counts
    stats[slot + ST_COLLISIONS] = 0u;
    stats[slot + ST_CANDIDATES] = 0u;
    ctl[CTL_REDOS] = ctl[CTL_REDOS] + 1u;
    // the whole buffer is in cell order now (no interior part first)
    ctl[CTL_N_INTERIOR] = 0u;
  }
}
