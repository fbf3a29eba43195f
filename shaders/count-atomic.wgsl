// count-atomic.wgsl: move_particles and move_rotating for adapters without subgroup operations (or DSMC_SUBGROUPS=0): every moved
// particle counts itself in its new cell with an atomic of its own (move.wgsl: count_in). Compiled with move.wgsl.

// Nothing to do: move_one counted the particle already.
fn count_moved(i: u32, c: u32) {}

// Emits particle i's record into its owner's segment by workgroup (move.wgsl: emit_migrants); returns its slot there.
fn emit_migrant(i: u32, dest: u32, li: u32, w: u32, key: vec2<u32>) -> u32 {
  return emit_migrants(i, dest, li, w, key);
}

@compute @workgroup_size(WG_SIZE)
fn move_particles(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                  @builtin(local_invocation_index) li: u32) {
  move_particles_loop(wg, nwg, li);
}

@compute @workgroup_size(WG_SIZE)
fn move_rotating(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                 @builtin(local_invocation_index) li: u32) {
  move_rotating_loop(wg, nwg, li);
}
