// Assembles a multi-rank run from its ranks' submits: sums each step's statistics over the ranks, counts the
// sampling passes and batch-means blocks by the ranks' rule, places every rank's fields (computed by each rank from its
// sampling state, read from its GPU once, at the end) into global cell order (bitwise those of one rank), and keeps the
// per-rank series (particles, migrants sent and received, exchange time) and the load non-uniformity of every step.
import type { Case } from '../../common/case-schema.js';
import type { RankStepRecord } from '../../common/run-record.js';
import { FieldAccumulator, closeCounters } from '../../solver/field-accumulator.js';
import { blockSubmits, blockUnitSteps, countStep, samplesAt, type BlockPlan } from '../../solver/submit-plan.js';
import type { BatchReport, StepStats } from '../../solver/loop-types.js';
import type { PrefaultedArena } from '../../solver/prefault.js';
import { placeRankFieldsOnThreads, placedFieldsArena, type PlacedPart } from '../../solver/rank-fields.js';
import { placingThreads } from '../../solver/place-planes.js';
import type { Subdomain } from '../../solver/subdomain.js';
import type { SolverTables } from '../../solver/tables.js';
import { loadNonUniformity } from '../decomposition/load.js';

/** One rank's numbers at one step (as the run database keeps them). */
export type RankStep = RankStepRecord;

export class RunAssembler {
  readonly fields: FieldAccumulator;
  readonly stepStats: StepStats[] = [];
  readonly rankSteps: RankStep[] = [];
  /** Load non-uniformity (percent) after each step. */
  readonly loadNonUniformity: { step: number; percent: number }[] = [];
  /** Live particles of each rank after the latest complete submit. */
  readonly particlesPerRank: number[];
  /**
   * The last merged submit's work of each rank: seconds its GPU worked (0 where it ran untimed) and particle-steps (its
   * particles after each step, summed), and the submit's steps, from which the balancer fits its cost model (by time).
   */
  readonly lastSubmit: { gpuSeconds: number[]; particleSteps: number[]; steps: number };
  /**
   * Seconds from the last submit merged (the ranks' loops ended) to the fields and standard errors in global order: the
   * ranks reading their sampling state back and evaluating their cells, sending the planes, and the placing.
   */
  foldSeconds = 0;
  /** Of foldSeconds: placing the ranks' planes in global order (reading them from their files where they wait there). */
  placeSeconds = 0;
  /** Of foldSeconds: from the last merged submit until every rank's `done` was in (doneArrived). */
  arrivedSeconds = 0;
  /** When the latest submit was merged from every rank (performance.now()). */
  private lastMergedAt: number | null = null;
  /** Where the placed planes go (sampled runs): prefaulted while the ranks run. */
  private readonly placedArena: PrefaultedArena | null;
  /** Submits not yet in from every rank: the reports so far. */
  private readonly pending = new Map<number, (BatchReport | undefined)[]>();

  /** Sampled units per batch-means block, and the steps of a unit (submit-plan.ts). */
  private readonly perBlock: number;
  private readonly unit: number;

  /** plan: the loop the batch-means blocks are planned for (its last step closes the open block); tables: the case's. */
  constructor(private readonly kase: Case, private subdomains: Subdomain[], private readonly plan: BlockPlan, tables: SolverTables) {
    this.fields = new FieldAccumulator(kase, tables);
    this.placedArena = tables.sampling ? placedFieldsArena(kase, tables) : null;
    this.perBlock = blockSubmits(kase, plan.from, plan.steps);
    this.unit = blockUnitSteps(kase);
    this.particlesPerRank = subdomains.map(() => 0);
    this.lastSubmit = { gpuSeconds: subdomains.map(() => 0), particleSteps: subdomains.map(() => 0), steps: 0 };
  }

  /**
   * Adds submit number `index` (0-based) of `rank`, placing its sampling sums into global order at once (the
   * report's sums need not outlive this call); when every rank has sent it, merges it and returns the merged steps.
   */
  add(rank: number, index: number, report: BatchReport): StepStats[] | null {
    const W = this.subdomains.length;
    let slot = this.pending.get(index);
    if (!slot) this.pending.set(index, (slot = new Array(W).fill(undefined)));
    if (slot[rank]) throw new Error(`rank ${rank} reported submit ${index} twice`);
    slot[rank] = report;
    if (slot.some((r) => r === undefined)) return null;
    this.pending.delete(index);
    this.lastMergedAt = performance.now();
    return this.merge(slot as BatchReport[]);
  }

  /** Sums one submit over the ranks and counts its sampling passes. */
  private merge(reports: BatchReport[]): StepStats[] {
    const steps = reports[0].steps.map((s, k) => {
      const out: StepStats = { step: s.step, particlesBefore: 0, injected: 0, particlesAfter: 0, collisions: 0, candidates: 0, sent: 0, received: 0, exchangeSeconds: 0 };
      const perRank: number[] = [];
      reports.forEach((r, rank) => {
        const x = r.steps[k];
        if (x.step !== s.step) throw new Error(`internal: rank ${rank} reported step ${x.step} where rank 0 reported ${s.step}`);
        out.particlesBefore += x.particlesBefore;
        out.injected += x.injected;
        out.particlesAfter += x.particlesAfter;
        out.collisions += x.collisions;
        out.candidates += x.candidates;
        if (x.reactions !== undefined) out.reactions = (out.reactions ?? 0) + x.reactions;
        if (x.products !== undefined) out.products = (out.products ?? 0) + x.products;
        out.sent! += x.sent ?? 0;
        out.received! += x.received ?? 0;
        out.exchangeSeconds = Math.max(out.exchangeSeconds!, x.exchangeSeconds ?? 0);
        perRank.push(x.particlesAfter);
        this.rankSteps.push({ rank, step: x.step, particles: x.particlesAfter, sent: x.sent ?? 0, received: x.received ?? 0, waitSeconds: x.exchangeSeconds ?? 0 });
      });
      this.loadNonUniformity.push({ step: s.step, percent: loadNonUniformity(perRank) });
      return out;
    });
    reports.forEach((r, rank) => {
      this.particlesPerRank[rank] = r.particles;
      this.lastSubmit.gpuSeconds[rank] = r.gpuSeconds;
      this.lastSubmit.particleSteps[rank] = r.steps.reduce((sum, x) => sum + x.particlesAfter, 0);
    });
    this.lastSubmit.steps = steps.length;
    const passes = reports[0].passes;
    reports.forEach((r, rank) => {
      if (r.passes !== passes) throw new Error(`internal: rank ${rank} sampled ${r.passes} times in a submit where rank 0 sampled ${passes}`);
    });
    // the blocks that closed inside this submit, by the ranks' rule
    const k = this.fields.counters;
    for (const s of steps) {
      if (countStep(k, this.kase, this.plan, this.unit, this.perBlock, s.step)) closeCounters(k);
    }
    const planned = steps.filter((s) => samplesAt(this.kase, s.step)).length;
    if (planned !== passes) throw new Error(`internal: the ranks sampled ${passes} times in a submit whose steps sample ${planned} times`);
    this.stepStats.push(...steps);
    return steps;
  }

  /** The ranks' subdomains from the next submit on (after a rebalance). */
  setSubdomains(subdomains: Subdomain[]): void {
    this.subdomains = subdomains;
  }

  /**
   * Places every rank's final fields and standard errors (rank-fields.ts: its cells of the subdomain in force, computed
   * on the rank) into global order; call once after the last submit. Null for every rank: nothing was sampled.
   */
  async finish(parts: (Omit<PlacedPart, 'sub'> | null)[]): Promise<void> {
    if (this.pending.size > 0) throw new Error(`internal: submits ${[...this.pending.keys()].join(', ')} did not arrive from every rank`);
    if (parts.every((p) => p === null)) return;
    const t = this.lastMergedAt ?? performance.now();
    await this.placedArena?.touched;
    const tPlace = performance.now();
    const placing = parts.map((p, rank) => {
      if (!p) throw new Error(`internal: rank ${rank} sent no fields where the others did`);
      return { sub: this.subdomains[rank], ...p };
    });
    // the ranks' files (one host) read at once, by threads that each take some planes of some files
    const placed = await placeRankFieldsOnThreads(this.kase.grid.cells, placing, placingThreads(placing.filter((p) => p.file).length), this.placedArena?.f64());
    this.fields.usePlaced(placed.fields, placed.errors);
    this.placeSeconds += (performance.now() - tPlace) / 1000;
    this.foldSeconds += (performance.now() - t) / 1000;
  }

  /** Notes that every rank's `done` is in (the end of a run's arrivedSeconds). */
  doneArrived(): void {
    if (this.lastMergedAt !== null) this.arrivedSeconds = (performance.now() - this.lastMergedAt) / 1000;
  }

  /** The ranks' subdomains in force. */
  get rankSubdomains(): Subdomain[] {
    return this.subdomains;
  }
}
