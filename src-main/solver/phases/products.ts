// Products phase (reacting runs): after a step's collisions, the particles its dissociations made join
// the live ones in the cells' order (products.wgsl: count_products per cell, a prefix scan of the counts,
// append_products copying each to its place after the live particles, finish_products making them live and folding
// the step's reaction counts into the submit's; stage_parents keeps the parents' positions before an early move).
import { bindBuffers } from '../gpu/bind.js';
import { WORKGROUP_SIZE, dispatchDims, makeBuffer } from '../gpu/buffers.js';
import { PrefixScan } from '../gpu/prefix-scan.js';
import type { Phase, PhaseContext } from './phase.js';

export class ProductsPhase implements Phase {
  readonly name = 'products';
  private readonly count: GPUComputePipeline;
  private readonly append: GPUComputePipeline;
  private readonly finish: GPUComputePipeline;
  private readonly stage: GPUComputePipeline;
  /** The step's products per local cell, and each cell's first place among them (the scan). */
  private readonly perCell: GPUBuffer;
  private readonly firstOfCell: GPUBuffer;
  private readonly scan: PrefixScan;
  private countGroups: GPUBindGroup[] = [];
  private appendGroups: GPUBindGroup[] = [];
  private finishGroup: GPUBindGroup | null = null;
  private stageGroups: GPUBindGroup[] = [];

  constructor(private readonly ctx: PhaseContext) {
    const { device, cache, state } = ctx;
    this.count = cache.get({ file: 'products.wgsl', entry: 'count_products' });
    this.append = cache.get({ file: 'products.wgsl', entry: 'append_products' });
    this.finish = cache.get({ file: 'products.wgsl', entry: 'finish_products' });
    this.stage = cache.get({ file: 'products.wgsl', entry: 'stage_parents' });
    this.perCell = makeBuffer(device, 'reactions.perCell', 4 * Math.max(4, state.nLocal));
    this.firstOfCell = makeBuffer(device, 'reactions.firstOfCell', 4 * Math.max(4, state.nLocal));
    this.scan = new PrefixScan(device, cache, 'reactions.scan', state.nLocal);
  }

  bind(): void {
    const { device, state: s } = this.ctx;
    this.scan.bind(this.perCell, this.firstOfCell);
    const table = (k: number) => {
      const p = s.sets[k];
      return { 0: s.params, 1: s.ctl, 2: s.stats, 4: p.px, 5: p.py, 6: p.pz, 7: p.vx, 8: p.vy, 9: p.vz, 10: p.cell, 14: s.keysOf(k as 0 | 1), 45: s.eint[k], 60: s.productInfo, 62: this.perCell, 63: this.firstOfCell };
    };
    this.countGroups = s.sets.map((p, k) => bindBuffers(device, this.count, `products-count-${k}`, { 0: s.params, 2: s.stats, 10: p.cell, 60: s.productInfo, 62: this.perCell }));
    this.appendGroups = s.sets.map((_, k) => bindBuffers(device, this.append, `products-append-${k}`, table(k)));
    this.finishGroup = bindBuffers(device, this.finish, 'products-finish', { 0: s.params, 1: s.ctl, 2: s.stats });
    this.stageGroups = s.sets.map((p, k) => bindBuffers(device, this.stage, `products-stage-${k}`, { 0: s.params, 2: s.stats, 4: p.px, 5: p.py, 6: p.pz, 60: s.productInfo }));
  }

  /**
   * Before the next step's interior part of set `set` moves early: the products made so far keep their parents'
   * positions (append_products places them there after the halo pass).
   */
  encodeStage(pass: GPUComputePassEncoder, set: 0 | 1): void {
    if (!this.ctx.state.tables.reactions?.dissociates) return;
    pass.setPipeline(this.stage);
    pass.setBindGroup(0, this.stageGroups[set]);
    pass.dispatchWorkgroups(...this.productDims());
  }

  /** Appends the step's products to set `set` (the sorted one) and makes them live; counts the step's reactions. */
  encode(pass: GPUComputePassEncoder, set: 0 | 1): void {
    const s = this.ctx.state;
    if (s.tables.reactions?.dissociates) this.encodeAppend(pass, set);
    pass.setPipeline(this.finish);
    pass.setBindGroup(0, this.finishGroup!);
    pass.dispatchWorkgroups(1);
  }

  /** The step's products to their places after the live particles of set `set`. */
  private encodeAppend(pass: GPUComputePassEncoder, set: 0 | 1): void {
    const dims = this.productDims();
    pass.setPipeline(this.count);
    pass.setBindGroup(0, this.countGroups[set]);
    pass.dispatchWorkgroups(...dims);
    this.scan.encode(pass);
    pass.setPipeline(this.append);
    pass.setBindGroup(0, this.appendGroups[set]);
    pass.dispatchWorkgroups(...dims);
  }

  /** Workgroups of the grid-stride loops over a step's products (the product capacity bounds their number). */
  private productDims(): [number, number] {
    return dispatchDims(Math.min(this.ctx.state.productCap, 65536), WORKGROUP_SIZE);
  }

  /** Frees the phase's buffers (a relayout makes a new phase for the new cells). */
  destroy(): void {
    this.perCell.destroy();
    this.firstOfCell.destroy();
  }
}
