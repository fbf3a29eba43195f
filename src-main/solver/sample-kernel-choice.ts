// Which kernel samples a run (each rank of a multi-rank run alike) on a GPU: the sampling pass (sample.wgsl) or the
// collide kernel walking each cell after its collisions (collide-sampled.wgsl). Both give the same bits (a gas with internal modes too: both add the
// internal energies with one function, sample-sums.wgsl add_cell_internal); which is faster depends on the case: the
// walk costs less where the collisions have just read most particles (the scaling box on an H100: 0.87 ms against
// the pass's 1.01 ms), more where few collide (the 102M cavity: 1.07 ms against 0.80 ms). So the first sampled
// submits try both, alternately, and the GPU timestamps of their phases decide.
import type { SampleKernelReport } from '../common/run-summary.js';
import { timedPart, type PhaseTotals } from './gpu/phase-totals.js';

export type SampleKernelName = SampleKernelReport['kernel'];
/** A run's setting: one kernel, or 'auto' (try both, keep the faster). */
export type SampleKernelSetting = SampleKernelName | 'auto';

/**
 * The sampling kernel setting of a run (of each rank of a multi-rank run, whose split steps sample in both passes): the
 * pass on a CPU adapter (there the phases a test sees would depend on the machine's load) and for reactions; 'auto' on
 * a GPU. DSMC_SAMPLE_KERNEL=pass|walk|auto sets it (benchmarks and tests).
 */
export function sampleKernelSetting(sampling: boolean, softwareAdapter: boolean, reactions = false): SampleKernelSetting {
  const v = process.env.DSMC_SAMPLE_KERNEL;
  if (v !== undefined && v !== '' && v !== 'walk' && v !== 'pass' && v !== 'auto') {
    throw new Error(`DSMC_SAMPLE_KERNEL=${v}: use pass (a sampling pass of its own), walk (sampling inside the collide kernel of a one-rank run) or auto (the faster of the two, measured), or unset it`);
  }
  // a reacting step appends its products after the collisions, which the walk inside the collide kernel would miss
  if (!sampling || reactions) return 'pass';
  if (v === 'pass' || v === 'walk' || v === 'auto') return v;
  return softwareAdapter ? 'pass' : 'auto';
}

/** A copy of phase totals (the recorder updates its own in place). */
export function copyTotals(totals: Map<string, PhaseTotals>): Map<string, PhaseTotals> {
  return new Map([...totals].map(([k, v]) => [k, { ...v }]));
}

/** Submits each kernel is tried in before the choice (alternating, the pass first). */
const TRIALS_EACH = 2;

/** Sum and count of one phase's calls in a submit. */
interface Span {
  seconds: number;
  calls: number;
}

/** Chooses between the pass and the walk from their measured cost, or keeps a fixed kernel. */
export class SampleKernelChoice {
  private chosen: SampleKernelName | null;
  private tried = 0;
  private readonly pass = { sample: { seconds: 0, calls: 0 }, collide: { seconds: 0, calls: 0 } };
  /** The walk's submits: the fused kernel, and sampling passes it still needs (a rank's halo cells). */
  private readonly walk = { fused: { seconds: 0, calls: 0 }, sample: { seconds: 0, calls: 0 } };

  private readonly fixed: SampleKernelName | null;

  constructor(setting: SampleKernelSetting) {
    this.fixed = setting === 'auto' ? null : setting;
    this.chosen = this.fixed;
  }

  /** Whether the trials are still running (record wants the phase totals before and after each sampled submit). */
  get measuring(): boolean {
    return this.chosen === null;
  }

  /** The kernel of the next submit that samples. */
  next(): SampleKernelName {
    if (this.chosen) return this.chosen;
    return this.tried % 2 === 0 ? 'pass' : 'walk';
  }

  /** Records a sampled submit run with `kernel`: the phase totals before and after it. */
  record(kernel: SampleKernelName, before: Map<string, PhaseTotals>, after: Map<string, PhaseTotals>): void {
    if (this.chosen) return;
    // the timed calls only (the submits that compare the kernels time every call; calls before them may be estimates)
    const span = (name: string): Span => {
      const a = after.get(name), b = before.get(name);
      const now = a ? timedPart(a) : { calls: 0, seconds: 0 };
      const was = b ? timedPart(b) : { calls: 0, seconds: 0 };
      return { seconds: now.seconds - was.seconds, calls: now.calls - was.calls };
    };
    const add = (to: Span, s: Span) => { to.seconds += s.seconds; to.calls += s.calls; };
    if (kernel === 'pass') {
      add(this.pass.sample, span('sample'));
      add(this.pass.collide, span('collide'));
    } else {
      add(this.walk.fused, span('collide+sample'));
      add(this.walk.sample, span('sample'));
    }
    this.tried += 1;
    if (this.tried >= 2 * TRIALS_EACH) this.chosen = this.decide();
  }

  /** The faster kernel by the trials (the pass when a phase was not timed). */
  private decide(): SampleKernelName {
    const c = this.costs();
    if (c.passSeconds === undefined || c.walkExtraSeconds === undefined) return 'pass';
    return c.walkExtraSeconds < c.passSeconds ? 'walk' : 'pass';
  }

  /**
   * Mean cost per sampled step of each kernel, where measured: the pass's time, and what the walk adds to the collide
   * kernel plus the sampling passes it still runs (on a rank: its halo cells' pass).
   */
  private costs(): { passSeconds?: number; walkExtraSeconds?: number } {
    const { sample, collide } = this.pass;
    const { fused, sample: walkSample } = this.walk;
    if (sample.calls === 0 || collide.calls === 0 || fused.calls === 0) return {};
    const extra = fused.seconds / fused.calls - collide.seconds / collide.calls + walkSample.seconds / fused.calls;
    return { passSeconds: sample.seconds / sample.calls, walkExtraSeconds: extra };
  }

  /** The choice so far, for the run's summary. */
  report(): SampleKernelReport {
    if (this.fixed) return { kernel: this.fixed, how: 'fixed' };
    return { kernel: this.chosen ?? 'pass', how: this.chosen ? 'measured' : 'trial', ...this.costs() };
  }
}
