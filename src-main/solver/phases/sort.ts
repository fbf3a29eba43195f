// Index phase (sort.wgsl): particles were counted per cell while they moved; a prefix scan gives
// the cells' starts, each particle's index is scattered to its cell, each particle finds its place in
// its cell by counting the cell's particles that go before it (a stable, deterministic counting sort
// with no cap per cell, one invocation per particle), and the particle arrays are gathered into the
// other set in that order, which also drops particles that left.
// A rank of a multi-rank run splits each step's sort in two passes (split.wgsl, halo-split.ts): the
// interior cells while the host exchanges migrants, then the halo cells once the arrivals are in.
import { bindBuffers } from '../gpu/bind.js';
import { WORKGROUP_SIZE, dispatchDims } from '../gpu/buffers.js';
import { PrefixScan } from '../gpu/prefix-scan.js';
import { PARTICLE_ATTRIBUTES, SORT_SCRATCH } from '../particle-attributes.js';
import type { Phase, PhaseContext } from './phase.js';

/** Which pass of a split step: the interior cells (1) or the halo cells, or all when redoing (2). */
export type SplitPass = 1 | 2;

/** Pipelines and bind groups of one split pass. */
interface SplitPipelines {
  /** mask_counts (pass 1) or gather_halo (pass 2). */
  mask: GPUComputePipeline;
  scatter: GPUComputePipeline;
  order: GPUComputePipeline;
  permute: GPUComputePipeline;
  /** The gather of the internal energy words of this pass's slots (a rotating species; null otherwise). */
  permuteRotation: GPUComputePipeline | null;
  /** interior_total (pass 1) or finish_halo (pass 2). */
  total: GPUComputePipeline;
  /** Over the local cells (pass 1) or the halo list (pass 2, rebuilt when the halo changes). */
  scan: PrefixScan;
  groups: { total: GPUBindGroup; perSet: { mask: GPUBindGroup; scatter: GPUBindGroup; order: GPUBindGroup; permute: GPUBindGroup; rotation: GPUBindGroup | null }[] };
}

export class SortPhase implements Phase {
  readonly name = 'sort';
  /** Sub-steps that `--detail` timing records as separate passes. */
  readonly stages = ['scan', 'scatter', 'order', 'permute'] as const;
  private readonly scatter: GPUComputePipeline;
  private readonly rankParticles: GPUComputePipeline;
  private readonly permute: GPUComputePipeline;
  /** The scan of each set's cell counts into the starts (one scan for both sets on one rank, whose sets share the counts). */
  private readonly scans: [PrefixScan, PrefixScan];
  /** Per live set: scatter, order and permute bind groups (scratch and destination in the other set). */
  private groups: { scatter: GPUBindGroup; order: GPUBindGroup; permute: GPUBindGroup; rotation: GPUBindGroup | null }[] = [];
  /** The gather of the internal energy words (a rotating species; null otherwise). */
  private readonly permuteRotation: GPUComputePipeline | null = null;
  /** The two passes of a split step (multi-rank only). */
  private readonly split: Record<SplitPass, SplitPipelines> | null = null;
  /** Redoing a split step whole: restore_full (multi-rank only). */
  private readonly restore: { pipeline: GPUComputePipeline; group: GPUBindGroup | null } | null = null;
  /** Halo cells the halo pass's scan is sized for. */
  private scannedHaloCells = 0;
  /** Invocations of the halo pass's per-particle dispatches (sizeHaloParticles). */
  private haloThreads = WORKGROUP_SIZE;

  constructor(private readonly ctx: PhaseContext) {
    const get = (entry: string) => ctx.cache.get({ file: 'sort.wgsl', entry });
    this.scatter = get('scatter');
    this.rankParticles = get('rank_particles');
    this.permute = get('permute');
    if (ctx.state.tables.hasRotation) this.permuteRotation = get('permute_rotation');
    const scan = new PrefixScan(ctx.device, ctx.cache, 'sort-A', ctx.state.nLocal);
    this.scans = [scan, ctx.state.multiRank ? new PrefixScan(ctx.device, ctx.cache, 'sort-B', ctx.state.nLocal) : scan];
    if (ctx.state.multiRank) {
      this.split = { 1: this.splitPipelines(1), 2: this.splitPipelines(2) };
      this.restore = { pipeline: ctx.cache.get({ file: 'split.wgsl', entry: 'restore_full' }), group: null };
    }
  }

  /** Sizes the halo pass's scan for state.haloCells (after the halo list changed); rebinds. */
  sizeHaloPass(): void {
    const cells = this.ctx.state.haloCells;
    if (!this.split || cells === this.scannedHaloCells) return;
    this.scannedHaloCells = cells;
    this.split[2].scan = new PrefixScan(this.ctx.device, this.ctx.cache, 'sort-split-2', Math.max(1, cells));
    this.bind();
  }

  /** The pipelines of split pass `which` (bind groups come with bind()). */
  private splitPipelines(which: SplitPass): SplitPipelines {
    const constants = { SPLIT_PASS: which };
    const get = (file: string, entry: string) => this.ctx.cache.get({ file, entry, constants });
    return {
      mask: get('split.wgsl', which === 1 ? 'mask_counts' : 'gather_halo'),
      scatter: get('sort.wgsl', which === 1 ? 'scatter_interior' : 'scatter_halo'),
      order: get('sort.wgsl', 'rank_split'),
      permute: get('sort.wgsl', 'permute_split'),
      permuteRotation: this.ctx.state.tables.hasRotation ? get('sort.wgsl', 'permute_rotation_split') : null,
      total: get('split.wgsl', which === 1 ? 'interior_total' : 'finish_halo'),
      scan: new PrefixScan(this.ctx.device, this.ctx.cache, `sort-split-${which}`, which === 1 ? this.ctx.state.nLocal : 1),
      groups: { total: null!, perSet: [] },
    };
  }

  bind(): void {
    const { device, state: s } = this.ctx;
    this.scans.forEach((scan, k) => scan.bind(s.countsOf(k as 0 | 1), s.starts));
    const sets = s.sets.map((from, k) => {
      const counts = s.countsOf(k as 0 | 1);
      const to = s.sets[1 - k];
      // the cell words after the move (a buffer of their own on several ranks; the set's cell array keeps the old ones)
      const cells = s.cellsAfterMove(k as 0 | 1);
      const permute: Record<number, GPUBuffer> = { 1: s.ctl };
      // the cell words are the order's to place (sort.wgsl: put_sorted): the permute gathers the six others
      PARTICLE_ATTRIBUTES.forEach((a, j) => { if (a !== 'cell') { permute[8 + j] = from[a]; permute[15 + j] = to[a]; } });
      return {
        scatter: { 0: s.params, 1: s.ctl, 2: cells, 3: counts, 4: s.slotsFor(k as 0 | 1), 5: s.starts, 6: to[SORT_SCRATCH.order], 7: s.stats },
        order: {
          0: s.params, 1: s.ctl, 2: cells, 3: counts, 5: s.starts, 22: s.keysOf(k as 0 | 1), 23: to[SORT_SCRATCH.ranked], 24: to[SORT_SCRATCH.order], 39: to[SORT_SCRATCH.order], 38: to.cell,
          25: from.cell, 60: s.productInfo, 37: s.split.mixed,
        },
        permute,
        rotation: { 1: s.ctl, 34: s.eint[k], 35: s.eint[1 - k], 36: to[SORT_SCRATCH.ranked] },
      };
    });
    this.groups = sets.map((b, k) => ({
      scatter: bindBuffers(device, this.scatter, `sort-scatter-${k}`, b.scatter),
      order: bindBuffers(device, this.rankParticles, `sort-order-${k}`, b.order),
      permute: bindBuffers(device, this.permute, `sort-permute-${k}`, b.permute),
      rotation: this.permuteRotation ? bindBuffers(device, this.permuteRotation, `sort-permute-rotation-${k}`, b.rotation) : null,
    }));
    if (!this.split) return;
    for (const which of [1, 2] as const) {
      const p = this.split[which];
      const sp = s.split;
      p.scan.bind(sp.masked, which === 1 ? s.starts : sp.scanned);
      // the interior pass also saves the per-cell collision state; the halo pass reads the halo list
      const mask = (counts: GPUBuffer, k: number) => bindBuffers(device, p.mask, `split-mask-${which}-${k}`, which === 1
        ? { 0: s.params, 2: counts, 3: sp.masked, 31: s.halo, 7: s.sigmaCrMax, 8: s.remainder, 9: sp.savedSigmaCrMax, 10: sp.savedRemainder, 12: sp.mixed }
        : { 0: s.params, 1: s.ctl, 2: counts, 3: sp.masked, 31: s.halo });
      p.groups.total = bindBuffers(device, p.total, `split-total-${which}`, which === 1
        ? { 0: s.params, 1: s.ctl, 3: sp.masked, 4: s.starts, 11: s.haloWork }
        : { 0: s.params, 1: s.ctl, 3: sp.masked, 4: s.starts, 5: s.stats, 6: sp.scanned, 31: s.halo });
      p.groups.perSet = sets.map((b, k) => ({
        mask: mask(s.countsOf(k as 0 | 1), k),
        // the split scatters leave the live count to finish_halo: no counts or statistics bindings
        scatter: bindBuffers(device, p.scatter, `split-scatter-${which}-${k}`, {
          ...withoutKeys(b.scatter, [3, 7]), 31: s.halo, 32: s.haloParticles, 33: s.haloWork,
          // the interior pass keeps the keys of each cell's crossed particles
          ...(which === 1 ? { 37: sp.mixed, 22: s.keysOf(k as 0 | 1), 25: s.sets[k].cell } : {}) as Record<number, GPUBuffer>,
        }),
        // the interior pass's order reads the masked counts (0 for halo cells: those particles wait for the halo pass)
        order: bindBuffers(device, p.order, `split-order-${which}-${k}`, { ...b.order, ...(which === 1 ? { 3: sp.masked } : {}), 31: s.halo, 32: s.haloParticles, 33: s.haloWork }),
        permute: bindBuffers(device, p.permute, `split-permute-${which}-${k}`, b.permute),
        rotation: p.permuteRotation ? bindBuffers(device, p.permuteRotation, `split-permute-rotation-${which}-${k}`, b.rotation) : null,
      }));
    }
    this.restore!.group = bindBuffers(device, this.restore!.pipeline, 'split-restore', {
      0: s.params, 1: s.ctl, 5: s.stats, 7: s.sigmaCrMax, 8: s.remainder, 9: s.split.savedSigmaCrMax, 10: s.split.savedRemainder,
    });
  }

  /**
   * Before a split step is redone whole (an arrival outside the halo, or buffers grown after the interior pass):
   * puts back what the interior pass changed outside the idle set; the plain encode() then sorts everything.
   */
  encodeRestore(pass: GPUComputePassEncoder): void {
    if (!this.restore?.group) throw new Error('internal: only a rank of a multi-rank run redoes split steps');
    this.dispatch(pass, this.restore.pipeline, this.restore.group, this.ctx.state.nLocal);
  }

  /** Sorts set `set` into the other set (or one stage of it); the caller then treats the other set as live. */
  encode(pass: GPUComputePassEncoder, set: 0 | 1, stage?: string): void {
    const s = this.ctx.state;
    const g = this.groups[set];
    const run = (name: string, fn: () => void) => { if (stage === undefined || stage === name) fn(); };
    run('scan', () => this.scans[set].encode(pass));
    run('scatter', () => this.dispatch(pass, this.scatter, g.scatter, s.particleThreads()));
    run('order', () => this.dispatch(pass, this.rankParticles, g.order, s.particleThreads()));
    run('permute', () => {
      // the rotational energy first: permute overwrites the ranked order it reads
      if (this.permuteRotation) this.dispatch(pass, this.permuteRotation, g.rotation!, s.particleThreads());
      this.dispatch(pass, this.permute, g.permute, s.particleThreads());
    });
  }

  /**
   * One pass of a split step (or one stage of it): pass 1 sorts the interior cells' particles into slots
   * [0, N_INTERIOR) of the other set, pass 2 the halo cells' (arrivals included) after them.
   */
  encodeSplit(pass: GPUComputePassEncoder, set: 0 | 1, which: SplitPass, stage?: string): void {
    if (!this.split) throw new Error('internal: split sort passes exist only in a rank of a multi-rank run');
    const s = this.ctx.state;
    const p = this.split[which];
    const g = p.groups.perSet[set];
    const run = (name: string, fn: () => void) => { if (stage === undefined || stage === name) fn(); };
    // per-cell dispatches of the halo pass cover the halo list only
    const cells = which === 1 ? s.nLocal : Math.max(1, s.haloCells);
    run('scan', () => {
      this.dispatch(pass, p.mask, g.mask, cells);
      p.scan.encode(pass);
      this.dispatch(pass, p.total, p.groups.total, which === 1 ? 1 : cells, which === 1 ? 1 : WORKGROUP_SIZE);
    });
    // per-particle stages for the live bound (interior pass) or about the halo's particles (listed particles and
    // arrivals, then the halo slots); their loops take any more
    const particles = which === 1 ? s.particleThreads() : this.haloThreads;
    run('scatter', () => this.dispatch(pass, p.scatter, g.scatter, particles));
    run('order', () => this.dispatch(pass, p.order, g.order, particles));
    run('permute', () => {
      // the internal energy first: permute_split overwrites the ranked order it reads
      if (p.permuteRotation) this.dispatch(pass, p.permuteRotation, g.rotation!, particles);
      this.dispatch(pass, p.permute, g.permute, particles);
    });
  }

  /**
   * Sizes the halo pass's per-particle dispatches for about `particles` (a guess from the step before: its kernels
   * loop over whatever count the GPU has, so a low guess costs time, not particles); `fixed` overrides it (tests).
   */
  sizeHaloParticles(particles: number, fixed?: number): void {
    this.haloThreads = fixed ?? Math.max(WORKGROUP_SIZE, Math.min(this.ctx.state.capacity, Math.ceil(1.25 * particles) + 4096));
  }

  /** One dispatch covering n invocations. */
  private dispatch(pass: GPUComputePassEncoder, pipeline: GPUComputePipeline, group: GPUBindGroup, n: number, wg = WORKGROUP_SIZE): void {
    pass.setPipeline(pipeline);
    pass.setBindGroup(0, group);
    pass.dispatchWorkgroups(...dispatchDims(n, wg));
  }
}

/** A binding table without some entries. */
function withoutKeys(table: Record<number, GPUBuffer>, keys: number[]): Record<number, GPUBuffer> {
  return Object.fromEntries(Object.entries(table).filter(([k]) => !keys.includes(Number(k))));
}
