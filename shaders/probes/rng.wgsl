// probes/rng.wgsl: test-only kernels that expose the RNG of common.wgsl (prepended by
// shaderSource) to test/gpu/rng.test.ts. Not used by the solver.

@group(0) @binding(0) var<uniform> params: SimParams;
// probe[0] = number of draws, probe[1] = step, probe[2] = stream tag, probe[3] = draw index n
@group(0) @binding(1) var<storage, read> probe: array<u32>;
// philox_words: six words per item, counter (4) then key (2)
@group(0) @binding(2) var<storage, read> items: array<u32>;
// four output words per item or draw
@group(0) @binding(3) var<storage, read_write> words: array<u32>;

// Raw Philox-4x32-10 output for explicit counters and keys (known-answer and reference tests).
@compute @workgroup_size(WG_SIZE)
fn philox_words(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                @builtin(local_invocation_index) li: u32) {
  let i = flat_id(wg, nwg, li);
  if (i >= arrayLength(&items) / 6u) { return; }
  let b = 6u * i;
  let c = vec4<u32>(items[b], items[b + 1u], items[b + 2u], items[b + 3u]);
  let k = vec2<u32>(items[b + 4u], items[b + 5u]);
  let w = philox4x32(c, k);
  words[4u * i] = w.x;
  words[4u * i + 1u] = w.y;
  words[4u * i + 2u] = w.z;
  words[4u * i + 3u] = w.w;
}

// rand4(id, step, stream, n) for id in [0, probe[0]) under the run's seed, as f32 bit patterns.
@compute @workgroup_size(WG_SIZE)
fn rand4_draws(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
               @builtin(local_invocation_index) li: u32) {
  let i = flat_id(wg, nwg, li);
  if (i >= probe[0]) { return; }
  let r = rand4(i, probe[1], probe[2], probe[3], params);
  words[4u * i] = bitcast<u32>(r.x);
  words[4u * i + 1u] = bitcast<u32>(r.y);
  words[4u * i + 2u] = bitcast<u32>(r.z);
  words[4u * i + 3u] = bitcast<u32>(r.w);
}

// u01 of each input word, as f32 bit patterns (edge values of the uniform mapping).
@compute @workgroup_size(WG_SIZE)
fn u01_words(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
             @builtin(local_invocation_index) li: u32) {
  let i = flat_id(wg, nwg, li);
  if (i >= arrayLength(&items)) { return; }
  words[i] = bitcast<u32>(u01(items[i]));
}
