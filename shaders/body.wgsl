// body.wgsl: bodies in the flow and the surface sums. Included (with advance.wgsl) by move.wgsl and
// inject.wgsl, and by init.wgsl for the inside test. The including shader declares `params`.
//
// bodyData (one u32 array, built by src-main/solver/body-tables.ts):
//   [0, nCells)            per global cell: offset of its list, 0 when no triangle crosses it
//   list at offset o       n, gas reference point (3 f32 bits), then n triangle ids
//   [triBase, ...)         per triangle 16 words: v0.xyz + surface model, v1.xyz + 0, v2.xyz + 0, unit normal.xyz + 0
// surfSums: per surface element (triangles, then FACE_COPIES copies of each of the six domain faces) SURF_Q 64-bit fixed-point sums
// (lo, hi words), added with integer atomics so the totals do not depend on the order of the hits.

@group(0) @binding(40) var<storage, read> bodyData: array<u32>;
@group(0) @binding(41) var<storage, read_write> surfSums: array<atomic<u32>>;
@group(0) @binding(42) var<uniform> surfModels: array<SurfaceModel, MAX_SURFACE_MODELS>;
@group(0) @binding(43) var<uniform> surfSpecies: array<SurfaceSpecies, 1120>;
// gas volume / cell volume of every global cell (0 inside a body, 1 in open gas)
@group(0) @binding(44) var<storage, read> volumeFraction: array<f32>;

const NO_TRI: u32 = 0xffffffffu;
// Copies of each domain face's sums (FACE_COPIES in src-main/common/surface-layout.ts): a hit goes to copy faceCopy,
// which spreads the atomics of the many wall hits of a step over many addresses; the host adds the copies up.
const FACE_COPIES: u32 = 256u;
// The face copy of this invocation's hits (set by the kernel from its particle index before it flies one).
var<private> faceCopy: u32;
// Surface model kinds (SURFACE_MODEL_CODES in struct-layouts.ts).
const SURF_SPECULAR: u32 = 1u;
const SURF_DIFFUSE: u32 = 2u;
const SURF_MAXWELL: u32 = 3u;
// Sums per element (SURFACE_QUANTITIES in src-main/common/surface-layout.ts): nIn, p(3)In, eIn, nOut, p(3)Out, eOut.
const SURF_Q: u32 = 10u;
// Barycentric slack of the ray-triangle test: a ray through a shared edge hits both triangles rather than neither.
const TRI_SLACK: f32 = 1e-5;

struct BodyHit {
  t: f32,
  tri: u32,
}

// True when step `step` samples (sampling.enabled, start, interval).
fn step_sampled(step: u32) -> bool {
  return params.sampleEnabled != 0u && step >= params.sampleStart && (step - params.sampleStart) % params.sampleInterval == 0u;
}

// Vertex k (0, 1, 2) or the normal (k = 3) of triangle tri.
fn tri_vec(tri: u32, k: u32) -> vec3<f32> {
  let o = params.triBase + 16u * tri + 4u * k;
  return vec3<f32>(bitcast<f32>(bodyData[o]), bitcast<f32>(bodyData[o + 1u]), bitcast<f32>(bodyData[o + 2u]));
}

// Surface model of triangle tri (its body).
fn tri_model(tri: u32) -> u32 {
  return bodyData[params.triBase + 16u * tri + 3u];
}

// Time at which the ray p + v t meets the front (gas) side of triangle tri, or a negative value when it misses.
fn ray_tri(p: vec3<f32>, v: vec3<f32>, tri: u32) -> f32 {
  let n = tri_vec(tri, 3u);
  if (dot(v, n) >= 0.0) { return -1.0; }
  let a = tri_vec(tri, 0u);
  let e1 = tri_vec(tri, 1u) - a;
  let e2 = tri_vec(tri, 2u) - a;
  let h = cross(v, e2);
  let det = dot(e1, h);
  if (det == 0.0) { return -1.0; }
  let inv = 1.0 / det;
  let s = p - a;
  let u = dot(s, h) * inv;
  if (u < -TRI_SLACK || u > 1.0 + TRI_SLACK) { return -1.0; }
  let q = cross(s, e1);
  let w = dot(v, q) * inv;
  if (w < -TRI_SLACK || u + w > 1.0 + TRI_SLACK) { return -1.0; }
  let t = dot(e2, q) * inv;
  // a particle set off the surface by bodyEps may start a hair behind it: accept a small negative t
  return select(-1.0, max(t, 0.0), t > -params.bodyEps / max(length(v), 1e-30));
}

// Tests the triangles listed for global cell g against the ray; keeps the earliest hit before best.t.
fn hit_in_cell(g: u32, p: vec3<f32>, v: vec3<f32>, best: ptr<function, BodyHit>) {
  let o = bodyData[g];
  if (o == 0u) { return; }
  let n = bodyData[o];
  for (var k = 0u; k < n; k++) {
    let tri = bodyData[o + 4u + k];
    let t = ray_tri(p, v, tri);
    if (t >= 0.0 && t < (*best).t) {
      (*best).t = t;
      (*best).tri = tri;
    }
  }
}

// Whether a flight from cell c0 to cell c1 that stays within a block of at most 2 x 2 x 2 cells (the box of cells
// from c0 to c1 holds the whole segment: it is convex) meets no cell with triangles, so there is nothing to walk: most
// flights end in the cell they start in or a neighbour (on the hypersonic wedge a fifth of the particles cross a face
// each step).
fn flight_clear_of_bodies(c0: vec3<u32>, c1: vec3<u32>) -> bool {
  let lo = min(c0, c1);
  let hi = max(c0, c1);
  if (any(hi - lo > vec3<u32>(1u))) { return false; }
  for (var z = lo.z; z <= hi.z; z++) {
    for (var y = lo.y; y <= hi.y; y++) {
      for (var x = lo.x; x <= hi.x; x++) {
        if (bodyData[cell_id(vec3<u32>(x, y, z), params)] != 0u) { return false; }
      }
    }
  }
  return true;
}

// The earliest body surface the path p + v t meets for t in [0, tMax]: walks the cells the path crosses
// (3D DDA, Amanatides-Woo) and tests the triangles listed in each; tri is NO_TRI when none is met.
fn first_body_hit(p: vec3<f32>, v: vec3<f32>, tMax: f32) -> BodyHit {
  var best = BodyHit(tMax, NO_TRI);
  let c0 = cell_coords(p, params);
  if (flight_clear_of_bodies(c0, cell_coords(p + v * tMax, params))) { return best; }
  let d = vec3<f32>(params.dx, params.dy, params.dz);
  let n = vec3<i32>(i32(params.nx), i32(params.ny), i32(params.nz));
  var c = vec3<i32>(c0);
  let stepDir = vec3<i32>(select(-1, 1, v.x > 0.0), select(-1, 1, v.y > 0.0), select(-1, 1, v.z > 0.0));
  var tNext = vec3<f32>(1e30);
  var tDelta = vec3<f32>(1e30);
  for (var a = 0u; a < 3u; a++) {
    if (v[a] != 0.0) {
      let edge = f32(c[a] + select(0, 1, v[a] > 0.0)) * d[a];
      tNext[a] = max((edge - p[a]) / v[a], 0.0);
      tDelta[a] = d[a] / abs(v[a]);
    }
  }
  let maxCells = params.nx + params.ny + params.nz + 3u;
  for (var k = 0u; k < maxCells; k++) {
    hit_in_cell(u32(c.x) + params.nx * (u32(c.y) + params.ny * u32(c.z)), p, v, &best);
    let tExit = min(tNext.x, min(tNext.y, tNext.z));
    if (best.t <= tExit || tExit >= tMax) { break; }
    var a = 2u;
    if (tNext.x <= tNext.y && tNext.x <= tNext.z) { a = 0u; } else if (tNext.y <= tNext.z) { a = 1u; }
    c[a] += stepDir[a];
    if (c[a] < 0 || c[a] >= n[a]) { break; }
    tNext[a] += tDelta[a];
  }
  return best;
}

// Velocity after a diffuse reflection from a wall of model `model` with unit normal n into the gas: normal
// component from the flux-weighted half-Maxwellian, tangential ones Maxwellian, plus the wall velocity.
fn diffuse_from(n: vec3<f32>, model: u32, sp: u32, u: vec4<f32>) -> vec3<f32> {
  let vt = surfSpecies[model * MAX_SPECIES + sp].thermalSpeed;
  let m = surfModels[model];
  // an orthonormal tangent pair (t1, t2) of n
  var t1 = cross(n, vec3<f32>(1.0, 0.0, 0.0));
  if (dot(t1, t1) < 0.01) { t1 = cross(n, vec3<f32>(0.0, 1.0, 0.0)); }
  t1 = normalize(t1);
  let t2 = cross(n, t1);
  let g = gauss2(u.zw);
  let wall = vec3<f32>(m.velX, m.velY, m.velZ);
  return wall - dot(wall, n) * n + n * (vt * sqrt(-2.0 * log(u.x))) + t1 * (vt * g.x) + t2 * (vt * g.y);
}

// A reflection: the new velocity, and whether the wall accommodated the molecule (diffuse).
struct Reflection {
  vel: vec3<f32>,
  diffuse: bool,
}

// Velocity after a particle of species sp meets triangle tri with velocity vel (bounce-th wall of its flight).
fn body_reflect(tri: u32, vel: vec3<f32>, sp: u32, rid: vec2<u32>, step: u32, bounce: u32) -> Reflection {
  let n = tri_vec(tri, 3u);
  let model = tri_model(tri);
  let kind = surfModels[model].kind;
  let u = rand4(rid.x, step, STREAM_BODY | (bounce << 8u), rid.y, params);
  if (kind == SURF_DIFFUSE || (kind == SURF_MAXWELL && u.y < surfModels[model].accommodation)) {
    return Reflection(diffuse_from(n, model, sp, u), true);
  }
  return Reflection(vel - 2.0 * dot(vel, n) * n, false);
}

// Adds value x (any sign) times scale, rounded to an integer, to the 64-bit sum at word w of surfSums.
fn add_fixed(w: u32, x: f32, scale: f32) {
  let s = round(x * scale);
  let v = fixed_split(s);
  add64(w, v.x, v.y);
}

// Adds the 64-bit value (lo, hi) to the sum at words w (low) and w + 1 (high), carrying out of the low word.
fn add64(w: u32, lo: u32, hi: u32) {
  if (lo == 0u && hi == 0u) { return; }
  let old = atomicAdd(&surfSums[w], lo);
  let carry = select(0u, 1u, old + lo < old);
  if (hi + carry != 0u) { atomicAdd(&surfSums[w + 1u], hi + carry); }
}

// Samples one wall hit on surface element e: the arriving and leaving number, momentum and energy (per
// unit of the reference mass, scaled to fixed point), for surface model `model` (its species mass ratio).
fn sample_hit(e: u32, model: u32, sp: u32, vIn: vec3<f32>, vOut: vec3<f32>, leaves: bool) {
  let mr = surfSpecies[model * MAX_SPECIES + sp].massRatio;
  let w = e * SURF_Q * 2u;
  add64(w, 1u, 0u);
  add_fixed(w + 2u, mr * vIn.x, params.surfScaleP);
  add_fixed(w + 4u, mr * vIn.y, params.surfScaleP);
  add_fixed(w + 6u, mr * vIn.z, params.surfScaleP);
  add_fixed(w + 8u, 0.5 * mr * dot(vIn, vIn), params.surfScaleE);
  if (leaves) { return; }
  add64(w + 10u, 1u, 0u);
  add_fixed(w + 12u, mr * vOut.x, params.surfScaleP);
  add_fixed(w + 14u, mr * vOut.y, params.surfScaleP);
  add_fixed(w + 16u, mr * vOut.z, params.surfScaleP);
  add_fixed(w + 18u, 0.5 * mr * dot(vOut, vOut), params.surfScaleE);
}

// True when point q lies inside a body: q is in global cell g, and the segment from the cell's gas
// reference point to q crosses the cell's triangles an odd number of times (the cell is convex, so only
// its own triangles can be crossed). Cells without triangles are gas (inside cells are never tested).
fn inside_body(q: vec3<f32>, g: u32) -> bool {
  let o = bodyData[g];
  if (o == 0u) { return false; }
  let r = vec3<f32>(bitcast<f32>(bodyData[o + 1u]), bitcast<f32>(bodyData[o + 2u]), bitcast<f32>(bodyData[o + 3u]));
  let dir = q - r;
  let n = bodyData[o];
  var crossings = 0u;
  for (var k = 0u; k < n; k++) {
    let tri = bodyData[o + 4u + k];
    let a = tri_vec(tri, 0u);
    let e1 = tri_vec(tri, 1u) - a;
    let e2 = tri_vec(tri, 2u) - a;
    let h = cross(dir, e2);
    let det = dot(e1, h);
    if (det == 0.0) { continue; }
    let inv = 1.0 / det;
    let s = r - a;
    let u = dot(s, h) * inv;
    if (u < 0.0 || u >= 1.0) { continue; }
    let qq = cross(s, e1);
    let w = dot(dir, qq) * inv;
    if (w < 0.0 || u + w >= 1.0) { continue; }
    let t = dot(e2, qq) * inv;
    if (t > 0.0 && t <= 1.0) { crossings += 1u; }
  }
  return (crossings & 1u) == 1u;
}
