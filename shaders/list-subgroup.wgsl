// list-subgroup.wgsl: the interior scatter's list of halo particles (sort.wgsl: scatter_interior), one atomic a
// subgroup on the list's length instead of one a particle: the particles that moved from the interior side into a halo
// cell (about as many a step as cross a rank's faces, some 65,000 on each of 2 ranks of the scaling box) all add to
// that one word. Each listed particle's place is the number of listed lanes below it (an exclusive subgroup sum), the
// first of them reserves the subgroup's range, its base shared by a subgroup maximum. The list's order does not matter
// (the halo pass orders by keys). Compiled with sort.wgsl when the device has subgroups (list-atomic.wgsl otherwise).
enable subgroups;
// every invocation of a subgroup calls list_halo_particle (scatter_interior's loop is uniform in the workgroup: its
// bounds every invocation reads alike), which the uniformity analysis cannot prove
diagnostic(off, subgroup_uniformity);

// Lists particle i for the halo pass when `listed`; every invocation of the subgroup calls it.
fn list_halo_particle(i: u32, listed: bool) {
  let one = select(0u, 1u, listed);
  let total = subgroupAdd(one);
  if (total == 0u) { return; }
  let before = subgroupExclusiveAdd(one);
  var base = 0u;
  if (listed && before == 0u) { base = atomicAdd(&haloWork[HW_LISTED], total); }
  base = subgroupMax(base);
  if (listed) { haloParticles[base + before] = i; }
}
