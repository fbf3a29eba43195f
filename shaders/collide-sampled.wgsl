// collide-sampled.wgsl: the collide kernel of a sampled step on one rank. Each invocation collides its cell
// (collide.wgsl); then the workgroup reads its cells' post-collision particles (contiguous after the sort) in tiles
// of TILE particles into workgroup memory, neighbouring threads reading neighbouring particles, and each invocation
// adds its own cell's particles from there to the open block's sums (sample-sums.wgsl). One invocation walking its
// cell in device memory instead (cell_pass_moments) was bound by the cache's transactions: its 32 lanes read 32
// different lines at every load (1.33 ms per pass at 102M particles on an H100, no faster than a pass of its own).
// The f32 order is sample.wgsl's with two lanes (even and odd particles apart, then even + odd), so the sums are
// bitwise those of the standalone pass that the ranks of a multi-rank run use.

// Whether the workgroup reads its particles through tiles (GPUs) or each invocation walks its cell in device memory
// (CPU adapters, where workgroup barriers are slow); set by the host (phases/sample.ts), the same bits either way.
override SAMPLE_TILES: bool = true;
// Particles per tile of the workgroup's cells (16 bytes each of workgroup memory).
const TILE: u32 = 1024u;
var<workgroup> tileV: array<vec3<f32>, TILE>;
var<workgroup> tileSpecies: array<u32, TILE>;
// the particle range of the workgroup's cells, [first, end)
var<workgroup> groupFirst: u32;
var<workgroup> groupEnd: u32;

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

// Adds local cell c's pass moments of species s to the open block's sums: the 13 low words read together, then the
// 13 updates (no read waits for a write).
fn add_cell_moments(c: u32, s: u32, a: PassMoments) {
  if (a.cnt == 0.0) { return; }
  var old: array<u32, MOMENTS>;
  for (var m = 0u; m < MOMENTS; m++) { old[m] = blockLo[block_word(m, s, c)]; }
  for (var m = 0u; m < MOMENTS; m++) { add_block_to(block_word(m, s, c), old[m], moment_of(a, m) * moment_scale(m)); }
}

// Samples the workgroup's cells c0 .. c0 + WG_SIZE - 1 (this invocation's is c0 + li, when `mine`): per species,
// tile after tile of their particles through workgroup memory. Called by the whole workgroup (barriers).
fn sample_cells(c: u32, li: u32, mine: bool) {
  var first = 0u;
  var n = 0u;
  if (mine) {
    first = starts[c];
    n = cellCounts[c];
  }
  // the workgroup's particles: from its first cell's start to its last cell's end (a one-rank sort keeps every
  // cell's particles contiguous, in cell order)
  if (li == 0u) { groupFirst = first; }
  if (mine && (li == WG_SIZE - 1u || c + 1u == params.nLocal)) { groupEnd = first + n; }
  let p0 = workgroupUniformLoad(&groupFirst);
  let p1 = workgroupUniformLoad(&groupEnd);
  // a cell outside that range (never after a one-rank sort) is walked in device memory instead
  let tiled = first >= p0 && first + n <= p1;
  let mixture = params.nSpecies > 1u;
  for (var s = 0u; s < params.nSpecies; s++) {
    var even = moments_zero();
    var odd = moments_zero();
    for (var t0 = p0; t0 < p1; t0 += TILE) {
      for (var q = li; q < TILE; q += WG_SIZE) {
        let i = t0 + q;
        if (i < p1) {
          tileV[q] = vec3<f32>(vx[i], vy[i], vz[i]);
          if (mixture) { tileSpecies[q] = species_part(cell[i]); }
        }
      }
      workgroupBarrier();
      if (tiled && n > 0u) {
        let a = max(first, t0);
        let b = min(first + n, t0 + TILE);
        for (var i = a; i < b; i++) {
          let q = i - t0;
          if (mixture && tileSpecies[q] != s) { continue; }
          if (((i - first) & 1u) == 0u) { moments_add(&even, tileV[q]); } else { moments_add(&odd, tileV[q]); }
        }
      }
      workgroupBarrier();
    }
    if (mine && n > 0u) {
      if (tiled) {
        add_cell_moments(c, s, PassMoments(even.cnt + odd.cnt, even.m1 + odd.m1, even.m2 + odd.m2, even.mx + odd.mx, even.m3 + odd.m3));
      } else {
        add_cell_moments(c, s, cell_pass_moments(first, n, s, mixture));
      }
    }
  }
}

// One invocation per cell: the cell's collisions, then the workgroup's sampling pass.
@compute @workgroup_size(WG_SIZE)
fn collide_sampled(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                   @builtin(local_invocation_index) li: u32) {
  let c = flat_id(wg, nwg, li);
  let mine = c < params.nLocal;
  collide_cells(c, li, mine);
  if (SAMPLE_TILES) {
    // the workgroup's collisions written before any of its invocations reads the particles
    storageBarrier();
    sample_cells(c, li, mine);
  } else if (mine) {
    let n = cellCounts[c];
    for (var s = 0u; s < params.nSpecies; s++) { add_cell_moments(c, s, cell_pass_moments(starts[c], n, s, params.nSpecies > 1u)); }
  }
}
