// A rank's side of dynamic load balancing (orchestrator/balance-coordinator.ts): at the end of submit k it sends its
// counts per block of the coarse grid (what a check's first round goes by: a few hundred kB, summed on the GPU) and
// takes the orchestrator's `go` after submit k - 1, which the orchestrator decided while this submit ran, so the GPU
// never waits for a decision. A go asks for every cell's count (a check's second round), which the rank sends before
// it goes on, or carries a new split, which the rank takes at once: its sampling state through the orchestrator (once
// sampling has begun), the cells' collision state and its particle counts traded with the other ranks, then the
// relayout. A resumed run's ranks take the go its checkpoint kept (the one after the checkpoint's submit) at the end
// of their first submit, as the run left alone would have.
import { handedOver } from '../cluster/transport/message-codec.js';
import type { RankChannel } from '../cluster/transport/rank-channel.js';
import type { Decomposition } from '../cluster/decomposition/types.js';
import type { Simulation } from './loop.js';
import { SAMPLE_PARTS, sampleStateOfFrames, type SampleState } from './sample-buffers.js';
import { parseDecomposition } from './rank-payload.js';
import { subdomainOf } from './subdomain.js';
import { stepTimeline } from './step-timeline.js';
import { CELL_STATE_EXCHANGE, betweenSteps } from './exchange-sequence.js';
import { tradeCollisionState } from './cell-state-trade.js';

/** What a go asks of a rank (the message's fields this side reads). */
export interface GoOrder {
  decomposition: unknown;
  cellState?: 'full';
  roundBytes?: number;
  sendsTo?: number[][];
}

/** How long a rank waits for the orchestrator's go or sampling state (ms). */
const ANSWER_TIMEOUT_MS = 600_000;

/**
 * Where a rank's balancing seconds went: waiting for a go, the block sums after every submit, checks (every cell's count
 * read and sent), sampling state moved, collision state traded.
 */
export interface BalanceParts {
  waitSeconds: number;
  blockSeconds: number;
  checkSeconds: number;
  sampleStateSeconds: number;
  tradeSeconds: number;
}

export class RankBalance {
  readonly parts: BalanceParts = { waitSeconds: 0, blockSeconds: 0, checkSeconds: 0, sampleStateSeconds: 0, tradeSeconds: 0 };

  /**
   * decomposition: the split the rank starts on (each re-split's afterwards); block: cells per side of the coarse grid's
   * blocks; kept: a resumed run's go after its checkpoint's submit (taken at the end of the first submit, under index
   * -1), null for none.
   */
  constructor(private readonly ch: RankChannel, private readonly sim: Simulation, public decomposition: Decomposition, private readonly block: number,
    private readonly timeoutMs: number, private readonly kept: GoOrder | null = null) {
    // a go with a split arrives while this rank still runs the submit before its relayout: the links are readied then
    ch.onArrival('go', ({ message }) => {
      if (message.decomposition !== null && message.sendsTo) sim.readyRelayoutLinks(message.sendsTo, message.roundBytes);
    });
  }

  /**
   * At the end of submit k: sends this rank's block sums (`read`: read with the submit, else read now), then takes the go
   * after submit k - 1 (the first submit: the kept one, if any).
   */
  async atSubmitEnd(k: number, read?: Uint32Array): Promise<void> {
    const t0 = performance.now();
    const sums = read ?? await this.sim.coarseCellSums(this.block);
    // a fresh read-back, sent once: handed to the transport as it is
    await this.ch.send({ type: 'cell-state', index: k, kind: 'coarse', frameBytes: [sums.byteLength] }, [handedOver(sums)]);
    this.parts.blockSeconds += (performance.now() - t0) / 1000;
    if (k === 0) {
      if (this.kept) await this.take(-1, this.kept);
      return;
    }
    await this.take(k - 1, await this.receive(k - 1));
  }

  /** The go after submit `index`, which must be the next to come; the seconds waited count as waiting. */
  private async receive(index: number): Promise<GoOrder> {
    const t0 = performance.now();
    const go = (await this.ch.receive('go', ANSWER_TIMEOUT_MS)).message;
    this.parts.waitSeconds += (performance.now() - t0) / 1000;
    if (go.index !== index) throw new Error(`rank ${this.ch.rank}: the orchestrator sent the go after submit ${go.index}; the one after submit ${index} was due`);
    return go;
  }

  /** Does what the go after submit `index` asks: every cell's count sent (the split, if one pays, comes in the next go), or a new split taken. */
  private async take(index: number, go: GoOrder): Promise<void> {
    if (go.cellState === 'full') {
      const t0 = performance.now();
      this.mark('check-full-start');
      const counts = handedOver(await this.sim.cellCounts());
      this.mark('check-full-read');
      await this.ch.send({ type: 'cell-state', index, kind: 'full', frameBytes: [counts.byteLength] }, [counts]);
      this.mark('check-full-sent');
      this.parts.checkSeconds += (performance.now() - t0) / 1000;
      return;
    }
    if (go.decomposition !== null && go.decomposition !== undefined) await this.resplit(index, parseDecomposition(go.decomposition), go.roundBytes);
  }

  /**
   * Takes split `d` sent in the go after submit `index`: the sampling state follows the cells through the orchestrator
   * (once sampling has begun), the cells' collision state and the relayout's counts are traded with the other ranks
   * (read now, so they are those of this step whenever the split was decided), then the particles move.
   */
  private async resplit(index: number, d: Decomposition, roundBytes: number | undefined): Promise<void> {
    const sim = this.sim;
    let sample: SampleState | null = null;
    if (sim.tables.sampling && sim.samples > 0) {
      const t0 = performance.now();
      const old = await sim.readSampleState();
      const out = SAMPLE_PARTS.map((p) => old[p]);
      await this.ch.send({ type: 'sample-state', index, frameBytes: out.map((f) => f.byteLength) }, out);
      const back = await this.ch.receive('sample-state', ANSWER_TIMEOUT_MS);
      if (back.message.index !== index) throw new Error(`rank ${this.ch.rank}: the orchestrator sent the sampling state for the go after submit ${back.message.index}; the one after submit ${index} carried the split`);
      sample = sampleStateOfFrames(back.frames);
      this.parts.sampleStateSeconds += (performance.now() - t0) / 1000;
    }
    const t1 = performance.now();
    const cells = await sim.cellState();
    const traded = await tradeCollisionState(this.ch, betweenSteps(sim.stepsDone, CELL_STATE_EXCHANGE), this.decomposition, d,
      { sigmaCrMax: cells.sigmaCrMax, remainder: cells.remainder }, cells.counts, sim.liveParticles, this.timeoutMs);
    this.parts.tradeSeconds += (performance.now() - t1) / 1000;
    this.mark('cell-state-traded');
    const self = this.ch.rank;
    const traffic = { sendsTo: traded.sendsTo[self], receivesFrom: traded.sendsTo.map((row) => row[self]) };
    const largest = Math.max(...traded.particles);
    const maxSend = Math.max(0, ...traded.sendsTo.flat());
    await sim.relayout(subdomainOf(d, self), traded.state.sigmaCrMax, traded.state.remainder, sample, largest, roundBytes, maxSend, traffic);
    this.decomposition = d;
  }

  /** A check's event in the timeline (DSMC_TIMELINE_DIR), with the exchanges between steps. */
  private mark(name: string): void {
    stepTimeline?.mark(2 * this.sim.stepsDone + 1, name);
  }
}
