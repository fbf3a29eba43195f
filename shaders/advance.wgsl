// advance.wgsl: free flight through the box with the six face boundary conditions.
// Used by move.wgsl and inject.wgsl (after body.wgsl); the including shader declares `params`, `faces`,
// `faceSpecies`. On sampled steps every wall hit (domain faces and bodies) is added to the surface sums.

struct Flight {
  pos: vec3<f32>,
  vel: vec3<f32>,
  alive: bool,
  // rotational and vibrational energy, J (HAS_ROTATION; diffuse walls give new ones)
  eint: vec2<f32>,
}

// Internal energy after a diffuse reflection or accommodation at a wall with rotKT = k T_w (0 for an atom), for a
// vibrational quantum vibKTheta = k theta_v (0: no vibration), in equilibrium at T_w: rotation with two degrees of
// freedom E = -k T_w ln R, vibration a Boltzmann level (equilibrium_vibration); from its own stream (which: 1 a face,
// 2 a body).
fn wall_internal(rotKT: f32, vibKTheta: f32, rid: vec2<u32>, step: u32, bounce: u32, which: u32) -> vec2<f32> {
  if (rotKT == 0.0) { return vec2<f32>(0.0); }
  let u = rand4(rid.x, step, STREAM_INTERNAL | (bounce << 8u) | (which << 16u), rid.y, params);
  return vec2<f32>(-rotKT * log(u.x), equilibrium_vibration(vibKTheta, rotKT, u.y));
}

// New velocity after a diffuse (fully accommodating) reflection from face `face` of species `sp`:
// normal component from the flux-weighted half-Maxwellian, tangential ones Maxwellian plus wall speed.
// The random stream is keyed by the particle's decomposition-invariant id rid (see fly).
fn diffuse_velocity(face: u32, sp: u32, rid: vec2<u32>, step: u32, bounce: u32) -> vec3<f32> {
  let f = faces[face];
  let a = face / 2u;
  let inward = select(-1.0, 1.0, (face & 1u) == 0u);
  let vt = faceSpecies[face * params.nSpecies + sp].thermalSpeed;
  let u = rand4(rid.x, step, STREAM_WALL | (bounce << 8u), rid.y, params);
  let g = gauss2(u.zw);
  let vn = inward * vt * sqrt(-2.0 * log(u.x));
  // the normal component on axis a, the two Gaussians on the other axes
  if (a == 0u) { return vec3<f32>(vn, f.velY + vt * g.x, f.velZ + vt * g.y); }
  if (a == 1u) { return vec3<f32>(f.velX + vt * g.x, vn, f.velZ + vt * g.y); }
  return vec3<f32>(f.velX + vt * g.x, f.velY + vt * g.y, vn);
}

// The surface element of this invocation's copy of domain face `face` (body.wgsl FACE_COPIES).
fn face_element(face: u32) -> u32 {
  return params.nTris + face * FACE_COPIES + faceCopy;
}

// Moves a particle for time `t`, applying each face's boundary condition on the way; `alive` is false
// once the particle leaves through an inflow or outflow face. rid names the particle's random stream
// whatever the decomposition: (global cell, rank in that cell) at the start of the step, or
// (INJECTED_KEY | face cell, ordinal) for a particle injected this step.
fn fly(start: Flight, t_in: f32, sp: u32, rid: vec2<u32>, step: u32) -> Flight {
  var s = start;
  var t = t_in;
  let len = vec3<f32>(params.lx, params.ly, params.lz);
  let sampled = step_sampled(step);
  for (var bounce = 0u; bounce < 64u; bounce++) {
    let end = s.pos + s.vel * t;
    // earliest face crossing within this flight
    var tHit = t;
    var face = 6u;
    for (var a = 0u; a < 3u; a++) {
      if (end[a] >= len[a] && s.vel[a] > 0.0) {
        let th = max((len[a] - s.pos[a]) / s.vel[a], 0.0);
        if (th <= tHit) { tHit = th; face = 2u * a + 1u; }
      } else if (end[a] < 0.0 && s.vel[a] < 0.0) {
        let th = max(-s.pos[a] / s.vel[a], 0.0);
        if (th <= tHit) { tHit = th; face = 2u * a; }
      }
    }
    if (HAS_BODIES) {
      let hit = first_body_hit(s.pos, s.vel, tHit);
      if (hit.tri != NO_TRI) {
        let n = tri_vec(hit.tri, 3u);
        let vIn = s.vel;
        let r = body_reflect(hit.tri, vIn, sp, rid, step, bounce);
        s.vel = r.vel;
        if (HAS_ROTATION && r.diffuse) {
          let ss = surfSpecies[tri_model(hit.tri) * MAX_SPECIES + sp];
          s.eint = wall_internal(ss.rotKT, ss.vibKTheta, rid, step, bounce, 2u);
        }
        // set off the surface on the gas side, and kept inside the box
        s.pos = clamp(s.pos + vIn * hit.t + n * params.bodyEps, vec3<f32>(0.0), len * (1.0 - 1.0 / 16777216.0));
        t = t - hit.t;
        if (sampled) { sample_hit(hit.tri, tri_model(hit.tri), sp, vIn, s.vel, false); }
        continue;
      }
    }
    if (face == 6u) {
      s.pos = end;
      break;
    }
    let a = face / 2u;
    let atMax = (face & 1u) == 1u;
    s.pos = s.pos + s.vel * tHit;
    s.pos[a] = select(0.0, len[a], atMax);
    t = t - tHit;
    let kind = faces[face].kind;
    let vIn = s.vel;
    if (kind == BC_PERIODIC) {
      // re-enter through the opposite face (just inside it when that face is at L)
      s.pos[a] = select(len[a] * (1.0 - 1.0 / 16777216.0), 0.0, atMax);
      continue;
    } else if (kind == BC_SPECULAR) {
      s.vel[a] = -s.vel[a];
    } else if (kind == BC_DIFFUSE) {
      s.vel = diffuse_velocity(face, sp, rid, step, bounce);
      if (HAS_ROTATION) {
        let fs = faceSpecies[face * params.nSpecies + sp];
        s.eint = wall_internal(fs.rotKT, fs.vibKTheta, rid, step, bounce, 1u);
      }
    } else {
      // leaves through an inflow or outflow face: sampled as arriving there, nothing leaves the face
      if (sampled) { sample_hit(face_element(face), params.nBodies + face, sp, vIn, vIn, true); }
      s.alive = false;
      return s;
    }
    if (sampled) { sample_hit(face_element(face), params.nBodies + face, sp, vIn, s.vel, false); }
  }
  // keep the position inside [0, L) against rounding
  s.pos = clamp(s.pos, vec3<f32>(0.0), len * (1.0 - 1.0 / 16777216.0));
  return s;
}
