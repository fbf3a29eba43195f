// The host side of particle migration in one rank of a multi-rank run, once per step: read how many
// migrants the move (and injection) emitted per destination rank, grow the migrant buffer and collect
// again if a segment overflowed (nothing is dropped), copy the segments to the host, hand them to the
// exchanger (the transport), and upload what arrived for append_arrivals.
import { throwIfGpuError, type Gpu } from './gpu/device.js';
import { ARRIVALS_HEADER_WORDS, CTL } from './gpu/struct-layouts.js';
import type { MigratePhase } from './phases/migrate.js';
import type { SimState } from './state.js';
import { stepTimeline } from './step-timeline.js';
import type { PrepareSlots } from '../cluster/transport/peer-links.js';
import { UploadRing } from './gpu/upload-ring.js';
import { placeArrivals } from './place-arrivals.js';

/** Moves migrant records between ranks (the transport in a rank process; a test double in unit tests). */
export interface Exchanger {
  /**
   * Sends outgoing[d] (records for rank d; empty for none) for exchange number `step` (increasing: 2 x the
   * step, or 2 x the step + 1 for a relayout after it) and resolves with the records that
   * arrived, as bytes (tables.migrantWords 32-bit words per particle). `outgoing` may be reused once it resolves.
   * `afterSend`, when given, is called once the sends are handed to the transport (before the peers' records are awaited).
   */
  exchange(step: number, outgoing: Uint32Array[], afterSend?: () => void): Promise<Uint8Array[]>;
  /**
   * Optional: applies `count` to each peer's records as they arrive (while the other peers are still awaited);
   * inspected(step) then gives the sum for that exchange. Without it the caller counts after exchange() resolves.
   */
  inspectArrivals?(count: (records: Uint8Array) => number): void;
  inspected?(step: number): number;
  /**
   * Optional: readies the links for one big exchange known ahead, sendBytes[d] to and receiveBytes[d] from each rank d,
   * the pages taken off this thread: the next exchange, or (files only) one some exchanges away.
   */
  prepare?(sendBytes: readonly number[], receiveBytes: readonly number[], slots?: PrepareSlots): void;
  /** Optional: when the pages prepare() asked for are all taken. */
  prepared?(): Promise<void>;
  /**
   * Optional: the next exchange's records from each rank d are put in targets[d] where they fit (null: anywhere), and
   * handed back as views of it.
   */
  landInto?(targets: readonly (Uint8Array | null)[]): void;
}

/** What one exchange did. */
export interface ExchangeResult {
  sent: number;
  received: number;
  /** The particle buffers grew for the arrivals after `overlap` ran (a split step must then be redone whole). */
  grew: boolean;
  /**
   * The migrant buffers grew after `overlap` ran (a segment overflowed): what the overlapped work put in the other
   * set's migrant buffer (an early part of the next step's move) is gone, so that step must be redone whole too.
   */
  regrew: boolean;
  /** The sum of the arrival check (the constructor's `countArrivals`) over this exchange's arrivals (0 without one). */
  flagged: number;
  /** Particles before the arrivals (the status read's N_ALL: the moved, injected and emitted ones). */
  nAll: number;
  /** Particles the step before sorted in its halo pass (live count minus its interior particles; all after a whole sort). */
  haloBefore: number;
  /** Host seconds from the migrant counts being known to the arrivals being uploaded (transport and waiting for peers). */
  seconds: number;
  /**
   * Where those seconds went: copying the remaining migrants to the host, sending and receiving (waiting for the
   * peers included), uploading arrivals; and before them, the wait for the status read (the GPU finishing the
   * submitted work, then the map), not counted in `seconds`.
   */
  parts: { status: number; read: number; exchange: number; upload: number };
}

/** Options of one exchange. */
export interface RunOptions {
  /** Whether an overflowing segment may be grown and every migrant collected again (default true; a relayout round may not). */
  regrow?: boolean;
  /** The step timeline's key of this exchange (default: its sequence number). */
  timelineKey?: number;
  /**
   * The command buffer being recorded when the arrivals are uploaded: their copy goes there, ahead of the passes
   * that append them, instead of a submit of its own; the caller then calls submitted() once it is submitted.
   */
  encoder?: () => GPUCommandEncoder;
  /**
   * Host work that needs this exchange's sends out but not its arrivals (a relayout's halo and sampling state): run once
   * this rank's messages are handed to the transport, while the peers' are awaited (after them where the exchanger
   * cannot say when its sends are out).
   */
  whileWaiting?: () => void;
}

const MAP_READ_COPY_DST = 0x0001 | 0x0008;

/** Byte offset of the arrival records in an upload (the arrival count comes first). */
const ARRIVALS_AT = 4 * ARRIVALS_HEADER_WORDS;

/** A status read: control words and counts (host copies), the records copied along (views of the mapped staging buffer), unmapping. */
interface StatusRead {
  ctl: Uint32Array;
  counts: Uint32Array;
  head: Uint32Array[];
  copied: number[];
  /** Unmaps the staging buffer (the views in `head` are gone after it). */
  release: () => void;
}

/** A status copy recorded into the caller's command buffer (encodeStatus), mapped by the next run() for its set. */
interface PreparedStatus {
  set: 0 | 1;
  staging: GPUBuffer;
  total: number;
  statusBytes: number;
  copied: number[];
  /** The segment capacity the copy was recorded for (a regrown migrant buffer makes it stale). */
  segCap: number;
}

/** Records a status read copies for a destination expecting about `count` migrants that may grow by `growth`: 4 sigma of the count's noise and 256 more. */
function statusReadCount(count: number, growth: number): number {
  return Math.ceil(count + growth + 4 * Math.sqrt(count)) + 256;
}

/** A MAP_READ staging buffer that grows as needed. */
class Staging {
  private buffer: GPUBuffer | null = null;

  constructor(private readonly device: GPUDevice, private readonly label: string) {}

  /** A staging buffer of at least `bytes`, made with `headroom` (a factor) when it must grow. */
  get(bytes: number, headroom = 1.25): GPUBuffer {
    const size = Math.max(16, Math.ceil(bytes / 16) * 16);
    if (!this.buffer || this.buffer.size < size) {
      const t0 = performance.now();
      this.buffer?.destroy();
      this.buffer = this.device.createBuffer({ label: this.label, size: Math.ceil(size * headroom / 16) * 16, usage: MAP_READ_COPY_DST });
      stepTimeline?.hostEvent(`${this.label} staging ${this.buffer.size}`, t0);
    }
    return this.buffer;
  }
}

export class MigrationExchange {
  private readonly status: Staging;
  private readonly segments: Staging;
  /** Staging for the arrivals (queue.writeBuffer would wait for the overlapped interior pass). */
  private readonly uploads: UploadRing;
  /** Migrants per destination copied along with the status read (the last counts plus a margin): usually all of them, in one round trip. */
  private readonly expected: number[];
  /** Migrants per destination at the last exchange (the margin of the next status read follows their growth). */
  private readonly lastCounts: number[];
  /** Host copy of the control words and counts of the last status read, reused every step. */
  private host = new Uint32Array(0);
  /** The status copy encodeStatus recorded, not yet mapped. */
  private prepared: PreparedStatus | null = null;

  constructor(
    private readonly gpu: Gpu,
    private readonly state: SimState,
    private readonly migrate: MigratePhase,
    private readonly exchanger: Exchanger,
    /** Grows the particle buffers mid-step (keeping the sort's scratch) and rebinds every phase. */
    private readonly growParticles: (capacity: number, nAll: number) => void,
    /** Rebinds every phase after the migrant buffer was reallocated. */
    private readonly rebind: () => void,
    /** Checks one peer's arrived records (run as they arrive where the exchanger can); run() reports the sum. */
    private readonly countArrivals?: (records: Uint8Array) => number,
    /**
     * Slots to keep free after the arrivals: the next step's injection with its margin, and this step's and the next
     * one's dissociation products. The host checks the capacity against the count it read after the last submit, but
     * arrivals change a rank's count from step to step within a submit; without this room a rank that gained particles
     * could not take the next step's injected ones or its products.
     */
    private readonly headroom: () => number = () => 0,
  ) {
    if (countArrivals) exchanger.inspectArrivals?.(countArrivals);
    this.status = new Staging(gpu.device, 'migrate-status');
    this.segments = new Staging(gpu.device, 'migrate-segments');
    this.uploads = new UploadRing(gpu.device, 'migrate-arrivals');
    this.expected = new Array(state.subdomain.worldSize).fill(1024);
    this.lastCounts = new Array(state.subdomain.worldSize).fill(0);
  }

  /**
   * Sizes the exchange for about `perPeer[d]` migrants a step to each rank d before the first step (an estimate,
   * migrant-estimate.ts): the first status read copies that many, and the staging buffers of the status read, of a
   * second read and of the arrivals' upload are made now, not in the first steps, where each new host-visible buffer
   * holds up every rank; the migrant segments (unless `growSegments` is false: a test's fixed size) and the GPU's
   * arrival buffer grow to it. The caller binds the phases afterwards.
   */
  reserve(perPeer: readonly number[], growSegments = true): void {
    const { rank, worldSize: W } = this.state.subdomain;
    const recordBytes = 4 * this.state.tables.migrantWords;
    // the estimate is a mean: 25 % over it (and the status read's noise margin)
    const expected = perPeer.map((n, d) => (d === rank ? 0 : statusReadCount(n, 0.25 * n)));
    const largest = Math.max(...expected);
    if (growSegments && largest > this.state.segCap) this.state.growMigrants(Math.min(largest, this.segmentsThatFit()));
    let total = 0;
    for (let d = 0; d < W; d++) {
      if (d === rank) continue;
      this.expected[d] = expected[d];
      this.lastCounts[d] = Math.round(perPeer[d]);
      total += Math.min(expected[d], this.state.segCap);
    }
    this.status.get(4 * (CTL.WORDS + W + 1) + total * recordBytes);
    this.segments.get(total * recordBytes);
    // arrivals: about as many as leave (the same faces, the same gas)
    this.uploads.reserve(ARRIVALS_AT + total * recordBytes);
    this.state.ensureArrivals(total);
  }

  /**
   * Readies one big exchange known ahead (a relayout round, while the GPU runs its first pass) instead of in it:
   * sendsTo[d] and receivesFrom[d] migrants to and from each rank d. The read of the sends (their staging: the status
   * read copies only the step's usual count), the exchanger's links, the
   * upload of the arrivals (the ring's next buffer only) and the GPU's arrival buffer. The caller binds the phases afterwards.
   */
  prepare(sendsTo: readonly number[], receivesFrom: readonly number[]): void {
    const { rank } = this.state.subdomain;
    const words = this.state.tables.migrantWords;
    const sends = sendsTo.reduce((sum, n, d) => sum + (d === rank ? 0 : n), 0);
    const receives = receivesFrom.reduce((sum, n, d) => sum + (d === rank ? 0 : n), 0);
    // the exact sends (a relayout's): no headroom, which would cost a quarter more pages to pin (49 ms for 157 MB on an H200 host)
    if (sends > 0) this.segments.get(4 * words * sends, 1);
    // the arrivals' upload staging, mapped: each peer's records are read straight into their place there where the
    // exchanger can (the upload's fill then leaves them in place), and no landing buffer is readied for them
    const range = this.uploads.reserveNextRange(ARRIVALS_AT + 4 * words * receives);
    const landed = range !== null && this.exchanger.landInto !== undefined;
    if (landed) {
      let at = ARRIVALS_AT;
      this.exchanger.landInto!(receivesFrom.map((n, d) => {
        if (d === rank) return null;
        const view = new Uint8Array(range, at, 4 * words * n);
        at += view.byteLength;
        return view;
      }));
    }
    this.exchanger.prepare?.(sendsTo.map((n, d) => (d === rank ? 0 : 4 * words * n)), receivesFrom.map((n, d) => (d === rank || landed ? 0 : 4 * words * n)));
    this.state.ensureArrivals(receives);
  }

  /**
   * Readies the links' files for a relayout's sends known while the steps before it still run: sendsTo[d] migrants to
   * each rank d, with `headroom` (a fraction) for the particles' drift until it comes; the pages are taken off this
   * thread, so the steps go on. prepare() tops up what the exact counts need.
   */
  prepareSendsAhead(sendsTo: readonly number[], headroom: number): void {
    const { rank } = this.state.subdomain;
    const bytes = (n: number, d: number) => (d === rank ? 0 : Math.ceil(4 * this.state.tables.migrantWords * n * (1 + headroom)));
    this.exchanger.prepare?.(sendsTo.map(bytes), sendsTo.map(() => 0), 'both');
  }

  /** When the links' pages asked for so far are all taken (the timeline's note). */
  async linksPrepared(): Promise<void> {
    await this.exchanger.prepared?.();
  }

  /** Migrant slots per destination that fit the adapter's binding size (every destination's segment lies in one binding). */
  private segmentsThatFit(): number {
    return Math.floor(Number(this.gpu.limits.maxStorageBufferBindingSize) / (4 * this.state.tables.migrantWords * this.state.subdomain.worldSize));
  }

  /**
   * Records the copy of the control words, migrants per destination (plus misrouted arrivals) and the first
   * `expected[d]` records of each destination's segment into one staging buffer.
   */
  private recordStatus(enc: GPUCommandEncoder, set: 0 | 1): PreparedStatus {
    const { rank, worldSize: W } = this.state.subdomain;
    const recordBytes = 4 * this.state.tables.migrantWords;
    const statusBytes = 4 * (CTL.WORDS + W + 1);
    const copied = this.expected.map((e, d) => (d === rank ? 0 : Math.min(e, this.state.segCap)));
    const total = statusBytes + copied.reduce((s, n) => s + n * recordBytes, 0);
    const staging = this.status.get(total);
    enc.copyBufferToBuffer(this.state.ctl, 0, staging, 0, 4 * CTL.WORDS);
    enc.copyBufferToBuffer(this.state.migCountsOf(set), 0, staging, 4 * CTL.WORDS, 4 * (W + 1));
    let at = statusBytes;
    for (let d = 0; d < W; d++) {
      if (copied[d] > 0) enc.copyBufferToBuffer(this.state.migOutOf(set), d * this.state.segCap * recordBytes, staging, at, copied[d] * recordBytes);
      at += copied[d] * recordBytes;
    }
    return { set, staging, total, statusBytes, copied, segCap: this.state.segCap };
  }

  /**
   * Records the status read of set `set` (after its move and injection) at the end of `enc`, the command buffer
   * the caller submits with that move: the next run() for this set then only maps it (one submit less per step).
   */
  encodeStatus(enc: GPUCommandEncoder, set: 0 | 1): void {
    this.prepared = this.recordStatus(enc, set);
  }

  /**
   * Control words, migrants per destination (plus misrouted arrivals) and the first `expected[d]` records of
   * each destination's segment, in one copy and one map (the copy encodeStatus recorded, if it was for this set
   * and the migrant buffers kept their size since).
   */
  private async readStatus(set: 0 | 1, overlap?: () => unknown): Promise<StatusRead> {
    const { device } = this.gpu;
    const { worldSize: W } = this.state.subdomain;
    let prepared = this.prepared;
    this.prepared = null;
    if (!prepared || prepared.set !== set || prepared.segCap !== this.state.segCap) {
      const enc = device.createCommandEncoder({ label: 'migrate-status' });
      prepared = this.recordStatus(enc, set);
      device.queue.submit([enc.finish()]);
    }
    const { staging, total, statusBytes, copied } = prepared;
    // the map waits for the submits so far only (Dawn tracks the buffer's last use), so work submitted by
    // `overlap` runs on the GPU while this rank reads the status and exchanges
    const mapped = staging.mapAsync(0x0001, 0, total);
    // the arrivals' staging buffers submitted since are mapped again while this map is awaited (not through the wait
    // for the peers' migrants, where a pending map would keep the binding polling)
    this.uploads.requestMaps();
    const overlapped = overlap?.();
    await mapped;
    await overlapped;
    // the status words are copied; the records stay in the mapped range (no host copy of megabytes) until release()
    const mappedWords = new Uint32Array(staging.getMappedRange(0, total));
    const statusWords = statusBytes / 4;
    if (this.host.length < statusWords) this.host = new Uint32Array(statusWords);
    const words = this.host.subarray(0, statusWords);
    words.set(mappedWords.subarray(0, statusWords));
    const counts = words.subarray(CTL.WORDS, CTL.WORDS + W + 1);
    const head: Uint32Array[] = [];
    let from = statusBytes / 4;
    for (let d = 0; d < W; d++) {
      head.push(mappedWords.subarray(from, from + Math.min(copied[d], counts[d]) * this.state.tables.migrantWords));
      from += copied[d] * this.state.tables.migrantWords;
    }
    return { ctl: words.subarray(0, CTL.WORDS), counts, head, copied, release: () => staging.unmap() };
  }

  /**
   * Copies every record of the destinations in `whole` (set `set`'s move) into the segments' staging buffer and maps it:
   * views of the mapped range by destination (empty for the others), valid until release(). Sent from there, as the
   * status read's records are: no host copy of a relayout's hundred megabytes, and no joining of two reads.
   */
  private async readSegments(counts: Uint32Array, whole: readonly boolean[], set: 0 | 1): Promise<{ records: Uint32Array[]; release: () => void }> {
    const { device } = this.gpu;
    const { worldSize } = this.state.subdomain;
    const words = this.state.tables.migrantWords;
    const recordBytes = 4 * words;
    let total = 0;
    for (let d = 0; d < worldSize; d++) if (whole[d]) total += counts[d];
    const staging = this.segments.get(total * recordBytes);
    const enc = device.createCommandEncoder({ label: 'migrate-segments' });
    let at = 0;
    for (let d = 0; d < worldSize; d++) {
      if (!whole[d] || counts[d] === 0) continue;
      enc.copyBufferToBuffer(this.state.migOutOf(set), d * this.state.segCap * recordBytes, staging, at, counts[d] * recordBytes);
      at += counts[d] * recordBytes;
    }
    device.queue.submit([enc.finish()]);
    await staging.mapAsync(0x0001, 0, at);
    const all = new Uint32Array(staging.getMappedRange(0, at));
    const records: Uint32Array[] = [];
    let from = 0;
    for (let d = 0; d < worldSize; d++) {
      const n = whole[d] ? counts[d] * words : 0;
      records.push(all.subarray(from, from + n));
      from += n;
    }
    return { records, release: () => staging.unmap() };
  }

  /** Grows the migrant buffer to hold `largest` per destination and collects every migrant again. */
  private async regrow(largest: number, set: 0 | 1): Promise<void> {
    const { device } = this.gpu;
    // every destination's segment lies in one binding: grow with headroom, but never past the adapter's binding size
    const { worldSize } = this.state.subdomain;
    const fits = this.segmentsThatFit();
    if (largest > fits) {
      throw new Error(`rank ${this.state.subdomain.rank}: ${largest} particles left for one rank in one step, more than the migrant buffer's binding holds ` +
        `(${fits} per destination on ${worldSize} ranks): use a smaller run.dt (fewer cells crossed per step) or fewer ranks`);
    }
    this.state.growMigrants(Math.min(fits, Math.ceil(1.5 * largest) + 1024));
    this.rebind();
    device.queue.writeBuffer(this.state.migCountsOf(set), 0, new Uint32Array(this.state.subdomain.worldSize));
    const enc = device.createCommandEncoder({ label: 'collect-all' });
    const pass = enc.beginComputePass({ label: 'collect-all' });
    this.migrate.encodeCollectAll(pass, set);
    pass.end();
    device.queue.submit([enc.finish()]);
  }

  /** The caller submitted the command buffer that run()'s `encoder` recorded arrival copies into. */
  submitted(): void {
    this.uploads.submitted();
  }

  /**
   * Exchanges this step's migrants (the move and injection of `set` are submitted) and uploads the arrivals.
   * `overlap` records and submits GPU work that needs no arrivals (a split step's interior pass) once the status
   * read is requested. If the particle buffers must grow for the arrivals, `grew` says so (growing replaces the
   * set the overlapped work filled); `flagged` sums the arrival check.
   */
  async run(step: number, set: 0 | 1, overlap?: () => unknown, options: RunOptions = {}): Promise<ExchangeResult> {
    const tStatus = performance.now();
    let status = await this.readStatus(set, overlap);
    const mark = options.timelineKey ?? step;
    stepTimeline?.mark(mark, 'status');
    try {
      const { rank, worldSize } = this.state.subdomain;
      const counts = status.counts;
      if (counts[worldSize] > 0) {
        throw new Error(`rank ${rank}: ${counts[worldSize]} arriving particles belong to cells this rank does not own (a routing error between ranks); the run was stopped`);
      }
      let largest = 0;
      let regrew = false;
      for (let d = 0; d < worldSize; d++) largest = Math.max(largest, counts[d]);
      if (largest > this.state.segCap) {
        if (options.regrow === false) throw new Error(`internal: rank ${rank} emitted ${largest} migrants for one rank in an exchange sized for ${this.state.segCap}`);
        stepTimeline?.note(mark, 'n-regrow', largest);
        status.release();
        await this.regrow(largest, set);
        regrew = true;
        this.expected.fill(0);
        status = await this.readStatus(set);
      }
      return { ...await this.exchangeStatus(step, set, mark, status, tStatus, options.encoder, options.whileWaiting), regrew };
    } finally {
      status.release();
    }
  }

  /** The rest of run() while the status read's staging buffer is mapped (its records are sent from there). */
  private async exchangeStatus(
    step: number, set: 0 | 1, mark: number, status: StatusRead, tStatus: number, encoder?: () => GPUCommandEncoder, whileWaiting?: () => void,
  ): Promise<Omit<ExchangeResult, 'regrew'>> {
    const { ctl, counts, head, copied } = status;
    const { rank } = this.state.subdomain;
    throwIfGpuError(this.gpu);
    const t0 = performance.now();
    // a destination that got more migrants than the status read brought is read again whole (its first records too)
    const whole = copied.map((c, d) => d !== rank && counts[d] > c);
    const again = whole.some((w) => w) ? await this.readSegments(counts, whole, set) : null;
    if (again) stepTimeline?.note(mark, 'n-read-again', counts.reduce((sum, c, d) => sum + (whole[d] ? c : 0), 0));
    try {
      const outgoing = head.map((h, d) => (again && whole[d] ? again.records[d] : h));
      return await this.sendAndUpload(step, mark, ctl, counts, outgoing, t0, tStatus, encoder, whileWaiting);
    } finally {
      again?.release();
    }
  }

  /** The rest of exchangeStatus: sends `outgoing` (views of mapped staging, valid until it returns), takes the arrivals in and uploads them. */
  private async sendAndUpload(
    step: number, mark: number, ctl: Uint32Array, counts: Uint32Array, outgoing: Uint32Array[], t0: number, tStatus: number,
    encoder?: () => GPUCommandEncoder, whileWaiting?: () => void,
  ): Promise<Omit<ExchangeResult, 'regrew'>> {
    const { worldSize } = this.state.subdomain;
    // the next step's status read copies about as many (its copy crosses the bus every step): a margin of 5 %, or twice
    // the last step's growth where the flow is still developing, and 4 sigma of the count's noise; a step over it reads
    // the rest in a second round trip
    for (let d = 0; d < worldSize; d++) {
      this.expected[d] = statusReadCount(counts[d], Math.max(0.05 * counts[d], 2 * (counts[d] - this.lastCounts[d])));
      this.lastCounts[d] = counts[d];
    }
    let sent = 0;
    for (const o of outgoing) sent += o.length / this.state.tables.migrantWords;
    const t1 = performance.now();
    stepTimeline?.mark(mark, 'send-start');
    // work that waits for this rank's sends, not for the peers' (a relayout's), once they are out
    let waited = false;
    const afterSend = () => {
      if (waited) return;
      waited = true;
      stepTimeline?.mark(mark, 'sends-out');
      whileWaiting?.();
    };
    const incoming = await this.exchanger.exchange(step, outgoing, afterSend);
    afterSend();
    const t2 = performance.now();
    stepTimeline?.mark(mark, 'received');
    stepTimeline?.note(mark, 'n-sent', sent);
    let received = 0;
    for (const a of incoming) received += a.byteLength / (4 * this.state.tables.migrantWords);
    const nAll = ctl[CTL.N_ALL];
    const count = this.countArrivals;
    const checked = this.exchanger.inspected?.(step);
    const flagged = !count ? 0 : checked ?? incoming.reduce((sum, a) => sum + count(a), 0);
    const room = this.headroom();
    const grew = nAll + received + room > this.state.capacity;
    if (grew) this.growParticles(Math.ceil(1.25 * (nAll + received + room)) + 1024, nAll);
    if (this.state.ensureArrivals(received)) this.rebind();
    // the arrival count (word 0) and the records (from byte ARRIVALS_AT) in one staging buffer, copied in one copy (the
    // arrivals buffer has the same header) behind the overlapped work: a copy costs the GPU some 15-20 µs besides its bytes
    const recordBytes = received * 4 * this.state.tables.migrantWords;
    await this.uploads.write(ARRIVALS_AT + recordBytes, (mapped) => {
      stepTimeline?.mark(mark, 'upload-mapped');
      new Uint32Array(mapped, 0, 1)[0] = received;
      if (placeArrivals(new Uint8Array(mapped), ARRIVALS_AT, incoming)) stepTimeline?.note(mark, 'arrivals-in-place', received);
      stepTimeline?.mark(mark, 'upload-filled');
    }, (enc, staging) => {
      enc.copyBufferToBuffer(staging, 0, this.state.arrivals, 0, ARRIVALS_AT + recordBytes);
    }, encoder?.());
    const t3 = performance.now();
    stepTimeline?.mark(mark, 'uploaded');
    return { sent, received, grew, flagged, nAll, haloBefore: ctl[CTL.N] - ctl[CTL.N_INTERIOR], seconds: (t3 - t0) / 1000, parts: { status: (t0 - tStatus) / 1000, read: (t1 - t0) / 1000, exchange: (t2 - t1) / 1000, upload: (t3 - t2) / 1000 } };
  }
}
