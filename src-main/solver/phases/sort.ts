// Index phase (sort.wgsl): particles were counted per cell while they moved; a prefix scan gives
// the cells' starts, each particle's index is scattered to its cell, each cell's indices are put in
// ascending order (a stable, deterministic counting sort with no cap per cell), and the particle
// arrays are gathered into the other set in that order, which also drops particles that left.
import { bindBuffers } from '../gpu/bind.js';
import { WORKGROUP_SIZE, dispatchDims } from '../gpu/buffers.js';
import { PrefixScan } from '../gpu/prefix-scan.js';
import { PARTICLE_ATTRIBUTES, SORT_SCRATCH } from '../particle-attributes.js';
import type { Phase, PhaseContext } from './phase.js';

export class SortPhase implements Phase {
  readonly name = 'sort';
  /** Sub-steps that `--detail` timing records as separate passes. */
  readonly stages = ['scan', 'scatter', 'order', 'permute'] as const;
  private readonly scatter: GPUComputePipeline;
  private readonly orderCells: GPUComputePipeline;
  private readonly permute: GPUComputePipeline;
  private readonly scan: PrefixScan;
  /** Per live set: scatter, order and permute bind groups (scratch and destination in the other set). */
  private groups: { scatter: GPUBindGroup; order: GPUBindGroup; permute: GPUBindGroup }[] = [];

  constructor(private readonly ctx: PhaseContext) {
    const get = (entry: string) => ctx.cache.get({ file: 'sort.wgsl', entry });
    this.scatter = get('scatter');
    this.orderCells = get('order_cells');
    this.permute = get('permute');
    this.scan = new PrefixScan(ctx.device, ctx.cache, 'sort', ctx.state.nLocal);
  }

  bind(): void {
    const { device, state: s } = this.ctx;
    this.scan.bind(s.counts, s.starts);
    this.groups = s.sets.map((from, k) => {
      const to = s.sets[1 - k];
      const permute: Record<number, GPUBuffer> = { 1: s.ctl };
      PARTICLE_ATTRIBUTES.forEach((a, j) => { permute[8 + j] = from[a]; permute[15 + j] = to[a]; });
      return {
        scatter: bindBuffers(device, this.scatter, `sort-scatter-${k}`, {
          0: s.params, 1: s.ctl, 2: from.cell, 3: s.counts, 4: to[SORT_SCRATCH.slot], 5: s.starts, 6: to[SORT_SCRATCH.order], 7: s.stats,
        }),
        order: bindBuffers(device, this.orderCells, `sort-order-${k}`, { 0: s.params, 1: s.ctl, 3: s.counts, 5: s.starts, 6: to[SORT_SCRATCH.order], 22: s.keys }),
        permute: bindBuffers(device, this.permute, `sort-permute-${k}`, permute),
      };
    });
  }

  /** Sorts set `set` into the other set (or one stage of it); the caller then treats the other set as live. */
  encode(pass: GPUComputePassEncoder, set: 0 | 1, stage?: string): void {
    const s = this.ctx.state;
    const g = this.groups[set];
    const cellGroups = dispatchDims(s.nLocal, WORKGROUP_SIZE);
    const particleGroups = dispatchDims(s.capacity, WORKGROUP_SIZE);
    const run = (name: string, fn: () => void) => { if (stage === undefined || stage === name) fn(); };
    const dispatch = (pipeline: GPUComputePipeline, group: GPUBindGroup, groups: [number, number]) => {
      pass.setPipeline(pipeline);
      pass.setBindGroup(0, group);
      pass.dispatchWorkgroups(...groups);
    };
    run('scan', () => this.scan.encode(pass));
    run('scatter', () => dispatch(this.scatter, g.scatter, particleGroups));
    run('order', () => dispatch(this.orderCells, g.order, cellGroups));
    run('permute', () => dispatch(this.permute, g.permute, particleGroups));
  }
}
