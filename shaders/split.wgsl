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

// Halo pass, per entry of the halo list: that cell's count, for the scan of the halo cells. Invocation 0 also lets the
// arrivals join the N_ALL particles the halo pass takes (control.wgsl:after_arrivals, which the step leaves to this
// pass: one dispatch less on the halo pass's path; append_arrivals, which reads N_ALL, has run).
@compute @workgroup_size(WG_SIZE)
fn gather_halo(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
               @builtin(local_invocation_index) li: u32) {
  let k = flat_id(wg, nwg, li);
  if (k == 0u) { join_arrivals(); }
  if (k < ctl[CTL_HALO_CELLS]) { masked[k] = counts[halo_cell(k, params.nLocal)]; }
}

// The arrived particles join the N_ALL particles the sort takes (as control.wgsl:after_arrivals).
fn join_arrivals() {
  ctl[CTL_N_ALL] = ctl[CTL_N_ALL] + ctl[CTL_ARRIVALS];
}

// Values per invocation of scan_halo (16 where the device gives the workgroup memory, else 8: prefix-scan.ts).
override HALO_PER_THREAD: u32 = 16u;
override HALO_BLOCK: u32 = HALO_PER_THREAD * WG_SIZE;
var<workgroup> haloData: array<u32, HALO_BLOCK + HALO_BLOCK / 32u>;
// the invocations' totals, then the groups' of 16
var<workgroup> haloTotals: array<u32, WG_SIZE + WG_SIZE / 16u>;
// the halo list's length, then each block's total, as every invocation sees it
var<workgroup> haloShared: u32;

// Halo pass of a halo of a few blocks (the host picks it below SMALL_HALO_BLOCKS, sort.ts): gather_halo, the scan of
// the halo cells' counts and finish_halo in one workgroup, block after block (a running total carries from one to
// the next), in place of five dispatches on the halo pass's latency-bound path. The same starts, live count and step
// statistics. Each block goes through workgroup memory as in scan.wgsl:scan_blocks (one spare word every 32).
@compute @workgroup_size(WG_SIZE)
fn scan_halo(@builtin(local_invocation_index) li: u32) {
  if (li == 0u) {
    join_arrivals();
    haloShared = ctl[CTL_HALO_CELLS];
  }
  let h = workgroupUniformLoad(&haloShared);
  var carry = ctl[CTL_N_INTERIOR];
  for (var base = 0u; base < h; base += HALO_BLOCK) {
    for (var k = 0u; k < HALO_PER_THREAD; k++) {
      let i = k * WG_SIZE + li;
      var x = 0u;
      if (base + i < h) { x = counts[halo_cell(base + i, params.nLocal)]; }
      haloData[i + (i >> 5u)] = x;
    }
    workgroupBarrier();
    // this invocation's consecutive values, scanned in place
    var run = 0u;
    for (var k = 0u; k < HALO_PER_THREAD; k++) {
      let i = li * HALO_PER_THREAD + k;
      let x = haloData[i + (i >> 5u)];
      haloData[i + (i >> 5u)] = run;
      run = run + x;
    }
    haloTotals[li] = run;
    workgroupBarrier();
    if (li < WG_SIZE / 16u) {
      var acc = 0u;
      for (var k = 0u; k < 16u; k++) {
        let x = haloTotals[li * 16u + k];
        haloTotals[li * 16u + k] = acc;
        acc = acc + x;
      }
      haloTotals[WG_SIZE + li] = acc;
    }
    workgroupBarrier();
    if (li == 0u) {
      var acc = 0u;
      for (var g = 0u; g < WG_SIZE / 16u; g++) {
        let x = haloTotals[WG_SIZE + g];
        haloTotals[WG_SIZE + g] = acc;
        acc = acc + x;
      }
      haloShared = acc;
    }
    workgroupBarrier();
    let before = carry + haloTotals[li] + haloTotals[WG_SIZE + li / 16u];
    for (var k = 0u; k < HALO_PER_THREAD; k++) {
      let i = li * HALO_PER_THREAD + k;
      haloData[i + (i >> 5u)] = haloData[i + (i >> 5u)] + before;
    }
    workgroupBarrier();
    for (var k = 0u; k < HALO_PER_THREAD; k++) {
      let i = k * WG_SIZE + li;
      if (base + i < h) { starts[halo_cell(base + i, params.nLocal)] = haloData[i + (i >> 5u)]; }
    }
    carry = carry + haloShared;
    // every invocation has read the block's total and values before the next block overwrites them
    workgroupBarrier();
  }
  if (li == 0u) {
    ctl[CTL_N] = carry;
    stats[ctl[CTL_STATS_SLOT] + ST_N_AFTER] = carry;
  }
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
