// react.wgsl: gas-phase reactions inside the collisions (a module of collide.wgsl; REACTIONS), Bird's total collision
// energy (TCE) model. For an accepted pair whose species have reactions, one uniform decides among them with the
// probabilities P_r = prefactor ((E_c - Ea)/k)^powA (1 - Ea/E_c)^powB (Bird 1994, eq. 6.10, in SPARTA's form; the
// host folds the Arrhenius A, b, the pair's VHS data and the gamma functions into prefactor: reaction-tables.ts),
// E_c = E_trans + w1 E_rot(R1) + w2 E_rot(R2). A reaction that happens changes the species, makes the third particle of
// a dissociation, and shares the energy left, E_trans + E_internal + E_reaction, among the products' rotation,
// vibration and translation by Larsen-Borgnakke draws from the whole pool (every mode relaxes, as SPARTA's reacting
// energy disposal does); a dissociation's two fragments leave with the same velocity (SPARTA's three-body scattering).

// The reaction table (uniform): per species pair (s1 * nSpecies + s2) the first entry and count (first | count << 16)
// of its reactions in `list` (both orders of a pair list the same reactions), and per species its mass (kg),
// rotational degrees of freedom, k theta_v (J, 0 without vibration) and omega.
struct ReactionTable {
  count: u32,
  perform: u32,
  pad0: u32,
  pad1: u32,
  reactions: array<Reaction, 64>,
  pairs: array<vec4<u32>, 64>,
  list: array<vec4<u32>, 32>,
  species: array<vec4<f32>, 16>,
}

@group(0) @binding(61) var<uniform> rxTable: ReactionTable;
// per product of the step, region 0 (common.wgsl: product_final): (parent, rank in its cell, last index of the cell's
// particles in the sorted set, its number among the cell's products this step)
@group(0) @binding(60) var<storage, read_write> productInfo: array<vec4<u32>>;

// Word k of a uniform array of vec4<u32> read as u32 words.
fn rx_word(k: u32, which: u32) -> u32 {
  if (which == 0u) { return rxTable.pairs[k >> 2u][k & 3u]; }
  return rxTable.list[k >> 2u][k & 3u];
}

// Four uniforms of draw m of reaction candidate k in cell g.
fn rx_rand(g: u32, step: u32, k: u32, m: u32) -> vec4<f32> {
  return rand4(g, step, STREAM_REACTION | (m << 8u), k, params);
}

// Rotational and vibrational energy of particle p (J; zero without internal modes).
fn internal_of(p: u32) -> vec2<f32> {
  if (!HAS_ROTATION) { return vec2<f32>(0.0); }
  let at = p * INTERNAL_WORDS;
  if (INTERNAL_WORDS > 1u) { return vec2<f32>(eint[at], eint[at + 1u]); }
  return vec2<f32>(eint[at], 0.0);
}

// Sets particle p's rotational and vibrational energy.
fn set_internal(p: u32, e: vec2<f32>) {
  if (!HAS_ROTATION) { return; }
  let at = p * INTERNAL_WORDS;
  eint[at] = e.x;
  if (INTERNAL_WORDS > 1u) { eint[at + 1u] = e.y; }
}

// TCE probability that the pair of species (si, sj) with relative translational energy et and rotational energies
// (ri, rj) reacts by reaction r; also whether particle i is its R1.
fn tce_probability(r: u32, si: u32, et: f32, ri: f32, rj: f32) -> f32 {
  let rx = rxTable.reactions[r];
  let iIsR1 = si == rx.r1;
  let e1 = select(rj, ri, iIsR1);
  let e2 = select(ri, rj, iIsR1);
  let ecc = et + rx.w1 * e1 + rx.w2 * e2;
  // energetically impossible: below the activation energy, or (exothermic with Ea < -Er) below -Er
  var excess = ecc - rx.ea;
  if (rx.ea <= -rx.er) { excess = ecc + rx.er; }
  if (excess <= 0.0 || ecc <= 0.0) { return 0.0; }
  return rx.prefactor * pow(max(ecc - rx.ea, 1e-30) / BOLTZMANN, rx.powA) * pow(max(1.0 - rx.ea / ecc, 0.0), rx.powB);
}

// Effective vibrational degrees of freedom of a harmonic mode of quantum kTheta at temperature t: 2x/(e^x - 1), x = theta/t.
fn effective_vib_dof(kTheta: f32, t: f32) -> f32 {
  if (kTheta <= 0.0 || t <= 0.0) { return 0.0; }
  let x = kTheta / (BOLTZMANN * t);
  if (x > 80.0) { return 0.0; }
  return 2.0 * x / (exp(x) - 1.0);
}

// Temperature of a pool of energy e (J) shared by `classical` gamma shapes (translation and rotation) and up to three
// harmonic modes (quanta q, 0 for none): e = classical k T + sum k theta / (e^(theta/T) - 1), by bisection.
fn pool_temperature(e: f32, classical: f32, q: vec3<f32>) -> f32 {
  var hi = e / (BOLTZMANN * classical);
  if (q.x <= 0.0 && q.y <= 0.0 && q.z <= 0.0) { return hi; }
  var lo = 0.0;
  for (var it = 0u; it < 40u; it++) {
    let t = 0.5 * (lo + hi);
    var f = classical * BOLTZMANN * t - e;
    for (var m = 0u; m < 3u; m++) {
      if (q[m] > 0.0) {
        let x = q[m] / (BOLTZMANN * t);
        if (x < 80.0) { f += q[m] / (exp(x) - 1.0); }
      }
    }
    if (f > 0.0) { hi = t; } else { lo = t; }
  }
  return 0.5 * (lo + hi);
}

// Quantized Larsen-Borgnakke draw of a vibrational level from pool e with exponent b (acceptance (1 - E_v/e)^b).
fn reacting_vib_level(e: f32, kTheta: f32, b: f32, g: u32, step: u32, k: u32, m: u32) -> f32 {
  let levels = floor(e / kTheta);
  if (levels < 1.0) { return 0.0; }
  for (var a = 0u; a < MAX_LEVEL_ATTEMPTS; a++) {
    let u = rx_rand(g, step, k, 8u + 3u * a + m);
    let i = min(floor(u.x * (levels + 1.0)), levels);
    if (u.y < pow(max(1.0 - i * kTheta / e, 0.0), b)) { return i * kTheta; }
    let i2 = min(floor(u.z * (levels + 1.0)), levels);
    if (u.w < pow(max(1.0 - i2 * kTheta / e, 0.0), b)) { return i2 * kTheta; }
  }
  return 0.0;
}

// Shares pool e among the internal modes of up to three product species (sp; 0xffffffff for none) and the
// translation (shape 5/2 - omega), every mode relaxing: sequential draws from the pool, each with the exponent of the
// modes still to draw (rotation a beta draw, vibration quantized with its effective dof at the pool temperature).
// Returns the products' (E_rot, E_vib) in the first three columns and the translational energy left in w of the last.
fn dispose_energy(e0: f32, sp: vec3<u32>, omega: f32, g: u32, step: u32, k: u32) -> mat3x4<f32> {
  var classical = 2.5 - omega;
  var quanta = vec3<f32>(0.0);
  var rotDof = vec3<f32>(0.0);
  for (var m = 0u; m < 3u; m++) {
    if (sp[m] == 0xffffffffu) { continue; }
    let info = rxTable.species[sp[m]];
    rotDof[m] = info.y;
    classical += 0.5 * info.y;
    if (INTERNAL_WORDS > 1u) { quanta[m] = info.z; }
  }
  let tPool = pool_temperature(e0, classical, quanta);
  var remaining = rotDof.x + rotDof.y + rotDof.z;
  for (var m = 0u; m < 3u; m++) { remaining += effective_vib_dof(quanta[m], tPool); }
  var e = e0;
  var out = mat3x4<f32>(vec4<f32>(0.0), vec4<f32>(0.0), vec4<f32>(0.0));
  for (var m = 0u; m < 3u; m++) {
    if (sp[m] == 0xffffffffu) { continue; }
    let u = rx_rand(g, step, k, 4u + m);
    if (rotDof[m] > 0.0) {
      let b = (1.5 - omega) + 0.5 * (remaining - rotDof[m]);
      let er = e * (1.0 - pow(u.x, 1.0 / (1.0 + b)));
      out[m].x = er;
      e -= er;
      remaining -= rotDof[m];
    }
    if (quanta[m] > 0.0) {
      let zeta = effective_vib_dof(quanta[m], tPool);
      let b = (1.5 - omega) + 0.5 * (remaining - zeta);
      let ev = reacting_vib_level(e, quanta[m], b, g, step, k, m);
      out[m].y = ev;
      e -= ev;
      remaining -= zeta;
    }
  }
  out[2].w = max(e, 0.0);
  return out;
}

// Tests the reactions of an accepted pair (particles i, j; pre-collision relative velocity cr) of candidate k in cell
// g, and performs the one that happens: species, internal energies, velocities and (dissociation) the new particle.
// n and s: the cell's particle count and first index; made: the products the cell has made this step so far.
// Returns 1 when a reaction replaced the collision, 2 when it also made a particle, 0 for a plain collision.
fn try_reaction(i: u32, j: u32, cr: vec3<f32>, pair: PairInfo, g: u32, step: u32, k: u32, n: u32, s: u32, made: u32) -> u32 {
  let si = species_part(cell[i]);
  let sj = species_part(cell[j]);
  let entry = rx_word(si * params.nSpecies + sj, 0u);
  let count = entry >> 16u;
  if (count == 0u) { return 0u; }
  let first = entry & 0xffffu;
  let et = 0.5 * pair.reducedMass * dot(cr, cr);
  let ei = internal_of(i);
  let ej = internal_of(j);
  // most collisions are below every activation energy: no probability, and no random draw, for them
  var total = 0.0;
  for (var q = 0u; q < count; q++) { total += tce_probability(rx_word(first + q, 1u), si, et, ei.x, ej.x); }
  if (total <= 0.0) { return 0u; }
  let u = rx_rand(g, step, k, 0u);
  if (u.x >= total) { return 0u; }
  var cumulative = 0.0;
  var chosen = 0xffffffffu;
  for (var q = 0u; q < count; q++) {
    let r = rx_word(first + q, 1u);
    cumulative += tce_probability(r, si, et, ei.x, ej.x);
    if (u.x < cumulative) {
      chosen = r;
      break;
    }
  }
  if (chosen == 0xffffffffu) { return 0u; }
  let base = reaction_words(params);
  atomicAdd(&stats[base + RX_STEP_TALLY + chosen], 1u);
  atomicAdd(&stats[ctl[CTL_STATS_SLOT] + ST_REACTIONS], 1u);
  if (rxTable.perform == 0u) { return 0u; }
  let rx = rxTable.reactions[chosen];
  // a is the particle of species R1, b the other
  let iIsR1 = si == rx.r1;
  let a = select(j, i, iIsR1);
  let b = select(i, j, iIsR1);
  let ma = rxTable.species[rx.r1].x;
  let mb = rxTable.species[rx.r2].x;
  let va = vec3<f32>(vx[a], vy[a], vz[a]);
  let vb = vec3<f32>(vx[b], vy[b], vz[b]);
  let vcm = (ma * va + mb * vb) / (ma + mb);
  let crAB = va - vb;
  let pool = et + ei.x + ei.y + ej.x + ej.y + rx.er;
  var product = 0u;
  var slotTop = 0u;
  if (rx.kind == 0u) {
    // the new particle's slot at the top of the buffers: a step's products must fit above every live particle
    let kMade = atomicAdd(&stats[base + RX_MADE], 1u);
    slotTop = params.capacity - 1u - kMade;
    if (kMade >= arrayLength(&productInfo) / 3u || slotTop < ctl[CTL_N_ALL]) {
      atomicAdd(&stats[base + RX_OVERFLOW], 1u);
      return 0u;
    }
    product = kMade;
  }
  let omegaMean = select(pairs[rx.p1 * params.nSpecies + rx.p2].omega,
    (rxTable.species[rx.p1].w + rxTable.species[rx.p2].w + rxTable.species[rx.r2].w) / 3.0, rx.kind == 0u);
  let spB = select(rx.p2, rx.r2, rx.kind == 0u);
  let spC = select(0xffffffffu, rx.p2, rx.kind == 0u);
  let shares = dispose_energy(pool, vec3<u32>(rx.p1, spB, spC), omegaMean, g, step, k);
  let w = rx_rand(g, step, k, 1u);
  if (rx.kind == 0u) {
    // dissociation: the fragments (a, and the new particle c) fly as one body of mass m_a against b
    let crNew = scatter_relative(crAB, pair, w.xy) * (sqrt(2.0 * shares[2].w / pair.reducedMass) / max(length(crAB), 1e-30));
    let vFragments = vcm + (mb / (ma + mb)) * crNew;
    let vPartner = vcm - (ma / (ma + mb)) * crNew;
    vx[a] = vFragments.x; vy[a] = vFragments.y; vz[a] = vFragments.z;
    vx[b] = vPartner.x; vy[b] = vPartner.y; vz[b] = vPartner.z;
    cell[a] = cell_word(cell_part(cell[a]), rx.p1);
    set_internal(a, shares[0].xy);
    set_internal(b, shares[1].xy);
    vx[slotTop] = vFragments.x; vy[slotTop] = vFragments.y; vz[slotTop] = vFragments.z;
    cell[slotTop] = cell_word(cell_part(cell[a]), rx.p2);
    set_internal(slotTop, shares[2].xy);
    productInfo[product] = vec4<u32>(a, n + made, s + n - 1u, made);
    return 2u;
  }
  // exchange: a becomes p1, b becomes p2; the products' relative speed from the translational energy left
  let mp1 = rxTable.species[rx.p1].x;
  let mp2 = rxTable.species[rx.p2].x;
  // (m1 / (m1 + m2)) m2: the product m1 m2 (about 1e-51 kg^2) is below f32's range
  let mrNew = (mp1 / (mp1 + mp2)) * mp2;
  let post = pairs[rx.p1 * params.nSpecies + rx.p2];
  let crNew = scatter_relative(crAB, post, w.xy) * (sqrt(2.0 * shares[2].w / mrNew) / max(length(crAB), 1e-30));
  let v1 = vcm + (mp2 / (mp1 + mp2)) * crNew;
  let v2 = vcm - (mp1 / (mp1 + mp2)) * crNew;
  vx[a] = v1.x; vy[a] = v1.y; vz[a] = v1.z;
  vx[b] = v2.x; vy[b] = v2.y; vz[b] = v2.z;
  cell[a] = cell_word(cell_part(cell[a]), rx.p1);
  cell[b] = cell_word(cell_part(cell[b]), rx.p2);
  set_internal(a, shares[0].xy);
  set_internal(b, shares[1].xy);
  return 1u;
}
