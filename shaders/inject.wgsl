// inject.wgsl: free-stream inflow. Every step each inflow face cell injects, per species, a
// Poisson-distributed number of particles with mean = Maxwellian flux * area * dt / Fnum. Counts are
// drawn twice from the same counter-based stream (count pass, then again per particle in the write pass) so that the write
// positions come from a prefix scan and the result does not depend on thread timing.
// Injected particles start on the face and fly a random fraction of dt into the box (advance.wgsl).
// A face cell injects on the rank that owns the cell behind it; its particles' random streams are
// keyed by (face cell, ordinal in it), so they do not depend on the decomposition. Particles that fly
// into another rank's cells are emitted as migrants afterwards (move.wgsl:collect_injected).

@group(0) @binding(0) var<uniform> params: SimParams;
@group(0) @binding(1) var<storage, read> ctl: array<u32>;
@group(0) @binding(2) var<uniform> faces: array<FaceInfo, 6>;
@group(0) @binding(3) var<uniform> faceSpecies: array<FaceSpecies, 96>;
@group(0) @binding(4) var<storage, read_write> injCounts: array<u32>;
@group(0) @binding(5) var<storage, read> injStarts: array<u32>;
@group(0) @binding(6) var<storage, read_write> px: array<f32>;
@group(0) @binding(7) var<storage, read_write> py: array<f32>;
@group(0) @binding(8) var<storage, read_write> pz: array<f32>;
@group(0) @binding(9) var<storage, read_write> vx: array<f32>;
@group(0) @binding(10) var<storage, read_write> vy: array<f32>;
@group(0) @binding(11) var<storage, read_write> vz: array<f32>;
// the cell words the sort reads (state.ts cellsAfterMove: the set's cell array on one rank, its moved-cell array on several)
@group(0) @binding(12) var<storage, read_write> cell: array<u32>;
@group(0) @binding(13) var<storage, read_write> counts: array<atomic<u32>>;
@group(0) @binding(14) var<storage, read_write> slot: array<u32>;
@group(0) @binding(15) var<storage, read_write> keys: array<vec2<u32>>;
// internal energy per particle, INTERNAL_WORDS words (rotational, vibrational; J; a stub unless HAS_ROTATION)
@group(0) @binding(16) var<storage, read_write> eint: array<f32>;

// Poisson(mean) as a sum of Knuth draws of mean <= 8 each (exact by additivity), from the stream
// of face cell fc and species s.
fn poisson(mean: f32, fc: u32, s: u32, step: u32) -> u32 {
  var k = 0u;
  var left = mean;
  var n = s * 65536u;
  var buf = vec4<f32>(0.0);
  var used = 4u;
  while (left > 0.0) {
    let m = min(left, 8.0);
    left = left - m;
    let limit = exp(-m);
    var prod = 1.0;
    loop {
      if (used == 4u) {
        buf = rand4(fc, step, STREAM_INJECT_COUNT, n, params);
        n = n + 1u;
        used = 0u;
      }
      prod = prod * buf[used];
      used = used + 1u;
      if (prod <= limit) { break; }
      k = k + 1u;
    }
  }
  return k;
}

// Sub-streams of one injected particle (ordinal o of face cell fc): word o * PER_PARTICLE + k of the
// counter; k = 0 position and tangential velocity, 1..4096 normal-speed tries, LAST the flight time.
const PER_PARTICLE: u32 = 8192u;
const LAST: u32 = 8191u;

// Normal speed / c_mp of a molecule crossing a plane from a Maxwellian drifting at speed ratio s:
// density x exp(-(x-s)^2) on x > 0, by rejection under its maximum at x* = (s + sqrt(s^2+2))/2.
fn flux_normal(s: f32, fc: u32, base: u32, step: u32) -> f32 {
  let xs = 0.5 * (s + sqrt(s * s + 2.0));
  let lo = max(0.0, s - 5.0);
  let hi = xs + 5.0;
  for (var t = 0u; t < 4096u; t++) {
    let u = rand4(fc, step, STREAM_INJECT_PARTICLE, base + 1u + t, params);
    let x = lo + (hi - lo) * u.x;
    let ratio = (x / xs) * exp((xs - s) * (xs - s) - (x - s) * (x - s));
    if (u.y < ratio) { return x; }
  }
  return xs;
}

// Inflow face holding face cell fc (faces are numbered in order, their cells consecutive).
fn face_of(fc: u32) -> u32 {
  for (var f = 0u; f < 6u; f++) {
    let info = faces[f];
    if (info.kind == BC_INFLOW && fc >= info.faceCellBase && fc < info.faceCellBase + info.faceCellCount) {
      return f;
    }
  }
  return 6u;
}

// Coordinates of the cell behind face cell fc of face f (i1, i2: its indices on the face's tangential axes).
fn face_cell_coords(f: u32, i1: u32, i2: u32) -> vec3<u32> {
  let a = f / 2u;
  let dims = vec3<u32>(params.nx, params.ny, params.nz);
  let t1 = select(0u, 1u, a == 0u);
  let t2 = select(2u, 1u, a == 2u);
  var v = vec3<u32>(0u);
  v[a] = select(0u, dims[a] - 1u, (f & 1u) == 1u);
  v[t1] = i1;
  v[t2] = i2;
  return v;
}

// True when this rank injects through face cell fc of face f (it owns the cell behind it).
fn injects_here(f: u32, fc: u32) -> bool {
  if (!MULTI_RANK) { return true; }
  let a = f / 2u;
  let dims = vec3<u32>(params.nx, params.ny, params.nz);
  let t1 = select(0u, 1u, a == 0u);
  let local = fc - faces[f].faceCellBase;
  return owns_coords(face_cell_coords(f, local % dims[t1], local / dims[t1]), params);
}

// Count pass: particles this face cell injects this step (all species; 0 where another rank injects).
@compute @workgroup_size(WG_SIZE)
fn inject_count(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                @builtin(local_invocation_index) li: u32) {
  let fc = flat_id(wg, nwg, li);
  if (fc >= params.nFaceCells) { return; }
  let f = face_of(fc);
  if (!injects_here(f, fc)) {
    injCounts[fc] = 0u;
    return;
  }
  let step = ctl[CTL_STEP];
  var total = 0u;
  for (var s = 0u; s < params.nSpecies; s++) {
    total = total + poisson(faceSpecies[f * params.nSpecies + s].injectMean, fc, s, step);
  }
  injCounts[fc] = total;
}

// Write pass, one invocation per injected particle (a grid-stride loop over this step's count; the host sizes the
// dispatch from the expected count, so that a face cell's particles are not one thread's serial work): the t-th
// particle's face cell, its ordinal there, and the particle at N + t, exactly as the face cell would write it.
@compute @workgroup_size(WG_SIZE)
fn inject_write(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                @builtin(local_invocation_index) li: u32) {
  let injected = ctl[CTL_INJECTED];
  let n = ctl[CTL_N];
  let step = ctl[CTL_STEP];
  let stride = grid_stride(nwg);
  for (var t = flat_id(wg, nwg, li); t < injected; t += stride) {
    let fc = face_cell_of(t);
    write_injected(fc, t - injStarts[fc], n + t, step);
  }
}

// The face cell holding the t-th particle injected this step (t below the total): the first whose scanned end
// (start + count) passes t.
fn face_cell_of(t: u32) -> u32 {
  var lo = 0u;
  var hi = params.nFaceCells - 1u;
  while (lo < hi) {
    let mid = (lo + hi) / 2u;
    if (injStarts[mid] + injCounts[mid] > t) { hi = mid; } else { lo = mid + 1u; }
  }
  return lo;
}

// Writes particle `ord` of face cell fc (its species from the count pass's draws made again) at slot `at` and counts
// it in its cell (as move.wgsl does; one landing in another rank's cells keeps its cell word uncounted).
fn write_injected(fc: u32, ord: u32, at: u32, step: u32) {
  let f = face_of(fc);
  // the species whose run of the face cell's ordinals holds ord
  var s = 0u;
  var first = 0u;
  loop {
    let k = poisson(faceSpecies[f * params.nSpecies + s].injectMean, fc, s, step);
    if (ord < first + k || s + 1u >= params.nSpecies) { break; }
    first = first + k;
    s = s + 1u;
  }
  let fs = faceSpecies[f * params.nSpecies + s];
  let info = faces[f];
  let a = f / 2u;
  let atMax = (f & 1u) == 1u;
  let inward = select(1.0, -1.0, atMax);
  // tangential axes and this face cell's indices on them
  let t1 = select(0u, 1u, a == 0u);
  let t2 = select(2u, 1u, a == 2u);
  let dims = vec3<u32>(params.nx, params.ny, params.nz);
  let d = vec3<f32>(params.dx, params.dy, params.dz);
  let len = vec3<f32>(params.lx, params.ly, params.lz);
  let local = fc - info.faceCellBase;
  let i1 = local % dims[t1];
  let i2 = local / dims[t1];
  let stream = vec3<f32>(info.velX, info.velY, info.velZ);
  let base = ord * PER_PARTICLE;
  let rid = vec2<u32>(INJECTED_KEY | fc, ord);
  let u = rand4(fc, step, STREAM_INJECT_PARTICLE, base, params);
  let g = gauss2(u.zw);
  var pos = vec3<f32>(0.0);
  pos[a] = select(0.0, len[a], atMax);
  pos[t1] = (f32(i1) + u.x) * d[t1];
  pos[t2] = (f32(i2) + u.y) * d[t2];
  var vel = stream;
  vel[t1] = stream[t1] + fs.thermalSpeed * g.x;
  vel[t2] = stream[t2] + fs.thermalSpeed * g.y;
  vel[a] = inward * flux_normal(fs.speedRatio, fc, base, step) * fs.thermalSpeed * sqrt(2.0);
  let u2 = rand4(fc, step, STREAM_INJECT_PARTICLE, base + LAST, params);
  faceCopy = (fc >> 5u) % FACE_COPIES;
  // a rotating species brings the reservoir's rotational energy: E = -k T ln R (two degrees of freedom), and a
  // vibrating one a Boltzmann level at the reservoir's temperature
  var e0 = vec2<f32>(0.0);
  if (HAS_ROTATION && fs.rotKT > 0.0) { e0 = vec2<f32>(-fs.rotKT * log(u2.y), equilibrium_vibration(fs.vibKTheta, fs.rotKT, u2.z)); }
  let fl = fly(Flight(pos, vel, true, e0), u2.x * params.dt, s, rid, step);
  if (HAS_ROTATION) {
    eint[at * INTERNAL_WORDS] = fl.eint.x;
    if (INTERNAL_WORDS > 1u) { eint[at * INTERNAL_WORDS + 1u] = fl.eint.y; }
  }
  px[at] = fl.pos.x;
  py[at] = fl.pos.y;
  pz[at] = fl.pos.z;
  vx[at] = fl.vel.x;
  vy[at] = fl.vel.y;
  vz[at] = fl.vel.z;
  if (MULTI_RANK) { keys[at] = rid; }
  if (fl.alive) {
    let v = cell_coords(fl.pos, params);
    let c = cell_id(v, params);
    cell[at] = cell_word(c, s);
    if (owns_coords(v, params)) { slot[at] = atomicAdd(&counts[local_of_coords(v, params)], 1u); }
  } else {
    cell[at] = INVALID_CELL;
  }
}
