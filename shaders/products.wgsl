// products.wgsl: after a step's collisions (REACTIONS), the particles its dissociations made join the live ones.
// Collide wrote the k-th product (in the order the cells' threads happened to make them) at slot capacity - 1 - k of
// the sorted set and its entry at productInfo[k] (react.wgsl). count_products counts them per cell, a prefix scan of
// the counts gives each cell its first place among the step's products, and append_products copies each product to
// slot N + that place + its number in its cell, with the position of its parent and its entry in the step's appended
// region (common.wgsl: product_final): the buffer order of the products is the cells' order, whatever the threads'
// timing, so that a run is reproducible bitwise (reductions over the particles included). finish_products makes them
// live (N grows) and folds the step's reaction counts into the submit's.
// stage_parents (a rank that moves the next step's interior part early, loop.ts): before that move, copies the parent's
// position to each product made so far (its top slot) and marks its entry, so that append_products takes the position
// the parent had at the collision, not the one the early move gave it.

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
@group(0) @binding(60) var<storage, read_write> productInfo: array<vec4<u32>>;
// the step's products per local cell (zero between steps: append_products clears what it read), and their scan
@group(0) @binding(62) var<storage, read_write> perCell: array<atomic<u32>>;
@group(0) @binding(63) var<storage, read> firstOfCell: array<u32>;
// multi-rank: the in-cell order keys of the set's particles; a product's (its cell, its rank there) is what a relayout
// orders it by (move.wgsl: relayout)
@group(0) @binding(14) var<storage, read_write> keys: array<vec2<u32>>;

// Bit of a product entry's w (its number in its cell) set once its parent's position is in its top slot (stage_parents).
const STAGED: u32 = 0x80000000u;

// Whether the step's products fit: none was refused in collide, and the copies' source slots lie above their targets.
fn products_fit(n: u32, made: u32) -> bool {
  let base = reaction_words(params);
  return stats[base + RX_OVERFLOW] == 0u && n + 2u * made <= params.capacity;
}

// Local cell of product k (its parent's cell in the sorted set).
fn product_cell(k: u32) -> u32 {
  return local_of_cell(cell_part(cell[productInfo[k].x]), params);
}

// Counts the step's products per local cell (a grid-stride loop over them).
@compute @workgroup_size(WG_SIZE)
fn count_products(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                  @builtin(local_invocation_index) li: u32) {
  let made = stats[reaction_words(params) + RX_MADE];
  let stride = grid_stride(nwg);
  for (var k = flat_id(wg, nwg, li); k < made; k += stride) { atomicAdd(&perCell[product_cell(k)], 1u); }
}

// Copies the parent's position to the top slot of every product made so far that has none yet, and marks it (a
// grid-stride loop over them).
@compute @workgroup_size(WG_SIZE)
fn stage_parents(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                 @builtin(local_invocation_index) li: u32) {
  let made = stats[reaction_words(params) + RX_MADE];
  let stride = grid_stride(nwg);
  for (var k = flat_id(wg, nwg, li); k < made; k += stride) {
    let info = productInfo[k];
    if ((info.w & STAGED) != 0u) { continue; }
    let src = params.capacity - 1u - k;
    px[src] = px[info.x];
    py[src] = py[info.x];
    pz[src] = pz[info.x];
    productInfo[k].w = info.w | STAGED;
  }
}

// Copies product k from its top slot to its place after the N live particles (cells' order, then its number in its
// cell), with its parent's position; its entry goes to the step's appended region at the same place.
@compute @workgroup_size(WG_SIZE)
fn append_products(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                   @builtin(local_invocation_index) li: u32) {
  let made = stats[reaction_words(params) + RX_MADE];
  let n = ctl[CTL_N];
  let fit = products_fit(n, made);
  let appended = product_final(ctl[CTL_STEP], arrayLength(&productInfo));
  let stride = grid_stride(nwg);
  for (var k = flat_id(wg, nwg, li); k < made; k += stride) {
    var info = productInfo[k];
    // the parent's position: staged in the top slot before an early move, else the parent's own
    let parentAt = select(info.x, params.capacity - 1u - k, (info.w & STAGED) != 0u);
    info.w = info.w & ~STAGED;
    let c = product_cell(k);
    // the next step counts from zero (several products of a cell store the same zero)
    atomicStore(&perCell[c], 0u);
    if (!fit) { continue; }
    let place = firstOfCell[c] + info.w;
    let src = params.capacity - 1u - k;
    let dst = n + place;
    px[dst] = px[parentAt];
    py[dst] = py[parentAt];
    pz[dst] = pz[parentAt];
    vx[dst] = vx[src];
    vy[dst] = vy[src];
    vz[dst] = vz[src];
    cell[dst] = cell[src];
    if (HAS_ROTATION) {
      for (var x = 0u; x < INTERNAL_WORDS; x++) { eint[dst * INTERNAL_WORDS + x] = eint[src * INTERNAL_WORDS + x]; }
    }
    productInfo[appended + place] = info;
    if (MULTI_RANK) { keys[dst] = vec2<u32>(cell_part(cell[src]), info.y); }
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
