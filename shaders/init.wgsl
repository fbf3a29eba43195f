// init.wgsl: fills the box at step 0. Particle i gets a position uniform in the box, a species
// drawn by mole fraction, and a velocity from a drifting Maxwellian (kind 0) or the +-sqrt(kT/m)
// start (kind 1: each component +-sqrt(kT/m) with a random sign, used to test relaxation), and a rotating species
// its rotational (vibrational) energy at the initial rotational (vibrational) temperature.
// Each particle is counted in its cell like move.wgsl does, and the sort then orders the box (so the
// first step starts from cell-sorted particles). In a multi-rank run every rank draws all initial
// particles and keeps those in its own cells, appended in any order with key (0, i): the sort puts
// them in the same order as one rank would. Particles drawn inside a body are dropped (body.wgsl: inside_body),
// so the gas volume of every cut cell gets its share.

@group(0) @binding(0) var<uniform> params: SimParams;
@group(0) @binding(1) var<uniform> init: InitParams;
@group(0) @binding(2) var<storage, read> speciesInfo: array<SpeciesInfo>;
@group(0) @binding(3) var<storage, read_write> px: array<f32>;
@group(0) @binding(4) var<storage, read_write> py: array<f32>;
@group(0) @binding(5) var<storage, read_write> pz: array<f32>;
@group(0) @binding(6) var<storage, read_write> vx: array<f32>;
@group(0) @binding(7) var<storage, read_write> vy: array<f32>;
@group(0) @binding(8) var<storage, read_write> vz: array<f32>;
// the cell words the sort reads (state.ts cellsAfterMove: the set's cell array on one rank, its moved-cell array on several)
@group(0) @binding(9) var<storage, read_write> cell: array<u32>;
@group(0) @binding(10) var<storage, read_write> ctl: array<atomic<u32>>;
@group(0) @binding(11) var<storage, read_write> counts: array<atomic<u32>>;
@group(0) @binding(12) var<storage, read_write> slot: array<u32>;
@group(0) @binding(13) var<storage, read_write> keys: array<vec2<u32>>;
// internal energy per particle, INTERNAL_WORDS words (rotational, vibrational; J; a stub unless HAS_ROTATION)
@group(0) @binding(14) var<storage, read_write> eint: array<f32>;

// One invocation per initial particle.
@compute @workgroup_size(WG_SIZE)
fn init_particles(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                  @builtin(local_invocation_index) li: u32) {
  let i = flat_id(wg, nwg, li);
  if (i >= init.count) { return; }
  let u0 = rand4(i, 0u, STREAM_INIT, 0u, params);
  let u1 = rand4(i, 0u, STREAM_INIT, 1u, params);
  // species by cumulative mole fraction
  var sp = params.nSpecies - 1u;
  var acc = 0.0;
  for (var s = 0u; s < params.nSpecies; s++) {
    acc = acc + speciesInfo[s].initFraction;
    if (u0.w < acc) { sp = s; break; }
  }
  let pos = min(u0.xyz * vec3<f32>(params.lx, params.ly, params.lz),
                vec3<f32>(params.lx, params.ly, params.lz) * (1.0 - 1.0 / 16777216.0));
  let vt = speciesInfo[sp].initThermalSpeed;
  var v: vec3<f32>;
  if (init.kind == 1u) {
    v = vt * sign(u1.xyz - vec3<f32>(0.5));
  } else {
    let g0 = gauss2(u1.xy);
    let g1 = gauss2(u1.zw);
    v = vt * vec3<f32>(g0.x, g0.y, g1.x);
  }
  v = v + vec3<f32>(init.velX, init.velY, init.velZ);
  let cc = cell_coords(pos, params);
  if (!owns_coords(cc, params)) { return; }
  if (HAS_BODIES) {
    // inside a body: no particle (one rank leaves a dead slot, which the sort drops)
    let g = cell_id(cc, params);
    if (volumeFraction[g] == 0.0 || inside_body(pos, g)) {
      if (!MULTI_RANK) { cell[i] = INVALID_CELL; }
      return;
    }
  }
  var at = i;
  if (MULTI_RANK) {
    at = atomicAdd(&ctl[CTL_N_ALL], 1u);
    if (at >= params.capacity) {
      atomicAdd(&ctl[CTL_OVERFLOW], 1u);
      return;
    }
    keys[at] = vec2<u32>(0u, i);
  }
  let c = cell_id(cc, params);
  px[at] = pos.x;
  py[at] = pos.y;
  pz[at] = pos.z;
  vx[at] = v.x;
  vy[at] = v.y;
  vz[at] = v.z;
  cell[at] = cell_word(c, sp);
  slot[at] = atomicAdd(&counts[local_of_coords(cc, params)], 1u);
  if (HAS_ROTATION) {
    // two rotational degrees of freedom in equilibrium at the rotational temperature: E = -k T ln R; the vibration a
    // Boltzmann level at the vibrational temperature
    let u = rand4(i, 0u, STREAM_INIT, 2u, params);
    var e = 0.0;
    if (speciesInfo[sp].rotDof > 0.0) { e = -BOLTZMANN * init.rotTemperature * log(u.x); }
    eint[at * INTERNAL_WORDS] = e;
    if (INTERNAL_WORDS > 1u) {
      eint[at * INTERNAL_WORDS + 1u] = equilibrium_vibration(speciesInfo[sp].vibKTheta, BOLTZMANN * init.vibTemperature, u.y);
    }
  }
}
