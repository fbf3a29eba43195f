// sample.wgsl: sampling of the 13 velocity moments per species and cell (count, sum v_i, sum v_i v_j (6),
// sum v^2 v_i (3)) and, where the gas has internal modes, of the internal energies (sum E_rot, sum E_vib) into exact
// 64-bit fixed-point sums that stay on the GPU for the whole sampling window (the moments and the sums:
// sample-sums.wgsl).
//
// sample: the sampling pass, one invocation per cell. The cell's particles are contiguous after the sort; the
// invocation reads them four at a time (vec4 loads of the velocity arrays, 16-byte aligned), so that its 32 lanes
// touch a quarter of the cache lines a particle-by-particle walk touches: that walk (one invocation per cell, or
// teams of 2-8 lanes per cell) was bound by the cache's transactions, 1.33-1.73 ms per pass at 102-126M particles on
// an H100 (this pass: 1.01 ms at 125.8M, 0.80 ms at 102M). Also tried, and slower or no faster: the chunks inside a
// cell without per-particle tests and the sums' low words read before the walk (1.04-1.10 ms); workgroups of one warp
// reading their cells' particles coalesced into workgroup memory and each invocation walking its cell there (4.7 ms:
// bank conflicts and a serial walk). Each invocation adds its cell's particles 0, 2, 4, ... and 1, 3, 5, ... in two
// f32 partial sums, then even + odd, and adds the 13 totals, times the moment's power-of-two scale and rounded to integers, to the open
// block's 64-bit sums (sample-sums.wgsl). The f32 part depends on the cell's particle list alone (never on the
// workgroup or the rank), and integer sums do not depend on any order, so the sums are bitwise the same on any number
// of ranks and across a resume; nothing drifts however long the window (the 64-bit sums overflow only after about
// 2^38 particle-passes per cell and block, which sets a flag).
//
// sample_close: at the end of a batch-means block, per cell: adds the block's sums to the run's, computes
// the block's fields (f32; formulas of fields.ts, for Trot, Tvib and Tall internal-fields.ts, for a mixture's n_<s> and
// x_<s> species-fields.ts) and updates their running mean and M2 (Welford) for the
// standard errors, and zeroes the block's sums. The per-volume fields are kept per sampled particle (n in
// particles per cell, pressures and heat fluxes in units of the reference mass per cell) so that their
// squares stay within f32: the host multiplies by fnum / cell volume (and the reference mass) when it reads them.
//
// sample_gather: copies the run's and the open block's sums of a list of cells (one plane of the live view).

// the fields of every run; a gas with internal modes adds Trot, Tvib and Tall (field_count())
const FIELDS: u32 = 13u;
const MAX_FIELDS: u32 = 16u;
const BOLTZMANN_K: f32 = 1.380649e-23;

@group(0) @binding(0) var<uniform> params: SimParams;
@group(0) @binding(1) var<storage, read> cellCounts: array<u32>;
@group(0) @binding(2) var<storage, read> starts: array<u32>;
// the particle arrays four at a time (their buffers are a multiple of 16 bytes: state.ts)
@group(0) @binding(3) var<storage, read> vx4: array<vec4<f32>>;
@group(0) @binding(4) var<storage, read> vy4: array<vec4<f32>>;
@group(0) @binding(5) var<storage, read> vz4: array<vec4<f32>>;
@group(0) @binding(6) var<storage, read> cell4: array<vec4<u32>>;
// internal energy per particle, INTERNAL_WORDS words (rotational, vibrational; J; a stub unless HAS_ROTATION): the
// shared add_cell_internal's view, and the same buffer four words at a time for the pass (add_cell_internal4)
@group(0) @binding(45) var<storage, read> eint: array<f32>;
@group(0) @binding(46) var<storage, read> eint4: array<vec4<f32>>;
// the open block's sums and the overflow flag: sample-sums.wgsl (bindings 50-52)
// the run's sums (closed blocks), same layout
@group(0) @binding(10) var<storage, read_write> runLo: array<u32>;
@group(0) @binding(11) var<storage, read_write> runHi: array<u32>;
// per field and cell the running mean over the blocks, then the M2: [mean | m2][field][local cell]
@group(0) @binding(12) var<storage, read_write> welford: array<f32>;
@group(0) @binding(13) var<uniform> close: CloseParams;
// the species' masses over the reference mass (four per vec4)
@group(0) @binding(16) var<uniform> closeMasses: array<vec4<f32>, 4>;
// per species its internal modes: (rotational degrees of freedom, theta_v in K (0: none), 0, 0)
@group(0) @binding(17) var<uniform> closeModes: array<vec4<f32>, MAX_SPECIES>;
// sample_gather: the cells to copy, and the copy: [moment][species][run lo, run hi, block lo, block hi][listed cell]
@group(0) @binding(14) var<storage, read> gatherCells: array<u32>;
@group(0) @binding(15) var<storage, read_write> gathered: array<u32>;

// Species of particle i (add_cell_internal in sample-sums.wgsl).
fn particle_species(i: u32) -> u32 {
  return species_part(cell4[i / 4u][i % 4u]);
}

// Fields of fixed name of the batch means: FIELDS, and Trot, Tvib, Tall where the gas has internal modes.
fn fixed_field_count() -> u32 {
  return select(FIELDS, MAX_FIELDS, HAS_ROTATION);
}

// Fields of the batch means (runFieldNames): the fixed ones, then in a gas of two or more species n_<s> and x_<s> of
// every species (speciesFieldCount).
fn field_count() -> u32 {
  return fixed_field_count() + select(0u, 2u * params.nSpecies, params.nSpecies > 1u);
}

// Adds particle i (velocity v, cell word w) to the partial sum a when it is one of the cell's [first, end) particles
// and of species s (any species when mixture is false).
fn add_if_in_cell(a: ptr<function, PassMoments>, i: u32, first: u32, end: u32, v: vec3<f32>, w: u32, s: u32, mixture: bool) {
  if (i < first || i >= end) { return; }
  if (mixture && species_part(w) != s) { return; }
  moments_add(a, v);
}

// Split steps of a multi-rank run (loop.ts): sample_split samples the interior cells (SAMPLE_PART 1, in the interior
// pass, before the next step's interior part moves early) or the halo list's cells (SAMPLE_PART 2, after the halo
// pass); SAMPLE_SIGN -1 takes an interior pass's sums back exactly (a redone step: integer sums of the same rounded
// values), 1 adds them.
override SAMPLE_PART: u32 = 1u;
override SAMPLE_SIGN: f32 = 1.0;
// the control words (the halo list's length) and the halo (common.wgsl: halo) of sample_split
@group(0) @binding(53) var<storage, read> sampleCtl: array<u32>;

// One invocation per cell: this sampling pass's moments of the cell added to the open block's sums.
@compute @workgroup_size(WG_SIZE)
fn sample(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
          @builtin(local_invocation_index) li: u32) {
  let c = flat_id(wg, nwg, li);
  if (c >= params.nLocal) { return; }
  sample_cell(c, 1.0);
}

// Split steps: one invocation per local cell, sampling the interior ones (SAMPLE_PART 1), or per entry of the halo
// list (SAMPLE_PART 2); SAMPLE_SIGN -1 takes the sums back.
@compute @workgroup_size(WG_SIZE)
fn sample_split(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                @builtin(local_invocation_index) li: u32) {
  let k = flat_id(wg, nwg, li);
  if (SAMPLE_PART == 1u) {
    if (k < params.nLocal && !is_halo(k)) { sample_cell(k, SAMPLE_SIGN); }
    return;
  }
  if (k < sampleCtl[CTL_HALO_CELLS]) { sample_cell(halo_cell(k, params.nLocal), SAMPLE_SIGN); }
}

// Adds local cell c's moments (sign 1) or takes them back (sign -1) to or from the open block's sums.
fn sample_cell(c: u32, sign: f32) {
  let n = cellCounts[c];
  if (n == 0u) { return; }
  let first = starts[c];
  let end = first + n;
  let mixture = params.nSpecies > 1u;
  for (var s = 0u; s < params.nSpecies; s++) {
    // lanes 0 and 2 of a vec4 hold the cell's even particles when the cell starts at an even index, its odd ones
    // otherwise; the two partial sums are added at the end, which is even + odd either way
    var a = moments_zero();
    var b = moments_zero();
    for (var j = first / 4u; 4u * j < end; j++) {
      let x = vx4[j];
      let y = vy4[j];
      let z = vz4[j];
      var w = vec4<u32>(0u);
      if (mixture) { w = cell4[j]; }
      let i = 4u * j;
      add_if_in_cell(&a, i, first, end, vec3<f32>(x.x, y.x, z.x), w.x, s, mixture);
      add_if_in_cell(&b, i + 1u, first, end, vec3<f32>(x.y, y.y, z.y), w.y, s, mixture);
      add_if_in_cell(&a, i + 2u, first, end, vec3<f32>(x.z, y.z, z.z), w.z, s, mixture);
      add_if_in_cell(&b, i + 3u, first, end, vec3<f32>(x.w, y.w, z.w), w.w, s, mixture);
    }
    add_cell_moments(c, s, moments_signed(moments_total(a, b), sign));
    add_cell_internal4(c, s, first, end, mixture, sign);
  }
}

// The moments times sign (1 or -1: exact, so the rounded sums taken back are those added).
fn moments_signed(a: PassMoments, sign: f32) -> PassMoments {
  return PassMoments(sign * a.cnt, sign * a.m1, sign * a.m2, sign * a.mx, sign * a.m3);
}

// add_cell_internal reading the internal energies four words at a time (4 / INTERNAL_WORDS particles per vec4), as the
// pass reads the velocities: the particles of even and of odd index in two partial sums, in increasing order, then
// added (the same bits as add_cell_internal, whose in-cell parity splits the particles alike).
fn add_cell_internal4(c: u32, s: u32, first: u32, end: u32, mixture: bool, sign: f32) {
  if (!HAS_ROTATION) { return; }
  let per = 4u / INTERNAL_WORDS;
  var even = vec2<f32>(0.0);
  var odd = vec2<f32>(0.0);
  for (var j = first / per; j * per < end; j++) {
    let v = eint4[j];
    for (var q = 0u; q < per; q++) {
      let i = j * per + q;
      if (i < first || i >= end) { continue; }
      if (mixture && particle_species(i) != s) { continue; }
      var e = vec2<f32>(v[q * INTERNAL_WORDS], 0.0);
      if (INTERNAL_WORDS > 1u) { e.y = v[q * INTERNAL_WORDS + 1u]; }
      if ((i & 1u) == 0u) { even = even + e; } else { odd = odd + e; }
    }
  }
  add_internal_total(c, s, sign * (even + odd));
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
  if (m < MOMENTS) { return close.unscale3; }
  return close.unscaleE;
}

// The block's sum of moment m of species s in cell c (SI units, f32).
fn block_moment(m: u32, s: u32, c: u32) -> f32 {
  let w = block_word(m, s, c);
  return to_f32(blockLo[w], blockHi[w]) * moment_unscale(m);
}

// Mass ratio of species s to the reference mass.
fn mass_ratio(s: u32) -> f32 {
  return closeMasses[s / 4u][s % 4u];
}

// Welford's update of field f of cell c with this block's value x.
fn welford_add(f: u32, c: u32, x: f32) {
  let i = f * params.nLocal + c;
  let j = (field_count() + f) * params.nLocal + c;
  let mean = welford[i];
  let d = x - mean;
  let next = mean + d / f32(close.block);
  welford[i] = next;
  welford[j] = welford[j] + d * (x - next);
}

// The block's rotational, vibrational and overall temperatures of cell c (K), its translational temperature being t
// (internal-fields.ts fillInternalFields in f32; 0 K where no molecule rotates or vibrates).
fn internal_temperatures(c: u32, t: f32) -> vec3<f32> {
  var count = 0.0;
  var rotDof = 0.0;
  var eRot = 0.0;
  var vibDof = 0.0;
  var vibSum = 0.0;
  for (var s = 0u; s < params.nSpecies; s++) {
    let n = block_moment(0u, s, c);
    if (n == 0.0) { continue; }
    let mode = closeModes[s];
    count = count + n;
    rotDof = rotDof + mode.x * n;
    eRot = eRot + block_moment(MOMENTS, s, c);
    if (INTERNAL_WORDS > 1u && mode.y > 0.0) {
      let e = block_moment(MOMENTS + 1u, s, c);
      if (e > 0.0) {
        // k theta N / E = e^x - 1 with x = theta / T_vib,s
        let r = BOLTZMANN_K * mode.y * n / e;
        let x = log(1.0 + r);
        let z = 2.0 * x / r * n;
        vibDof = vibDof + z;
        vibSum = vibSum + z * (mode.y / x);
      }
    }
  }
  var tRot = 0.0;
  if (rotDof > 0.0) { tRot = 2.0 * eRot / (BOLTZMANN_K * rotDof); }
  var tVib = 0.0;
  if (vibDof > 0.0) { tVib = vibSum / vibDof; }
  var tAll = 0.0;
  if (count > 0.0) { tAll = (3.0 * count * t + rotDof * tRot + vibSum) / (3.0 * count + rotDof + vibDof); }
  return vec3<f32>(tRot, tVib, tAll);
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
  // FIELD_ORDER: n, ux, uy, uz, T, pxx, pyy, pzz, p, qx, qy, qz, particlesPerSample, then Trot, Tvib, Tall
  var f: array<f32, MAX_FIELDS>;
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
    if (HAS_ROTATION) {
      let ti = internal_temperatures(c, f[4]);
      f[13] = ti.x;
      f[14] = ti.y;
      f[15] = ti.z;
    }
  }
  for (var k = 0u; k < fixed_field_count(); k++) { welford_add(k, c, f[k]); }
  // a mixture's n_<s> (particles per cell and pass, as n) and x_<s> (0 in an empty cell): species-fields.ts
  if (params.nSpecies > 1u) {
    let first = fixed_field_count();
    for (var s = 0u; s < params.nSpecies; s++) {
      let n = block_moment(0u, s, c);
      var x = 0.0;
      if (count > 0.0) { x = n / count; }
      welford_add(first + s, c, n * close.invPasses);
      welford_add(first + params.nSpecies + s, c, x);
    }
  }
  // the block's sums into the run's (exact), then zeroed
  for (var p = 0u; p < sample_moments() * params.nSpecies; p++) {
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
  for (var p = 0u; p < sample_moments() * params.nSpecies; p++) {
    let w = p * params.nLocal + c;
    let o = 4u * p * listed + k;
    gathered[o] = runLo[w];
    gathered[o + listed] = runHi[w];
    gathered[o + 2u * listed] = blockLo[w];
    gathered[o + 3u * listed] = blockHi[w];
  }
}
