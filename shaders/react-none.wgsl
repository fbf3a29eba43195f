// react-none.wgsl: the stand-in of react.wgsl for the collide kernel that also samples (collide-sampled.wgsl), which
// never runs with reactions (sample-kernel-choice.ts) and binds 16 storage buffers without them: no reaction happens.

// No reaction: the pair collides plainly (react.wgsl: try_reaction).
fn try_reaction(i: u32, j: u32, cr: vec3<f32>, pair: PairInfo, g: u32, step: u32, k: u32, n: u32, s: u32, made: u32) -> u32 {
  return 0u;
}
