// common.wgsl: structs shared with TypeScript (layouts in src-main/solver/gpu/struct-layouts.ts,
// checked by test/unit/struct-layouts.test.ts), the counter-based RNG and small helpers.
// Prepended to every phase shader by src-main/solver/gpu/shader-source.ts.

override WG_SIZE: u32 = 256u;
// True in a rank of a multi-rank run: particles leave for other ranks (migrants), arrive from them,
// and the in-cell order follows explicit keys (old global cell, rank in that cell) instead of the
// buffer index, so that results do not depend on the decomposition.
override MULTI_RANK: bool = false;
// The global grid's cells along x and y (SimParams nx, ny) as pipeline constants: a cell's coordinates from its id
// (coords_of_cell: a division and a remainder by each) then compile to multiplications, where a division by a
// uniform's value costs some twenty instructions, paid per particle in the move and the sort's passes of a rank whose
// box does not span x and y (rcb, block, a slab cut across x or y).
override GRID_NX: u32 = 1u;
override GRID_NY: u32 = 1u;
// True when the case has bodies in the flow (body.wgsl): flights test the triangles of the cells they cross.
override HAS_BODIES: bool = false;
// True when a species of the case rotates (every vibrating species rotates too): the particles carry their internal
// energy (the eint arrays), which the collisions exchange with the translation (Larsen-Borgnakke, collide.wgsl).
override HAS_ROTATION: bool = false;
// Words of internal energy per particle in the eint arrays: 1 (rotational energy, J) or, when a species vibrates, 2
// (rotational, then vibrational energy, J: a whole number of k theta_v quanta).
override INTERNAL_WORDS: u32 = 1u;
// True when the case has gas-phase reactions (collide.wgsl: try_reaction; products.wgsl). A dissociation makes a
// particle: collide writes it at the top of the sorted set's buffers (slot capacity - 1 - k for the k-th product of the
// step), append_products moves it after the live particles, and until the next sort the step's products are the last
// CTL_PRODUCTS live particles, each with its productInfo (parent, rank in its cell, last index of its cell) so that
// the move keys its random stream and the sort orders it as if it had been made in its cell's order (the same on any
// number of ranks).
override REACTIONS: bool = false;

// Words of one migrating particle: px, py, pz, vx, vy, vz, cell word, key (2), then (HAS_ROTATION) its
// INTERNAL_WORDS words of internal energy: 9 + INTERNAL_WORDS with rotation, else 9 (state.ts migrantWords).
override MIGRANT_WORDS: u32 = 9u;
// Index of the first internal-energy word in a migrant record.
const MIGRANT_INTERNAL: u32 = 9u;
// Words before the records in the arrivals buffer: the arrival count, then padding (ARRIVALS_HEADER_WORDS in struct-layouts.ts).
const ARRIVALS_HEADER: u32 = 4u;
// Key of injected particles: the high word has this bit set (cell ids stay below 2^27).
const INJECTED_KEY: u32 = 0x80000000u;

const INVALID_CELL: u32 = 0xffffffffu;

// A particle's cell word: the cell index in the low CELL_BITS bits, the species above them;
// INVALID_CELL marks a particle that left the box.
const CELL_BITS: u32 = 27u;
const CELL_MASK: u32 = 0x07ffffffu;
const BOLTZMANN: f32 = 1.380649e-23;
const PI: f32 = 3.14159265358979;

// Boundary kinds (src-main/solver/gpu/struct-layouts.ts: BOUNDARY_CODES).
const BC_PERIODIC: u32 = 0u;
const BC_SPECULAR: u32 = 1u;
const BC_DIFFUSE: u32 = 2u;
const BC_INFLOW: u32 = 3u;
const BC_OUTFLOW: u32 = 4u;

// RNG stream tags: the third word of the Philox counter, one per use, so no two uses share numbers.
const STREAM_INIT: u32 = 1u;
const STREAM_WALL: u32 = 2u;
const STREAM_COLLIDE: u32 = 3u;
const STREAM_INJECT_COUNT: u32 = 4u;
const STREAM_INJECT_PARTICLE: u32 = 5u;
const STREAM_BODY: u32 = 6u;
const STREAM_INTERNAL: u32 = 7u;
const STREAM_VIBRATION: u32 = 8u;
const STREAM_REACTION: u32 = 9u;

// Control words (a u32 storage array shared by all phases).
const CTL_STEP: u32 = 0u;          // step being computed (1-based)
const CTL_N: u32 = 1u;             // live particles, stored contiguously in [0, N)
const CTL_N_ALL: u32 = 2u;         // N plus particles injected this step (some may be dead)
const CTL_OVERFLOW: u32 = 3u;      // particles that did not fit the buffers (0 unless capacity ran out)
const CTL_INJECTED: u32 = 4u;      // particles injected this step
const CTL_STATS_SLOT: u32 = 5u;    // slot of this step in the step-statistics ring
const CTL_ARRIVALS: u32 = 6u;      // particles arriving from other ranks this step (control.wgsl:after_arrivals, from the arrivals buffer)
const CTL_N_MOVED: u32 = 7u;       // N at the start of the step: slots below it hold this rank's moved particles
const CTL_N_INTERIOR: u32 = 8u;    // multi-rank: particles of the interior cells (sorted to [0, N_INTERIOR) by the interior pass)
const CTL_HALO_CELLS: u32 = 9u;    // multi-rank: cells in the halo list (set by the host with the halo)
const CTL_N_INTERIOR_BEFORE: u32 = 10u; // multi-rank: N_INTERIOR of the step before (where its buffer order switches from interior to halo cells)
const CTL_RELAYOUT_FROM: u32 = 11u; // multi-rank, a relayout round: its particles are [FROM, TO) (set by the host)
const CTL_RELAYOUT_TO: u32 = 12u;
const CTL_PRODUCTS: u32 = 13u;     // reactions: products the last step appended, the last live particles until the next sort
const CTL_WORDS: u32 = 14u;


// Split steps of a multi-rank run (src-main/solver/halo-split.ts): the interior pass (SPLIT_PASS 1) sorts
// and collides the cells that no arriving particle can reach while the host exchanges migrants; the halo
// pass (SPLIT_PASS 2) then does the halo cells (`halo`: one bit per local cell in halo_bit_words(nLocal) words,
// then the halo cells' local ids, CTL_HALO_CELLS of them; one binding for both, so that a kernel binding the
// halo and the sampling sums stays within 16 storage buffers). When an arrival lands outside the halo, the host redoes the whole step
// instead (split.wgsl: restore_full, then the plain sort and collide), so results never depend on the guess.
override SPLIT_PASS: u32 = 0u;
// Words of the halo work buffer (HALO_WORK in struct-layouts.ts): halo particles the interior pass listed.
const HW_LISTED: u32 = 0u;
const HW_WORDS: u32 = 4u;
@group(0) @binding(31) var<storage, read> halo: array<u32>;

// True when local cell c is in the halo (arrivals may land there).
fn is_halo(c: u32) -> bool {
  return (halo[c >> 5u] & (1u << (c & 31u))) != 0u;
}

// Words of the halo's bits for nLocal local cells (haloBitWords in src-main/solver/halo-split.ts: at least 4).
fn halo_bit_words(nLocal: u32) -> u32 {
  return max(4u, (nLocal + 31u) / 32u);
}

// The k-th halo cell's local id (k < CTL_HALO_CELLS; a larger k reads the last local cell's entry, within the buffer).
fn halo_cell(k: u32, nLocal: u32) -> u32 {
  return halo[halo_bit_words(nLocal) + min(k, nLocal - 1u)];
}


// Step-statistics ring: STATS_WORDS u32 per step.
const STATS_WORDS: u32 = 8u;
const ST_STEP: u32 = 0u;
const ST_N_BEFORE: u32 = 1u;       // live particles at the start of the step
const ST_INJECTED: u32 = 2u;
const ST_N_AFTER: u32 = 3u;        // live particles after move, injection and sort
const ST_COLLISIONS: u32 = 4u;
const ST_CANDIDATES: u32 = 5u;
const ST_REACTIONS: u32 = 6u;      // reactions (REACTIONS) this step
const ST_PRODUCTS: u32 = 7u;       // particles the step's dissociations made

// Reactions: words of the stats buffer after the step ring (statsRing * STATS_WORDS): the step's products so far, the
// products that found no room (the host stops the run), then per reaction the step's count and the submit's count.
const RX_MADE: u32 = 0u;
const RX_OVERFLOW: u32 = 1u;
const RX_STEP_TALLY: u32 = 2u;
const RX_MAX_REACTIONS: u32 = 64u;
const RX_RUN_TALLY: u32 = 66u;
const RX_WORDS: u32 = 130u;

// One gas-phase reaction (Bird's TCE; tables: src-main/solver/reaction-tables.ts): reactants r1 + r2; r1 becomes p1;
// kind 0 (dissociation): a new particle of species p2 is made beside r1 and r2 is unchanged; kind 1 (exchange): r2
// becomes p2. ea activation energy and er reaction energy (J); the probability of a collision with collision energy
// E_c (J) is prefactor ((E_c - ea)/k)^powA (1 - ea/E_c)^powB, with E_c = E_trans + w1 E_rot(r1) + w2 E_rot(r2).
struct Reaction {
  r1: u32,
  r2: u32,
  p1: u32,
  p2: u32,
  kind: u32,
  pad0: u32,
  pad1: u32,
  pad2: u32,
  ea: f32,
  er: f32,
  prefactor: f32,
  powA: f32,
  powB: f32,
  w1: f32,
  w2: f32,
  pad3: f32,
}

// First word of the reaction words in the stats buffer.
fn reaction_words(p: SimParams) -> u32 {
  return p.statsRing * STATS_WORDS;
}

// The productInfo buffer holds three regions of entries / 3: the step's products as collide makes them (region 0,
// slot k for the k-th), then the appended products of odd and even steps in their buffer order (products.wgsl), so
// that a redone step still finds what the step before appended. First entry of the appended products of `step`:
fn product_final(step: u32, entries: u32) -> u32 {
  return (1u + (step & 1u)) * (entries / 3u);
}

struct SimParams {
  nx: u32,
  ny: u32,
  nz: u32,
  nCells: u32,
  dx: f32,
  dy: f32,
  dz: f32,
  dt: f32,
  lx: f32,
  ly: f32,
  lz: f32,
  nSpecies: u32,
  invDx: f32,
  invDy: f32,
  invDz: f32,
  collisionFactor: f32,
  seedLo: u32,
  seedHi: u32,
  capacity: u32,
  nFaceCells: u32,
  statsRing: u32,
  nInflowFaces: u32,
  sampleEnabled: u32,
  // 1 when this rank's box spans the grid along x and y (one rank, slabs along z): its local cell ids are then the
  // global ids less cellBase, and a cell in that range is owned, without working out its coordinates
  localDense: u32,
  // this rank's subdomain: owned cells are the box [lo, hi); per-cell arrays hold its nLocal cells numbered x
  // fastest within the box (local_of_coords); cellBase is the global id of the box's first cell
  cellBase: u32,
  nLocal: u32,
  loX: u32,
  loY: u32,
  loZ: u32,
  hiX: u32,
  hiY: u32,
  hiZ: u32,
  rank: u32,
  worldSize: u32,
  // capacity of each destination's segment of the migrant buffer
  segCap: u32,
  // first global cell of the per-cell arrays before a rebalance (move.wgsl:relayout; equals cellBase otherwise)
  oldCellBase: u32,
  // sampling steps: sampleEnabled and step >= sampleStart and (step - sampleStart) % sampleInterval == 0
  sampleStart: u32,
  sampleInterval: u32,
  // surfaces (body.wgsl): triangles of all bodies, bodies, and the fixed-point scales of the surface sums
  // (momentum and energy per unit of the reference mass are multiplied by these before rounding to integers)
  nTris: u32,
  nBodies: u32,
  surfScaleP: f32,
  surfScaleE: f32,
  // distance a particle is set off a body's surface after a reflection, m
  bodyEps: f32,
  // first word of the triangles in bodyData (body.wgsl)
  triBase: u32,
  // fixed-point scales (powers of two) of the sampled moments of order 1, 2 and 3 (sample.wgsl)
  sampleScale1: f32,
  sampleScale2: f32,
  sampleScale3: f32,
  // fixed-point scale of the sampled internal energies (sum E_rot, sum E_vib, J)
  sampleScaleE: f32,
  // the box of the per-cell arrays before a rebalance (first cell, extents along x and y: move.wgsl:relayout finds
  // the old starts through it; this rank's box otherwise)
  oldLoX: u32,
  oldLoY: u32,
  oldLoZ: u32,
  oldBx: u32,
  oldBy: u32,
  pad0: u32,
  pad1: u32,
  pad2: u32,
}

// The uniform of sample.wgsl's sample_close: the closing block's passes and number and the field scales.
struct CloseParams {
  passes: u32,
  block: u32,
  // 1 / passes of the block
  invPasses: f32,
  // the reference mass, kg (the mass ratios are to it)
  massRef: f32,
  // 2^-e of the moments of order 1, 2 and 3 (turn fixed-point integers back into SI sums)
  unscale1: f32,
  unscale2: f32,
  unscale3: f32,
  // 2^-e of the internal energies' sums
  unscaleE: f32,
}

// Gas-surface interaction of a surface model (body.wgsl): each body, then the six domain faces.
struct SurfaceModel {
  kind: u32,
  accommodation: f32,
  pad0: u32,
  pad1: u32,
  velX: f32,
  velY: f32,
  velZ: f32,
  pad2: f32,
}

// One (surface model, species) entry: thermal speed sqrt(k T_w / m) of the wall and mass / reference mass.
struct SurfaceSpecies {
  thermalSpeed: f32,
  massRatio: f32,
  // k T_w of the wall for a rotating species (J; 0 for an atom or a specular wall)
  rotKT: f32,
  // k theta_v of a vibrating species (J; 0 when it does not vibrate)
  vibKTheta: f32,
}

// Sizes of the uniform tables (uniform arrays need a fixed length): 16 species, 64 bodies, 6 faces.
const MAX_SPECIES: u32 = 16u;
const MAX_SURFACE_MODELS: u32 = 70u;

// Collision constants of a species pair: sigma_T c_r = crossSection * c_r^crExponent.
struct PairInfo {
  crossSection: f32,
  crExponent: f32,
  invAlpha: f32,
  massFraction1: f32,
  massFraction2: f32,
  vss: u32,
  // probability that the first (second) molecule relaxes its rotation in a collision: 1/Zrot, 0 for an atom
  rotRelax1: f32,
  rotRelax2: f32,
  // Larsen-Borgnakke: the rotational share of a relaxing molecule is 1 - R^lbExponent, lbExponent = 1/(5/2 - omega)
  lbExponent: f32,
  reducedMass: f32,
  // Parker's Zrot of the first (second) molecule: Z_inf and T* (Z_inf 0: the constant 1/rotRelax)
  zInf1: f32,
  tStar1: f32,
  zInf2: f32,
  tStar2: f32,
  // k theta_v of the first (second) molecule's vibration, J (0: it does not vibrate)
  vibKTheta1: f32,
  vibKTheta2: f32,
  // probability that the first (second) molecule relaxes its vibration: 1/Zvib (constant form)
  vibRelax1: f32,
  vibRelax2: f32,
  // Millikan-White Zvib of the first (second) molecule with the pair's partner, ln Z = mwA T^(-1/3) + mwC - omega ln T
  // (mwA 0: the constant 1/vibRelax)
  mwA1: f32,
  mwC1: f32,
  mwA2: f32,
  mwC2: f32,
  // the pair's VHS viscosity exponent
  omega: f32,
  pad0: u32,
}

// Initial fill of the box (init.wgsl).
struct InitParams {
  count: u32,
  kind: u32,
  velX: f32,
  velY: f32,
  velZ: f32,
  // temperature of the rotational energy at the start, K
  rotTemperature: f32,
  // temperature of the vibrational energy at the start, K
  vibTemperature: f32,
  pad2: u32,
}

struct SpeciesInfo {
  mass: f32,
  initFraction: f32,
  initThermalSpeed: f32,
  // rotational degrees of freedom (0 or 2)
  rotDof: f32,
  // k theta_v of its vibration, J (0: it does not vibrate)
  vibKTheta: f32,
  pad0: u32,
  pad1: u32,
  pad2: u32,
}

// One face of the box: 0 xmin, 1 xmax, 2 ymin, 3 ymax, 4 zmin, 5 zmax.
struct FaceInfo {
  kind: u32,
  faceCellBase: u32,
  faceCellCount: u32,
  pad0: u32,
  velX: f32,
  velY: f32,
  velZ: f32,
  pad1: f32,
}

// Per face and species: wall or free-stream thermal speed sqrt(kT/m), expected injected particles
// per face cell per step, and the normal speed ratio s = u_n / c_mp of the stream.
struct FaceSpecies {
  thermalSpeed: f32,
  injectMean: f32,
  speedRatio: f32,
  // k T of the wall or reservoir for a rotating species (J; 0 for an atom and on other faces)
  rotKT: f32,
  // k theta_v of a vibrating species (J; 0 when it does not vibrate)
  vibKTheta: f32,
  pad0: u32,
  pad1: u32,
  pad2: u32,
}

// ---- Philox-4x32-10 (Salmon et al., SC'11), counter-based: numbers depend only on (key, counter).

// 32x32 -> 64-bit multiply, returned as (hi, lo); WGSL has no mulhi.
fn mulhilo(a: u32, b: u32) -> vec2<u32> {
  let al = a & 0xffffu;
  let ah = a >> 16u;
  let bl = b & 0xffffu;
  let bh = b >> 16u;
  let ll = al * bl;
  let hl = ah * bl;
  let lh = al * bh;
  let hh = ah * bh;
  let cross = (ll >> 16u) + (hl & 0xffffu) + lh;
  let hi = hh + (hl >> 16u) + (cross >> 16u);
  let lo = (cross << 16u) | (ll & 0xffffu);
  return vec2<u32>(hi, lo);
}

// Ten Philox rounds of counter c under key k: four independent 32-bit random words.
fn philox4x32(c_in: vec4<u32>, k_in: vec2<u32>) -> vec4<u32> {
  var c = c_in;
  var k = k_in;
  for (var r = 0u; r < 10u; r++) {
    let p0 = mulhilo(0xD2511F53u, c.x);
    let p1 = mulhilo(0xCD9E8D57u, c.z);
    c = vec4<u32>(p1.x ^ c.y ^ k.x, p1.y, p0.x ^ c.w ^ k.y, p0.y);
    k = k + vec2<u32>(0x9E3779B9u, 0xBB67AE85u);
  }
  return c;
}

// Maps a 32-bit word to a float strictly inside (0, 1). For k >= 2^23, k + 0.5 is not an f32 and
// rounds to k or k + 1, so the top words would give exactly 1.0 without the min (test/gpu/rng.test.ts).
fn u01(x: u32) -> f32 {
  return min((f32(x >> 8u) + 0.5) * (1.0 / 16777216.0), 0.99999994);
}

// Four uniform numbers in (0,1) for (id, step, stream, n) under the run's seed.
fn rand4(id: u32, step: u32, stream: u32, n: u32, p: SimParams) -> vec4<f32> {
  let w = philox4x32(vec4<u32>(id, step, stream, n), vec2<u32>(p.seedLo, p.seedHi));
  return vec4<f32>(u01(w.x), u01(w.y), u01(w.z), u01(w.w));
}

// Two standard normal numbers from two uniforms (Box-Muller).
fn gauss2(u: vec2<f32>) -> vec2<f32> {
  let r = sqrt(-2.0 * log(u.x));
  let a = 2.0 * PI * u.y;
  return vec2<f32>(r * cos(a), r * sin(a));
}

// ---- helpers

// Flat invocation index of a 1D-or-2D dispatch (workgroups beyond 65535 spill into y).
fn flat_id(wg: vec3<u32>, nwg: vec3<u32>, local: u32) -> u32 {
  return (wg.y * nwg.x + wg.x) * WG_SIZE + local;
}

// The invocations of a dispatch: the stride of every grid-stride loop. (Kernels dispatched for the host's bound on the
// live particles take their first item straight and loop over the rest only when the bound was low: with no loop
// variables live across the usual one item; the plain loop form cost the rank's sort 2 % on an H100.)
fn grid_stride(nwg: vec3<u32>) -> u32 {
  return nwg.x * nwg.y * WG_SIZE;
}

// The integer s (any sign, |s| < 2^63) as the (low, high) words of a two's-complement 64-bit integer.
fn fixed_split(s: f32) -> vec2<u32> {
  if (abs(s) < 2147483648.0) {
    let i = i32(s);
    return vec2<u32>(bitcast<u32>(i), select(0u, 0xffffffffu, i < 0));
  }
  // |s| >= 2^31 is an integer multiple of its ulp (>= 256): the split below is exact
  let h = floor(s * (1.0 / 4294967296.0));
  return vec2<u32>(u32(s - h * 4294967296.0), bitcast<u32>(i32(h)));
}

// The cell word of a particle of species sp in cell c.
fn cell_word(c: u32, sp: u32) -> u32 {
  return c | (sp << CELL_BITS);
}

// Cell index of a (valid) cell word.
fn cell_part(w: u32) -> u32 {
  return w & CELL_MASK;
}

// Species of a (valid) cell word.
fn species_part(w: u32) -> u32 {
  return w >> CELL_BITS;
}

// Cell coordinates of a position inside the box (clamped so that x == L lands in the last cell).
fn cell_coords(pos: vec3<f32>, p: SimParams) -> vec3<u32> {
  let ix = min(u32(max(pos.x * p.invDx, 0.0)), p.nx - 1u);
  let iy = min(u32(max(pos.y * p.invDy, 0.0)), p.ny - 1u);
  let iz = min(u32(max(pos.z * p.invDz, 0.0)), p.nz - 1u);
  return vec3<u32>(ix, iy, iz);
}

// Global cell id of cell coordinates.
fn cell_id(v: vec3<u32>, p: SimParams) -> u32 {
  return v.x + p.nx * (v.y + p.ny * v.z);
}

// Cell coordinates of a global cell id (GRID_NX and GRID_NY are p.nx and p.ny as pipeline constants).
fn coords_of_cell(g: u32, p: SimParams) -> vec3<u32> {
  let x = g % GRID_NX;
  let t = g / GRID_NX;
  return vec3<u32>(x, t % GRID_NY, t / GRID_NY);
}

// Local id (x fastest within this rank's box) of owned cell coordinates v.
fn local_of_coords(v: vec3<u32>, p: SimParams) -> u32 {
  return (v.x - p.loX) + (p.hiX - p.loX) * ((v.y - p.loY) + (p.hiY - p.loY) * (v.z - p.loZ));
}

// Local id of owned global cell g (no coordinates needed where the box spans x and y).
fn local_of_cell(g: u32, p: SimParams) -> u32 {
  if (p.localDense == 1u) { return g - p.cellBase; }
  return local_of_coords(coords_of_cell(g, p), p);
}

// Global id of local cell c (the inverse of local_of_cell).
fn global_of_local(c: u32, p: SimParams) -> u32 {
  if (p.localDense == 1u) { return p.cellBase + c; }
  let bx = p.hiX - p.loX;
  let t = c / bx;
  let by = p.hiY - p.loY;
  return cell_id(vec3<u32>(p.loX + c % bx, p.loY + t % by, p.loZ + t / by), p);
}

// True when this rank owns the cell at coordinates v (always on one rank).
fn owns_coords(v: vec3<u32>, p: SimParams) -> bool {
  if (!MULTI_RANK) { return true; }
  return all(v >= vec3<u32>(p.loX, p.loY, p.loZ)) && all(v < vec3<u32>(p.hiX, p.hiY, p.hiZ));
}

// True when this rank owns global cell g.
fn owns_cell(g: u32, p: SimParams) -> bool {
  if (!MULTI_RANK) { return true; }
  return owns_coords(coords_of_cell(g, p), p);
}

// Vibrational energy (J) of a harmonic oscillator of quantum kTheta = k theta_v in equilibrium at kT = k T: the level
// floor(-ln R kT / kTheta) of the Boltzmann distribution, times the quantum (0 when it does not vibrate).
fn equilibrium_vibration(kTheta: f32, kT: f32, u: f32) -> f32 {
  if (kTheta <= 0.0 || kT <= 0.0) { return 0.0; }
  return floor(-log(u) * kT / kTheta) * kTheta;
}

// Parker's rotational collision number at temperature t: Z_inf / (1 + pi^(3/2)/2 sqrt(T*/t) + (pi + pi^2/4) T*/t).
fn parker_z(zInf: f32, tStar: f32, t: f32) -> f32 {
  let r = tStar / max(t, 1e-6);
  return zInf / (1.0 + 0.5 * pow(PI, 1.5) * sqrt(r) + (PI + 0.25 * PI * PI) * r);
}
