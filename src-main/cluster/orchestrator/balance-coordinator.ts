// The orchestrator's side of dynamic load balancing in a multi-rank run: after every submit it looks at the merged
// statistics' load non-uniformity; only when the Rebalancer wants a look (UN over the threshold, no back-off, a split
// could pay from the ranks' counts) does it check, in two rounds: every rank's counts per block of the coarse grid
// (`go` with cellState 'coarse'), and only when the split found there pays, every rank's per-cell counts ('full'); it
// answers each rank with `go` (and the new decomposition when the grid was re-decomposed; the ranks then hand each
// other the collision state of the cells that change hands, cell-handover.ts).
import type { Case } from '../../common/case-schema.js';
import { redistributeSampleState } from '../../solver/field-accumulator.js';
import { SAMPLE_PARTS, partPlanes, sampleLayout, sampleStateOfFrames } from '../../solver/sample-buffers.js';
import type { Subdomain } from '../../solver/subdomain.js';
import type { SolverTables } from '../../solver/tables.js';
import { RELAYOUT_ROUND_BYTES } from '../../solver/relayout-rounds.js';
import { frameAs } from '../transport/message-codec.js';
import type { OrchestratorChannel } from '../transport/orchestrator-channel.js';
import type { Decomposition } from '../decomposition/types.js';
import { boxCells } from '../decomposition/box.js';
import { Rebalancer, RESPLIT_FIXED_SECONDS, relayoutCost, type CellState, type RelayoutCost, type RebalanceEvent, type RebalancePolicyState, type RebalanceProposal } from './rebalancer.js';
import type { RunAssembler } from './run-assembler.js';
import { balanceByOf, CostModel, settledSubmit, timeLoadsOf, type BalanceBy, type CellPrices, type CostPoint } from './rank-cost.js';
import { unpackCoarseSums, type CoarseSums } from '../decomposition/coarse-grid.js';
import { rehearseDecision, type Rehearsal } from './decision-warm-up.js';

/**
 * What a check after a submit goes by: its step, the UN (of GPU time or particles), the ranks' loads (particles, or
 * their GPU seconds in particle-equivalents), and by time the points of the cost model but for the ranks' sums of
 * squared counts (which the check's first round brings); null points: counts.
 */
interface LoadNow {
  step: number;
  percent: number;
  loads: number[];
  points: Omit<CostPoint, 'squares'>[] | null;
  /** By time: the ranks' particle-steps per GPU second (what a second of a re-split's fixed cost is worth). */
  perSecond?: number;
}

/** Bytes of the whole grid's sampling state (every part's planes, 4 bytes a value). */
function sampleStateBytes(t: SolverTables): number {
  const layout = sampleLayout(t);
  return 4 * t.nCells * SAMPLE_PARTS.reduce((sum, p) => sum + partPlanes(p, layout), 0);
}

export class BalanceCoordinator {
  private readonly rebalancer: Rebalancer;
  /** Coarse counts asked for after a submit (first round), by submit index, as they arrive, with the load the check goes by. */
  private readonly coarse = new Map<number, { load: LoadNow; list: (CoarseSums | undefined)[] }>();
  /** Cell states asked for after a submit (second round, with the split proposed), by submit index, as they arrive. */
  private readonly states = new Map<number, { proposal: RebalanceProposal; list: (CellState | undefined)[] }>();
  /** Whether the run samples (its sampling state then follows the cells in a re-decomposition). */
  private readonly sampling: boolean;
  /** Seconds spent deciding and moving sampling state (the ranks' relayouts are timed by them). */
  seconds = 0;
  /**
   * Where the orchestrator's side of the checks went, seconds: gathering every rank's coarse counts and full cell state
   * (first arrival to last), proposing and committing a split, and answering the ranks with it (the frames sent).
   */
  readonly parts = { coarseGatherSeconds: 0, fullGatherSeconds: 0, proposeSeconds: 0, commitSeconds: 0, answerSeconds: 0, rehearsalSeconds: 0 };
  /** The submit after which the grid was last re-split (-2: none yet in this process). */
  private resplitAt = -2;
  /** When the first rank's cell state of the check in progress arrived (performance.now(), ms). */
  private firstArrival = 0;
  /** Checks made (every rank's coarse counts gathered). */
  checks = 0;
  /** Checks whose coarse split paid by its estimate, so that every cell's state was gathered too. */
  fullChecks = 0;
  /** Whether the ranks run on software adapters (a moved particle then costs about one particle-step; set once they said hello). */
  software = false;
  /** Bytes of migrant records per relayout round, from the ranks' smallest binding (set once they said hello). */
  roundBytes = RELAYOUT_ROUND_BYTES;
  /** Whether re-splits weigh the cells by measured time or by counts alone (set once the ranks said hello: setAdapters). */
  by: BalanceBy = 'particles';
  /** Balancing by time: the cost model fitted at the checks (its last prices: what the run summary shows). */
  readonly costModel = new CostModel();
  /** The most blocks a check gathers (DSMC_BALANCE_COARSE_CELLS), undefined: the default. */
  private readonly coarseCells: number | undefined;

  /**
   * tables: the case's solver tables (built once by the run); afterDecision(index): called once the decision after submit `index` is made (before the ranks hear it), with the
   * decomposition in force from then on; events and policy: re-decompositions and back-off of the run before a resume;
   * lastStep: the run's last step (a new layout must pay for itself before it).
   */
  constructor(private readonly kase: Case, private readonly tables: SolverTables, d: Decomposition, thresholdPercent: number, private readonly assembler: RunAssembler, private readonly channel: OrchestratorChannel,
    private readonly afterDecision: (index: number) => void = () => undefined, events: RebalanceEvent[] = [], lastStep = Infinity, policy?: RebalancePolicyState) {
    // DSMC_BALANCE_COARSE_CELLS: the most blocks a check gathers (tests use a few hundred to check on coarse blocks of small grids)
    this.coarseCells = Number(process.env.DSMC_BALANCE_COARSE_CELLS) || undefined;
    this.rebalancer = new Rebalancer(d, thresholdPercent, events, lastStep, policy, this.coarseCells);
    this.sampling = kase.sampling.enabled;
    channel.on('cell-state', (m) => {
      const index = m.message.index;
      const coarse = this.coarse.get(index);
      if (coarse) {
        if (m.frames.length !== 1) throw new Error(`rank ${m.rank} sent ${m.frames.length} frames of cell state after submit ${index}; its coarse counts were asked for`);
        this.arrived(coarse.list);
        const g = this.rebalancer.coarse.grid;
        coarse.list[m.rank] = unpackCoarseSums(frameAs(m.frames[0], Uint32Array), g[0] * g[1] * g[2]);
        if (coarse.list.every((c) => c !== undefined)) {
          this.parts.coarseGatherSeconds += (performance.now() - this.firstArrival) / 1000;
          void this.propose(index, coarse.load, coarse.list as CoarseSums[]);
        }
        return;
      }
      const full = this.states.get(index);
      if (!full) return; // not asked for: validated and dropped
      this.arrived(full.list);
      if (m.frames.length !== 1) throw new Error(`rank ${m.rank} sent ${m.frames.length} frames of cell state after submit ${index}; its cell counts were asked for`);
      full.list[m.rank] = { counts: frameAs(m.frames[0], Uint32Array) };
      if (full.list.every((s) => s !== undefined)) {
        this.parts.fullGatherSeconds += (performance.now() - this.firstArrival) / 1000;
        void this.decide(index, full.proposal, full.list as CellState[]);
      }
    });
  }

  /** Notes when the first answer of a gathering round (`list`, none arrived yet) came. */
  private arrived(list: readonly unknown[]): void {
    if (list.every((x) => x === undefined)) this.firstArrival = performance.now();
  }

  /** The decomposition in force. */
  get decomposition(): Decomposition {
    return this.rebalancer.decomposition;
  }

  /** Cells per side of the blocks a check's first round gathers (1: the cells themselves). */
  get block(): number {
    return this.rebalancer.coarse.block;
  }

  /** The re-decomposition threshold (UN, percent). */
  get thresholdPercent(): number {
    return this.rebalancer.thresholdPercent;
  }

  /** Re-decompositions so far. */
  get events(): RebalanceEvent[] {
    return this.rebalancer.events;
  }

  /** The checks' back-off (for checkpoints). */
  get policy(): RebalancePolicyState {
    return this.rebalancer.policy;
  }

  /** What the ranks' adapters are: software ones (a moved particle then costs about one particle-step, counts balance) or GPUs (time balances). */
  setAdapters(software: boolean): void {
    this.software = software;
    this.by = balanceByOf(software);
  }

  /**
   * Rehearses a re-split decision on made-up counts over the run's grid and split, so that the first real check runs
   * compiled code on touched memory (decision-warm-up.ts); called while the ranks set up, once their adapters are known
   * (by time or by counts). Its seconds are `parts.rehearsalSeconds`, outside the loop.
   */
  rehearse(): Rehearsal {
    const r = rehearseDecision(this.rebalancer.decomposition, this.by === 'time', this.coarseCells);
    this.parts.rehearsalSeconds += r.seconds;
    return r;
  }

  /**
   * The non-uniformity a check after the last merged submit goes by and the ranks' loads: by time (every rank timed) of
   * their GPU seconds, with the cost model's points; else of their particles.
   */
  private loadNow(): LoadNow {
    const un = this.assembler.loadNonUniformity[this.assembler.loadNonUniformity.length - 1];
    const last = this.assembler.lastSubmit;
    const timed = this.by === 'time' ? timeLoadsOf(last.gpuSeconds, last.particleSteps, last.steps) : null;
    if (!timed) return { step: un.step, percent: un.percent, loads: [...this.assembler.particlesPerRank], points: null };
    const boxes = this.rebalancer.decomposition.boxes;
    const points = boxes.map((b, r) => ({ seconds: last.gpuSeconds[r] / last.steps, particles: last.particleSteps[r] / last.steps, cells: boxCells(b) }));
    return { step: un.step, percent: timed.un, loads: timed.loads, points, perSecond: timed.perSecond };
  }

  /** Balancing by time: the cells' prices fitted with this check's points (the ranks' sums of squared counts from `coarse`); undefined: counts. */
  private pricesNow(load: LoadNow, coarse: readonly CoarseSums[]): CellPrices | undefined {
    if (!load.points) return undefined;
    const points = load.points.map((p, r) => ({ ...p, squares: coarse[r].squares.reduce((a, b) => a + b, 0) }));
    return this.costModel.add(points) ?? undefined;
  }

  /** Called when submit `index` has been merged from every rank: go on at once, or ask for the cell states first. */
  merged(index: number): void {
    const load = this.loadNow();
    const ranks = this.rebalancer.decomposition.boxes.map((_, r) => r);
    // by time, the first submit and the one after a re-split are not judged (settledSubmit)
    const unsettled = load.points !== null && !settledSubmit(index, this.resplitAt);
    // no check where no split could pay for its moves over the steps left (decided from the ranks' loads alone)
    if (unsettled || !this.rebalancer.wants(load.percent) || !this.rebalancer.mayPay(load.step, load.loads, this.costNow(load), load.points === null)) {
      this.afterDecision(index);
      for (const rank of ranks) void this.channel.send(rank, { type: 'go', index, decomposition: null, frameBytes: [] });
      return;
    }
    this.checks += 1;
    this.coarse.set(index, { load, list: new Array(ranks.length).fill(undefined) });
    const block = this.rebalancer.coarse.block;
    for (const rank of ranks) void this.channel.send(rank, { type: 'go', index, decomposition: null, cellState: 'coarse', block, frameBytes: [] });
  }

  /** The first round of a check after submit `index`, with every rank's coarse counts: go on, or ask for every cell's state. */
  private propose(index: number, load: LoadNow, coarse: CoarseSums[]): void {
    const t0 = performance.now();
    this.coarse.delete(index);
    const proposal = this.rebalancer.propose(load.step, load.percent, coarse, this.costNow(load), this.pricesNow(load, coarse));
    this.seconds += (performance.now() - t0) / 1000;
    this.parts.proposeSeconds += (performance.now() - t0) / 1000;
    const ranks = coarse.map((_, r) => r);
    if (!proposal) {
      this.afterDecision(index);
      for (const rank of ranks) void this.channel.send(rank, { type: 'go', index, decomposition: null, frameBytes: [] });
      return;
    }
    this.fullChecks += 1;
    this.states.set(index, { proposal, list: new Array(ranks.length).fill(undefined) });
    // with the relayout the blocks' split would make, so that each rank readies its staging while the split is decided
    const { sendsTo } = proposal;
    for (const rank of ranks) {
      void this.channel.send(rank, {
        type: 'go', index, decomposition: null, cellState: 'full', frameBytes: [], roundBytes: this.roundBytes,
        expectedSendsTo: sendsTo[rank], expectedReceivesFrom: sendsTo.map((row) => row[rank]),
      });
    }
  }

  /**
   * What a relayout would cost now: once sampling has begun its whole state moves through the orchestrator, priced as
   * that many bytes of migrants; by time, with the re-split's fixed seconds at the ranks' measured speed.
   */
  private costNow(load: LoadNow): RelayoutCost {
    const sampled = this.sampling && this.assembler.fields.samples > 0;
    const cost = relayoutCost(this.software, sampled ? sampleStateBytes(this.tables) / (4 * this.tables.migrantWords) : 0);
    return load.perSecond === undefined ? cost : { ...cost, fixedSteps: RESPLIT_FIXED_SECONDS * load.perSecond };
  }

  /** Decides after submit `index` on the proposed split with every rank's cell state, and answers every rank. */
  private async decide(index: number, proposal: RebalanceProposal, list: CellState[]): Promise<void> {
    const t0 = performance.now();
    this.states.delete(index);
    const sampled = this.sampling && this.assembler.fields.samples > 0;
    const decision = this.rebalancer.commit(proposal, list);
    const oldSubs = this.assembler.rankSubdomains;
    if (decision) {
      this.assembler.setSubdomains(decision.subdomains);
      this.resplitAt = index;
    }
    // the sampling state follows the cells once there is any (before the first sampling pass the new cells start at zero)
    const moveSamples = sampled;
    this.afterDecision(index);
    const tAnswer = performance.now();
    this.seconds += (tAnswer - t0) / 1000;
    this.parts.commitSeconds += (tAnswer - t0) / 1000;
    await Promise.all(list.map((_, rank) => {
      if (!decision) return this.channel.send(rank, { type: 'go', index, decomposition: null, frameBytes: [] });
      // the cells' collision state the ranks hand each other (cell-handover.ts)
      return this.channel.send(rank, {
        type: 'go', index, decomposition: JSON.parse(JSON.stringify(decision.decomposition)), largest: decision.largest, maxSend: decision.maxSend, sampleState: moveSamples, roundBytes: this.roundBytes,
        relayoutSendsTo: decision.sendsTo[rank], relayoutReceivesFrom: decision.sendsTo.map((row) => row[rank]),
        frameBytes: [],
      });
    }));
    this.parts.answerSeconds += (performance.now() - tAnswer) / 1000;
    if (decision && moveSamples) await this.moveSampleState(index, oldSubs, decision.subdomains);
  }

  /** Sampling runs, after a re-decomposition: every rank's sampling state in (old cells), each rank's new cells' state out. */
  private async moveSampleState(index: number, oldSubs: Subdomain[], newSubs: Subdomain[]): Promise<void> {
    const ranks = oldSubs.map((_, r) => r);
    const got = await this.channel.collect('sample-state', ranks, 600_000);
    const t0 = performance.now();
    const states = ranks.map((r) => {
      const m = got.get(r)!;
      if (m.message.index !== index) throw new Error(`rank ${r} sent the sampling state of submit ${m.message.index} after submit ${index}`);
      return sampleStateOfFrames(m.frames);
    });
    const next = redistributeSampleState(this.kase, this.tables, states, oldSubs, newSubs);
    this.seconds += (performance.now() - t0) / 1000;
    await Promise.all(ranks.map((r) => {
      const frames = SAMPLE_PARTS.map((p) => next[r][p]);
      return this.channel.send(r, { type: 'sample-state', index, frameBytes: frames.map((f) => f.byteLength) }, frames);
    }));
  }
}
