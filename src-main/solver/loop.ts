// The timestep loop of one rank, in the manner of SPARTA's Update::run: per step one call per
// phase (move, inject, sort, collide, sample), each timed; many steps per submit, and the host
// reads back only once per submit (step statistics, particle count, sampling sums).
import { cellVolume, type Case } from '../common/case-schema.js';
import { Readback, WORKGROUP_SIZE, readBuffer } from './gpu/buffers.js';
import { throwIfGpuError, type Gpu } from './gpu/device.js';
import { TimestampRecorder, UntimedRecorder, WallClockRecorder, type PhaseRecorder } from './gpu/phase-timer.js';
import type { TimingSource } from '../common/run-summary.js';
import { PipelineCache } from './gpu/pipeline-cache.js';
import { CTL, SAMPLE_MOMENTS, STATS } from './gpu/struct-layouts.js';
import { BatchMeans, submitsPerBlock } from './field-statistics.js';
import { computeFields, type Fields } from './fields.js';
import { particleTotals, type ParticleTotals } from './phases/conservation.js';
import { CollidePhase } from './phases/collide.js';
import { encodeInit } from './phases/init.js';
import { InjectPhase } from './phases/inject.js';
import { MovePhase } from './phases/move.js';
import type { PhaseContext } from './phases/phase.js';
import { SamplePhase } from './phases/sample.js';
import { SortPhase } from './phases/sort.js';
import type { ParticleAttribute } from './particle-attributes.js';
import { SimState, initialCapacity } from './state.js';
import { buildTables, type SolverTables } from './tables.js';

/** Statistics of one step, read back from the GPU's ring. */
export interface StepStats {
  step: number;
  particlesBefore: number;
  injected: number;
  particlesAfter: number;
  collisions: number;
  candidates: number;
}

/** Progress reported after every submit. */
export interface Progress {
  step: number;
  steps: number;
  particles: number;
  elapsedSeconds: number;
  particleStepsPerSecond: number;
}

/** Options of a run beyond the case. */
export interface LoopOptions {
  /** 'auto': GPU timestamps when the adapter has them, else wall clock; 'off': no phase times. */
  timing?: 'auto' | 'wall' | 'off';
  onProgress?: (p: Progress) => void;
  /** Called with the statistics of every step as they are read back. */
  onSteps?: (s: StepStats[]) => void;
  signal?: AbortSignal;
  /** Time each stage of a multi-stage phase (sort.count, sort.scan, ...) as its own pass. */
  detail?: boolean;
}

/** What a finished loop hands to the summary. */
export interface LoopResult {
  steps: number;
  seconds: number;
  stepStats: StepStats[];
  phases: Map<string, { calls: number; totalSeconds: number; minSeconds: number; maxSeconds: number }>;
  timingSource: TimingSource;
  start: ParticleTotals;
  end: ParticleTotals;
  samples: number;
  fields: Fields;
  /** Standard errors of `fields` per cell by batch means over `fieldBlocks` blocks (NaN when fewer than 2). */
  fieldErrors: Fields;
  fieldBlocks: number;
  /** Raw f64 moment sums (layout of sample.wgsl), for tests and exports. */
  sums: Float64Array;
  /** Totals of the particle system after every submit (for step statistics over time). */
  totalsOverTime: { step: number; totals: ParticleTotals }[];
  capacity: number;
  tables: SolverTables;
  /** Host side of the loop: recording commands, waiting for the GPU, reading results back. */
  host: { encodeSeconds: number; waitSeconds: number; readbackSeconds: number; submits: number };
}

/** Thrown when a run is cancelled through its AbortSignal. */
export class RunCancelled extends Error {}

/** Steps recorded between two early submits inside a batch (overlaps recording with the GPU). */
const FLUSH_EVERY = 8;

/** Batch-means blocks a sampled run aims for. */
const BLOCKS = 20;

/** Most passes per step: move, inject, sort (five with detailed timing), collide, sample. */
const PASSES_PER_STEP = 9;

/**
 * Steps recorded per submit: the case's stepsPerSubmit, capped so that one query set (4096
 * timestamps) times them all, and so that the sampled steps span at least BLOCKS submits (the
 * batch-means blocks behind the fields' standard errors; short sampled runs submit more often).
 */
export function stepsPerSubmit(c: Case): number {
  let chunk = Math.min(c.run.stepsPerSubmit, Math.floor(2048 / PASSES_PER_STEP));
  if (c.sampling.enabled) {
    const span = c.run.steps - Math.max(c.sampling.start, 1) + 1;
    if (span > 0) chunk = Math.min(chunk, Math.max(1, Math.floor(span / BLOCKS)));
  }
  return chunk;
}

/** One simulation on one device. */
export class Simulation {
  readonly tables: SolverTables;
  readonly state: SimState;
  readonly cache: PipelineCache;
  private readonly ctx: PhaseContext;
  private readonly move: MovePhase;
  private readonly inject?: InjectPhase;
  private readonly sort: SortPhase;
  private readonly collide: CollidePhase;
  private readonly sample: SamplePhase;
  private readonly chunk: number;
  private readonly sums: Float64Array;
  private samples = 0;
  /** Staging buffers reused by the read-back after every submit. */
  private readonly readback: Readback;
  /** Sums and pass count of the current batch-means block, and the blocks' statistics. */
  private readonly blockSums: Float64Array;
  private blockPasses = 0;
  private blockSubmits = 0;
  private readonly batchMeans: BatchMeans;
  private particles: number;
  private step = 0;

  constructor(private readonly gpu: Gpu, readonly kase: Case) {
    this.tables = buildTables(kase);
    this.chunk = stepsPerSubmit(kase);
    const device = gpu.device;
    this.cache = new PipelineCache(device, { WG_SIZE: WORKGROUP_SIZE });
    this.state = new SimState(device, this.tables, initialCapacity(this.tables, this.chunk), this.chunk);
    this.ctx = { device, cache: this.cache, state: this.state };
    this.readback = new Readback(device);
    this.move = new MovePhase(this.ctx);
    if (InjectPhase.needed(this.ctx)) this.inject = new InjectPhase(this.ctx);
    this.sort = new SortPhase(this.ctx);
    this.collide = new CollidePhase(this.ctx);
    this.sample = new SamplePhase(this.ctx);
    this.bindAll();
    this.sums = new Float64Array(SAMPLE_MOMENTS * this.tables.species.length * this.tables.nCells);
    this.blockSums = new Float64Array(this.sums.length);
    this.batchMeans = new BatchMeans(this.tables.nCells);
    this.particles = this.tables.initialParticles;
  }

  /** (Re)creates every phase's bind groups. */
  private bindAll(): void {
    for (const p of [this.move, this.inject, this.sort, this.collide, this.sample]) p?.bind();
  }

  /** True when step s (1-based) is a sampling step. */
  private samples_at(s: number): boolean {
    const { enabled, start, interval } = this.kase.sampling;
    return enabled && s >= start && (s - start) % interval === 0;
  }

  /** Fills the box (step 0). */
  async initialize(): Promise<void> {
    const enc = this.gpu.device.createCommandEncoder({ label: 'init' });
    const pass = enc.beginComputePass({ label: 'init' });
    encodeInit(this.ctx, pass);
    pass.end();
    this.gpu.device.queue.submit([enc.finish()]);
    await this.gpu.device.queue.onSubmittedWorkDone();
    throwIfGpuError(this.gpu);
  }

  /** Grows the particle buffers when the next batch could exceed them (never drops particles). */
  private ensureCapacity(batch: number): void {
    const inj = this.tables.injectionPerStep * batch;
    const need = this.particles + inj + 10 * Math.sqrt(inj) + 64;
    if (need <= this.state.capacity) return;
    const next = Math.ceil(1.5 * need);
    const maxBinding = Number(this.gpu.limits.maxStorageBufferBindingSize);
    if (4 * next > maxBinding) {
      throw new Error(
        `The particle count is heading for ${Math.round(need)}, more than one buffer binding of this adapter holds ` +
        `(${Math.floor(maxBinding / 4)} particles at ${maxBinding} bytes). Use fewer particles (particles.fnum larger or ` +
        'particles.perCell smaller) or an adapter with larger bindings.',
      );
    }
    this.state.grow(next, this.particles);
    this.readback.release(); // the partials buffer was reallocated
    this.bindAll();
  }

  /** Records one timestep; returns whether it sampled. */
  private async recordStep(rec: PhaseRecorder, s: number, detail: boolean): Promise<boolean> {
    const st = this.state;
    const set = st.current;
    await rec.pass('move', (p) => this.move.encode(p, set));
    if (this.inject) await rec.pass('inject', (p) => this.inject!.encode(p, set));
    if (detail) {
      for (const stage of this.sort.stages) await rec.pass(`sort.${stage}`, (p) => this.sort.encode(p, set, stage));
    } else {
      await rec.pass('sort', (p) => this.sort.encode(p, set));
    }
    st.current = set === 0 ? 1 : 0;
    await rec.pass('collide', (p) => this.collide.encode(p, st.current));
    if (!this.samples_at(s)) return false;
    await rec.pass('sample', (p) => this.sample.encode(p, st.current));
    return true;
  }

  /** Fields of moment sums over `passes` passes. */
  private fieldsOf(sums: Float64Array, passes: number): Fields {
    const t = this.tables;
    return computeFields(sums, passes, t.species.map((s) => s.mass), t.nCells, t.fnum, cellVolume(this.kase));
  }

  /** Closes the current batch-means block when it holds `perBlock` sampled submits (or `force`). */
  private closeBlock(perBlock: number, force: boolean): void {
    if (this.blockSubmits === 0 || (!force && this.blockSubmits < perBlock)) return;
    this.batchMeans.add(this.fieldsOf(this.blockSums, this.blockPasses));
    this.blockSums.fill(0);
    this.blockPasses = 0;
    this.blockSubmits = 0;
  }

  /** Reads the step ring and control words after a submit; folds sampling sums into f64. */
  private async readBack(first: number, count: number, sampled: boolean): Promise<StepStats[]> {
    const device = this.gpu.device;
    const st = this.state;
    const stats = new Uint32Array(await this.readback.read(st.stats, 4 * STATS.WORDS * st.statsRing));
    const ctl = new Uint32Array(await this.readback.read(st.ctl, 4 * CTL.WORDS));
    if (ctl[CTL.OVERFLOW] > 0) {
      throw new Error(
        `${ctl[CTL.OVERFLOW]} injected particles did not fit the particle buffers (capacity ${st.capacity}) in steps ` +
        `${first}..${first + count - 1}; the run was stopped rather than lose them. Lower run.stepsPerSubmit so the ` +
        'capacity is checked more often, and please report this case.',
      );
    }
    this.particles = ctl[CTL.N];
    if (sampled) {
      const f32 = new Float32Array(await this.readback.read(st.sums, 4 * this.sums.length));
      for (let k = 0; k < f32.length; k++) {
        this.sums[k] += f32[k];
        this.blockSums[k] += f32[k];
      }
      this.blockSubmits += 1;
      const enc = device.createCommandEncoder({ label: 'clear-sums' });
      enc.clearBuffer(st.sums);
      device.queue.submit([enc.finish()]);
    }
    const out: StepStats[] = [];
    for (let s = first; s < first + count; s++) {
      const o = (s % st.statsRing) * STATS.WORDS;
      if (stats[o + STATS.STEP] !== s) throw new Error(`internal: step statistics slot holds step ${stats[o + STATS.STEP]}, expected ${s}`);
      out.push({
        step: s,
        particlesBefore: stats[o + STATS.N_BEFORE],
        injected: stats[o + STATS.INJECTED],
        particlesAfter: stats[o + STATS.N_AFTER],
        collisions: stats[o + STATS.COLLISIONS],
        candidates: stats[o + STATS.CANDIDATES],
      });
    }
    return out;
  }

  /** Number of submits of a run of `steps` more steps that contain a sampling step. */
  private sampledSubmits(steps: number): number {
    let n = 0;
    for (let first = this.step + 1; first <= this.step + steps; first += this.chunk) {
      const last = Math.min(first + this.chunk - 1, this.step + steps);
      for (let s = first; s <= last; s++) if (this.samples_at(s)) { n += 1; break; }
    }
    return n;
  }

  /** Submits between two particle-total reductions: about one per 4M particles, so they cost ~1 % of the loop. */
  private totalsEvery(): number {
    return Math.max(1, Math.round(this.particles / 4e6));
  }

  /** Totals of the live particles now. */
  totals(): Promise<ParticleTotals> {
    return particleTotals(this.ctx, this.particles, this.readback);
  }

  /** Copies the live particles' arrays to the host (tests, exports); u32 arrays come back as bits to reinterpret. */
  async readParticles(attrs: readonly ParticleAttribute[]): Promise<Record<ParticleAttribute, ArrayBuffer>> {
    const out = {} as Record<ParticleAttribute, ArrayBuffer>;
    for (const a of attrs) out[a] = await readBuffer(this.gpu.device, this.state.live[a], 4 * this.particles);
    return out;
  }

  /** Current live particle count (as of the last read-back). */
  get liveParticles(): number {
    return this.particles;
  }

  /** Runs `steps` timesteps (default: the case's run.steps) and returns everything measured. */
  async run(options: LoopOptions = {}, steps = this.kase.run.steps): Promise<LoopResult> {
    const device = this.gpu.device;
    const rec: PhaseRecorder = options.timing === 'off' ? new UntimedRecorder(device)
      : this.gpu.hasTimestamps && options.timing !== 'wall' ? new TimestampRecorder(device, this.chunk * PASSES_PER_STEP)
        : new WallClockRecorder(device);
    const start = await this.totals();
    const stepStats: StepStats[] = [];
    const totalsOverTime: LoopResult['totalsOverTime'] = [];
    const perBlock = submitsPerBlock(this.sampledSubmits(steps), BLOCKS);
    let submits = 0;
    const t0 = performance.now();
    let moved = 0;
    const host = { encodeSeconds: 0, waitSeconds: 0, readbackSeconds: 0, submits: 0 };
    const last = this.step + steps;
    while (this.step < last) {
      if (options.signal?.aborted) throw new RunCancelled(`cancelled at step ${this.step}`);
      const batch = Math.min(this.chunk, last - this.step);
      this.ensureCapacity(batch);
      let sampled = false;
      const tEncode = performance.now();
      for (let k = 1; k <= batch; k++) {
        if (await this.recordStep(rec, this.step + k, !!options.detail)) {
          sampled = true;
          this.samples += 1;
          this.blockPasses += 1;
        }
        // hand the GPU work early so that it runs while the rest of the batch is recorded
        if (k % FLUSH_EVERY === 0 && k < batch) rec.flush();
      }
      const tSubmit = performance.now();
      await rec.submit();
      throwIfGpuError(this.gpu);
      const tRead = performance.now();
      const got = await this.readBack(this.step + 1, batch, sampled);
      host.encodeSeconds += (tSubmit - tEncode) / 1000;
      host.waitSeconds += (tRead - tSubmit) / 1000;
      host.readbackSeconds += (performance.now() - tRead) / 1000;
      host.submits += 1;
      this.step += batch;
      this.closeBlock(perBlock, false);
      // a reduction over every particle: every submit for small runs, less often for big ones
      submits += 1;
      if (submits % this.totalsEvery() === 0 && this.step < last) {
        totalsOverTime.push({ step: this.step, totals: await this.totals() });
      }
      for (const s of got) moved += s.particlesBefore;
      stepStats.push(...got);
      options.onSteps?.(got);
      const elapsed = (performance.now() - t0) / 1000;
      options.onProgress?.({ step: this.step, steps: last, particles: this.particles, elapsedSeconds: elapsed, particleStepsPerSecond: moved / elapsed });
    }
    const seconds = (performance.now() - t0) / 1000;
    this.closeBlock(perBlock, true);
    // the final totals (conservation) are taken after the clock stops, as the first were before it started
    const end = steps > 0 ? await this.totals() : start;
    if (steps > 0) totalsOverTime.push({ step: this.step, totals: end });
    const t = this.tables;
    return {
      steps, seconds, stepStats, start, end,
      phases: rec.totals(),
      timingSource: rec.source,
      samples: this.samples,
      fields: this.fieldsOf(this.sums, this.samples),
      fieldErrors: this.batchMeans.errors(),
      fieldBlocks: this.batchMeans.count,
      sums: this.sums,
      totalsOverTime,
      capacity: this.state.capacity,
      tables: t,
      host,
    };
  }
}
