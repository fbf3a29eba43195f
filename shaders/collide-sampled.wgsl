// collide-sampled.wgsl: a collide kernel that also samples (chosen by measured time, sample-kernel-choice.ts):
// each invocation collides its cell (collide.wgsl) and then walks the cell's post-collision particles in device
// memory, adding their moments to the open block's sums (sample-sums.wgsl) in the order of the sampling pass
// (sample.wgsl), so the sums are the same bits. On an H100 it saved the pass's re-read where the collisions had just
// read the particles (scaling box, 125.8M particles: 1.17 ms more than the plain collide, against a 1.66 ms pass of
// the time), not where they had not (the 102M cavity: 1.35 ms, the pass's). A variant reading the workgroup's
// particles through workgroup-memory tiles was slower still (3.1 ms more).

// The pass moments of species s of the cell's particles first .. first + n - 1: particles 0, 2, 4, ... and 1, 3,
// 5, ... in two partial sums, then even + odd.
fn cell_pass_moments(first: u32, n: u32, s: u32, mixture: bool) -> PassMoments {
  var even = moments_zero();
  var odd = moments_zero();
  var k = 0u;
  for (; k + 1u < n; k += 2u) {
    let i = first + k;
    if (!mixture || species_part(cell[i]) == s) { moments_add(&even, vec3<f32>(vx[i], vy[i], vz[i])); }
    let j = i + 1u;
    if (!mixture || species_part(cell[j]) == s) { moments_add(&odd, vec3<f32>(vx[j], vy[j], vz[j])); }
  }
  if (k < n) {
    let i = first + k;
    if (!mixture || species_part(cell[i]) == s) { moments_add(&even, vec3<f32>(vx[i], vy[i], vz[i])); }
  }
  return moments_total(even, odd);
}

// Species of particle i (add_cell_internal in sample-sums.wgsl).
fn particle_species(i: u32) -> u32 {
  return species_part(cell[i]);
}

// One invocation per cell: the cell's collisions, then its sampling pass (velocity moments, then internal energies).
// A rank's interior pass runs it bound to that pass's masked counts (split.wgsl:mask_counts: 0 for a halo cell, which
// is then neither collided nor sampled here; the halo pass does both once the arrivals are in).
@compute @workgroup_size(WG_SIZE)
fn collide_sampled(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                   @builtin(local_invocation_index) li: u32) {
  let c = flat_id(wg, nwg, li);
  collide_cells(c, li, c < params.nLocal);
  if (c < params.nLocal) { walk_cell(c); }
}

// Adds cell c's post-collision particles to the open block's sums (the moments of sample.wgsl:sample_cell).
fn walk_cell(c: u32) {
  let n = cellCounts[c];
  let mixture = params.nSpecies > 1u;
  for (var s = 0u; s < params.nSpecies; s++) {
    add_cell_moments(c, s, cell_pass_moments(starts[c], n, s, mixture));
    add_cell_internal(c, s, starts[c], n, mixture);
  }
}
