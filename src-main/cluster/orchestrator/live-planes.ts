// The live view of a multi-rank run: the sampled sums stay on the ranks' GPUs, so a plane of fields is asked of
// every rank (plane-request with the plane's global cell ids); each answers after its next submit with its sums of
// the cells it owns (zeros elsewhere), and the exact 64-bit sums of all ranks add up to the plane's.
import type { Case } from '../../common/case-schema.js';
import { fieldsOfGathered } from '../../solver/field-accumulator.js';
import type { Fields } from '../../solver/fields.js';
import type { LiveFieldSource } from '../../solver/loop-types.js';
import type { SolverTables } from '../../solver/tables.js';
import { frameAs } from '../transport/message-codec.js';
import type { OrchestratorChannel } from '../transport/orchestrator-channel.js';

/** How long a plane request waits for every rank's answer (a rank answers after its next submit). */
const ANSWER_TIMEOUT_MS = 60_000;

/** One plane request waiting for the ranks' answers. */
interface Waiting {
  parts: (Uint32Array | undefined)[];
  samples: number;
  resolve: (words: Uint32Array) => void;
  reject: (e: Error) => void;
  timer: NodeJS.Timeout;
}

/** Adds rank b's gathered words into a ((lo, hi) pairs K apart, as sample_gather lays them out), exactly. */
function addGathered(a: Uint32Array, b: Uint32Array, K: number): void {
  for (let base = 0; base < a.length; base += 2 * K) {
    for (let k = 0; k < K; k++) {
      const lo = a[base + k] + b[base + k];
      const carry = lo >= 4294967296 ? 1 : 0;
      a[base + k] = lo >>> 0;
      a[base + K + k] = (a[base + K + k] + b[base + K + k] + carry) >>> 0;
    }
  }
}

export class LivePlanes implements LiveFieldSource {
  private nextId = 0;
  private readonly waiting = new Map<number, Waiting>();
  /** Sampling passes the ranks reported with their last answer. */
  private reported = 0;

  /** passes: the sampling passes merged so far (before the first answer). */
  constructor(private readonly kase: Case, private readonly tables: SolverTables, private readonly channel: OrchestratorChannel,
    private readonly ranks: number, private readonly passes: () => number) {
    channel.on('plane-sums', (m) => {
      const w = this.waiting.get(m.message.id);
      if (!w) return; // an answer after its request timed out
      w.parts[m.rank] = frameAs(m.frames[0], Uint32Array);
      w.samples = m.message.samples;
      if (w.parts.some((p) => p === undefined)) return;
      clearTimeout(w.timer);
      this.waiting.delete(m.message.id);
      const sum = Uint32Array.from(w.parts[0]!);
      for (const p of w.parts.slice(1)) addGathered(sum, p!, sum.length / (4 * 13 * this.tables.species.length));
      this.reported = w.samples;
      w.resolve(sum);
    });
  }

  /** Sampling passes so far. */
  get samples(): number {
    return Math.max(this.reported, this.passes());
  }

  /** The fields of the given global cells, from every rank's sums (after each rank's next submit). */
  async fieldsOfCells(cellIds: ArrayLike<number>): Promise<Fields> {
    const ids = Uint32Array.from(cellIds);
    const id = this.nextId++;
    const words = await new Promise<Uint32Array>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        reject(new Error(`the ranks did not answer live plane request ${id} within ${ANSWER_TIMEOUT_MS / 1000} s`));
      }, ANSWER_TIMEOUT_MS);
      timer.unref();
      this.waiting.set(id, { parts: new Array(this.ranks).fill(undefined), samples: 0, resolve, reject, timer });
      for (let r = 0; r < this.ranks; r++) {
        this.channel.send(r, { type: 'plane-request', id, frameBytes: [ids.byteLength] }, [ids]).catch((e: unknown) => reject(e as Error));
      }
    });
    return fieldsOfGathered(this.kase, this.tables, words, ids, this.reported);
  }

  /** Gives up on every open request (the run ended). */
  close(): void {
    for (const w of this.waiting.values()) {
      clearTimeout(w.timer);
      w.reject(new Error('the run ended before the ranks answered the live plane request'));
    }
    this.waiting.clear();
  }
}
