// Per-phase timing of the step loop, in the manner of SPARTA's timer: calls and total time per
// phase. GPU timestamps (timestamp-query, one begin/end pair per compute pass) when the adapter has
// them; otherwise wall clock, which submits and waits after each phase (slower, but honest).
import { GAP_PHASE_PREFIX } from '../../common/reports/rank-time.js';
import { OpenCalls, addTime, estimatedTotals, type PhaseTotals } from './phase-totals.js';

/** Records compute passes into command buffers and accumulates each phase's time. */
export interface PhaseRecorder {
  readonly source: 'gpu-timestamps' | 'wall-clock' | 'off';
  /** The encoder of the command buffer being recorded (for copies between passes). */
  readonly encoder: GPUCommandEncoder;
  /**
   * Records phase `name` as one compute pass filled by fn; wall-clock mode waits for it to run. With `continues`
   * its time is added to the last call of that phase instead of counting a new call (a phase done in two parts).
   */
  pass(name: string, fn: (pass: GPUComputePassEncoder) => void, continues?: boolean): void | Promise<void>;
  /** Submits what was recorded so far without waiting, so the GPU works while the host records on. */
  flush(): void;
  /** Submits what was recorded, waits for the GPU, and adds the measured times. */
  submit(): Promise<void>;
  /** Totals per phase, in the order phases were first seen. */
  totals(): Map<string, PhaseTotals>;
}

/**
 * The GPU's idle time between the timed passes, booked as phases of these names when asked (DSMC_GPU_GAPS=1): between
 * two passes of one command buffer (copies, barriers, timestamp writes), between the command buffers of one batch
 * (the submit boundary, or the GPU waiting for the host's next submit) and between batches (the host's round trip at a
 * batch's end). Not GPU work (common/reports/rank-time.ts: isGapPhase): GPU seconds and the balance leave them out.
 */
export const GAP_PHASES = { within: `${GAP_PHASE_PREFIX}within`, submits: `${GAP_PHASE_PREFIX}submits`, batches: `${GAP_PHASE_PREFIX}batches` } as const;

/** Timestamps one query set holds (WebGPU's limit). */
const QUERIES_PER_SET = 4096;

/**
 * A run's default GPU timing times every this-many-th call of each phase (`--timing full`: every call). Measured on
 * 2 x H200 (docs/PERFORMANCE.md, twenty-eighth session), timing every call cost the box on 2 ranks 1-2.3 % of its
 * throughput, one GPU 0.3-0.4 %; one call in 8 costs about nothing (as --timing off).
 */
export const SAMPLED_TIMING_EVERY = 8;

/** What a TimestampRecorder times: every `every`-th call of each phase (1: every call), and whether it books GAP_PHASES. */
export interface TimestampOptions {
  every?: number;
  gaps?: boolean;
}

/**
 * GPU-timestamp recorder: one begin/end timestamp pair per timed pass, resolved after each submit. A submit that records
 * more passes than it was made for (a multi-rank `--detail` step has more than the loop's estimate) adds query sets.
 * With `every` > 1 it times the first call of each phase and every `every`-th after it, as a sampling profiler does:
 * the others go, untimed, into one compute pass shared by consecutive untimed phases (what `--timing off` records),
 * since a timed pass costs the GPU some microseconds more than its work (its own compute pass and two timestamps: on
 * one H200 some 12-15 µs next to a copy, bench/boundary-gap.mjs). A phase's totals are then estimates: its calls are
 * all its calls, its seconds its first call's plus the others at the mean of its other timed calls (estimatedTotals),
 * its minimum and maximum those of the timed ones. Phases called once a step are timed in the same steps (their counters go alike), so a timed step is timed whole.
 */
export class TimestampRecorder implements PhaseRecorder {
  readonly source = 'gpu-timestamps' as const;
  private readonly querySets: GPUQuerySet[] = [];
  private resolveBuf!: GPUBuffer;
  private readBuf!: GPUBuffer;
  private readonly names: string[] = [];
  private readonly continued: boolean[] = [];
  /** Per pass of the submit being recorded: the command buffer it is in (flushes so far in this submit). */
  private readonly buffers: number[] = [];
  private flushes = 0;
  /** The end of the last timed pass of the submit before (ns, GPU clock), for the gap between batches. */
  private lastEnd: bigint | null = null;
  /** The timed passes' totals (calls: the timed calls), and each phase's first call's seconds. */
  private readonly map = new Map<string, PhaseTotals>();
  private readonly first = new Map<string, number>();
  private readonly calls = new OpenCalls((name, seconds) => { if (!this.first.has(name)) this.first.set(name, seconds); });
  /** Per phase: its calls so far (timed or not), and those left untimed. */
  private readonly seen = new Map<string, number>();
  private readonly untimed = new Map<string, number>();
  /** Per phase with a call in the submit being recorded: whether its last call is timed (a continuation follows it). */
  private readonly openTimed = new Map<string, boolean>();
  /** The compute pass consecutive untimed phases share, while one is open. */
  private shared: GPUComputePassEncoder | null = null;
  private enc: GPUCommandEncoder;
  private readonly gaps: boolean;
  private every: number;

  /** passes: the passes a submit is expected to record (more make it grow); options: what it times (TimestampOptions). */
  constructor(private readonly device: GPUDevice, passes: number, options: TimestampOptions = {}) {
    this.gaps = options.gaps ?? false;
    // the gaps between passes are only known when every pass is timed
    this.every = this.gaps ? 1 : checkedEvery(options.every ?? 1);
    this.grow(Math.max(1, passes));
    this.enc = device.createCommandEncoder({ label: 'steps' });
  }

  /** Times every `every`-th call of each phase from the next call on (1: every call; ignored while gaps are booked). */
  timeEvery(every: number): void {
    if (!this.gaps) this.every = checkedEvery(every);
  }

  /** One call in how many of each phase is timed now. */
  get timedEvery(): number {
    return this.every;
  }

  /** Passes the query sets hold now. */
  get maxPasses(): number {
    return (this.querySets.length * QUERIES_PER_SET) / 2;
  }

  /** Adds query sets until `passes` fit, and resolve and read buffers for all of them. */
  private grow(passes: number): void {
    while (this.maxPasses < passes) {
      this.querySets.push(this.device.createQuerySet({ label: `phase-timestamps-${this.querySets.length}`, type: 'timestamp', count: QUERIES_PER_SET }));
    }
    this.resolveBuf?.destroy();
    this.readBuf?.destroy();
    const bytes = 8 * QUERIES_PER_SET * this.querySets.length;
    this.resolveBuf = this.device.createBuffer({ label: 'phase-timestamps-resolve', size: bytes, usage: 0x0200 | 0x0004 }); // QUERY_RESOLVE | COPY_SRC
    this.readBuf = this.device.createBuffer({ label: 'phase-timestamps-read', size: bytes, usage: 0x0001 | 0x0008 }); // MAP_READ | COPY_DST
  }

  get encoder(): GPUCommandEncoder {
    this.closeShared();
    return this.enc;
  }

  /** Ends the compute pass the untimed phases share, if one is open (before a copy, a timed pass or a submit). */
  private closeShared(): void {
    this.shared?.end();
    this.shared = null;
  }

  /** Whether this call of phase `name` is timed (every `every`-th new call; a continuation follows its open call). */
  private timesCall(name: string, continues: boolean): boolean {
    const open = this.openTimed.get(name);
    if (continues && open !== undefined) return open;
    const n = this.seen.get(name) ?? 0;
    this.seen.set(name, n + 1);
    const timed = n % this.every === 0;
    if (!timed) this.untimed.set(name, (this.untimed.get(name) ?? 0) + 1);
    this.openTimed.set(name, timed);
    return timed;
  }

  pass(name: string, fn: (pass: GPUComputePassEncoder) => void, continues = false): void {
    if (!this.timesCall(name, continues)) {
      this.shared ??= this.enc.beginComputePass({ label: 'untimed' });
      fn(this.shared);
      return;
    }
    this.closeShared();
    const k = this.names.length;
    if (k >= this.maxPasses) this.grow(2 * this.maxPasses);
    this.names.push(name);
    this.continued.push(continues);
    this.buffers.push(this.flushes);
    const at = (2 * k) % QUERIES_PER_SET;
    const pass = this.enc.beginComputePass({
      label: name,
      timestampWrites: { querySet: this.querySets[Math.floor((2 * k) / QUERIES_PER_SET)], beginningOfPassWriteIndex: at, endOfPassWriteIndex: at + 1 },
    });
    fn(pass);
    pass.end();
  }

  flush(): void {
    this.closeShared();
    this.device.queue.submit([this.enc.finish()]);
    this.enc = this.device.createCommandEncoder({ label: 'steps' });
    this.flushes += 1;
  }

  async submit(): Promise<void> {
    this.closeShared();
    const n = this.names.length;
    this.flushes = 0;
    // no phase continues across submits
    this.openTimed.clear();
    if (n > 0) {
      // each set's timestamps at 8 * QUERIES_PER_SET bytes apart (a multiple of the 256-byte resolve alignment)
      for (let set = 0; set * QUERIES_PER_SET < 2 * n; set++) {
        const count = Math.min(QUERIES_PER_SET, 2 * n - set * QUERIES_PER_SET);
        this.enc.resolveQuerySet(this.querySets[set], 0, count, this.resolveBuf, 8 * QUERIES_PER_SET * set);
      }
      this.enc.copyBufferToBuffer(this.resolveBuf, 0, this.readBuf, 0, 16 * n);
    }
    this.device.queue.submit([this.enc.finish()]);
    this.enc = this.device.createCommandEncoder({ label: 'steps' });
    if (n === 0) return this.device.queue.onSubmittedWorkDone();
    await this.readBuf.mapAsync(0x0001, 0, 16 * n);
    const ts = new BigUint64Array(this.readBuf.getMappedRange(0, 16 * n).slice(0));
    this.readBuf.unmap();
    for (let k = 0; k < n; k++) {
      const dt = ts[2 * k + 1] > ts[2 * k] ? Number(ts[2 * k + 1] - ts[2 * k]) * 1e-9 : 0;
      this.calls.add(this.map, this.names[k], dt, this.continued[k]);
    }
    this.calls.close(this.map);
    if (this.gaps) this.bookGaps(ts, n);
    this.names.length = 0;
    this.continued.length = 0;
    this.buffers.length = 0;
  }

  /** Books the GPU's idle gaps of one submit's n timed passes (timestamps ts) as GAP_PHASES. */
  private bookGaps(ts: BigUint64Array, n: number): void {
    const gap = (from: bigint, to: bigint) => (to > from ? Number(to - from) * 1e-9 : 0);
    let within = 0;
    let submits = 0;
    // the gaps between command buffers also by the first pass of the later one (which boundary of a step they are)
    const into = new Map<string, number>();
    for (let k = 1; k < n; k++) {
      const idle = gap(ts[2 * k - 1], ts[2 * k]);
      if (this.buffers[k] === this.buffers[k - 1]) {
        within += idle;
      } else {
        submits += idle;
        into.set(this.names[k], (into.get(this.names[k]) ?? 0) + idle);
      }
    }
    addTime(this.map, GAP_PHASES.within, within);
    addTime(this.map, GAP_PHASES.submits, submits);
    for (const [name, idle] of into) addTime(this.map, `${GAP_PHASES.submits}.into-${name}`, idle);
    if (this.lastEnd !== null) addTime(this.map, GAP_PHASES.batches, gap(this.lastEnd, ts[0]));
    this.lastEnd = ts[2 * n - 1];
  }

  /** Per phase: every call, and the seconds estimated from the timed ones (their own totals when every call is timed). */
  totals(): Map<string, PhaseTotals> {
    if (this.untimed.size === 0) return this.map;
    const out = new Map<string, PhaseTotals>();
    for (const [name, t] of this.map) out.set(name, estimatedTotals(t, this.first.get(name) ?? 0, this.untimed.get(name) ?? 0));
    return out;
  }
}

/** A `every` of TimestampOptions, checked: a whole number from 1. */
function checkedEvery(every: number): number {
  if (!Number.isInteger(every) || every < 1) throw new Error(`internal: phases timed every ${every} calls; expected a whole number from 1`);
  return every;
}

/** Wall-clock recorder: each pass is submitted alone and timed from submit to completion. */
export class WallClockRecorder implements PhaseRecorder {
  readonly source = 'wall-clock' as const;
  private readonly map = new Map<string, PhaseTotals>();
  private readonly calls = new OpenCalls();
  private enc: GPUCommandEncoder;

  constructor(private readonly device: GPUDevice) {
    this.enc = device.createCommandEncoder({ label: 'steps' });
  }

  get encoder(): GPUCommandEncoder {
    return this.enc;
  }

  async pass(name: string, fn: (pass: GPUComputePassEncoder) => void, continues = false): Promise<void> {
    // work recorded before this pass (copies) runs first, outside the phase's time
    this.device.queue.submit([this.enc.finish()]);
    await this.device.queue.onSubmittedWorkDone();
    const enc = this.device.createCommandEncoder({ label: name });
    const pass = enc.beginComputePass({ label: name });
    fn(pass);
    pass.end();
    const t0 = performance.now();
    this.device.queue.submit([enc.finish()]);
    await this.device.queue.onSubmittedWorkDone();
    this.calls.add(this.map, name, (performance.now() - t0) * 1e-3, continues);
    this.enc = this.device.createCommandEncoder({ label: 'steps' });
  }

  flush(): void {
    // each pass is submitted on its own already; copies recorded since the last one go now
    this.device.queue.submit([this.enc.finish()]);
    this.enc = this.device.createCommandEncoder({ label: 'steps' });
  }

  async submit(): Promise<void> {
    this.device.queue.submit([this.enc.finish()]);
    this.enc = this.device.createCommandEncoder({ label: 'steps' });
    await this.device.queue.onSubmittedWorkDone();
    this.calls.close(this.map);
  }

  totals(): Map<string, PhaseTotals> {
    return this.map;
  }
}

/** No phase timing: every phase of a submit goes into one compute pass (the least overhead). */
export class UntimedRecorder implements PhaseRecorder {
  readonly source = 'off' as const;
  private enc: GPUCommandEncoder;
  private open: GPUComputePassEncoder | null = null;

  constructor(private readonly device: GPUDevice) {
    this.enc = device.createCommandEncoder({ label: 'steps' });
  }

  get encoder(): GPUCommandEncoder {
    this.close();
    return this.enc;
  }

  pass(_name: string, fn: (pass: GPUComputePassEncoder) => void, _continues?: boolean): void {
    this.open ??= this.enc.beginComputePass({ label: 'steps' });
    fn(this.open);
  }

  /** Ends the shared compute pass, if one is open. */
  private close(): void {
    this.open?.end();
    this.open = null;
  }

  flush(): void {
    this.close();
    this.device.queue.submit([this.enc.finish()]);
    this.enc = this.device.createCommandEncoder({ label: 'steps' });
  }

  async submit(): Promise<void> {
    this.close();
    this.device.queue.submit([this.enc.finish()]);
    this.enc = this.device.createCommandEncoder({ label: 'steps' });
    await this.device.queue.onSubmittedWorkDone();
  }

  totals(): Map<string, PhaseTotals> {
    return new Map();
  }
}
