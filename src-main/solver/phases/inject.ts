// Inflow phase: Poisson-distributed injection of free-stream molecules on every inflow face
// (inject.wgsl), placed after the live particles at offsets from a prefix scan of the counts; the write pass runs one
// invocation per injected particle.
import { bindBuffers } from '../gpu/bind.js';
import { WORKGROUP_SIZE, dispatchDims } from '../gpu/buffers.js';
import { PrefixScan } from '../gpu/prefix-scan.js';
import { BOUNDARY_CODES } from '../gpu/struct-layouts.js';
import type { Box } from '../../cluster/decomposition/types.js';
import type { SolverTables } from '../tables.js';
import type { Phase, PhaseContext } from './phase.js';

/**
 * True when a rank with box `box` injects: the box holds the layer of cells behind an inflow face (the whole grid on one
 * rank). A rank of several without one skips the phase's dispatches: its steps inject none, as begin_step opens every
 * step with none.
 */
export function injectsThrough(box: Box, tables: Pick<SolverTables, 'faces' | 'simParams'>): boolean {
  const { lo, hi } = box;
  if (lo.some((l, a) => l >= hi[a])) return false;
  const dims = [tables.simParams.nx, tables.simParams.ny, tables.simParams.nz];
  return tables.faces.some((face, f) => {
    if (face.kind !== BOUNDARY_CODES.inflow) return false;
    const axis = Math.floor(f / 2);
    const layer = f % 2 === 0 ? 0 : dims[axis] - 1;
    return lo[axis] <= layer && layer < hi[axis];
  });
}

export class InjectPhase implements Phase {
  readonly name = 'inject';
  private readonly count: GPUComputePipeline;
  private readonly write: GPUComputePipeline;
  private readonly after: GPUComputePipeline;
  private readonly scan: PrefixScan;
  private countGroup!: GPUBindGroup;
  private afterGroup!: GPUBindGroup;
  private writeGroups: GPUBindGroup[] = [];

  /** writeThreads: invocations of the write pass (a bound on a step's injection; a grid-stride loop takes any more). */
  constructor(private readonly ctx: PhaseContext, private readonly writeThreads: number) {
    this.count = ctx.cache.get({ file: 'inject.wgsl', entry: 'inject_count', modules: ['body.wgsl', 'advance.wgsl'] });
    this.write = ctx.cache.get({ file: 'inject.wgsl', entry: 'inject_write', modules: ['body.wgsl', 'advance.wgsl'] });
    this.after = ctx.cache.get({ file: 'control.wgsl', entry: 'after_inject_scan' });
    this.scan = new PrefixScan(ctx.device, ctx.cache, 'inject', ctx.state.tables.nFaceCells);
  }

  /** True when the case has at least one inflow face. */
  static needed(ctx: PhaseContext): boolean {
    return ctx.state.tables.nFaceCells > 0;
  }

  /** True when this rank injects at all (injectsThrough its box); a re-split that changes the box is followed. */
  injectsHere(): boolean {
    const { tables, subdomain } = this.ctx.state;
    return injectsThrough(subdomain.box, tables);
  }

  bind(): void {
    const { device, state: s } = this.ctx;
    this.countGroup = bindBuffers(device, this.count, 'inject-count', { 0: s.params, 1: s.ctl, 2: s.faces, 3: s.faceSpecies, 4: s.injCounts });
    this.scan.bind(s.injCounts, s.injStarts);
    this.afterGroup = bindBuffers(device, this.after, 'after-inject', { 0: s.params, 1: s.ctl, 2: s.stats, 4: s.injCounts, 5: s.injStarts });
    this.writeGroups = s.sets.map((p, k) =>
      bindBuffers(device, this.write, `inject-write-${k}`, {
        0: s.params, 1: s.ctl, 2: s.faces, 3: s.faceSpecies, 4: s.injCounts, 5: s.injStarts,
        6: p.px, 7: p.py, 8: p.pz, 9: p.vx, 10: p.vy, 11: p.vz, 12: s.cellsAfterMove(k as 0 | 1), 13: s.countsOf(k as 0 | 1), 14: s.slotsFor(k as 0 | 1), 15: s.keysOf(k as 0 | 1), 16: s.eint[k],
        40: s.bodyData, 41: s.surfSums, 42: s.surfModels, 43: s.surfSpecies,
      }),
    );
  }

  /** Records the injection into set `set`. */
  encode(pass: GPUComputePassEncoder, set: 0 | 1): void {
    const groups = dispatchDims(this.ctx.state.tables.nFaceCells, WORKGROUP_SIZE);
    pass.setPipeline(this.count);
    pass.setBindGroup(0, this.countGroup);
    pass.dispatchWorkgroups(...groups);
    this.scan.encode(pass);
    pass.setPipeline(this.after);
    pass.setBindGroup(0, this.afterGroup);
    pass.dispatchWorkgroups(1);
    pass.setPipeline(this.write);
    pass.setBindGroup(0, this.writeGroups[set]);
    pass.dispatchWorkgroups(...dispatchDims(Math.ceil(this.writeThreads), WORKGROUP_SIZE));
  }
}
