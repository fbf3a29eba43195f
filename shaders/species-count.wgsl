// species-count.wgsl: the live particles of each species (a gas of two or more species; the totals over time carry
// them: src-main/solver/phases/species-count.ts). Each workgroup counts its 256 particles in a histogram in workgroup
// memory, then adds each species' count to the global counts with one atomic add. Integers: the counts are exact
// and do not depend on the order of the adds. The host clears the counts before the dispatch.

@group(0) @binding(1) var<storage, read> ctl: array<u32>;
@group(0) @binding(2) var<storage, read> cell: array<u32>;
// MAX_SPECIES counts, species order
@group(0) @binding(3) var<storage, read_write> speciesCounts: array<atomic<u32>>;

var<workgroup> histogram: array<atomic<u32>, MAX_SPECIES>;

// One invocation per live particle: its species counted in the workgroup's histogram, added to the global counts.
@compute @workgroup_size(256)
fn count_species(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                 @builtin(local_invocation_index) li: u32) {
  if (li < MAX_SPECIES) { atomicStore(&histogram[li], 0u); }
  workgroupBarrier();
  let i = (wg.y * nwg.x + wg.x) * 256u + li;
  if (i < ctl[CTL_N]) { atomicAdd(&histogram[min(species_part(cell[i]), MAX_SPECIES - 1u)], 1u); }
  workgroupBarrier();
  if (li < MAX_SPECIES) {
    let k = atomicLoad(&histogram[li]);
    if (k > 0u) { atomicAdd(&speciesCounts[li], k); }
  }
}
