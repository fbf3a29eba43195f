// collide.wgsl: Bird's no-time-counter (NTC) collisions, one invocation per cell.
// Candidates M = N(N-1)/2 * Fnum (sigma_T c_r)_max dt / V plus the remainder carried from the last
// step; each candidate pair is accepted with probability sigma_T c_r / (sigma_T c_r)_max, and the
// per-cell maximum is raised whenever a larger value is met. VHS: isotropic scattering;
// VSS: cos(chi) = 2 R^(1/alpha) - 1 about the pre-collision relative velocity (Bird 1994, eq. 2.22). Rotating and
// vibrating molecules exchange energy with the translation (Larsen-Borgnakke: internal_exchange).

@group(0) @binding(0) var<uniform> params: SimParams;
@group(0) @binding(1) var<storage, read> ctl: array<u32>;
@group(0) @binding(2) var<storage, read_write> stats: array<atomic<u32>>;
@group(0) @binding(3) var<storage, read> cellCounts: array<u32>;
@group(0) @binding(4) var<storage, read> starts: array<u32>;
@group(0) @binding(5) var<storage, read_write> sigmaCrMax: array<f32>;
@group(0) @binding(6) var<storage, read_write> remainder: array<f32>;
@group(0) @binding(7) var<storage, read_write> vx: array<f32>;
@group(0) @binding(8) var<storage, read_write> vy: array<f32>;
@group(0) @binding(9) var<storage, read_write> vz: array<f32>;
// cell words (read-write: a reaction changes species)
@group(0) @binding(10) var<storage, read_write> cell: array<u32>;
@group(0) @binding(11) var<storage, read> pairs: array<PairInfo>;
// internal energy per particle, INTERNAL_WORDS words (rotational, vibrational; J; a stub unless HAS_ROTATION)
@group(0) @binding(45) var<storage, read_write> eint: array<f32>;

// Smallest gas fraction a cut cell's collision volume is taken at.
const MIN_GAS_FRACTION: f32 = 1e-4;

var<workgroup> wgCollisions: atomic<u32>;
var<workgroup> wgCandidates: atomic<u32>;

// Post-collision relative velocity: magnitude kept, direction scattered by VHS or VSS.
fn scatter_relative(cr: vec3<f32>, pair: PairInfo, u: vec2<f32>) -> vec3<f32> {
  let crMag = length(cr);
  var cosChi = 2.0 * u.x - 1.0;
  if (pair.vss != 0u) { cosChi = 2.0 * pow(u.x, pair.invAlpha) - 1.0; }
  let sinChi = sqrt(max(1.0 - cosChi * cosChi, 0.0));
  let eps = 2.0 * PI * u.y;
  let ce = cos(eps);
  let se = sin(eps);
  if (pair.vss == 0u) {
    return crMag * vec3<f32>(cosChi, sinChi * ce, sinChi * se);
  }
  let vw = sqrt(cr.y * cr.y + cr.z * cr.z);
  if (vw > 1e-6 * crMag) {
    return vec3<f32>(
      cosChi * cr.x + sinChi * se * vw,
      cosChi * cr.y + sinChi * (crMag * cr.z * ce - cr.x * cr.y * se) / vw,
      cosChi * cr.z - sinChi * (crMag * cr.y * ce + cr.x * cr.z * se) / vw);
  }
  // relative velocity along x: any perpendicular frame will do
  return vec3<f32>(cosChi * cr.x, sinChi * ce * crMag, sinChi * se * crMag);
}

// Probability that a molecule relaxes its rotation: 1/Zrot, constant (zInf 0) or Parker's at the temperature of the
// energy it pools, E = E_c + E_rot over (7/2 - omega) k (1/lbExponent = 5/2 - omega). That energy is what the exchange
// redistributes and keeps, so the probability is the same forwards and backwards (detailed balance); Parker's Z at
// the translational collision energy alone drove a 500 K / 100 K start to a false equilibrium (386 K / 269 K).
fn relax_probability(constant: f32, zInf: f32, tStar: f32, pooled: f32, lbExponent: f32) -> f32 {
  if (zInf <= 0.0) { return constant; }
  let t = pooled * lbExponent / ((1.0 + lbExponent) * BOLTZMANN);
  return min(1.0, 1.0 / parker_z(zInf, tStar, t));
}

// Probability that a molecule relaxes its vibration: 1/Zvib, constant (mwA 0) or Millikan-White's with this partner,
// ln Z = mwA T^(-1/3) + mwC - omega ln T (tables.ts: p tau_MW times the VHS collision rate over p), at the temperature
// of the energy it pools, T = (E_c + E_vib) / ((7/2 - omega) k), which the exchange keeps (detailed balance, as
// relax_probability).
fn vibration_probability(constant: f32, mwA: f32, mwC: f32, pooled: f32, omega: f32) -> f32 {
  if (mwA <= 0.0) { return constant; }
  let t = max(pooled / ((3.5 - omega) * BOLTZMANN), 1.0);
  return min(1.0, exp(-(mwA * pow(t, -1.0 / 3.0) + mwC - omega * log(t))));
}

// Most attempts the quantized Larsen-Borgnakke draw makes: each is accepted with probability above 1/(levels+1)
// on average (about 0.57 for omega 0.74), so reaching it has a probability below 1e-60; it stops the exchange
// (no relaxation) rather than loop unbounded.
const MAX_LEVEL_ATTEMPTS: u32 = 256u;

// Quantized Larsen-Borgnakke (Bird 1994, 5.6; Bird 2013): the new vibrational energy of a molecule of quantum kTheta
// pooling energy e with the pair's translation: a level i drawn uniformly in 0..floor(e / kTheta), accepted with
// probability (1 - i kTheta / e)^(3/2 - omega). Draws from the vibration stream of (cell g, candidate k, molecule m).
fn vibrational_level_energy(e: f32, kTheta: f32, old: f32, omega: f32, g: u32, step: u32, k: u32, m: u32) -> f32 {
  let levels = floor(e / kTheta);
  if (levels < 1.0) { return 0.0; }
  for (var a = 1u; a <= MAX_LEVEL_ATTEMPTS; a++) {
    let u = rand4(g, step, STREAM_VIBRATION | (a << 8u), 2u * k + m, params);
    let i = min(floor(u.x * (levels + 1.0)), levels);
    if (u.y < pow(max(1.0 - i * kTheta / e, 0.0), 1.5 - omega)) { return i * kTheta; }
    let i2 = min(floor(u.z * (levels + 1.0)), levels);
    if (u.w < pow(max(1.0 - i2 * kTheta / e, 0.0), 1.5 - omega)) { return i2 * kTheta; }
  }
  return old;
}

// Vibrational exchange of molecule m (0 first, 1 second; particle p, quantum kTheta) of candidate k with the pair's
// translational energy ec: with the relaxation probability (tested against the uniform `test`) it pools its
// vibrational energy with ec and takes a quantized Larsen-Borgnakke level. Returns the translational energy left.
fn vibrational_exchange(p: u32, ec: f32, test: f32, kTheta: f32, constant: f32, mwA: f32, mwC: f32, pair: PairInfo,
                        g: u32, step: u32, k: u32, m: u32) -> f32 {
  let at = p * INTERNAL_WORDS + 1u;
  let e = ec + eint[at];
  if (test >= vibration_probability(constant, mwA, mwC, e, pair.omega)) { return ec; }
  let ev = vibrational_level_energy(e, kTheta, eint[at], pair.omega, g, step, k, m);
  eint[at] = ev;
  return e - ev;
}

// Larsen-Borgnakke exchange between the pair's relative translational energy E_c = m_r c_r^2 / 2 (crMag2 = c_r^2)
// and the internal energy of particles i and j (candidate k of global cell g), applied serially as Bird and SPARTA
// do. Each rotating molecule relaxes its rotation with probability 1/Zrot (constant, or Parker's: relax_probability),
// pooling its rotational energy with E_c and keeping the share 1 - R^(1/(5/2 - omega)) (two rotational degrees of
// freedom); then a vibrating one relaxes its vibration with probability 1/Zvib (vibrational_exchange). The second
// molecule works from what the first left. Returns the factor on |c_r| that leaves E_c after the exchange (total
// energy kept).
fn internal_exchange(i: u32, j: u32, crMag2: f32, pair: PairInfo, g: u32, step: u32, k: u32) -> f32 {
  let r = rand4(g, step, STREAM_INTERNAL, k, params);
  let ec0 = 0.5 * pair.reducedMass * crMag2;
  var ec = ec0;
  let ri = i * INTERNAL_WORDS;
  let rj = j * INTERNAL_WORDS;
  // the two molecules' vibrational relaxation tests: one draw for both (a Philox draw costs as much as the rest)
  var tests = vec4<f32>(1.0);
  if (INTERNAL_WORDS > 1u && (pair.vibKTheta1 > 0.0 || pair.vibKTheta2 > 0.0)) { tests = rand4(g, step, STREAM_VIBRATION, k, params); }
  if (r.x < relax_probability(pair.rotRelax1, pair.zInf1, pair.tStar1, ec + eint[ri], pair.lbExponent)) {
    let e = ec + eint[ri];
    let er = e * (1.0 - pow(r.y, pair.lbExponent));
    eint[ri] = er;
    ec = e - er;
  }
  if (INTERNAL_WORDS > 1u && pair.vibKTheta1 > 0.0) {
    ec = vibrational_exchange(i, ec, tests.x, pair.vibKTheta1, pair.vibRelax1, pair.mwA1, pair.mwC1, pair, g, step, k, 0u);
  }
  if (r.z < relax_probability(pair.rotRelax2, pair.zInf2, pair.tStar2, ec + eint[rj], pair.lbExponent)) {
    let e = ec + eint[rj];
    let er = e * (1.0 - pow(r.w, pair.lbExponent));
    eint[rj] = er;
    ec = e - er;
  }
  if (INTERNAL_WORDS > 1u && pair.vibKTheta2 > 0.0) {
    ec = vibrational_exchange(j, ec, tests.y, pair.vibKTheta2, pair.vibRelax2, pair.mwA2, pair.mwC2, pair, g, step, k, 1u);
  }
  if (ec0 <= 0.0) { return 1.0; }
  return sqrt(max(ec, 0.0) / ec0);
}

// Runs the NTC procedure in local cell c; returns (collisions, candidates). The random stream is
// keyed by the global cell id, so the result does not depend on which rank holds the cell.
fn collide_cell(c: u32, step: u32) -> vec2<u32> {
  let g = global_of_local(c, params);
  let n = cellCounts[c];
  if (n < 2u) { return vec2<u32>(0u, 0u); }
  let s = starts[c];
  var crMax = sigmaCrMax[c];
  var factor = params.collisionFactor;
  // a cut cell's collision volume is its gas volume; never below MIN_GAS_FRACTION of the cell, so that a gas
  // sliver measured too thin (body-tables.ts) cannot ask for an unbounded number of candidate pairs
  if (HAS_BODIES) { factor = factor / max(volumeFraction[g], MIN_GAS_FRACTION); }
  let m = f32(n) * f32(n - 1u) * factor * crMax + remainder[c];
  let nCand = u32(floor(m));
  remainder[c] = m - f32(nCand);
  var accepted = 0u;
  // particles this cell's dissociations made this step (their ranks in the cell follow its n particles)
  var made = 0u;
  for (var k = 0u; k < nCand; k++) {
    let u = rand4(g, step, STREAM_COLLIDE, 2u * k, params);
    let a = min(u32(u.x * f32(n)), n - 1u);
    var b = min(u32(u.y * f32(n - 1u)), n - 2u);
    if (b >= a) { b = b + 1u; }
    let i = s + a;
    let j = s + b;
    let v1 = vec3<f32>(vx[i], vy[i], vz[i]);
    let v2 = vec3<f32>(vx[j], vy[j], vz[j]);
    let cr = v1 - v2;
    let pair = pairs[species_part(cell[i]) * params.nSpecies + species_part(cell[j])];
    let sigmaCr = pair.crossSection * pow(max(length(cr), 1e-30), pair.crExponent);
    if (sigmaCr > crMax) { crMax = sigmaCr; }
    if (u.z * crMax >= sigmaCr) { continue; }
    accepted = accepted + 1u;
    if (REACTIONS) {
      let reacted = try_reaction(i, j, cr, pair, g, step, k, n, s, made);
      if (reacted == 2u) { made += 1u; }
      if (reacted != 0u) { continue; }
    }
    let w = rand4(g, step, STREAM_COLLIDE, 2u * k + 1u, params);
    let vcm = pair.massFraction1 * v1 + pair.massFraction2 * v2;
    var crNew = scatter_relative(cr, pair, w.xy);
    if (HAS_ROTATION && (pair.rotRelax1 > 0.0 || pair.rotRelax2 > 0.0)) {
      crNew = crNew * internal_exchange(i, j, dot(cr, cr), pair, g, step, k);
    }
    let v1n = vcm + pair.massFraction2 * crNew;
    let v2n = vcm - pair.massFraction1 * crNew;
    vx[i] = v1n.x; vy[i] = v1n.y; vz[i] = v1n.z;
    vx[j] = v2n.x; vy[j] = v2n.y; vz[j] = v2n.z;
  }
  sigmaCrMax[c] = crMax;
  return vec2<u32>(accepted, nCand);
}

// One invocation per cell; collision and candidate counts summed per workgroup into the step's stats.
@compute @workgroup_size(WG_SIZE)
fn collide(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
           @builtin(local_invocation_index) li: u32) {
  let c = flat_id(wg, nwg, li);
  collide_cells(c, li, c < params.nLocal);
}

// Split steps (common.wgsl: SPLIT_PASS): the interior pass collides the interior cells (one invocation per
// local cell), the halo pass the halo cells (one invocation per entry of the halo list).
@compute @workgroup_size(WG_SIZE)
fn collide_split(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                 @builtin(local_invocation_index) li: u32) {
  let k = flat_id(wg, nwg, li);
  if (SPLIT_PASS == 1u) {
    collide_cells(k, li, k < params.nLocal && !is_halo(k));
  } else {
    let inList = k < ctl[CTL_HALO_CELLS];
    collide_cells(select(0u, halo_cell(k, params.nLocal), inList), li, inList);
  }
}

// Collides cell c when `busy` and adds the workgroup's counts to the step's statistics.
fn collide_cells(c: u32, li: u32, busy: bool) {
  if (li == 0u) {
    atomicStore(&wgCollisions, 0u);
    atomicStore(&wgCandidates, 0u);
  }
  workgroupBarrier();
  var counted = vec2<u32>(0u, 0u);
  if (busy) { counted = collide_cell(c, ctl[CTL_STEP]); }
  if (counted.y > 0u) {
    atomicAdd(&wgCollisions, counted.x);
    atomicAdd(&wgCandidates, counted.y);
  }
  workgroupBarrier();
  // only workgroups that had candidates touch the step's two counters (thousands of idle workgroups of a
  // split pass would otherwise queue up on the same two addresses)
  if (li == 0u) {
    let candidates = atomicLoad(&wgCandidates);
    if (candidates > 0u) {
      let slot = ctl[CTL_STATS_SLOT];
      atomicAdd(&stats[slot + ST_COLLISIONS], atomicLoad(&wgCollisions));
      atomicAdd(&stats[slot + ST_CANDIDATES], candidates);
    }
  }
}
