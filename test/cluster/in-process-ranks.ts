// Runs a case as several ranks inside one process on one device (ranks exchange migrants through an
// in-memory mailbox instead of the transport), for fast invariance tests of the solver's multi-rank path.
import type { Case } from '../../src-main/common/case-schema.js';
import { decompose } from '../../src-main/cluster/decomposition/decompose.js';
import type { Method } from '../../src-main/cluster/decomposition/types.js';
import { RunAssembler } from '../../src-main/cluster/orchestrator/run-assembler.js';
import type { Gpu } from '../../src-main/solver/gpu/device.js';
import { Simulation, blockSubmits } from '../../src-main/solver/loop.js';
import type { Exchanger } from '../../src-main/solver/migration-exchange.js';
import { subdomainOf } from '../../src-main/solver/subdomain.js';

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

/** Runs `c` on `ranks` in-process ranks; returns the assembled run and the ranks' simulations. */
export async function runInProcessRanks(gpu: Gpu, c: Case, method: Method, ranks: number) {
  const d = decompose(method, c.grid.cells, ranks);
  const subs = d.boxes.map((_, r) => subdomainOf(d, r));
  const mail = new Mailbox();
  const exchangerOf = (rank: number): Exchanger => ({
    async exchange(step, outgoing) {
      for (let to = 0; to < ranks; to++) if (to !== rank) mail.post(step, rank, to, new Uint8Array(outgoing[to].slice().buffer));
      const incoming: Uint8Array[] = [];
      for (let from = 0; from < ranks; from++) if (from !== rank) incoming.push(await mail.take(step, from, rank));
      return incoming;
    },
  });
  const sims = subs.map((s, r) => new Simulation(gpu, c, { subdomain: s, exchanger: exchangerOf(r) }));
  for (const s of sims) await s.initialize();
  const assembler = new RunAssembler(c, subs, blockSubmits(c, 0, c.run.steps));
  const results = await Promise.all(sims.map((s, r) => {
    let index = 0;
    return s.run({ timing: 'off', onBatch: (b) => { assembler.add(r, index++, b); } });
  }));
  assembler.finish();
  return { assembler, sims, results, decomposition: d };
}
