// Migration of a multi-rank run (move.wgsl, control.wgsl): after injection, injected particles that
// landed in other ranks' cells join the migrant buffer; after the host exchanged the buffers, the
// particles that arrived are appended and counted in their cells. Not used on one rank.
import { bindBuffers } from '../gpu/bind.js';
import { WORKGROUP_SIZE, dispatchDims } from '../gpu/buffers.js';
import type { PhaseContext } from './phase.js';
import { moveModules } from './move.js';

export class MigratePhase {
  private readonly collectInjected: GPUComputePipeline;
  private readonly collectAll: GPUComputePipeline;
  private readonly append: GPUComputePipeline;
  private readonly after: GPUComputePipeline;
  private groups: { collectInjected: GPUBindGroup; collectAll: GPUBindGroup; append: GPUBindGroup }[] = [];
  private afterGroup!: GPUBindGroup;

  constructor(private readonly ctx: PhaseContext) {
    const get = (entry: string) => ctx.cache.get({ file: 'move.wgsl', entry, modules: moveModules(ctx.device) });
    this.collectInjected = get('collect_injected');
    this.collectAll = get('collect_all');
    this.append = get('append_arrivals');
    this.after = ctx.cache.get({ file: 'control.wgsl', entry: 'after_arrivals' });
  }

  /** (Re)creates the bind groups (after setup and whenever buffers were reallocated). */
  bind(): void {
    const { device, state: s } = this.ctx;
    this.groups = s.sets.map((p, k) => {
      const set = k as 0 | 1;
      // the cell words after the move (20), the moved particles' old cells (10) and ranks in them (12: their order keys)
      const particles = { 4: p.px, 5: p.py, 6: p.pz, 7: p.vx, 8: p.vy, 9: p.vz, 20: s.movedOf(set) };
      // the internal energy words go with the records (a 16-byte stub when nothing rotates)
      const collect = {
        0: s.params, 1: s.ctl, ...particles, 10: p.cell, 12: s.slotsFor(set), 14: s.keysOf(set), 15: s.migOutOf(set), 16: s.migCountsOf(set), 17: s.boxes, 19: s.eint[k],
      };
      return {
        collectInjected: bindBuffers(device, this.collectInjected, `collect-injected-${k}`, collect),
        collectAll: bindBuffers(device, this.collectAll, `collect-all-${k}`, collect),
        append: bindBuffers(device, this.append, `append-arrivals-${k}`, {
          0: s.params, 1: s.ctl, ...particles, 11: s.countsOf(set), 12: s.slotsFor(set), 14: s.keysOf(set), 16: s.migCountsOf(set), 18: s.arrivals, 19: s.eint[k],
        }),
      };
    });
    this.afterGroup = bindBuffers(device, this.after, 'after-arrivals', { 1: s.ctl, 18: s.arrivals });
  }

  /**
   * Emits the injected particles of this step that belong to other ranks: threads for `injectedBound` particles (the
   * host's bound on a step's injection), not the buffers' capacity; the kernel's grid-stride loop takes any more.
   */
  encodeCollectInjected(pass: GPUComputePassEncoder, set: 0 | 1, injectedBound: number): void {
    this.dispatch(pass, this.collectInjected, this.groups[set].collectInjected, Math.max(1, injectedBound));
  }

  /** Emits every particle that belongs to another rank again (after the migrant buffer grew): for the live bound, its loop takes any more. */
  encodeCollectAll(pass: GPUComputePassEncoder, set: 0 | 1): void {
    this.dispatch(pass, this.collectAll, this.groups[set].collectAll, this.ctx.state.particleThreads());
  }

  /** Appends `count` arrived particles (already written to the arrivals buffer with their count; after_arrivals sets CTL_ARRIVALS). */
  encodeAppend(pass: GPUComputePassEncoder, set: 0 | 1, count: number): void {
    if (count > 0) this.dispatch(pass, this.append, this.groups[set].append, count);
    this.dispatch(pass, this.after, this.afterGroup, 1, 1);
  }

  /** One dispatch covering n invocations. */
  private dispatch(pass: GPUComputePassEncoder, pipeline: GPUComputePipeline, group: GPUBindGroup, n: number, wg = WORKGROUP_SIZE): void {
    pass.setPipeline(pipeline);
    pass.setBindGroup(0, group);
    pass.dispatchWorkgroups(...dispatchDims(n, wg));
  }
}
