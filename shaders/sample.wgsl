// sample.wgsl: sampling of the 13 velocity moments per species and cell (count, sum v_i, sum v_i v_j (6),
// sum v^2 v_i (3)) into exact 64-bit fixed-point sums that stay on the GPU for the whole sampling window
// (the moments and the sums: sample-sums.wgsl).
//
// sample: the standalone sampling pass, used by the ranks of a multi-rank run (one rank samples inside its collide
// kernel instead: collide-sampled.wgsl, the same sums bit for bit). A team of TEAM lanes per cell (2 by default)
// reads the cell's particles (contiguous after the sort): lane l adds the particles l, l + TEAM, ... in f32, the
// lanes' sums are added in a fixed tree in workgroup memory, and the workgroup's (moment, cell) pass totals, times
// the moment's power-of-two scale, are rounded to integers and added to the open block's sums by all its threads,
// the cell fastest (neighbouring threads, neighbouring words). Teams of 1, 2, 4 and 8 lanes took 1.73, 1.71, 2.18
// and 3.31 ms per pass at 125M particles on an H100. The f32 part depends on the cell's particle list alone (never
// on the workgroup or the rank), and integer sums do not depend on any order, so the sums are bitwise the same on
// any number of ranks and across a resume; nothing drifts however long the window (the 64-bit sums overflow only
// after about 2^38 particle-passes per cell and block, which sets a flag).
//
// sample_close: at the end of a batch-means block, per cell: adds the block's sums to the run's, computes
// the block's fields (f32; formulas of fields.ts) and updates their running mean and M2 (Welford) for the
// standard errors, and zeroes the block's sums. The per-volume fields are kept per sampled particle (n in
// particles per cell, pressures and heat fluxes in units of the reference mass per cell) so that their
// squares stay within f32: the host multiplies by fnum / cell volume (and the reference mass) when it reads them.
//
// sample_gather: copies the run's and the open block's sums of a list of cells (one plane of the live view).

const FIELDS: u32 = 13u;
// Lanes per cell (a power of two, at most 16, dividing WG_SIZE); set by the host (phases/sample.ts), never from the
// adapter: it sets the f32 order of a cell's pass sum (2, the default, is the order of the sampled collide kernel).
override TEAM: u32 = 2u;
const BOLTZMANN_K: f32 = 1.380649e-23;

@group(0) @binding(0) var<uniform> params: SimParams;
@group(0) @binding(1) var<storage, read> cellCounts: array<u32>;
@group(0) @binding(2) var<storage, read> starts: array<u32>;
@group(0) @binding(3) var<storage, read> vx: array<f32>;
@group(0) @binding(4) var<storage, read> vy: array<f32>;
@group(0) @binding(5) var<storage, read> vz: array<f32>;
@group(0) @binding(6) var<storage, read> cell: array<u32>;
// the open block's sums and the overflow flag: sample-sums.wgsl (bindings 50-52)
// the run's sums (closed blocks), same layout
@group(0) @binding(10) var<storage, read_write> runLo: array<u32>;
@group(0) @binding(11) var<storage, read_write> runHi: array<u32>;
// per field and cell the running mean over the blocks, then the M2: [mean | m2][field][local cell]
@group(0) @binding(12) var<storage, read_write> welford: array<f32>;
@group(0) @binding(13) var<uniform> close: CloseParams;
// the species' masses over the reference mass (four per vec4)
@group(0) @binding(16) var<uniform> closeMasses: array<vec4<f32>, 4>;
// sample_gather: the cells to copy, and the copy: [moment][species][run lo, run hi, block lo, block hi][listed cell]
@group(0) @binding(14) var<storage, read> gatherCells: array<u32>;
@group(0) @binding(15) var<storage, read_write> gathered: array<u32>;

// the lanes' f32 partial sums, [moment][thread of the workgroup]
var<workgroup> partial: array<f32, MOMENTS * WG_SIZE>;

// One team of TEAM lanes per cell: this sampling pass's moments added to the open block's sums.
@compute @workgroup_size(WG_SIZE)
fn sample(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
          @builtin(local_invocation_index) li: u32) {
  let t = flat_id(wg, nwg, li);
  let c = t / TEAM;
  let lane = t % TEAM;
  var first = 0u;
  var n = 0u;
  if (c < params.nLocal) {
    first = starts[c];
    n = cellCounts[c];
  }
  let mixture = params.nSpecies > 1u;
  for (var s = 0u; s < params.nSpecies; s++) {
    var acc = moments_zero();
    for (var k = lane; k < n; k += TEAM) {
      let i = first + k;
      if (mixture && species_part(cell[i]) != s) { continue; }
      moments_add(&acc, vec3<f32>(vx[i], vy[i], vz[i]));
    }
    for (var m = 0u; m < MOMENTS; m++) { partial[m * WG_SIZE + li] = moment_of(acc, m); }
    workgroupBarrier();
    // the team's partials added in a fixed pairwise tree, in place: lane l takes lane l + w's, w = TEAM/2, ..., 1
    for (var w = TEAM / 2u; w > 0u; w = w / 2u) {
      if (lane < w) {
        for (var m = 0u; m < MOMENTS; m++) { partial[m * WG_SIZE + li] = partial[m * WG_SIZE + li] + partial[m * WG_SIZE + li + w]; }
      }
      workgroupBarrier();
    }
    // the workgroup's cells' sums: thread k finishes (moment, cell) pairs k, k + WG_SIZE, ... with the cell fastest,
    // so that neighbouring threads add to neighbouring words of a moment's plane (coalesced)
    let cellsPerGroup = WG_SIZE / TEAM;
    let c0 = (t - li) / TEAM;
    for (var q = li; q < MOMENTS * cellsPerGroup; q += WG_SIZE) {
      let m = q / cellsPerGroup;
      let j = q % cellsPerGroup;
      let cj = c0 + j;
      if (cj >= params.nLocal) { continue; }
      let sum = partial[m * WG_SIZE + j * TEAM];
      add_block(block_word(m, s, cj), sum * moment_scale(m));
    }
    workgroupBarrier();
  }
}

// The value of the 64-bit sum (lo, hi) as f32.
fn to_f32(lo: u32, hi: u32) -> f32 {
  return f32(bitcast<i32>(hi)) * 4294967296.0 + f32(lo);
}

// 2^-e of moment m (turns its fixed-point sum back into SI units).
fn moment_unscale(m: u32) -> f32 {
  if (m == 0u) { return 1.0; }
  if (m < 4u) { return close.unscale1; }
  if (m < 10u) { return close.unscale2; }
  return close.unscale3;
}

// The block's sum of moment m of species s in cell c (SI units, f32).
fn block_moment(m: u32, s: u32, c: u32) -> f32 {
  let w = (m * params.nSpecies + s) * params.nLocal + c;
  return to_f32(blockLo[w], blockHi[w]) * moment_unscale(m);
}

// Mass ratio of species s to the reference mass.
fn mass_ratio(s: u32) -> f32 {
  return closeMasses[s / 4u][s % 4u];
}

// Welford's update of field f of cell c with this block's value x.
fn welford_add(f: u32, c: u32, x: f32) {
  let i = f * params.nLocal + c;
  let j = (FIELDS + f) * params.nLocal + c;
  let mean = welford[i];
  let d = x - mean;
  let next = mean + d / f32(close.block);
  welford[i] = next;
  welford[j] = welford[j] + d * (x - next);
}

// One invocation per cell: closes the block (run sums, block fields into the batch means, block sums zeroed).
@compute @workgroup_size(WG_SIZE)
fn sample_close(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                @builtin(local_invocation_index) li: u32) {
  let c = flat_id(wg, nwg, li);
  if (c >= params.nLocal) { return; }
  // the block's fields (fields.ts fillFields, in f32 and in units of the reference mass)
  var count = 0.0;
  var mass = 0.0;
  var mom = vec3<f32>(0.0);
  for (var s = 0u; s < params.nSpecies; s++) {
    let n = block_moment(0u, s, c);
    let mr = mass_ratio(s);
    count = count + n;
    mass = mass + mr * n;
    mom = mom + mr * vec3<f32>(block_moment(1u, s, c), block_moment(2u, s, c), block_moment(3u, s, c));
  }
  // FIELD_ORDER: n, ux, uy, uz, T, pxx, pyy, pzz, p, qx, qy, qz, particlesPerSample
  var f: array<f32, FIELDS>;
  f[12] = count / f32(close.passes);
  if (count > 0.0) {
    let u = mom / mass;
    let uu = dot(u, u);
    var pd = vec3<f32>(0.0);
    var q = vec3<f32>(0.0);
    for (var s = 0u; s < params.nSpecies; s++) {
      let n = block_moment(0u, s, c);
      if (n == 0.0) { continue; }
      let mr = mass_ratio(s);
      let s1 = vec3<f32>(block_moment(1u, s, c), block_moment(2u, s, c), block_moment(3u, s, c));
      let sd = vec3<f32>(block_moment(4u, s, c), block_moment(5u, s, c), block_moment(6u, s, c));
      let so = vec3<f32>(block_moment(7u, s, c), block_moment(8u, s, c), block_moment(9u, s, c)); // xy, xz, yz
      let s3 = vec3<f32>(block_moment(10u, s, c), block_moment(11u, s, c), block_moment(12u, s, c));
      let v2 = sd.x + sd.y + sd.z;
      let uS1 = dot(u, s1);
      pd = pd + mr * (sd - 2.0 * u * s1 + n * u * u);
      let uS = vec3<f32>(u.x * sd.x + u.y * so.x + u.z * so.y,
                         u.x * so.x + u.y * sd.y + u.z * so.z,
                         u.x * so.y + u.y * so.z + u.z * sd.z);
      q = q + 0.5 * mr * (s3 - u * v2 - 2.0 * uS + 2.0 * u * uS1 + uu * s1 - uu * n * u);
    }
    let nCell = count * close.invPasses;
    f[0] = nCell;
    f[1] = u.x;
    f[2] = u.y;
    f[3] = u.z;
    f[5] = pd.x * close.invPasses;
    f[6] = pd.y * close.invPasses;
    f[7] = pd.z * close.invPasses;
    f[8] = (f[5] + f[6] + f[7]) / 3.0;
    // T = p / (n k) in kelvin: the reference mass and the cell volume of both cancel but the mass
    f[4] = (f[8] / nCell) * (close.massRef / BOLTZMANN_K);
    f[9] = q.x * close.invPasses;
    f[10] = q.y * close.invPasses;
    f[11] = q.z * close.invPasses;
  }
  for (var k = 0u; k < FIELDS; k++) { welford_add(k, c, f[k]); }
  // the block's sums into the run's (exact), then zeroed
  for (var p = 0u; p < MOMENTS * params.nSpecies; p++) {
    let w = p * params.nLocal + c;
    let oldLo = runLo[w];
    let lo = oldLo + blockLo[w];
    let oldHi = runHi[w];
    let hi = oldHi + blockHi[w] + select(0u, 1u, lo < oldLo);
    runLo[w] = lo;
    runHi[w] = hi;
    // a signed overflow of the run's sum: two sums of one sign gave the other
    let a = bitcast<i32>(oldHi);
    let b = bitcast<i32>(blockHi[w]);
    if ((a < 0) == (b < 0) && (bitcast<i32>(hi) < 0) != (a < 0)) { atomicOr(&sampleFlags[0], 1u); }
    blockLo[w] = 0u;
    blockHi[w] = 0u;
  }
}

// One invocation per listed cell: copies its run and open-block sums (all moments and species).
@compute @workgroup_size(WG_SIZE)
fn sample_gather(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                 @builtin(local_invocation_index) li: u32) {
  let k = flat_id(wg, nwg, li);
  let listed = arrayLength(&gatherCells);
  if (k >= listed) { return; }
  let c = gatherCells[k];
  for (var p = 0u; p < MOMENTS * params.nSpecies; p++) {
    let w = p * params.nLocal + c;
    let o = 4u * p * listed + k;
    gathered[o] = runLo[w];
    gathered[o + listed] = runHi[w];
    gathered[o + 2u * listed] = blockLo[w];
    gathered[o + 3u * listed] = blockHi[w];
  }
}
