// Products phase (reactions that dissociate): after a step's collisions, the particles its dissociations made join
// the live ones (products.wgsl: append_products copies them from the top of the sorted set to the end of the live
// particles, finish_products makes them live and folds the step's reaction counts into the submit's).
import { bindBuffers } from '../gpu/bind.js';
import { WORKGROUP_SIZE, dispatchDims } from '../gpu/buffers.js';
import type { Phase, PhaseContext } from './phase.js';

export class ProductsPhase implements Phase {
  readonly name = 'products';
  private readonly append: GPUComputePipeline;
  private readonly finish: GPUComputePipeline;
  private groups: GPUBindGroup[] = [];
  private finishGroup: GPUBindGroup | null = null;

  constructor(private readonly ctx: PhaseContext) {
    this.append = ctx.cache.get({ file: 'products.wgsl', entry: 'append_products' });
    this.finish = ctx.cache.get({ file: 'products.wgsl', entry: 'finish_products' });
  }

  bind(): void {
    const { device, state: s } = this.ctx;
    this.groups = s.sets.map((p, k) => bindBuffers(device, this.append, `products-append-${k}`, {
      0: s.params, 1: s.ctl, 2: s.stats, 4: p.px, 5: p.py, 6: p.pz, 7: p.vx, 8: p.vy, 9: p.vz, 10: p.cell, 45: s.eint[k], 60: s.productInfo,
    }));
    this.finishGroup = bindBuffers(device, this.finish, 'products-finish', { 0: s.params, 1: s.ctl, 2: s.stats });
  }

  /** Appends the step's products to set `set` (the sorted one) and makes them live. */
  encode(pass: GPUComputePassEncoder, set: 0 | 1): void {
    const s = this.ctx.state;
    pass.setPipeline(this.append);
    pass.setBindGroup(0, this.groups[set]);
    // a grid-stride loop covers any number; the product capacity bounds a step's products
    pass.dispatchWorkgroups(...dispatchDims(Math.min(s.productCap, 65536), WORKGROUP_SIZE));
    pass.setPipeline(this.finish);
    pass.setBindGroup(0, this.finishGroup!);
    pass.dispatchWorkgroups(1);
  }
}
