// Initial fill of the box at step 0 (init.wgsl): positions, species and velocities of the initial
// particles, generated on the GPU from the counter-based RNG and counted in their cells; the sort then
// puts them in cell order, so the first step starts from sorted particles like every later one.
import { bindBuffers } from '../gpu/bind.js';
import { WORKGROUP_SIZE, dispatchDims } from '../gpu/buffers.js';
import type { PhaseContext } from './phase.js';

/** Records the initial fill into the live particle set (the caller sorts it next). */
export function encodeInit(ctx: PhaseContext, pass: GPUComputePassEncoder): void {
  const { device, cache, state: s } = ctx;
  const count = s.tables.initialParticles;
  if (count === 0) return;
  const pipeline = cache.get({ file: 'init.wgsl', entry: 'init_particles', modules: ['body.wgsl'] });
  const p = s.live;
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, bindBuffers(device, pipeline, 'init', {
    0: s.params, 1: s.initParams, 2: s.speciesInfo,
    3: p.px, 4: p.py, 5: p.pz, 6: p.vx, 7: p.vy, 8: p.vz, 9: s.cellsAfterMove(s.current),
    10: s.ctl, 11: s.countsOf(s.current), 12: s.slotsFor(s.current), 13: s.keysOf(s.current), 14: s.liveEint, 40: s.bodyData, 44: s.volumeFraction,
  }));
  pass.dispatchWorkgroups(...dispatchDims(count, WORKGROUP_SIZE));
}
