// products.wgsl: after a step's collisions (REACTIONS), the particles its dissociations made join the live ones.
// Collide wrote the k-th product at slot capacity - 1 - k of the sorted set (react.wgsl); append_products copies it to
// slot N + k, with the position of its parent, and finish_products makes them live (N grows) and folds the step's
// reaction counts into the submit's. Until the next sort the products are the last CTL_PRODUCTS live particles; their
// order among each other does not matter (the move keys their random streams and the sort orders them by productInfo).

@group(0) @binding(0) var<uniform> params: SimParams;
@group(0) @binding(1) var<storage, read_write> ctl: array<u32>;
@group(0) @binding(2) var<storage, read_write> stats: array<u32>;
@group(0) @binding(4) var<storage, read_write> px: array<f32>;
@group(0) @binding(5) var<storage, read_write> py: array<f32>;
@group(0) @binding(6) var<storage, read_write> pz: array<f32>;
@group(0) @binding(7) var<storage, read_write> vx: array<f32>;
@group(0) @binding(8) var<storage, read_write> vy: array<f32>;
@group(0) @binding(9) var<storage, read_write> vz: array<f32>;
@group(0) @binding(10) var<storage, read_write> cell: array<u32>;
@group(0) @binding(45) var<storage, read_write> eint: array<f32>;
@group(0) @binding(60) var<storage, read> productInfo: array<vec4<u32>>;

// Whether the step's products fit: none was refused in collide, and the copies' source slots lie above their targets.
fn products_fit(n: u32, made: u32) -> bool {
  let base = reaction_words(params);
  return stats[base + RX_OVERFLOW] == 0u && n + 2u * made <= params.capacity;
}

// Copies product k (a grid-stride loop over the step's products) from its top slot to slot N + k.
@compute @workgroup_size(WG_SIZE)
fn append_products(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                   @builtin(local_invocation_index) li: u32) {
  let made = stats[reaction_words(params) + RX_MADE];
  let n = ctl[CTL_N];
  if (!products_fit(n, made)) { return; }
  let half = product_half(ctl[CTL_STEP], arrayLength(&productInfo));
  let stride = nwg.x * nwg.y * WG_SIZE;
  for (var k = flat_id(wg, nwg, li); k < made; k += stride) {
    let src = params.capacity - 1u - k;
    let dst = n + k;
    let parent = productInfo[half + k].x;
    px[dst] = px[parent];
    py[dst] = py[parent];
    pz[dst] = pz[parent];
    vx[dst] = vx[src];
    vy[dst] = vy[src];
    vz[dst] = vz[src];
    cell[dst] = cell[src];
    if (HAS_ROTATION) {
      for (var x = 0u; x < INTERNAL_WORDS; x++) { eint[dst * INTERNAL_WORDS + x] = eint[src * INTERNAL_WORDS + x]; }
    }
  }
}

// One invocation: the products become live (or, when they did not fit, are counted for the host to stop the run),
// the step's reaction counts go into the submit's, and the next step starts with none made.
@compute @workgroup_size(1)
fn finish_products() {
  let base = reaction_words(params);
  let made = stats[base + RX_MADE];
  let n = ctl[CTL_N];
  if (products_fit(n, made)) {
    ctl[CTL_N] = n + made;
    ctl[CTL_PRODUCTS] = made;
  } else {
    ctl[CTL_OVERFLOW] = ctl[CTL_OVERFLOW] + made + stats[base + RX_OVERFLOW];
    ctl[CTL_PRODUCTS] = 0u;
  }
  stats[ctl[CTL_STATS_SLOT] + ST_PRODUCTS] = made;
  stats[base + RX_MADE] = 0u;
  stats[base + RX_OVERFLOW] = 0u;
  for (var r = 0u; r < RX_MAX_REACTIONS; r++) {
    stats[base + RX_RUN_TALLY + r] = stats[base + RX_RUN_TALLY + r] + stats[base + RX_STEP_TALLY + r];
    stats[base + RX_STEP_TALLY + r] = 0u;
  }
}
