// list-atomic.wgsl: the interior scatter's list of halo particles (sort.wgsl: scatter_interior), one atomic a particle
// on the list's length. Compiled with sort.wgsl when the device has no subgroups (list-subgroup.wgsl otherwise).

// Lists particle i for the halo pass when `listed`.
fn list_halo_particle(i: u32, listed: bool) {
  if (listed) { haloParticles[atomicAdd(&haloWork[HW_LISTED], 1u)] = i; }
}
