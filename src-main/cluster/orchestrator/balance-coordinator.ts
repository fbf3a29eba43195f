// The orchestrator's side of dynamic load balancing in a multi-rank run: after every submit it looks at the merged
// statistics' load non-uniformity; only when the Rebalancer wants a look (UN over the threshold, no back-off, a split
// could pay from the ranks' counts) does it check, in two rounds: every rank's counts per block of the coarse grid
// (which the ranks send after every submit: a few hundred kB), and only when the split found there pays, every rank's
// per-cell counts (`go` with cellState 'full'); then the new decomposition, if one pays (the ranks hand each other the
// collision state of the cells that change hands, cell-handover.ts, and move their particles).
// The ranks never wait for a decision: they take the `go` after submit k at the end of submit k + 1
// (solver/rank-balance.ts), so the orchestrator decides while their GPUs run a whole submit. A check on submit k's
// blocks asks for the cells in go(k), answered at the end of submit k + 1; the split goes in go(k + 1) and is taken at
// the end of submit k + 2. A checkpoint after submit k keeps go(k) (KeptGo): the ranks of a resumed run take it at the
// end of their first submit, so the resumed run checks and re-splits where the run left alone did.
import type { Case } from '../../common/case-schema.js';
import { redistributeSampleState } from '../../solver/field-accumulator.js';
import { SAMPLE_PARTS, partPlanes, sampleLayout, sampleStateOfFrames } from '../../solver/sample-buffers.js';
import { subdomainOf, type Subdomain } from '../../solver/subdomain.js';
import type { SolverTables } from '../../solver/tables.js';
import { RELAYOUT_ROUND_BYTES } from '../../solver/relayout-rounds.js';
import { frameAs } from '../transport/message-codec.js';
import type { OrchestratorChannel } from '../transport/orchestrator-channel.js';
import type { Decomposition } from '../decomposition/types.js';
import { boxCells } from '../decomposition/box.js';
import { Rebalancer, RESPLIT_FIXED_SECONDS, RESPLIT_PAY_MARGIN, relayoutCost, type CellState, type RelayoutCost, type RebalanceDecision, type RebalanceEvent, type RebalancePolicyState, type RebalanceProposal } from './rebalancer.js';
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

/**
 * What a go carries besides its index: a round to answer, or a new split; empty: go on as before. With it, what the
 * orchestrator keeps of it (not sent): the load a check goes by, the split the blocks proposed, the re-split's decision.
 */
interface GoContent {
  cellState?: 'full';
  roundBytes?: number;
  decision?: RebalanceDecision;
  load?: LoadNow;
  proposal?: RebalanceProposal;
}

/**
 * The go after a checkpoint's submit, kept in the checkpoint (the ranks take it at the end of the next submit): what
 * the ranks are sent (`go`, as solver/rank-balance.ts GoOrder) and what the orchestrator needs to go on from it (the
 * round's load or proposal, the re-split's event).
 */
export interface KeptGo {
  go: { decomposition: Decomposition | null; cellState?: 'full'; roundBytes?: number };
  load?: LoadNow;
  proposal?: RebalanceProposal;
  event?: RebalanceEvent;
}

/** A check's round: on submit index's blocks (sent by every rank after it), or the cells asked for in go(index); every rank's answer as it arrives. */
interface Round {
  index: number;
  kind: 'coarse' | 'full';
  /** coarse: the load the check goes by; full: the split the blocks proposed. */
  load?: LoadNow;
  proposal?: RebalanceProposal;
  list: unknown[];
}

/** A re-split sent in go(index), taken by the ranks at the end of submit `after` (index + 1). */
interface Layout {
  index: number;
  after: number;
  decomposition: Decomposition;
  subdomains: Subdomain[];
  oldSubdomains: Subdomain[];
  event: RebalanceEvent;
}

export class BalanceCoordinator {
  private readonly rebalancer: Rebalancer;
  /** Whether the run samples (its sampling state then follows the cells in a re-decomposition). */
  private readonly sampling: boolean;
  /** Seconds spent deciding and moving sampling state (the ranks' relayouts are timed by them). */
  seconds = 0;
  /**
   * Where the orchestrator's side of the checks went, seconds: gathering every rank's coarse counts and full cell state
   * (first arrival to last), proposing and committing a split, and answering the ranks with it.
   */
  readonly parts = { coarseGatherSeconds: 0, fullGatherSeconds: 0, proposeSeconds: 0, commitSeconds: 0, answerSeconds: 0, rehearsalSeconds: 0 };
  /** The submit at whose end the ranks take the last split sent (-2: none in this process). */
  private resplitAt = -2;
  /** When the first rank's answer of the round in progress arrived (performance.now(), ms). */
  private firstArrival = 0;
  /** Checks made (every rank's coarse counts asked for). */
  checks = 0;
  /** Checks whose coarse split paid by its estimate, so that every cell's count was asked for too. */
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
  /** The index of the next go to send (every go before it went out). */
  private next = 0;
  /** The last submit merged from every rank, and each merged submit's last step. */
  private mergedUpTo = -1;
  private readonly lastStepOf = new Map<number, number>();
  /** Merged submits that end with a checkpoint (it keeps the go after them), with that go's content once sent. */
  private readonly checkpointed = new Map<number, GoContent | null>();
  /** The round in progress, until every rank answered it; then its follow-up, the content of the next go. */
  private round: Round | null = null;
  /** The ranks' block sums after each submit not yet judged, by submit, as they arrive (those of judged submits are dropped). */
  private readonly blocks = new Map<number, (CoarseSums | undefined)[]>();
  private followUp: GoContent | null = null;
  /** Re-splits sent (the ranks took those up to the end of the last settled submit). */
  private readonly layouts: Layout[] = [];
  /** The last submit whose layout at its end is known (handed to afterDecision). */
  private settledUpTo = -1;
  /** The decomposition the run started with, and its subdomains. */
  private readonly initial: Decomposition;
  private readonly initialSubdomains: Subdomain[];
  /** The ranks' sampling states after a re-split, by the go's index, as they arrive. */
  private readonly sampleStates = new Map<number, (Uint8Array[] | undefined)[]>();

  /**
   * tables: the case's solver tables (built once by the run); afterDecision(index, decomposition, kept): called once the
   * layout at the end of submit `index` is known (the ranks write a checkpoint's files in it), in submit order, with the
   * go after it when the submit ends with a checkpoint (what the checkpoint keeps); events, policy and kept: the
   * re-decompositions, back-off and kept go of a resumed run's checkpoint; lastStep: the run's last step (a new layout
   * must pay for itself before it).
   */
  constructor(private readonly kase: Case, private readonly tables: SolverTables, d: Decomposition, thresholdPercent: number, private readonly assembler: RunAssembler, private readonly channel: OrchestratorChannel,
    private readonly afterDecision: (index: number, decomposition: Decomposition, kept: KeptGo | null) => void = () => undefined, events: RebalanceEvent[] = [], lastStep = Infinity,
    policy?: RebalancePolicyState, kept?: KeptGo | null) {
    // DSMC_BALANCE_COARSE_CELLS: the most blocks a check gathers (tests use a few hundred to check on coarse blocks of small grids)
    this.coarseCells = Number(process.env.DSMC_BALANCE_COARSE_CELLS) || undefined;
    const split = kept?.go.decomposition ?? null;
    this.rebalancer = new Rebalancer(split ?? d, thresholdPercent, split && kept?.event ? [...events, kept.event] : events, lastStep, policy, this.coarseCells, true);
    this.initial = d;
    this.initialSubdomains = assembler.rankSubdomains;
    this.sampling = kase.sampling.enabled;
    if (kept) this.resumeWith(kept);
    channel.on('cell-state', (m) => this.answered(m.rank, m.message.index, m.message.kind, m.frames));
    channel.on('sample-state', (m) => this.sampleStateIn(m.rank, m.message.index, m.frames));
  }

  /** A resumed run: the go its checkpoint kept went out under index -1 (the ranks have it from their configure payload). */
  private resumeWith(kept: KeptGo): void {
    const { go } = kept;
    if (go.cellState) this.round = { index: -1, kind: go.cellState, load: kept.load, proposal: kept.proposal, list: this.initial.boxes.map(() => undefined) };
    if (go.decomposition) {
      if (!kept.event) throw new Error('checkpoint: the kept re-split has no event (a damaged checkpoint); start the run again');
      const subdomains = go.decomposition.boxes.map((_, r) => subdomainOf(go.decomposition!, r));
      this.layouts.push({ index: -1, after: 0, decomposition: go.decomposition, subdomains, oldSubdomains: this.initialSubdomains, event: this.rebalancer.events[this.rebalancer.events.length - 1] });
      this.resplitAt = 0;
    }
  }

  /** The decomposition the ranks work on after the last settled submit. */
  get decomposition(): Decomposition {
    return this.decompositionAt(this.settledUpTo);
  }

  /** Cells per side of the blocks a check's first round gathers (1: the cells themselves). */
  get block(): number {
    return this.rebalancer.coarse.block;
  }

  /** The re-decomposition threshold (UN, percent). */
  get thresholdPercent(): number {
    return this.rebalancer.thresholdPercent;
  }

  /** Re-decompositions the ranks took by the end of the last settled submit (those of a resumed run's start among them). */
  get events(): RebalanceEvent[] {
    const pending = new Set(this.layouts.filter((l) => l.after > this.settledUpTo).map((l) => l.event));
    return this.rebalancer.events.filter((e) => !pending.has(e));
  }

  /** The checks' back-off (for checkpoints). */
  get policy(): RebalancePolicyState {
    return this.rebalancer.policy;
  }

  /**
   * What the ranks' adapters are: software ones (a moved particle then costs about one particle-step, counts balance) or
   * GPUs (time balances, unless ranks share a GPU: `sharedGpus`, counts balance).
   */
  setAdapters(software: boolean, sharedGpus = false): void {
    this.software = software;
    this.by = balanceByOf(software, undefined, sharedGpus);
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
   * Called when submit `index` (ending at step `lastStep`) has been merged from every rank, in order; `checkpoint`: it
   * ends with a checkpoint (which then keeps the go after it).
   */
  merged(index: number, lastStep: number, checkpoint = false): void {
    this.mergedUpTo = index;
    this.lastStepOf.set(index, lastStep);
    if (checkpoint) this.checkpointed.set(index, null);
    this.pump();
  }

  /**
   * Sends every go that can go out now (each needs its submit merged, and the round in progress answered: a check on
   * its submit's blocks, or the cells asked for in the go before), settling submits on the way.
   */
  private pump(): void {
    for (;;) {
      this.settle();
      if (this.next > this.mergedUpTo || this.round !== null) return;
      const index = this.next;
      let content = this.followUp;
      this.followUp = null;
      if (!content) {
        const load = this.checkWanted(index);
        if (load) {
          // a check on this submit's blocks: the go after it waits for every rank's sums (most are in already)
          this.round = { index, kind: 'coarse', load, list: this.blocks.get(index) ?? this.initial.boxes.map(() => undefined) };
          this.blocks.delete(index);
          this.firstArrival = performance.now();
          if (this.roundComplete()) continue;
          return;
        }
        content = {};
      }
      this.send(index, content);
      this.next += 1;
      for (const k of this.blocks.keys()) if (k < this.next) this.blocks.delete(k);
    }
  }

  /**
   * Hands afterDecision every merged submit whose layout at its end is known: the go before it is out (and, for a
   * checkpoint's submit, its own, which the checkpoint keeps).
   */
  private settle(): void {
    for (let k = this.settledUpTo + 1; k <= this.mergedUpTo; k++) {
      const checkpoint = this.checkpointed.has(k);
      if (this.next < (checkpoint ? k + 1 : k)) return;
      for (const l of this.layouts) {
        if (l.after !== k) continue;
        this.assembler.setSubdomains(l.subdomains);
        // the step after which the ranks re-split
        l.event.step = this.lastStepOf.get(k) ?? l.event.step;
      }
      this.settledUpTo = k;
      const content = this.checkpointed.get(k) ?? null;
      this.checkpointed.delete(k);
      this.afterDecision(k, this.decompositionAt(k), checkpoint ? this.keptOf(k, content ?? {}) : null);
    }
  }

  /** What a checkpoint after submit k keeps of go(k), sent with `content`. */
  private keptOf(k: number, content: GoContent): KeptGo {
    const layout = this.layouts.find((l) => l.index === k);
    const go = { decomposition: content.decision?.decomposition ?? null, cellState: content.cellState, roundBytes: content.roundBytes };
    return JSON.parse(JSON.stringify({ go, load: content.load, proposal: content.proposal, event: layout?.event })) as KeptGo;
  }

  /** The decomposition the ranks work on after submit `k` (by the re-splits sent so far). */
  private decompositionAt(k: number): Decomposition {
    let d = this.initial;
    for (const l of this.layouts) if (l.after <= k) d = l.decomposition;
    return d;
  }

  /**
   * Sends go(index) with `content` to every rank: a round asked for then waits for every rank's answer; a new split is
   * taken at the end of submit index + 1.
   */
  private send(index: number, content: GoContent): void {
    const ranks = this.initial.boxes.map((_, r) => r);
    const t0 = performance.now();
    const { decision, load: _load, proposal, ...sent } = content;
    if (this.checkpointed.has(index)) this.checkpointed.set(index, content);
    if (content.cellState) this.round = { index, kind: content.cellState, proposal, list: ranks.map(() => undefined) };
    if (decision) {
      const oldSubdomains = this.layouts.length > 0 ? this.layouts[this.layouts.length - 1].subdomains : this.initialSubdomains;
      this.layouts.push({ index, after: index + 1, decomposition: decision.decomposition, subdomains: decision.subdomains, oldSubdomains, event: this.rebalancer.events[this.rebalancer.events.length - 1] });
      this.resplitAt = index + 1;
    }
    // as plain JSON (the message's decomposition field)
    const d: unknown = decision ? JSON.parse(JSON.stringify(decision.decomposition)) : null;
    // with a split, what each rank sends each other by the counts it was made from: the ranks ready their links as the go arrives
    const ahead = decision ? { sendsTo: decision.sendsTo.map((row) => row.map((n) => Math.round(n))) } : {};
    for (const rank of ranks) void this.channel.send(rank, { type: 'go', index, decomposition: d as null, frameBytes: [], ...sent, ...ahead });
    if (decision) this.parts.answerSeconds += (performance.now() - t0) / 1000;
  }

  /** Whether to check on submit index's blocks (no round in flight): the load the check goes by, or null. */
  private checkWanted(index: number): LoadNow | null {
    const load = this.loadNow();
    // none until the ranks took the last split sent (their counts are about to change); by time, neither the first
    // submit nor the one after a re-split is judged (settledSubmit)
    const unsettled = index <= this.resplitAt || (load.points !== null && !settledSubmit(index, this.resplitAt));
    // no check where no split could pay for its moves over the steps left after it would be taken (decided from the
    // ranks' loads alone): the cells' round and the split go a submit apart
    const at = load.step + 2 * this.assembler.lastSubmit.steps;
    if (unsettled || !this.rebalancer.wants(load.percent) || !this.rebalancer.mayPay(at, load.loads, this.costNow(load), load.points === null)) return null;
    this.checks += 1;
    return { ...load, step: at };
  }

  /** Notes when the first answer of a gathering round (`list`, none arrived yet) came. */
  private arrivedFirst(list: readonly unknown[]): void {
    if (list.every((x) => x === undefined)) this.firstArrival = performance.now();
  }

  /**
   * A rank's cell state: its block sums after submit `index` (every submit), or its cells' counts asked for in
   * go(index); kept for the round they belong to, dropped when none wants them.
   */
  private answered(rank: number, index: number, kind: 'coarse' | 'full', frames: readonly Uint8Array[]): void {
    if (frames.length !== 1) throw new Error(`rank ${rank} sent ${frames.length} frames of ${kind} cell state after submit ${index}; one was expected`);
    const round = this.round;
    if (kind === 'coarse') {
      const g = this.rebalancer.coarse.grid;
      const sums = unpackCoarseSums(frameAs(frames[0], Uint32Array), g[0] * g[1] * g[2]);
      if (round?.kind === 'coarse' && round.index === index) {
        this.arrivedFirst(round.list);
        round.list[rank] = sums;
      } else if (index >= this.next) {
        // a submit not judged yet: kept until its go is decided
        const list = this.blocks.get(index) ?? this.initial.boxes.map(() => undefined);
        list[rank] = sums;
        this.blocks.set(index, list);
        return;
      } else {
        return;
      }
    } else {
      if (round?.kind !== 'full' || round.index !== index) return; // not asked for: validated and dropped
      this.arrivedFirst(round.list);
      round.list[rank] = { counts: frameAs(frames[0], Uint32Array) };
    }
    if (this.roundComplete()) this.pump();
  }

  /** When every rank answered the round in progress: its follow-up made (the next go's content); false while answers are missing. */
  private roundComplete(): boolean {
    const round = this.round;
    if (!round || round.list.some((x) => x === undefined)) return false;
    const gathered = (performance.now() - this.firstArrival) / 1000;
    this.round = null;
    if (round.kind === 'coarse') {
      this.parts.coarseGatherSeconds += gathered;
      this.followUp = this.propose(round.load!, round.list as CoarseSums[]);
    } else {
      this.parts.fullGatherSeconds += gathered;
      this.followUp = this.decide(round.proposal!, round.list as CellState[]);
    }
    return true;
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
    // the boxes the ranks ran the last submit on
    const boxes = this.decompositionAt(this.mergedUpTo - 1).boxes;
    const points = boxes.map((b, r) => ({ seconds: last.gpuSeconds[r] / last.steps, particles: last.particleSteps[r] / last.steps, cells: boxCells(b) }));
    return { step: un.step, percent: timed.un, loads: timed.loads, points, perSecond: timed.perSecond };
  }

  /** Balancing by time: the cells' prices fitted with this check's points (the ranks' sums of squared counts from `coarse`); undefined: counts. */
  private pricesNow(load: LoadNow, coarse: readonly CoarseSums[]): CellPrices | undefined {
    if (!load.points) return undefined;
    const points = load.points.map((p, r) => ({ ...p, squares: coarse[r].squares.reduce((a, b) => a + b, 0) }));
    return this.costModel.add(points) ?? undefined;
  }

  /**
   * The first round of a check, with every rank's coarse counts: the full round's request, or nothing (load.step is
   * where a split would be taken: the steps it could save follow it).
   */
  private propose(load: LoadNow, coarse: CoarseSums[]): GoContent {
    const t0 = performance.now();
    const proposal = this.rebalancer.propose(load.step, load.percent, coarse, this.costNow(load), this.pricesNow(load, coarse));
    this.seconds += (performance.now() - t0) / 1000;
    this.parts.proposeSeconds += (performance.now() - t0) / 1000;
    if (!proposal) return {};
    this.fullChecks += 1;
    return { cellState: 'full', proposal };
  }

  /**
   * What a relayout would cost now: once sampling has begun its whole state moves through the orchestrator, priced as
   * that many bytes of migrants; by time, with the re-split's fixed seconds at the ranks' measured speed; a split must
   * save RESPLIT_PAY_MARGIN times that.
   */
  private costNow(load: LoadNow): RelayoutCost {
    const sampled = this.sampling && this.assembler.fields.samples > 0;
    const cost = { ...relayoutCost(this.software, sampled ? sampleStateBytes(this.tables) / (4 * this.tables.migrantWords) : 0), margin: RESPLIT_PAY_MARGIN };
    return load.perSecond === undefined ? cost : { ...cost, fixedSteps: RESPLIT_FIXED_SECONDS * load.perSecond };
  }

  /** The second round of a check, with every rank's cell counts: the new split (sent in the next go), or nothing. */
  private decide(proposal: RebalanceProposal, list: CellState[]): GoContent {
    const t0 = performance.now();
    const decision = this.rebalancer.commit(proposal, list);
    this.seconds += (performance.now() - t0) / 1000;
    this.parts.commitSeconds += (performance.now() - t0) / 1000;
    return decision ? { decision, roundBytes: this.roundBytes } : {};
  }

  /**
   * Sampling runs, after a re-split sent in go(index): every rank's sampling state of its old cells in; once all are,
   * each rank's new cells' state out.
   */
  private sampleStateIn(rank: number, index: number, frames: readonly Uint8Array[]): void {
    const layout = this.layouts.find((l) => l.index === index);
    if (!layout) throw new Error(`rank ${rank} sent its sampling state for the go after submit ${index}, which carried no new split`);
    const list = this.sampleStates.get(index) ?? layout.subdomains.map(() => undefined);
    this.sampleStates.set(index, list);
    list[rank] = [...frames];
    if (list.some((x) => x === undefined)) return;
    this.sampleStates.delete(index);
    const t0 = performance.now();
    const states = list.map((f) => sampleStateOfFrames(f!));
    const next = redistributeSampleState(this.kase, this.tables, states, layout.oldSubdomains, layout.subdomains);
    this.seconds += (performance.now() - t0) / 1000;
    layout.subdomains.forEach((_, r) => {
      const out = SAMPLE_PARTS.map((p) => next[r][p]);
      void this.channel.send(r, { type: 'sample-state', index, frameBytes: out.map((f) => f.byteLength) }, out);
    });
  }
}
