// Collision phase: Bird's NTC scheme per cell on the cell-sorted particles (collide.wgsl). A rank of
// a multi-rank run collides in two passes per step (interior cells, then halo cells; sort.ts). On a sampled step of
// a one-rank run the same kernel can also sample each cell after its collisions (collide-sampled.wgsl), when that
// is the faster (sample-kernel-choice.ts).
import { bindBuffers } from '../gpu/bind.js';
import { WORKGROUP_SIZE, dispatchDims } from '../gpu/buffers.js';
import type { Phase, PhaseContext } from './phase.js';
import type { SplitPass } from './sort.js';

export class CollidePhase implements Phase {
  readonly name = 'collide';
  private readonly pipeline: GPUComputePipeline;
  private readonly splitPipelines: Record<SplitPass, GPUComputePipeline> | null = null;
  /** The collide kernel that also samples (one rank, sampling on; null otherwise). */
  private readonly sampledPipeline: GPUComputePipeline | null = null;
  private groups: GPUBindGroup[] = [];
  private sampledGroups: GPUBindGroup[] = [];
  private splitGroups: Record<SplitPass, GPUBindGroup[]> = { 1: [], 2: [] };

  constructor(private readonly ctx: PhaseContext) {
    this.pipeline = ctx.cache.get({ file: 'collide.wgsl', entry: 'collide', modules: ['body.wgsl', 'react.wgsl'] });
    if (ctx.sampleKernel !== 'pass') {
      this.sampledPipeline = ctx.cache.get({ file: 'collide-sampled.wgsl', entry: 'collide_sampled', modules: ['body.wgsl', 'react-none.wgsl', 'collide.wgsl', 'sample-sums.wgsl'] });
    }
    if (ctx.state.multiRank) {
      const get = (which: SplitPass) => ctx.cache.get({ file: 'collide.wgsl', entry: 'collide_split', modules: ['body.wgsl', 'react.wgsl'], constants: { SPLIT_PASS: which } });
      this.splitPipelines = { 1: get(1), 2: get(2) };
    }
  }

  bind(): void {
    const { device, state: s } = this.ctx;
    const table = (k: number) => {
      const p = s.sets[k];
      // the counts of the set this one was sorted from
      return { 0: s.params, 1: s.ctl, 2: s.stats, 3: s.countsOf(k === 0 ? 1 : 0), 4: s.starts, 5: s.sigmaCrMax, 6: s.remainder, 7: p.vx, 8: p.vy, 9: p.vz, 10: p.cell, 11: s.pairs, 44: s.volumeFraction, 45: s.eint[k], 60: s.productInfo, 61: s.reactionTable };
    };
    this.groups = s.sets.map((_, k) => bindBuffers(device, this.pipeline, `collide-${k}`, table(k)));
    if (this.sampledPipeline) {
      const b = s.sample;
      this.sampledGroups = s.sets.map((_, k) =>
        bindBuffers(device, this.sampledPipeline!, `collide-sampled-${k}`, { ...withoutReactions(table(k)), 50: b.blockLo, 51: b.blockHi, 52: b.flags }));
    }
    if (!this.splitPipelines) return;
    for (const which of [1, 2] as const) {
      this.splitGroups[which] = s.sets.map((_, k) =>
        bindBuffers(device, this.splitPipelines![which], `collide-split-${which}-${k}`, { ...table(k), 30: s.haloList, 31: s.haloBits }));
    }
  }

  /** Collides every local cell of set `set` (the sorted one). */
  encode(pass: GPUComputePassEncoder, set: 0 | 1): void {
    pass.setPipeline(this.pipeline);
    pass.setBindGroup(0, this.groups[set]);
    pass.dispatchWorkgroups(...dispatchDims(this.ctx.state.nLocal, WORKGROUP_SIZE));
  }

  /** Collides every local cell of set `set` (the sorted one) and samples each cell after its collisions. */
  encodeSampled(pass: GPUComputePassEncoder, set: 0 | 1): void {
    if (!this.sampledPipeline) throw new Error('internal: the sampled collide kernel exists only on one rank with sampling on, unless the sampling pass is fixed');
    pass.setPipeline(this.sampledPipeline);
    pass.setBindGroup(0, this.sampledGroups[set]);
    pass.dispatchWorkgroups(...dispatchDims(this.ctx.state.nLocal, WORKGROUP_SIZE));
  }

  /** Collides the cells of split pass `which` (set `set` is the sorted one); the halo pass covers the halo list. */
  encodeSplit(pass: GPUComputePassEncoder, set: 0 | 1, which: SplitPass): void {
    const { nLocal, haloCells } = this.ctx.state;
    if (!this.splitPipelines) throw new Error('internal: split collide passes exist only in a rank of a multi-rank run');
    pass.setPipeline(this.splitPipelines[which]);
    pass.setBindGroup(0, this.splitGroups[which][set]);
    pass.dispatchWorkgroups(...dispatchDims(which === 1 ? nLocal : Math.max(1, haloCells), WORKGROUP_SIZE));
  }
}

/** A collide binding table without the reaction bindings (the sampling variant has none: react-none.wgsl). */
function withoutReactions(table: Record<number, GPUBuffer>): Record<number, GPUBuffer> {
  const { 60: _products, 61: _table, ...rest } = table;
  return rest;
}
