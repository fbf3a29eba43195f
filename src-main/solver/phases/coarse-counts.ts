// A rank's particle counts per block of the coarse grid, and the sums of their squares, summed on the GPU
// (coarse-counts.wgsl): a rebalance check's first round reads three words per block (about 3 MB) instead of every cell's
// count, and no host loop sums millions of cells (on the wedge's largest rank that sum took 82 ms against 8-14 ms on the
// others, docs/PERFORMANCE.md). Exact integers, packed as packCoarseSums packs coarseCountsOf and coarseSquaresOf.
import { bindBuffers } from '../gpu/bind.js';
import { dispatchDims, makeBuffer } from '../gpu/buffers.js';
import { COARSE_WORDS } from '../../cluster/decomposition/coarse-grid.js';
import type { Box, Int3 } from '../../cluster/decomposition/types.js';
import type { PhaseContext } from './phase.js';

/** The blocks buffer and the parameters of one rank's coarse sums, kept from check to check. */
export class CoarseCounts {
  private blocks: GPUBuffer | null = null;
  private readonly params: GPUBuffer;

  constructor(private readonly ctx: PhaseContext) {
    this.params = makeBuffer(ctx.device, 'coarse-params', 4 * 10);
  }

  /** Compiles the pipeline (at the set-up of a run that may re-split: 20-25 ms on an H100 host at the first check). */
  prepare(): void {
    this.pipeline();
  }

  /** The pipeline, compiled once. */
  private pipeline(): GPUComputePipeline {
    return this.ctx.cache.get({ file: 'coarse-counts.wgsl', entry: 'coarse_counts' });
  }

  /**
   * Encodes the sums of `cellCounts` (nLocal counts over `box`, x fastest) and of their squares over blocks of `block`
   * cells per side of a coarse grid `grid` blocks large into the blocks buffer it returns (cleared first; three planes of
   * one u32 per block: counts, low and high words of the squares, as packCoarseSums lays them out).
   */
  encode(enc: GPUCommandEncoder, cellCounts: GPUBuffer, box: Box, nLocal: number, block: number, grid: Int3): GPUBuffer {
    const { device } = this.ctx;
    const nBlocks = grid[0] * grid[1] * grid[2];
    const bytes = 4 * COARSE_WORDS * nBlocks;
    if (!this.blocks || this.blocks.size !== bytes) {
      this.blocks?.destroy();
      this.blocks = makeBuffer(device, 'coarse-blocks', bytes);
    }
    const { lo, hi } = box;
    device.queue.writeBuffer(this.params, 0, new Uint32Array([lo[0], lo[1], lo[2], hi[0] - lo[0], hi[1] - lo[1], block, grid[0], grid[1], nLocal, nBlocks]));
    enc.clearBuffer(this.blocks);
    const pipeline = this.pipeline();
    const pass = enc.beginComputePass({ label: 'coarse-counts' });
    pass.setPipeline(pipeline);
    pass.setBindGroup(0, bindBuffers(device, pipeline, 'coarse-counts', { 1: cellCounts, 2: this.blocks, 3: this.params }));
    pass.dispatchWorkgroups(...dispatchDims(Math.max(1, nLocal), 256));
    pass.end();
    return this.blocks;
  }
}
