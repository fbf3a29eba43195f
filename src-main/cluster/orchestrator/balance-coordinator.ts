// The orchestrator's side of dynamic load balancing in a multi-rank run: after every submit it waits for
// the merged statistics and every rank's per-cell state, asks the Rebalancer, and answers each rank with
// `go` (and the new decomposition plus the rank's new per-cell state when the grid was re-decomposed).
import type { Case } from '../../common/case-schema.js';
import { redistributeSampleState } from '../../solver/field-accumulator.js';
import { SAMPLE_PARTS, sampleStateOfFrames } from '../../solver/sample-buffers.js';
import type { Subdomain } from '../../solver/subdomain.js';
import { buildTables, type SolverTables } from '../../solver/tables.js';
import { frameAs } from '../transport/message-codec.js';
import type { OrchestratorChannel } from '../transport/orchestrator-channel.js';
import type { Decomposition } from '../decomposition/types.js';
import { Rebalancer, type CellState } from './rebalancer.js';
import type { RunAssembler } from './run-assembler.js';

export class BalanceCoordinator {
  private readonly rebalancer: Rebalancer;
  private readonly states = new Map<number, (CellState | undefined)[]>();
  private readonly mergedIndices = new Set<number>();
  private readonly tables: SolverTables;
  /** Whether the run samples (its sampling state then follows the cells in a re-decomposition). */
  private readonly sampling: boolean;

  /**
   * afterDecision(index): called once the decision after submit `index` is made (before the ranks hear it), with the
   * decomposition in force from then on; events: re-decompositions of the run before a resume.
   */
  constructor(private readonly kase: Case, d: Decomposition, thresholdPercent: number, private readonly assembler: RunAssembler, private readonly channel: OrchestratorChannel,
    private readonly afterDecision: (index: number) => void = () => undefined, events: { step: number; unBefore: number }[] = []) {
    this.rebalancer = new Rebalancer(d, thresholdPercent, events);
    this.tables = buildTables(kase);
    this.sampling = kase.sampling.enabled;
    channel.on('cell-state', (m) => {
      const [counts, sigma, remainder] = m.frames;
      const list = this.states.get(m.message.index) ?? new Array(d.boxes.length).fill(undefined);
      list[m.rank] = { counts: frameAs(counts, Uint32Array), sigmaCrMax: frameAs(sigma, Float32Array), remainder: frameAs(remainder, Float32Array) };
      this.states.set(m.message.index, list);
      void this.tryDecide(m.message.index);
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
  get events(): { step: number; unBefore: number }[] {
    return this.rebalancer.events;
  }

  /** Called when submit `index` has been merged from every rank. */
  merged(index: number): void {
    this.mergedIndices.add(index);
    void this.tryDecide(index);
  }

  /** Decides after submit `index` once its statistics and every rank's cell state are in, and answers every rank. */
  private async tryDecide(index: number): Promise<void> {
    const list = this.states.get(index);
    if (!this.mergedIndices.has(index) || !list || list.some((s) => s === undefined)) return;
    this.states.delete(index);
    this.mergedIndices.delete(index);
    const un = this.assembler.loadNonUniformity[this.assembler.loadNonUniformity.length - 1];
    const decision = this.rebalancer.decide(un.step, un.percent, list as CellState[]);
    const oldSubs = this.assembler.rankSubdomains;
    if (decision) this.assembler.setSubdomains(decision.subdomains);
    this.afterDecision(index);
    await Promise.all(list.map((_, rank) => {
      if (!decision) return this.channel.send(rank, { type: 'go', index, decomposition: null, frameBytes: [] });
      const frames = [decision.sigmaCrMax[rank], decision.remainder[rank]];
      return this.channel.send(rank, { type: 'go', index, decomposition: JSON.parse(JSON.stringify(decision.decomposition)), frameBytes: frames.map((f) => f.byteLength) }, frames);
    }));
    if (decision && this.sampling) await this.moveSampleState(index, oldSubs, decision.subdomains);
  }

  /** Sampling runs, after a re-decomposition: every rank's sampling state in (old cells), each rank's new cells' state out. */
  private async moveSampleState(index: number, oldSubs: Subdomain[], newSubs: Subdomain[]): Promise<void> {
    const ranks = oldSubs.map((_, r) => r);
    const got = await this.channel.collect('sample-state', ranks, 600_000);
    const states = ranks.map((r) => {
      const m = got.get(r)!;
      if (m.message.index !== index) throw new Error(`rank ${r} sent the sampling state of submit ${m.message.index} after submit ${index}`);
      return sampleStateOfFrames(m.frames);
    });
    const next = redistributeSampleState(this.kase, this.tables, states, oldSubs, newSubs);
    await Promise.all(ranks.map((r) => {
      const frames = SAMPLE_PARTS.map((p) => next[r][p]);
      return this.channel.send(r, { type: 'sample-state', index, frameBytes: frames.map((f) => f.byteLength) }, frames);
    }));
  }
}
