// sample.wgsl: the sampling phase. One invocation per cell adds, per species, the 13 velocity
// moments of its particles to the running sums: count, sum v_i, sum v_i v_j (6), sum v^2 v_i (3).
// The host folds these f32 sums into f64 after every submit (fields.ts turns them into n, u, T,
// the pressure tensor diagonal and the heat flux).

const MOMENTS: u32 = 13u;

@group(0) @binding(0) var<uniform> params: SimParams;
@group(0) @binding(1) var<storage, read> cellCounts: array<u32>;
@group(0) @binding(2) var<storage, read> starts: array<u32>;
@group(0) @binding(3) var<storage, read> vx: array<f32>;
@group(0) @binding(4) var<storage, read> vy: array<f32>;
@group(0) @binding(5) var<storage, read> vz: array<f32>;
@group(0) @binding(6) var<storage, read> cell: array<u32>;
@group(0) @binding(7) var<storage, read_write> sums: array<f32>;

// Adds value to moment m of species s in local cell c (layout [moment][species][local cell]).
fn add_moment(m: u32, s: u32, c: u32, value: f32) {
  let idx = (m * params.nSpecies + s) * params.nLocal + c;
  sums[idx] = sums[idx] + value;
}

// One invocation per cell: accumulate this sampling pass.
@compute @workgroup_size(WG_SIZE)
fn sample(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
          @builtin(local_invocation_index) li: u32) {
  let c = flat_id(wg, nwg, li);
  if (c >= params.nLocal) { return; }
  let first = starts[c];
  let n = cellCounts[c];
  for (var s = 0u; s < params.nSpecies; s++) {
    var cnt = 0.0;
    var m1 = vec3<f32>(0.0);
    var m2 = vec3<f32>(0.0);   // xx, yy, zz
    var mx = vec3<f32>(0.0);   // xy, xz, yz
    var m3 = vec3<f32>(0.0);   // v^2 v_i
    for (var k = 0u; k < n; k++) {
      let i = first + k;
      if (species_part(cell[i]) != s) { continue; }
      let v = vec3<f32>(vx[i], vy[i], vz[i]);
      let v2 = dot(v, v);
      cnt = cnt + 1.0;
      m1 = m1 + v;
      m2 = m2 + v * v;
      mx = mx + vec3<f32>(v.x * v.y, v.x * v.z, v.y * v.z);
      m3 = m3 + v2 * v;
    }
    if (cnt == 0.0) { continue; }
    add_moment(0u, s, c, cnt);
    add_moment(1u, s, c, m1.x);
    add_moment(2u, s, c, m1.y);
    add_moment(3u, s, c, m1.z);
    add_moment(4u, s, c, m2.x);
    add_moment(5u, s, c, m2.y);
    add_moment(6u, s, c, m2.z);
    add_moment(7u, s, c, mx.x);
    add_moment(8u, s, c, mx.y);
    add_moment(9u, s, c, mx.z);
    add_moment(10u, s, c, m3.x);
    add_moment(11u, s, c, m3.y);
    add_moment(12u, s, c, m3.z);
  }
}
