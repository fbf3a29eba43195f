// reduce.wgsl: per-workgroup partial sums over live particles for the conservation checks and
// step statistics: momentum (3), kinetic energy, sum of m|v|, sum of |v|, particle count, internal (rotational and vibrational) energy.
// reduce_partials sums those 256 at a time, and the host adds what it wrote in f64: it reads a kilobyte for every 65,536
// particles, not 32 bytes for every 256 (a big rank's read of megabytes, summed while the next submit ran, held its event
// loop for 17-22 ms on an H200 host).

const PARTIAL_WORDS: u32 = 8u;

@group(0) @binding(0) var<uniform> params: SimParams;
@group(0) @binding(1) var<storage, read> ctl: array<u32>;
@group(0) @binding(2) var<storage, read> speciesInfo: array<SpeciesInfo>;
@group(0) @binding(3) var<storage, read> vx: array<f32>;
@group(0) @binding(4) var<storage, read> vy: array<f32>;
@group(0) @binding(5) var<storage, read> vz: array<f32>;
@group(0) @binding(6) var<storage, read> cell: array<u32>;
@group(0) @binding(7) var<storage, read_write> partials: array<f32>;
// internal energy per particle, INTERNAL_WORDS words (rotational, vibrational; J; a stub unless HAS_ROTATION)
@group(0) @binding(8) var<storage, read> eint: array<f32>;
// reduce_partials: the sums of 256 partials each
@group(0) @binding(9) var<storage, read_write> partials2: array<f32>;

var<workgroup> acc: array<array<f32, 8>, 256>;

// Adds the workgroup's 256 records of acc (each invocation's in acc[li]) into acc[0], in a tree.
fn sum_workgroup(li: u32) {
  workgroupBarrier();
  for (var off = 128u; off > 0u; off = off / 2u) {
    if (li < off) {
      for (var k = 0u; k < PARTIAL_WORDS; k++) { acc[li][k] = acc[li][k] + acc[li + off][k]; }
    }
    workgroupBarrier();
  }
}

// The workgroup partials reduce_particles wrote (one per 256 live particles), summed 256 at a time into partials2.
@compute @workgroup_size(256)
fn reduce_partials(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                   @builtin(local_invocation_index) li: u32) {
  let group = wg.y * nwg.x + wg.x;
  let blocks = (ctl[CTL_N] + 255u) / 256u;
  let b = group * 256u + li;
  var q: array<f32, 8>;
  for (var k = 0u; k < PARTIAL_WORDS; k++) { q[k] = 0.0; }
  if (b < blocks) {
    for (var k = 0u; k < PARTIAL_WORDS; k++) { q[k] = partials[b * PARTIAL_WORDS + k]; }
  }
  acc[li] = q;
  sum_workgroup(li);
  if (li == 0u && group < (blocks + 255u) / 256u) {
    for (var k = 0u; k < PARTIAL_WORDS; k++) { partials2[group * PARTIAL_WORDS + k] = acc[0][k]; }
  }
}

// Sums the quantities of one workgroup's particles into partials[workgroup].
@compute @workgroup_size(256)
fn reduce_particles(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                    @builtin(local_invocation_index) li: u32) {
  let block = wg.y * nwg.x + wg.x;
  let i = block * 256u + li;
  var q: array<f32, 8>;
  for (var k = 0u; k < PARTIAL_WORDS; k++) { q[k] = 0.0; }
  if (i < ctl[CTL_N]) {
    // scaled by 1/mass of species 0 so that sums stay well inside f32 range; the host rescales
    let m = speciesInfo[species_part(cell[i])].mass / speciesInfo[0].mass;
    let v = vec3<f32>(vx[i], vy[i], vz[i]);
    let speed = length(v);
    q[0] = m * v.x;
    q[1] = m * v.y;
    q[2] = m * v.z;
    q[3] = 0.5 * m * dot(v, v);
    q[4] = m * speed;
    q[5] = speed;
    q[6] = 1.0;
    // in the same units as the kinetic energy (per mass of species 0)
    if (HAS_ROTATION) {
      var e = eint[i * INTERNAL_WORDS];
      if (INTERNAL_WORDS > 1u) { e = e + eint[i * INTERNAL_WORDS + 1u]; }
      q[7] = e / speciesInfo[0].mass;
    }
  }
  acc[li] = q;
  sum_workgroup(li);
  // surplus workgroups of a 2D dispatch must not store (an out-of-bounds store may land anywhere)
  if (li == 0u && block < (ctl[CTL_N] + 255u) / 256u) {
    for (var k = 0u; k < PARTIAL_WORDS; k++) { partials[block * PARTIAL_WORDS + k] = acc[0][k]; }
  }
}
