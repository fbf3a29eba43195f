// Collision phase: Bird's NTC scheme per cell on the cell-sorted particles (collide.wgsl). A rank of
// a multi-rank run collides in two passes per step (interior cells, then halo cells; sort.ts). On a sampled step
// the same kernel can also sample each cell after its collisions (collide-sampled.wgsl; on ranks in the interior pass),
// when that is the faster (sample-kernel-choice.ts).
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
  /** A rank's interior pass with the sampled kernel: bound to the pass's masked counts (0 for halo cells). */
  private interiorSampledGroups: GPUBindGroup[] = [];

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
      // the walk's table: no reactions (react-none.wgsl), the open block's sums
      const b = s.sample;
      const sampledTable = (k: number) => ({ ...withoutReactions(table(k)), 50: b.blockLo, 51: b.blockHi, 52: b.flags });
      this.sampledGroups = s.sets.map((_, k) => bindBuffers(device, this.sampledPipeline!, `collide-sampled-${k}`, sampledTable(k)));
      if (s.multiRank) {
        this.interiorSampledGroups = s.sets.map((_, k) =>
          bindBuffers(device, this.sampledPipeline!, `collide-interior-sampled-${k}`, { ...sampledTable(k), 3: s.split.masked }));
      }
    }
    if (!this.splitPipelines) return;
    for (const which of [1, 2] as const) {
      this.splitGroups[which] = s.sets.map((_, k) =>
        bindBuffers(device, this.splitPipelines![which], `collide-split-${which}-${k}`, { ...table(k), 31: s.halo }));
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

  /**
   * A rank's interior pass, collided and sampled cell by cell (collide_sampled on the pass's masked counts, so the
   * halo cells are left for the halo pass), in place of encodeSplit(set, 1) and the interior cells' sampling pass.
   */
  encodeInteriorSampled(pass: GPUComputePassEncoder, set: 0 | 1): void {
    if (!this.sampledPipeline || this.interiorSampledGroups.length === 0) {
      throw new Error('internal: the sampled interior pass exists only on ranks of a sampled run, unless the sampling pass is fixed');
    }
    pass.setPipeline(this.sampledPipeline);
    pass.setBindGroup(0, this.interiorSampledGroups[set]);
    pass.dispatchWorkgroups(...dispatchDims(this.ctx.state.nLocal, WORKGROUP_SIZE));
  }
}

/** A collide binding table without the reaction bindings (the sampling variant has none: react-none.wgsl). */
function withoutReactions(table: Record<number, GPUBuffer>): Record<number, GPUBuffer> {
  const { 60: _products, 61: _table, ...rest } = table;
  return rest;
}
