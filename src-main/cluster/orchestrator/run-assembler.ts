// Assembles a multi-rank run from its ranks' submits: sums each step's statistics over the ranks, places
// every rank's f32 sampling sums into global cell order and folds them into the fields exactly as a
// one-rank run does (so the fields are bitwise the same), and keeps the per-rank series (particles,
// migrants sent and received, exchange time) and the load non-uniformity of every step.
import type { Case } from '../../common/case-schema.js';
import type { RankStepRecord } from '../../common/run-record.js';
import { FieldAccumulator, foldInput } from '../../solver/field-accumulator.js';
import { SAMPLE_MOMENTS } from '../../solver/gpu/struct-layouts.js';
import type { BatchReport, StepStats } from '../../solver/loop-types.js';
import { copyOwnedCells, type Subdomain } from '../../solver/subdomain.js';
import { buildTables } from '../../solver/tables.js';
import { loadNonUniformity } from '../decomposition/load.js';

/** One rank's numbers at one step (as the run database keeps them). */
export type RankStep = RankStepRecord;

/** Copies a rank's local sums (layout [moment][species][local cell]) into global order (owned cells only). */
export function placeSums(local: Float32Array, sub: Subdomain, species: number, nCells: number, grid: [number, number, number], into: Float32Array): void {
  for (let ms = 0; ms < SAMPLE_MOMENTS * species; ms++) {
    copyOwnedCells(local.subarray(ms * sub.nLocal, (ms + 1) * sub.nLocal), sub, grid, into.subarray(ms * nCells, (ms + 1) * nCells));
  }
}

export class RunAssembler {
  readonly fields: FieldAccumulator;
  readonly stepStats: StepStats[] = [];
  readonly rankSteps: RankStep[] = [];
  /** Load non-uniformity (percent) after each step. */
  readonly loadNonUniformity: { step: number; percent: number }[] = [];
  /** Live particles of each rank after the latest complete submit. */
  readonly particlesPerRank: number[];
  /** Seconds spent folding the sampled sums into the fields (placing them in global order included). */
  foldSeconds = 0;
  /** Submits not yet in from every rank: the reports so far (their sums already placed into `global`). */
  private readonly pending = new Map<number, { reports: (BatchReport | undefined)[]; global: Float32Array | null }>();
  /** Global-order sum arrays of merged submits, for reuse (hundreds of megabytes each on big grids). */
  private readonly spare: Float32Array[] = [];
  private readonly nCells: number;
  private readonly species: number;

  constructor(private readonly kase: Case, private subdomains: Subdomain[], private readonly perBlock: number) {
    const tables = buildTables(kase);
    this.fields = new FieldAccumulator(kase, tables);
    this.nCells = tables.nCells;
    this.species = tables.species.length;
    this.particlesPerRank = subdomains.map(() => 0);
  }

  /**
   * Adds submit number `index` (0-based) of `rank`, placing its sampling sums into global order at once (the
   * report's sums need not outlive this call); when every rank has sent it, merges it and returns the merged steps.
   */
  add(rank: number, index: number, report: BatchReport): StepStats[] | null {
    const W = this.subdomains.length;
    let slot = this.pending.get(index);
    if (!slot) this.pending.set(index, (slot = { reports: new Array(W).fill(undefined), global: null }));
    if (slot.reports[rank]) throw new Error(`rank ${rank} reported submit ${index} twice`);
    if (report.passes > 0) {
      if (!report.sums) throw new Error(`internal: rank ${rank} sampled ${report.passes} times in submit ${index} but sent no sums`);
      const t = performance.now();
      slot.global ??= this.spare.pop() ?? foldInput(SAMPLE_MOMENTS * this.species * this.nCells, this.fields);
      placeSums(report.sums, this.subdomains[rank], this.species, this.nCells, this.kase.grid.cells, slot.global);
      this.foldSeconds += (performance.now() - t) / 1000;
    }
    slot.reports[rank] = { ...report, sums: null };
    if (slot.reports.some((r) => r === undefined)) return null;
    this.pending.delete(index);
    const steps = this.merge(slot.reports as BatchReport[], slot.global);
    if (slot.global) this.spare.push(slot.global);
    return steps;
  }

  /** Sums one submit over the ranks and folds its sampling sums (already in global order). */
  private merge(reports: BatchReport[], global: Float32Array | null): StepStats[] {
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
        out.sent! += x.sent ?? 0;
        out.received! += x.received ?? 0;
        out.exchangeSeconds = Math.max(out.exchangeSeconds!, x.exchangeSeconds ?? 0);
        perRank.push(x.particlesAfter);
        this.rankSteps.push({ rank, step: x.step, particles: x.particlesAfter, sent: x.sent ?? 0, received: x.received ?? 0, waitSeconds: x.exchangeSeconds ?? 0 });
      });
      this.loadNonUniformity.push({ step: s.step, percent: loadNonUniformity(perRank) });
      return out;
    });
    reports.forEach((r, rank) => { this.particlesPerRank[rank] = r.particles; });
    const passes = reports[0].passes;
    if (passes > 0) {
      reports.forEach((r, rank) => {
        if (r.passes !== passes) throw new Error(`internal: rank ${rank} sampled ${r.passes} times in a submit where rank 0 sampled ${passes}`);
      });
      const t = performance.now();
      this.fields.add(global!, passes);
      this.fields.closeBlock(this.perBlock, false);
      this.foldSeconds += (performance.now() - t) / 1000;
    }
    this.stepStats.push(...steps);
    return steps;
  }

  /** The ranks' subdomains from the next submit on (after a rebalance). */
  setSubdomains(subdomains: Subdomain[]): void {
    this.subdomains = subdomains;
  }

  /** Closes the last batch-means block; call once after the last submit. */
  finish(): void {
    if (this.pending.size > 0) throw new Error(`internal: submits ${[...this.pending.keys()].join(', ')} did not arrive from every rank`);
    const t = performance.now();
    this.fields.closeBlock(this.perBlock, true);
    this.fields.releaseThreads();
    this.foldSeconds += (performance.now() - t) / 1000;
  }
}
