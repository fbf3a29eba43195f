// The orchestrator's side of dynamic load balancing in a multi-rank run: after every submit it looks at the merged
// statistics' load non-uniformity; only when the Rebalancer wants a look (UN over the threshold, no back-off) does it
// ask every rank for its per-cell state (`go` with cellState) and decide; it answers each rank with `go` (and the new
// decomposition plus the rank's new per-cell state when the grid was re-decomposed).
import type { Case } from '../../common/case-schema.js';
import { redistributeSampleState } from '../../solver/field-accumulator.js';
import { SAMPLE_PARTS, partPlanes, sampleLayout, sampleStateOfFrames } from '../../solver/sample-buffers.js';
import type { Subdomain } from '../../solver/subdomain.js';
import type { SolverTables } from '../../solver/tables.js';
import { RELAYOUT_ROUND_BYTES } from '../../solver/relayout-rounds.js';
import { frameAs } from '../transport/message-codec.js';
import type { OrchestratorChannel } from '../transport/orchestrator-channel.js';
import type { Decomposition } from '../decomposition/types.js';
import { Rebalancer, relayoutCost, type CellState, type RebalanceEvent, type RebalancePolicyState } from './rebalancer.js';
import type { RunAssembler } from './run-assembler.js';

/** Bytes of the whole grid's sampling state (every part's planes, 4 bytes a value). */
function sampleStateBytes(t: SolverTables): number {
  const layout = sampleLayout(t);
  return 4 * t.nCells * SAMPLE_PARTS.reduce((sum, p) => sum + partPlanes(p, layout), 0);
}

export class BalanceCoordinator {
  private readonly rebalancer: Rebalancer;
  /** Cell states asked for after a submit, by submit index, as they arrive. */
  private readonly states = new Map<number, (CellState | undefined)[]>();
  /** Whether the run samples (its sampling state then follows the cells in a re-decomposition). */
  private readonly sampling: boolean;
  /** Seconds spent deciding and moving sampling state (the ranks' relayouts are timed by them). */
  seconds = 0;
  /** Times the ranks' cell counts were gathered. */
  checks = 0;
  /** Whether the ranks run on software adapters (a moved particle then costs about one particle-step; set once they said hello). */
  software = false;
  /** Bytes of migrant records per relayout round, from the ranks' smallest binding (set once they said hello). */
  roundBytes = RELAYOUT_ROUND_BYTES;

  /**
   * tables: the case's solver tables (built once by the run); afterDecision(index): called once the decision after submit `index` is made (before the ranks hear it), with the
   * decomposition in force from then on; events and policy: re-decompositions and back-off of the run before a resume;
   * lastStep: the run's last step (a new layout must pay for itself before it).
   */
  constructor(private readonly kase: Case, private readonly tables: SolverTables, d: Decomposition, thresholdPercent: number, private readonly assembler: RunAssembler, private readonly channel: OrchestratorChannel,
    private readonly afterDecision: (index: number) => void = () => undefined, events: RebalanceEvent[] = [], lastStep = Infinity, policy?: RebalancePolicyState) {
    this.rebalancer = new Rebalancer(d, thresholdPercent, events, lastStep, policy);
    this.sampling = kase.sampling.enabled;
    channel.on('cell-state', (m) => {
      const list = this.states.get(m.message.index);
      if (!list) return; // not asked for: validated and dropped
      const [counts, sigma, remainder] = m.frames;
      list[m.rank] = { counts: frameAs(counts, Uint32Array), sigmaCrMax: frameAs(sigma, Float32Array), remainder: frameAs(remainder, Float32Array) };
      if (list.every((s) => s !== undefined)) void this.decide(m.message.index, list as CellState[]);
    });
  }

  /** The decomposition in force. */
  get decomposition(): Decomposition {
    return this.rebalancer.decomposition;
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

  /** Called when submit `index` has been merged from every rank: go on at once, or ask for the cell states first. */
  merged(index: number): void {
    const un = this.assembler.loadNonUniformity[this.assembler.loadNonUniformity.length - 1];
    const ranks = this.rebalancer.decomposition.boxes.map((_, r) => r);
    // no check where no split could pay for its moves over the steps left (decided from the ranks' counts alone)
    if (!this.rebalancer.wants(un.percent) || !this.rebalancer.mayPay(un.step, this.assembler.particlesPerRank, this.costNow())) {
      this.afterDecision(index);
      for (const rank of ranks) void this.channel.send(rank, { type: 'go', index, decomposition: null, frameBytes: [] });
      return;
    }
    this.checks += 1;
    this.states.set(index, new Array(ranks.length).fill(undefined));
    for (const rank of ranks) void this.channel.send(rank, { type: 'go', index, decomposition: null, cellState: true, frameBytes: [] });
  }

  /** What a relayout would cost now: once sampling has begun its whole state moves through the orchestrator, priced as that many bytes of migrants. */
  private costNow() {
    const sampled = this.sampling && this.assembler.fields.samples > 0;
    return relayoutCost(this.software, sampled ? sampleStateBytes(this.tables) / (4 * this.tables.migrantWords) : 0);
  }

  /** Decides after submit `index` with every rank's cell state, and answers every rank. */
  private async decide(index: number, list: CellState[]): Promise<void> {
    const t0 = performance.now();
    this.states.delete(index);
    const un = this.assembler.loadNonUniformity[this.assembler.loadNonUniformity.length - 1];
    const sampled = this.sampling && this.assembler.fields.samples > 0;
    const decision = this.rebalancer.decide(un.step, un.percent, list, this.costNow());
    const oldSubs = this.assembler.rankSubdomains;
    if (decision) this.assembler.setSubdomains(decision.subdomains);
    // the sampling state follows the cells once there is any (before the first sampling pass the new cells start at zero)
    const moveSamples = sampled;
    this.afterDecision(index);
    this.seconds += (performance.now() - t0) / 1000;
    await Promise.all(list.map((_, rank) => {
      if (!decision) return this.channel.send(rank, { type: 'go', index, decomposition: null, frameBytes: [] });
      const frames = [decision.sigmaCrMax[rank], decision.remainder[rank]];
      return this.channel.send(rank, {
        type: 'go', index, decomposition: JSON.parse(JSON.stringify(decision.decomposition)), largest: decision.largest, maxSend: decision.maxSend, sampleState: moveSamples, roundBytes: this.roundBytes,
        frameBytes: frames.map((f) => f.byteLength),
      }, frames);
    }));
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
