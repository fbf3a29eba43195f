// move.wgsl: the move phase. Each live particle flies for dt through the box (advance.wgsl), meets
// the face boundary conditions, gets its new cell word (INVALID_CELL once it left) and is counted in
// its new cell; its arrival slot there goes to `slot` (the sort's scratch, see sort.wgsl).

@group(0) @binding(0) var<uniform> params: SimParams;
@group(0) @binding(1) var<storage, read> ctl: array<u32>;
@group(0) @binding(2) var<storage, read> faces: array<FaceInfo>;
@group(0) @binding(3) var<storage, read> faceSpecies: array<FaceSpecies>;
@group(0) @binding(4) var<storage, read_write> px: array<f32>;
@group(0) @binding(5) var<storage, read_write> py: array<f32>;
@group(0) @binding(6) var<storage, read_write> pz: array<f32>;
@group(0) @binding(7) var<storage, read_write> vx: array<f32>;
@group(0) @binding(8) var<storage, read_write> vy: array<f32>;
@group(0) @binding(9) var<storage, read_write> vz: array<f32>;
@group(0) @binding(10) var<storage, read_write> cell: array<u32>;
@group(0) @binding(11) var<storage, read_write> counts: array<atomic<u32>>;
@group(0) @binding(12) var<storage, read_write> slot: array<u32>;

// One invocation per live particle: advance, apply boundaries, re-index, count.
// The particle's index is its random-stream id this step (the particle order is deterministic).
@compute @workgroup_size(WG_SIZE)
fn move_particles(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                  @builtin(local_invocation_index) li: u32) {
  let i = flat_id(wg, nwg, li);
  if (i >= ctl[CTL_N]) { return; }
  let sp = species_part(cell[i]);
  let start = Flight(vec3<f32>(px[i], py[i], pz[i]), vec3<f32>(vx[i], vy[i], vz[i]), true);
  let f = fly(start, params.dt, sp, i, ctl[CTL_STEP]);
  if (!f.alive) {
    cell[i] = INVALID_CELL;
    return;
  }
  px[i] = f.pos.x;
  py[i] = f.pos.y;
  pz[i] = f.pos.z;
  vx[i] = f.vel.x;
  vy[i] = f.vel.y;
  vz[i] = f.vel.z;
  let c = cell_of(f.pos, params);
  cell[i] = cell_word(c, sp);
  slot[i] = atomicAdd(&counts[c], 1u);
}
