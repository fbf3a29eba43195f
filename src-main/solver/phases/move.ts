// Move phase: starts the step and clears the cell counters (control.wgsl:begin_step), then flies every
// particle for dt through the box with its boundary conditions, re-indexes and counts it (move.wgsl);
// in a multi-rank run particles landing in other ranks' cells go to the migrant buffer. A rank of several
// may move a step in two parts (MovePart): the interior part of the next step while the host exchanges this
// step's migrants, the rest once this step is done.
import { bindBuffers } from '../gpu/bind.js';
import { WORKGROUP_SIZE, dispatchDims } from '../gpu/buffers.js';
import type { Phase, PhaseContext } from './phase.js';

/** Which particles a move dispatch takes (move.wgsl MOVE_PART): all, the next step's interior part, or the rest. */
export type MovePart = 'all' | 'early' | 'rest';

const PART_CONSTANT: Record<MovePart, number> = { all: 0, early: 1, rest: 2 };

/**
 * The shared modules move.wgsl compiles with: bodies, the flight, and how move_particles and move_rotating count their particles (one
 * atomic per run of equal cells in a subgroup where the device has subgroups, else one per particle).
 */
export function moveModules(device: GPUDevice): string[] {
  return ['body.wgsl', 'advance.wgsl', device.features.has('subgroups') ? 'count-subgroup.wgsl' : 'count-atomic.wgsl'];
}

/** One move pipeline (a MovePart) and its bind group per particle set. */
interface MoveVariant {
  pipeline: GPUComputePipeline;
  groups: GPUBindGroup[];
}

export class MovePhase implements Phase {
  readonly name = 'move';
  /** begin_step, which clears the counters (a whole move), and begin_rest, which does not (the rest after an early part). */
  private readonly begin: GPUComputePipeline;
  private readonly beginRest: GPUComputePipeline | null = null;
  /** clear_counters before an early part (multi-rank only). */
  private readonly clear: GPUComputePipeline | null = null;
  private beginGroups: GPUBindGroup[] = [];
  private beginRestGroup: GPUBindGroup | null = null;
  private clearGroups: GPUBindGroup[] = [];
  private readonly variants: Partial<Record<MovePart, MoveVariant>> = {};
  private readonly rotating: boolean;
  /** Several ranks with a rotating species: collect_all emits the migrants move_rotating left (null otherwise). */
  private readonly collect: GPUComputePipeline | null = null;
  private collectGroups: GPUBindGroup[] = [];

  constructor(private readonly ctx: PhaseContext) {
    this.begin = ctx.cache.get({ file: 'control.wgsl', entry: 'begin_step' });
    // a rotating species moves its particles' internal energy too (move_rotating); on several ranks collect_all then
    // emits the particles that landed in other ranks' cells, with their energy (the multi-rank move_particles
    // already binds 16 storage buffers)
    this.rotating = ctx.state.tables.hasRotation;
    const entry = this.rotating ? 'move_rotating' : 'move_particles';
    const modules = moveModules(ctx.device);
    const parts: MovePart[] = ctx.state.multiRank ? ['all', 'early', 'rest'] : ['all'];
    for (const part of parts) {
      const constants = part === 'all' ? undefined : { MOVE_PART: PART_CONSTANT[part] };
      this.variants[part] = { pipeline: ctx.cache.get({ file: 'move.wgsl', entry, modules, constants }), groups: [] };
    }
    if (ctx.state.multiRank) {
      this.beginRest = ctx.cache.get({ file: 'control.wgsl', entry: 'begin_rest' });
      this.clear = ctx.cache.get({ file: 'control.wgsl', entry: 'clear_counters' });
    }
    if (this.rotating && ctx.state.multiRank) this.collect = ctx.cache.get({ file: 'move.wgsl', entry: 'collect_all', modules });
  }

  bind(): void {
    const { device, state: s } = this.ctx;
    const counters = (k: number) => ({ 6: s.countsOf(k as 0 | 1), 7: s.migCountsOf(k as 0 | 1) });
    this.beginGroups = s.sets.map((_, k) => bindBuffers(device, this.begin, `begin-step-${k}`, { 0: s.params, 1: s.ctl, 2: s.stats, ...counters(k) }));
    this.beginRestGroup = this.beginRest ? bindBuffers(device, this.beginRest, 'begin-step-rest', { 0: s.params, 1: s.ctl, 2: s.stats }) : null;
    const clear = this.clear;
    this.clearGroups = clear ? s.sets.map((_, k) => bindBuffers(device, clear, `clear-counters-${k}`, { 0: s.params, ...counters(k) })) : [];
    for (const [part, v] of Object.entries(this.variants) as [MovePart, MoveVariant][]) {
      v.groups = s.sets.map((p, k) => {
        const set = k as 0 | 1;
        return bindBuffers(device, v.pipeline, `move-${part}-${k}`, {
          0: s.params, 1: s.ctl, 2: s.faces, 3: s.faceSpecies,
          4: p.px, 5: p.py, 6: p.pz, 7: p.vx, 8: p.vy, 9: p.vz, 10: p.cell,
          11: s.countsOf(set), 12: s.slotsFor(set), 13: s.starts, 17: s.boxes, 20: s.movedOf(set),
          ...(this.rotating ? { 19: s.eint[k], 60: s.productInfo } : { 15: s.migOutOf(set), 16: s.migCountsOf(set) }),
          40: s.bodyData, 41: s.surfSums, 42: s.surfModels, 43: s.surfSpecies,
        });
      });
    }
    const collect = this.collect;
    this.collectGroups = collect ? s.sets.map((p, k) => bindBuffers(device, collect, `move-collect-${k}`, {
      0: s.params, 1: s.ctl, 4: p.px, 5: p.py, 6: p.pz, 7: p.vx, 8: p.vy, 9: p.vz, 10: p.cell, 12: s.slotsFor(k as 0 | 1),
      14: s.keysOf(k as 0 | 1), 15: s.migOutOf(k as 0 | 1), 16: s.migCountsOf(k as 0 | 1), 17: s.boxes, 19: s.eint[k], 20: s.movedOf(k as 0 | 1),
    })) : [];
  }

  /** Records the relayout after a rebalance (move.wgsl:relayout) with the previous layout's starts. */
  encodeRelayout(pass: GPUComputePassEncoder, set: 0 | 1, oldStarts: GPUBuffer, particles: number): void {
    const { device, state: s } = this.ctx;
    const pipeline = this.prepareRelayout();
    const p = s.sets[set];
    pass.setPipeline(pipeline);
    pass.setBindGroup(0, bindBuffers(device, pipeline, 'relayout', {
      0: s.params, 1: s.ctl, 4: p.px, 5: p.py, 6: p.pz, 7: p.vx, 8: p.vy, 9: p.vz, 10: p.cell,
      11: s.countsOf(set), 12: s.slotsFor(set), 13: oldStarts, 14: s.keysOf(set), 15: s.migOutOf(set), 16: s.migCountsOf(set), 17: s.boxes, 19: s.eint[set],
      20: s.movedOf(set),
    }));
    pass.dispatchWorkgroups(...dispatchDims(Math.max(1, particles), WORKGROUP_SIZE));
  }

  /** The relayout's pipeline, compiled on first call (a run that may re-split calls this at its set-up). */
  prepareRelayout(): GPUComputePipeline {
    return this.ctx.cache.get({ file: 'move.wgsl', entry: 'relayout', modules: moveModules(this.ctx.device) });
  }

  /**
   * Records the move of set `set`: the whole step ('all', after begin_step), the next step's interior part ('early':
   * its counters cleared first; the step before's interior pass has sorted and collided that part), or the rest of
   * a step whose interior part moved early ('rest', after a begin_step that keeps the counters; dispatched for
   * `restThreads` invocations, a guess from the step before: its loop covers any count).
   */
  encode(pass: GPUComputePassEncoder, set: 0 | 1, part: MovePart = 'all', restThreads = this.ctx.state.capacity): void {
    const s = this.ctx.state;
    const counterThreads = Math.max(s.nLocal, s.subdomain.worldSize + 2);
    if (part === 'all') {
      pass.setPipeline(this.begin);
      pass.setBindGroup(0, this.beginGroups[set]);
      pass.dispatchWorkgroups(...dispatchDims(counterThreads, WORKGROUP_SIZE));
    } else if (part === 'early') {
      pass.setPipeline(this.clear!);
      pass.setBindGroup(0, this.clearGroups[set]);
      pass.dispatchWorkgroups(...dispatchDims(counterThreads, WORKGROUP_SIZE));
    } else {
      pass.setPipeline(this.beginRest!);
      pass.setBindGroup(0, this.beginRestGroup!);
      pass.dispatchWorkgroups(1);
    }
    const v = this.variants[part];
    if (!v) throw new Error(`internal: a move in parts ('${part}') exists only in a rank of a multi-rank run`);
    pass.setPipeline(v.pipeline);
    pass.setBindGroup(0, v.groups[set]);
    // the whole step or the interior part: for the live bound (the kernel's loop takes any more)
    pass.dispatchWorkgroups(...dispatchDims(part === 'rest' ? Math.max(WORKGROUP_SIZE, Math.min(s.capacity, restThreads)) : s.particleThreads(), WORKGROUP_SIZE));
    // the migrants of a rotating species are emitted once the whole step has moved
    if (this.collect && part !== 'early') {
      pass.setPipeline(this.collect);
      pass.setBindGroup(0, this.collectGroups[set]);
      pass.dispatchWorkgroups(...dispatchDims(s.particleThreads(), WORKGROUP_SIZE));
    }
  }
}
