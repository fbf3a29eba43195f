// Sampling phase: adds each cell's velocity moments to the running sums (sample.wgsl); the loop
// encodes it only on sampling steps (start, start + interval, ...).
import { bindBuffers } from '../gpu/bind.js';
import { WORKGROUP_SIZE, dispatchDims } from '../gpu/buffers.js';
import type { Phase, PhaseContext } from './phase.js';

export class SamplePhase implements Phase {
  readonly name = 'sample';
  private readonly pipeline: GPUComputePipeline;
  private groups: GPUBindGroup[] = [];

  constructor(private readonly ctx: PhaseContext) {
    this.pipeline = ctx.cache.get({ file: 'sample.wgsl', entry: 'sample' });
  }

  bind(): void {
    const { device, state: s } = this.ctx;
    this.groups = s.sets.map((p, k) =>
      bindBuffers(device, this.pipeline, `sample-${k}`, {
        0: s.params, 1: s.counts, 2: s.starts, 3: p.vx, 4: p.vy, 5: p.vz, 6: p.cell, 7: s.sums,
      }),
    );
  }

  encode(pass: GPUComputePassEncoder, set: 0 | 1): void {
    pass.setPipeline(this.pipeline);
    pass.setBindGroup(0, this.groups[set]);
    pass.dispatchWorkgroups(...dispatchDims(this.ctx.state.nLocal, WORKGROUP_SIZE));
  }
}
