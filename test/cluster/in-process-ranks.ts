// Runs a case as several ranks inside one process on one device (ranks exchange migrants through an
// in-memory mailbox instead of the transport), for fast invariance tests of the solver's multi-rank path.
import type { Case } from '../../src-main/common/case-schema.js';
import { decompose } from '../../src-main/cluster/decomposition/decompose.js';
import type { Method } from '../../src-main/cluster/decomposition/types.js';
import { RunAssembler } from '../../src-main/cluster/orchestrator/run-assembler.js';
import { Rebalancer, relayoutCost, type RebalanceDecision } from '../../src-main/cluster/orchestrator/rebalancer.js';
import { moveCollisionState, type CollisionState } from '../../src-main/cluster/decomposition/cell-handover.js';
import type { Gpu } from '../../src-main/solver/gpu/device.js';
import { Simulation } from '../../src-main/solver/loop.js';
import type { Int3 } from '../../src-main/cluster/decomposition/types.js';
import type { Exchanger } from '../../src-main/solver/migration-exchange.js';
import { isStepExchange } from '../../src-main/solver/exchange-sequence.js';
import { CELL_ROOM_FOR_REBALANCING } from '../../src-main/solver/state.js';
import { subdomainOf } from '../../src-main/solver/subdomain.js';
import { redistributeSampleState } from '../../src-main/solver/field-accumulator.js';
import { rankFields } from '../../src-main/solver/rank-fields.js';
import type { SampleState } from '../../src-main/solver/sample-buffers.js';
import { buildTables } from '../../src-main/solver/tables.js';

/** Mailboxes keyed by step, sender and receiver; a receive waits until its message is posted. */
class Mailbox {
  private readonly boxes = new Map<string, { value?: Uint8Array; wake?: (v: Uint8Array) => void }>();

  /** The entry of one message. */
  private entry(key: string) {
    let e = this.boxes.get(key);
    if (!e) this.boxes.set(key, (e = {}));
    return e;
  }

  /** Posts a message. */
  post(step: number, from: number, to: number, value: Uint8Array): void {
    const e = this.entry(`${step}:${from}:${to}`);
    if (e.wake) {
      this.boxes.delete(`${step}:${from}:${to}`);
      e.wake(value);
    } else e.value = value;
  }

  /** Waits for a message. */
  take(step: number, from: number, to: number): Promise<Uint8Array> {
    const key = `${step}:${from}:${to}`;
    const e = this.entry(key);
    if (e.value) {
      this.boxes.delete(key);
      return Promise.resolve(e.value);
    }
    return new Promise((resolve) => { e.wake = resolve; });
  }
}

/** Options of in-process ranks: the split steps' halo depth, the first particle and migrant buffer sizes, whether arrivals are checked as they are posted (as between processes) or after. */
export interface RankOptions {
  haloDepth?: Int3;
  capacity?: number;
  segmentCapacity?: number;
  haloThreads?: number;
  /** Invocations of the collect of injected migrants (few: its grid-stride loop takes several rounds). */
  injectThreads?: number;
  /** Invocations of every pass over the live particles (few: their loops take several rounds). */
  particleThreads?: number;
  checkOnArrival?: boolean;
  /** Bytes of migrant records per relayout round (small: a relayout in many rounds). */
  relayoutRoundBytes?: number;
  /** Whether the next step's interior part moves during the exchange (default: the solver's, on). */
  earlyMove?: boolean;
  /** Room in the per-cell buffers, a multiple of a rank's cells (default: the rank processes', 1 without rebalancing). */
  cellRoom?: number;
  /** Cells per side of the blocks whose sums each submit reads with its read-back (LoopOptions.blockSums); kept per submit in `blockReads`. */
  blockSums?: number;
  /** Sees every rank's outgoing migrant records (outgoing[d]: the records for rank d) before they are posted. */
  observeExchange?: (rank: number, exchange: number, outgoing: readonly Uint32Array[]) => void;
}

/** Runs `c` on `ranks` in-process ranks (rebalancing when UN exceeds `rebalancePercent`); returns the assembled run and the ranks' simulations. */
export async function runInProcessRanks(gpu: Gpu, c: Case, method: Method, ranks: number, rebalancePercent?: number, options: RankOptions = {}) {
  const { haloDepth, capacity, segmentCapacity, haloThreads, injectThreads, particleThreads, checkOnArrival = true, observeExchange, relayoutRoundBytes, earlyMove } = options;
  const d = decompose(method, c.grid.cells, ranks);
  const subs = d.boxes.map((_, r) => subdomainOf(d, r));
  const mail = new Mailbox();
  // like the rank processes' exchanger: a receiver's arrival check runs when a message is posted to it
  const checks = new Map<number, (records: Uint8Array) => number>();
  const checked = Array.from({ length: ranks }, () => new Map<number, number>());
  const exchangerOf = (rank: number): Exchanger => ({
    async exchange(step, outgoing, afterSend) {
      observeExchange?.(rank, step, outgoing);
      for (let to = 0; to < ranks; to++) {
        if (to === rank) continue;
        const bytes = new Uint8Array(outgoing[to].slice().buffer);
        // as the rank processes: a relayout's arrivals (between steps) are not checked against the halo
        const check = isStepExchange(step) ? checks.get(to) : undefined;
        if (check) checked[to].set(step, (checked[to].get(step) ?? 0) + check(bytes));
        mail.post(step, rank, to, bytes);
      }
      // as the rank processes' exchanger: the sends are out, the peers' records are awaited
      afterSend?.();
      const incoming: Uint8Array[] = [];
      for (let from = 0; from < ranks; from++) if (from !== rank) incoming.push(await mail.take(step, from, rank));
      return incoming;
    },
    ...(checkOnArrival ? {
      inspectArrivals: (count: (records: Uint8Array) => number) => { checks.set(rank, count); },
      inspected: (step: number) => {
        const n = checked[rank].get(step) ?? 0;
        checked[rank].delete(step);
        return n;
      },
    } : {}),
  });
  // as the rank processes: room in the per-cell buffers of a run that may re-split (options.cellRoom: tests of the room)
  const cellRoom = options.cellRoom ?? (rebalancePercent === undefined ? 1 : CELL_ROOM_FOR_REBALANCING);
  const sims = subs.map((s, r) => new Simulation(gpu, c, { subdomain: s, exchanger: exchangerOf(r), haloDepth, capacity, segmentCapacity, haloThreads, injectThreads, particleThreads, relayoutRoundBytes, earlyMove, cellRoom }));
  for (const s of sims) await s.initialize();
  const assembler = new RunAssembler(c, subs, { from: 0, steps: c.run.steps }, sims[0].tables);
  const rebalancer = rebalancePercent === undefined ? null : new Rebalancer(d, rebalancePercent);
  // the decision after each submit, shared by the ranks (each waits for it before its next submit)
  const decisions = new Map<number, Promise<(RebalanceDecision & { sample: SampleState[] | null; collision: CollisionState[] }) | null>>();
  const decide = (index: number, sims_: Simulation[]) => {
    let p = decisions.get(index);
    if (!p) {
      p = (async () => {
        const un = assembler.loadNonUniformity[assembler.loadNonUniformity.length - 1];
        const states = await Promise.all(sims_.map((s) => s.cellState()));
        const oldSubs = assembler.rankSubdomains;
        const before = rebalancer!.decomposition;
        const decision = rebalancer!.decide(un.step, un.percent, states, relayoutCost(gpu.adapter.software === true));
        if (!decision) return null;
        assembler.setSubdomains(decision.subdomains);
        // the cells' collision state follows them, as the rank processes trade it (cell-state-trade.ts)
        const collision = moveCollisionState(before.boxes, states, decision.decomposition.boxes);
        // the sampling state follows the cells, as rank-main and the balance coordinator move it
        const sample = c.sampling.enabled
          ? redistributeSampleState(c, buildTables(c), await Promise.all(sims_.map((s) => s.readSampleState())), oldSubs, decision.subdomains)
          : null;
        return { ...decision, sample, collision };
      })();
      decisions.set(index, p);
    }
    return p;
  };
  // a barrier per submit: every rank's submit k is in before the decision after it
  const barriers = new Map<number, { count: number; done: Promise<void>; open: () => void }>();
  const barrier = (k: number) => {
    let b = barriers.get(k);
    if (!b) {
      let open!: () => void;
      const done = new Promise<void>((resolve) => { open = resolve; });
      barriers.set(k, (b = { count: 0, done, open }));
    }
    return b;
  };
  // with options.blockSums: each submit's block sums as its read-back brought them, and as coarseCellSums reads them after it
  const blockReads: { rank: number; withSubmit: Uint32Array | undefined; after: Uint32Array }[] = [];
  const results = await Promise.all(sims.map((s, r) => {
    let index = 0;
    return s.run({
      timing: 'off',
      ...(options.blockSums !== undefined ? { blockSums: options.blockSums } : {}),
      onBatch: async (b) => {
        const k = index++;
        assembler.add(r, k, b);
        if (options.blockSums !== undefined) blockReads.push({ rank: r, withSubmit: b.blockSums, after: await s.coarseCellSums(options.blockSums) });
        if (!rebalancer) return;
        const gate = barrier(k);
        gate.count += 1;
        if (gate.count === ranks) gate.open();
        await gate.done;
        const decision = await decide(k, sims);
        if (decision) await s.relayout(decision.subdomains[r], decision.collision[r].sigmaCrMax, decision.collision[r].remainder, decision.sample?.[r] ?? null, decision.largest, undefined, decision.maxSend, { sendsTo: decision.sendsTo[r], receivesFrom: decision.sendsTo.map((row) => row[r]) });
      },
    });
  }));
  // each rank's fields from its state, placed in global order (as rank-main and run-distributed do)
  await assembler.finish(await Promise.all(results.map((x, r) => x.sampleState ? rankFields(c, sims[r].tables, sims[r].subdomain, x.sampleState, x.sampleCounters) : null)));
  assembler.fields.counters = { ...results[0].sampleCounters };
  return { assembler, sims, results, decomposition: rebalancer?.decomposition ?? d, events: rebalancer?.events ?? [], blockReads };
}

/** Every live particle of the ranks as text (cell word and the bits of position and velocity), sorted: equal for bitwise-equal runs. */
export async function particleState(sims: Simulation[]): Promise<string[]> {
  const out: string[] = [];
  for (const sim of sims) {
    const p = await sim.readParticles(['cell', 'px', 'py', 'pz', 'vx', 'vy', 'vz']);
    const words = (['cell', 'px', 'py', 'pz', 'vx', 'vy', 'vz'] as const).map((a) => new Uint32Array(p[a]));
    for (let i = 0; i < words[0].length; i++) out.push(words.map((w) => w[i]).join(':'));
  }
  return out.sort();
}

/** Every live particle of the given ranks as (cell word, vx, rotational, vibrational energy) bits, sorted: the same on any decomposition. */
export async function internalState(sims: Simulation[]): Promise<string[]> {
  const out: string[] = [];
  for (const sim of sims) {
    const p = await sim.readParticles(['cell', 'vx']);
    const cell = new Uint32Array(p.cell), vx = new Uint32Array(p.vx);
    const e = await sim.readInternalEnergy();
    const rot = new Uint32Array(e.rotational.buffer), vib = new Uint32Array(e.vibrational.buffer);
    for (let i = 0; i < cell.length; i++) out.push(`${cell[i]}:${vx[i]}:${rot[i]}:${vib[i]}`);
  }
  return out.sort();
}
