// Sampling phase (sample.wgsl): on sampling steps one invocation per cell adds the cell's velocity moments (and
// internal energies, where the gas has internal modes) to the
// open block's exact sums (unless the collide kernel does: phases/collide.ts, sample-kernel-choice.ts); at the end of
// a batch-means block sample_close folds the block into the run's sums and the batch means; sample_gather copies a
// few cells' sums for the live view. Nothing is read back per step.
import { bindBuffers } from '../gpu/bind.js';
import { WORKGROUP_SIZE, dispatchDims, makeBuffer, makeBufferWith, readBuffer, STORAGE } from '../gpu/buffers.js';
import { CloseParams } from '../gpu/struct-layouts.js';
import { sampleLayout } from '../sample-buffers.js';
import type { Phase, PhaseContext } from './phase.js';

/** What closing a block needs from the host: its passes and number, and the fields' scales. */
export interface CloseValues {
  passes: number;
  block: number;
  massRef: number;
  /** 2^-e of the moments of order 1, 2, 3 and of the internal energies. */
  unscale: [number, number, number, number];
}

/** The parts of a split step's sampling (encodeSplit). */
export type SplitSample = 'interior' | 'halo' | 'undoInterior';

export class SamplePhase implements Phase {
  readonly name = 'sample';
  private readonly pipeline: GPUComputePipeline;
  private readonly closePipeline: GPUComputePipeline;
  private readonly gatherPipeline: GPUComputePipeline;
  private groups: GPUBindGroup[] = [];
  /** Split steps (multi-rank): the interior cells' pass, the halo cells' pass, and the interior cells taken back (null on one rank). */
  private readonly split: Record<SplitSample, GPUComputePipeline> | null = null;
  private splitGroups: Record<SplitSample, GPUBindGroup[]> | null = null;
  private closeGroup: GPUBindGroup | null = null;

  constructor(private readonly ctx: PhaseContext) {
    const modules = ['sample-sums.wgsl'];
    this.pipeline = ctx.cache.get({ file: 'sample.wgsl', entry: 'sample', modules });
    this.closePipeline = ctx.cache.get({ file: 'sample.wgsl', entry: 'sample_close', modules });
    this.gatherPipeline = ctx.cache.get({ file: 'sample.wgsl', entry: 'sample_gather', modules });
    if (ctx.state.multiRank) {
      const split = (part: 1 | 2, sign: 1 | -1) => ctx.cache.get({ file: 'sample.wgsl', entry: 'sample_split', modules, constants: { SAMPLE_PART: part, SAMPLE_SIGN: sign } });
      this.split = { interior: split(1, 1), halo: split(2, 1), undoInterior: split(1, -1) };
    }
  }

  bind(): void {
    const { device, state: s } = this.ctx;
    const b = s.sample;
    // set k's particles, sorted with the counts of the move of the other set
    const table = (k: number) => {
      const p = s.sets[k];
      return { 0: s.params, 1: s.countsOf(k === 0 ? 1 : 0), 2: s.starts, 3: p.vx, 4: p.vy, 5: p.vz, 6: p.cell, 46: s.eint[k], 50: b.blockLo, 51: b.blockHi, 52: b.flags };
    };
    this.groups = s.sets.map((_, k) => bindBuffers(device, this.pipeline, `sample-${k}`, table(k)));
    if (this.split) {
      const splitTable = (k: number) => ({ ...table(k), 31: s.halo, 53: s.ctl });
      const groups = (which: SplitSample) => s.sets.map((_, k) => bindBuffers(device, this.split![which], `sample-${which}-${k}`, splitTable(k)));
      this.splitGroups = { interior: groups('interior'), halo: groups('halo'), undoInterior: groups('undoInterior') };
    }
    this.closeGroup = bindBuffers(device, this.closePipeline, 'sample-close', {
      0: s.params, 50: b.blockLo, 51: b.blockHi, 52: b.flags, 10: b.runLo, 11: b.runHi, 12: b.welford, 13: b.closeParams, 16: b.closeMasses, 17: b.closeModes,
    });
  }

  /** One sampling pass over the cells of particle set `set`. */
  encode(pass: GPUComputePassEncoder, set: 0 | 1): void {
    pass.setPipeline(this.pipeline);
    pass.setBindGroup(0, this.groups[set]);
    pass.dispatchWorkgroups(...dispatchDims(this.ctx.state.nLocal, WORKGROUP_SIZE));
  }

  /**
   * One part of a split step's sampling over the cells of particle set `set`: the interior cells (in the interior
   * pass, before the next step's interior part moves early), the halo list's cells (after the halo pass), or the
   * interior cells' sums taken back exactly (before a redone step samples every cell).
   */
  encodeSplit(pass: GPUComputePassEncoder, set: 0 | 1, which: SplitSample): void {
    if (!this.split || !this.splitGroups) throw new Error('internal: split sampling passes exist only in a rank of a multi-rank run');
    pass.setPipeline(this.split[which]);
    pass.setBindGroup(0, this.splitGroups[which][set]);
    const st = this.ctx.state;
    pass.dispatchWorkgroups(...dispatchDims(which === 'halo' ? Math.max(1, st.haloCells) : st.nLocal, WORKGROUP_SIZE));
  }

  /** Writes the closing block's values; the queue applies them before the next submit (call before recording its passes). */
  prepareClose(v: CloseValues): void {
    this.ctx.device.queue.writeBuffer(this.ctx.state.sample.closeParams, 0, CloseParams.pack({
      passes: v.passes, block: v.block, invPasses: 1 / v.passes, massRef: v.massRef,
      unscale1: v.unscale[0], unscale2: v.unscale[1], unscale3: v.unscale[2], unscaleE: v.unscale[3],
    }));
  }

  /** Closes the open block on every cell (after prepareClose). */
  encodeClose(pass: GPUComputePassEncoder): void {
    pass.setPipeline(this.closePipeline);
    pass.setBindGroup(0, this.closeGroup!);
    pass.dispatchWorkgroups(...dispatchDims(this.ctx.state.nLocal, WORKGROUP_SIZE));
  }

  /**
   * The run's and the open block's sums of the given local cells, read at once (the live view's plane):
   * [moment][species][run lo, run hi, block lo, block hi][listed cell].
   */
  async gather(localCells: Uint32Array): Promise<Uint32Array> {
    const { device, state: s } = this.ctx;
    const b = s.sample;
    const list = makeBufferWith(device, 'sample.gatherCells', localCells, STORAGE);
    const layout = sampleLayout(s.tables);
    const words = 4 * layout.species * layout.moments * localCells.length;
    const out = makeBuffer(device, 'sample.gathered', 4 * words);
    const group = bindBuffers(device, this.gatherPipeline, 'sample-gather', { 0: s.params, 50: b.blockLo, 51: b.blockHi, 10: b.runLo, 11: b.runHi, 14: list, 15: out });
    const enc = device.createCommandEncoder({ label: 'sample-gather' });
    const pass = enc.beginComputePass({ label: 'sample-gather' });
    pass.setPipeline(this.gatherPipeline);
    pass.setBindGroup(0, group);
    pass.dispatchWorkgroups(...dispatchDims(localCells.length, WORKGROUP_SIZE));
    pass.end();
    device.queue.submit([enc.finish()]);
    try {
      return new Uint32Array(await readBuffer(device, out, 4 * words));
    } finally {
      list.destroy();
      out.destroy();
    }
  }
}
