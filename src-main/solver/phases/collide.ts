// Collision phase: Bird's NTC scheme per cell on the cell-sorted particles (collide.wgsl).
import { bindBuffers } from '../gpu/bind.js';
import { WORKGROUP_SIZE, dispatchDims } from '../gpu/buffers.js';
import type { Phase, PhaseContext } from './phase.js';

export class CollidePhase implements Phase {
  readonly name = 'collide';
  private readonly pipeline: GPUComputePipeline;
  private groups: GPUBindGroup[] = [];

  constructor(private readonly ctx: PhaseContext) {
    this.pipeline = ctx.cache.get({ file: 'collide.wgsl', entry: 'collide' });
  }

  bind(): void {
    const { device, state: s } = this.ctx;
    this.groups = s.sets.map((p, k) =>
      bindBuffers(device, this.pipeline, `collide-${k}`, {
        0: s.params, 1: s.ctl, 2: s.stats, 3: s.counts, 4: s.starts, 5: s.sigmaCrMax, 6: s.remainder,
        7: p.vx, 8: p.vy, 9: p.vz, 10: p.cell, 11: s.pairs,
      }),
    );
  }

  encode(pass: GPUComputePassEncoder, set: 0 | 1): void {
    pass.setPipeline(this.pipeline);
    pass.setBindGroup(0, this.groups[set]);
    pass.dispatchWorkgroups(...dispatchDims(this.ctx.state.nLocal, WORKGROUP_SIZE));
  }
}
