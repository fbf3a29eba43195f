// Move phase: starts the step and clears the cell counters (control.wgsl:begin_step), then flies every
// particle for dt through the box with its boundary conditions, re-indexes and counts it (move.wgsl);
// in a multi-rank run particles landing in other ranks' cells go to the migrant buffer.
import { bindBuffers } from '../gpu/bind.js';
import { WORKGROUP_SIZE, dispatchDims } from '../gpu/buffers.js';
import type { Phase, PhaseContext } from './phase.js';

export class MovePhase implements Phase {
  readonly name = 'move';
  private readonly begin: GPUComputePipeline;
  private readonly move: GPUComputePipeline;
  private beginGroup!: GPUBindGroup;
  private moveGroups: GPUBindGroup[] = [];
  private readonly rotating: boolean;
  /** Several ranks with a rotating species: collect_all emits the migrants move_rotating left (null otherwise). */
  private readonly collect: GPUComputePipeline | null = null;
  private collectGroups: GPUBindGroup[] = [];

  constructor(private readonly ctx: PhaseContext) {
    this.begin = ctx.cache.get({ file: 'control.wgsl', entry: 'begin_step' });
    // a rotating species moves its particles' internal energy too (move_rotating); on several ranks collect_all then
    // emits the particles that landed in other ranks' cells, with their energy (the multi-rank move_particles
    // already binds 16 storage buffers)
    this.rotating = ctx.state.tables.hasRotation;
    this.move = ctx.cache.get({ file: 'move.wgsl', entry: this.rotating ? 'move_rotating' : 'move_particles', modules: ['body.wgsl', 'advance.wgsl'] });
    if (this.rotating && ctx.state.multiRank) this.collect = ctx.cache.get({ file: 'move.wgsl', entry: 'collect_all', modules: ['body.wgsl', 'advance.wgsl'] });
  }

  bind(): void {
    const { device, state: s } = this.ctx;
    this.beginGroup = bindBuffers(device, this.begin, 'begin-step', { 0: s.params, 1: s.ctl, 2: s.stats, 6: s.counts, 7: s.migCounts });
    this.moveGroups = s.sets.map((p, k) =>
      bindBuffers(device, this.move, `move-${k}`, {
        0: s.params, 1: s.ctl, 2: s.faces, 3: s.faceSpecies,
        4: p.px, 5: p.py, 6: p.pz, 7: p.vx, 8: p.vy, 9: p.vz, 10: p.cell,
        11: s.counts, 12: s.slotsFor(k as 0 | 1), 13: s.starts,
        14: s.keys, 17: s.boxes,
        ...(this.rotating ? { 19: s.eint[k] } : { 15: s.migOut, 16: s.migCounts }),
        40: s.bodyData, 41: s.surfSums, 42: s.surfModels, 43: s.surfSpecies,
      }),
    );
    const collect = this.collect;
    this.collectGroups = collect ? s.sets.map((p, k) => bindBuffers(device, collect, `move-collect-${k}`, {
      0: s.params, 1: s.ctl, 4: p.px, 5: p.py, 6: p.pz, 7: p.vx, 8: p.vy, 9: p.vz, 10: p.cell,
      14: s.keys, 15: s.migOut, 16: s.migCounts, 17: s.boxes, 19: s.eint[k],
    })) : [];
  }

  /** Records the relayout after a rebalance (move.wgsl:relayout) with the previous layout's starts. */
  encodeRelayout(pass: GPUComputePassEncoder, set: 0 | 1, oldStarts: GPUBuffer, particles: number): void {
    const { device, cache, state: s } = this.ctx;
    const pipeline = cache.get({ file: 'move.wgsl', entry: 'relayout', modules: ['body.wgsl', 'advance.wgsl'] });
    const p = s.sets[set];
    pass.setPipeline(pipeline);
    pass.setBindGroup(0, bindBuffers(device, pipeline, 'relayout', {
      0: s.params, 1: s.ctl, 4: p.px, 5: p.py, 6: p.pz, 7: p.vx, 8: p.vy, 9: p.vz, 10: p.cell,
      11: s.counts, 12: s.slotsFor(set), 13: oldStarts, 14: s.keys, 15: s.migOut, 16: s.migCounts, 17: s.boxes, 19: s.eint[set],
    }));
    pass.dispatchWorkgroups(...dispatchDims(Math.max(1, particles), WORKGROUP_SIZE));
  }

  encode(pass: GPUComputePassEncoder, set: 0 | 1): void {
    const s = this.ctx.state;
    pass.setPipeline(this.begin);
    pass.setBindGroup(0, this.beginGroup);
    pass.dispatchWorkgroups(...dispatchDims(Math.max(s.nLocal, s.subdomain.worldSize + 2), WORKGROUP_SIZE));
    pass.setPipeline(this.move);
    pass.setBindGroup(0, this.moveGroups[set]);
    pass.dispatchWorkgroups(...dispatchDims(s.capacity, WORKGROUP_SIZE));
    if (this.collect) {
      pass.setPipeline(this.collect);
      pass.setBindGroup(0, this.collectGroups[set]);
      pass.dispatchWorkgroups(...dispatchDims(s.capacity, WORKGROUP_SIZE));
    }
  }
}
