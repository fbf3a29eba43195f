// sample-sums.wgsl: one sampling pass's velocity moments of a cell (count, sum v_i, sum v_i v_j (6), sum v^2 v_i
// (3)) and their addition to the open block's exact 64-bit fixed-point sums. Shared by the standalone sampling
// kernel (sample.wgsl) and the sampled collide kernel (collide-sampled.wgsl, a benchmark variant), which add a cell's
// particles in the same f32 order: the particles 0, 2, 4, ... and 1, 3, 5, ... of the cell in two partial sums, then
// even + odd. Integer sums do not depend on any order, so the block's sums are bitwise the same
// whichever kernel made them, on any number of ranks and across a resume.
//
// Where the gas has internal modes (HAS_ROTATION), the particles' internal energies follow the 13 velocity moments
// as moments 13 (sum E_rot) and, when INTERNAL_WORDS is 2, 14 (sum E_vib), in J times params.sampleScaleE, added by
// add_cell_internal, which both kernels call alike (it reads `eint` and the kernel's particle_species(i)): the same
// bits either way. A monatomic gas keeps the 13 moments alone.

// the velocity moments per species and cell
const MOMENTS: u32 = 13u;

// Moments per species and cell: the 13 velocity moments, then the internal energies where the gas has internal modes.
fn sample_moments() -> u32 {
  return select(MOMENTS, MOMENTS + INTERNAL_WORDS, HAS_ROTATION);
}

// the open block's sums: low and high words, layout [moment][species][local cell]
@group(0) @binding(50) var<storage, read_write> blockLo: array<u32>;
@group(0) @binding(51) var<storage, read_write> blockHi: array<u32>;
// word 0: set when a sum would overflow (the host stops the run with an error)
@group(0) @binding(52) var<storage, read_write> sampleFlags: array<atomic<u32>>;

// One partial sum of a cell's moments in one pass (f32).
struct PassMoments {
  cnt: f32,
  m1: vec3<f32>,  // v
  m2: vec3<f32>,  // xx, yy, zz
  mx: vec3<f32>,  // xy, xz, yz
  m3: vec3<f32>,  // v^2 v
}

// An empty partial sum.
fn moments_zero() -> PassMoments {
  return PassMoments(0.0, vec3<f32>(0.0), vec3<f32>(0.0), vec3<f32>(0.0), vec3<f32>(0.0));
}

// Adds one particle of velocity v to the partial sum a.
fn moments_add(a: ptr<function, PassMoments>, v: vec3<f32>) {
  (*a).cnt = (*a).cnt + 1.0;
  (*a).m1 = (*a).m1 + v;
  (*a).m2 = (*a).m2 + v * v;
  (*a).mx = (*a).mx + vec3<f32>(v.x * v.y, v.x * v.z, v.y * v.z);
  (*a).m3 = (*a).m3 + dot(v, v) * v;
}

// The sum of two partial sums (the even and the odd particles of a cell; f32 addition commutes, so either order).
fn moments_total(a: PassMoments, b: PassMoments) -> PassMoments {
  return PassMoments(a.cnt + b.cnt, a.m1 + b.m1, a.m2 + b.m2, a.mx + b.mx, a.m3 + b.m3);
}

// Moment m (0..12: count, v, diagonal, off-diagonal, v^2 v) of a partial sum.
fn moment_of(a: PassMoments, m: u32) -> f32 {
  switch (m) {
    case 0u: { return a.cnt; }
    case 1u, 2u, 3u: { return a.m1[m - 1u]; }
    case 4u, 5u, 6u: { return a.m2[m - 4u]; }
    case 7u, 8u, 9u: { return a.mx[m - 7u]; }
    default: { return a.m3[m - 10u]; }
  }
}

// Fixed-point scale of moment m: 1 for the count, then the scales of order 1, 2 and 3.
fn moment_scale(m: u32) -> f32 {
  if (m == 0u) { return 1.0; }
  if (m < 4u) { return params.sampleScale1; }
  if (m < 10u) { return params.sampleScale2; }
  return params.sampleScale3;
}

// Word of moment m of species s in local cell c in the block's sums.
fn block_word(m: u32, s: u32, c: u32) -> u32 {
  return (m * params.nSpecies + s) * params.nLocal + c;
}

// Adds the integer nearest to x (any sign, |x| < 2^62) to the 64-bit sum at word w of the block's sums, whose low
// word was read as `old` (the caller reads a cell's low words together, before any write, so the reads overlap).
fn add_block_to(w: u32, old: u32, x: f32) {
  let s = round(x);
  if (s == 0.0) { return; }
  if (!(abs(s) < 4.611686e18)) {
    atomicOr(&sampleFlags[0], 1u);
    return;
  }
  let v = fixed_split(s);
  let lo = old + v.x;
  blockLo[w] = lo;
  let h = v.y + select(0u, 1u, lo < old);
  if (h == 0u) { return; }
  let oldHi = blockHi[w];
  let hi = oldHi + h;
  blockHi[w] = hi;
  // a signed overflow: the high word moved the wrong way
  let step = bitcast<i32>(h);
  if ((step > 0 && bitcast<i32>(hi) < bitcast<i32>(oldHi)) || (step < 0 && bitcast<i32>(hi) > bitcast<i32>(oldHi))) {
    atomicOr(&sampleFlags[0], 1u);
  }
}

// Adds the integer nearest to x to the 64-bit sum at word w of the block's sums.
fn add_block(w: u32, x: f32) {
  add_block_to(w, blockLo[w], x);
}

// Adds local cell c's pass moments of species s to the open block's sums: the 13 low words read together, then the
// 13 updates (no read waits for a write).
fn add_cell_moments(c: u32, s: u32, a: PassMoments) {
  if (a.cnt == 0.0) { return; }
  var old: array<u32, MOMENTS>;
  for (var m = 0u; m < MOMENTS; m++) { old[m] = blockLo[block_word(m, s, c)]; }
  for (var m = 0u; m < MOMENTS; m++) { add_block_to(block_word(m, s, c), old[m], moment_of(a, m) * moment_scale(m)); }
}

// Adds the internal energies (rotational, vibrational; J) of species s among local cell c's particles first .. first
// + n - 1 to the open block's sums (moments 13 and 14): the particles 0, 2, 4, ... and 1, 3, 5, ... of the cell in two
// f32 partial sums, then even + odd, as the velocity moments. Nothing where the gas has no internal modes.
fn add_cell_internal(c: u32, s: u32, first: u32, n: u32, mixture: bool) {
  if (!HAS_ROTATION) { return; }
  var even = vec2<f32>(0.0);
  var odd = vec2<f32>(0.0);
  for (var k = 0u; k < n; k++) {
    let i = first + k;
    if (mixture && particle_species(i) != s) { continue; }
    let w = i * INTERNAL_WORDS;
    var e = vec2<f32>(eint[w], 0.0);
    if (INTERNAL_WORDS > 1u) { e.y = eint[w + 1u]; }
    if ((k & 1u) == 0u) { even = even + e; } else { odd = odd + e; }
  }
  add_internal_total(c, s, even + odd);
}

// Adds the total internal energies (rotational, vibrational; J) of species s in local cell c to the open block's sums.
fn add_internal_total(c: u32, s: u32, total: vec2<f32>) {
  add_block(block_word(MOMENTS, s, c), total.x * params.sampleScaleE);
  if (INTERNAL_WORDS > 1u) { add_block(block_word(MOMENTS + 1u, s, c), total.y * params.sampleScaleE); }
}
