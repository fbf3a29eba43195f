// Index phase: counting sort of particles by cell with no cap per cell (sort.wgsl), cells' particles
// ordered by id, then every particle array gathered into the other set in that order, which also
// drops particles that left the box. Afterwards the live particles are cell-contiguous.
import { bindBuffers } from '../gpu/bind.js';
import { WORKGROUP_SIZE, dispatchDims } from '../gpu/buffers.js';
import { PrefixScan } from '../gpu/prefix-scan.js';
import { PARTICLE_ATTRIBUTES, type ParticleAttribute } from '../particle-attributes.js';
import type { Phase, PhaseContext } from './phase.js';

export class SortPhase implements Phase {
  readonly name = 'sort';
  private readonly clear: GPUComputePipeline;
  private readonly count: GPUComputePipeline;
  private readonly after: GPUComputePipeline;
  private readonly scatter: GPUComputePipeline;
  private readonly orderCells: GPUComputePipeline;
  private readonly permute6: GPUComputePipeline;
  private readonly permute3: GPUComputePipeline;
  private readonly scan: PrefixScan;
  private clearGroup!: GPUBindGroup;
  private afterGroup!: GPUBindGroup;
  private orderGroups: GPUBindGroup[] = [];
  private countGroups: GPUBindGroup[] = [];
  private scatterGroups: GPUBindGroup[] = [];
  /** permuteGroups[from]: [six f32 arrays, three u32 arrays] gathered from set `from` into the other set. */
  private permuteGroups: [GPUBindGroup, GPUBindGroup][] = [];

  constructor(private readonly ctx: PhaseContext) {
    const get = (entry: string) => ctx.cache.get({ file: 'sort.wgsl', entry });
    this.clear = get('clear_counts');
    this.count = get('count_cells');
    this.scatter = get('scatter');
    this.orderCells = get('order_cells');
    this.permute6 = get('permute6');
    this.permute3 = get('permute3');
    this.after = ctx.cache.get({ file: 'control.wgsl', entry: 'after_sort_scan' });
    this.scan = new PrefixScan(ctx.device, ctx.cache, 'sort', ctx.state.tables.nCells);
  }

  bind(): void {
    const { device, state: s } = this.ctx;
    this.clearGroup = bindBuffers(device, this.clear, 'sort-clear', { 0: s.params, 3: s.counts });
    this.scan.bind(s.counts, s.starts);
    this.afterGroup = bindBuffers(device, this.after, 'after-sort', { 0: s.params, 1: s.ctl, 2: s.stats, 4: s.counts, 5: s.starts });
    this.countGroups = s.sets.map((p, k) => bindBuffers(device, this.count, `sort-count-${k}`, { 1: s.ctl, 2: p.cell, 3: s.counts, 4: s.slot }));
    this.scatterGroups = s.sets.map((p, k) =>
      bindBuffers(device, this.scatter, `sort-scatter-${k}`, { 1: s.ctl, 2: p.cell, 4: s.slot, 5: s.starts, 6: s.order }));
    this.orderGroups = s.sets.map((p, k) =>
      bindBuffers(device, this.orderCells, `sort-order-${k}`, { 0: s.params, 3: s.counts, 5: s.starts, 6: s.order, 7: p.pid }));
    this.permuteGroups = s.sets.map((from, k) => {
      const to = s.sets[1 - k];
      // binding 8 + j reads attribute j, binding 14 + j writes it
      const entries = (attrs: readonly ParticleAttribute[]) => {
        const e: Record<number, GPUBuffer> = { 1: s.ctl, 6: s.order };
        attrs.forEach((a, j) => { e[8 + j] = from[a]; e[14 + j] = to[a]; });
        return e;
      };
      return [
        bindBuffers(device, this.permute6, `sort-permute6-${k}`, entries(PARTICLE_ATTRIBUTES.slice(0, 6))),
        bindBuffers(device, this.permute3, `sort-permute3-${k}`, entries(PARTICLE_ATTRIBUTES.slice(6))),
      ];
    });
  }

  /** Sub-steps that `--detail` timing records as separate passes. */
  readonly stages = ['count', 'scan', 'scatter', 'order', 'permute'] as const;

  /** Sorts set `set` into the other set (or one stage of it); the caller then treats the other set as live. */
  encode(pass: GPUComputePassEncoder, set: 0 | 1, stage?: string): void {
    const s = this.ctx.state;
    const cellGroups = dispatchDims(s.tables.nCells, WORKGROUP_SIZE);
    const particleGroups = dispatchDims(s.capacity, WORKGROUP_SIZE);
    const run = (name: string, fn: () => void) => { if (stage === undefined || stage === name) fn(); };
    const dispatch = (pipeline: GPUComputePipeline, group: GPUBindGroup, groups: [number, number]) => {
      pass.setPipeline(pipeline);
      pass.setBindGroup(0, group);
      pass.dispatchWorkgroups(...groups);
    };
    run('count', () => {
      dispatch(this.clear, this.clearGroup, cellGroups);
      dispatch(this.count, this.countGroups[set], particleGroups);
    });
    run('scan', () => this.scan.encode(pass));
    run('scatter', () => {
      dispatch(this.scatter, this.scatterGroups[set], particleGroups);
      dispatch(this.after, this.afterGroup, [1, 1]);
    });
    run('order', () => dispatch(this.orderCells, this.orderGroups[set], cellGroups));
    run('permute', () => {
      dispatch(this.permute6, this.permuteGroups[set][0], particleGroups);
      dispatch(this.permute3, this.permuteGroups[set][1], particleGroups);
    });
  }
}
