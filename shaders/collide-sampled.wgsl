// collide-sampled.wgsl: the collide kernel of a sampled step on one rank. Each invocation collides its cell
// (collide.wgsl) and then adds the cell's post-collision moments to the open block's sums (sample-sums.wgsl), reading
// particles its collisions have just brought into the caches instead of the whole particle set a second time in a
// pass of its own. The f32 order is sample.wgsl's with two lanes (even and odd particles apart, then even + odd), so
// the sums are bitwise those of the standalone pass that the ranks of a multi-rank run use.

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
  return PassMoments(even.cnt + odd.cnt, even.m1 + odd.m1, even.m2 + odd.m2, even.mx + odd.mx, even.m3 + odd.m3);
}

// Adds local cell c's moments of this pass to the open block's sums: per species, the 13 low words read together,
// then the 13 updates (no read waits for a write).
fn sample_cell(c: u32) {
  let n = cellCounts[c];
  if (n == 0u) { return; }
  let first = starts[c];
  let mixture = params.nSpecies > 1u;
  for (var s = 0u; s < params.nSpecies; s++) {
    let a = cell_pass_moments(first, n, s, mixture);
    if (a.cnt == 0.0) { continue; }
    var old: array<u32, MOMENTS>;
    for (var m = 0u; m < MOMENTS; m++) { old[m] = blockLo[block_word(m, s, c)]; }
    for (var m = 0u; m < MOMENTS; m++) { add_block_to(block_word(m, s, c), old[m], moment_of(a, m) * moment_scale(m)); }
  }
}

// One invocation per cell: the cell's collisions, then its sampling pass.
@compute @workgroup_size(WG_SIZE)
fn collide_sampled(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                   @builtin(local_invocation_index) li: u32) {
  let c = flat_id(wg, nwg, li);
  collide_cells(c, li, c < params.nLocal);
  if (c < params.nLocal) { sample_cell(c); }
}
