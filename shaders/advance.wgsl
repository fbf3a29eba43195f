// advance.wgsl: free flight through the box with the six face boundary conditions.
// Used by move.wgsl and inject.wgsl; the including shader declares `params`, `faces`, `faceSpecies`.

struct Flight {
  pos: vec3<f32>,
  vel: vec3<f32>,
  alive: bool,
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

// Moves a particle for time `t`, applying each face's boundary condition on the way; `alive` is false
// once the particle leaves through an inflow or outflow face. rid names the particle's random stream
// whatever the decomposition: (global cell, rank in that cell) at the start of the step, or
// (INJECTED_KEY | face cell, ordinal) for a particle injected this step.
fn fly(start: Flight, t_in: f32, sp: u32, rid: vec2<u32>, step: u32) -> Flight {
  var s = start;
  var t = t_in;
  let len = vec3<f32>(params.lx, params.ly, params.lz);
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
    if (kind == BC_PERIODIC) {
      // re-enter through the opposite face (just inside it when that face is at L)
      s.pos[a] = select(len[a] * (1.0 - 1.0 / 16777216.0), 0.0, atMax);
    } else if (kind == BC_SPECULAR) {
      s.vel[a] = -s.vel[a];
    } else if (kind == BC_DIFFUSE) {
      s.vel = diffuse_velocity(face, sp, rid, step, bounce);
    } else {
      s.alive = false;
      return s;
    }
  }
  // keep the position inside [0, L) against rounding
  s.pos = clamp(s.pos, vec3<f32>(0.0), len * (1.0 - 1.0 / 16777216.0));
  return s;
}
