// The host side of particle migration in one rank of a multi-rank run, once per step: read how many
// migrants the move (and injection) emitted per destination rank, grow the migrant buffer and collect
// again if a segment overflowed (nothing is dropped), copy the segments to the host, hand them to the
// exchanger (the transport), and upload what arrived for append_arrivals.
import { throwIfGpuError, type Gpu } from './gpu/device.js';
import { CTL, MIGRANT_WORDS } from './gpu/struct-layouts.js';
import type { MigratePhase } from './phases/migrate.js';
import type { SimState } from './state.js';

/** Moves migrant records between ranks (the transport in a rank process; a test double in unit tests). */
export interface Exchanger {
  /** Sends outgoing[d] (records for rank d; empty for none) for `step` and resolves with the records that arrived. */
  exchange(step: number, outgoing: Uint32Array[]): Promise<Uint32Array[]>;
}

/** What one exchange did. */
export interface ExchangeResult {
  sent: number;
  received: number;
  /** Host seconds from the migrant counts being known to the arrivals being uploaded (transport and waiting for peers). */
  seconds: number;
}

const MAP_READ_COPY_DST = 0x0001 | 0x0008;

/** A MAP_READ staging buffer that grows as needed. */
class Staging {
  private buffer: GPUBuffer | null = null;

  constructor(private readonly device: GPUDevice, private readonly label: string) {}

  /** A staging buffer of at least `bytes`. */
  get(bytes: number): GPUBuffer {
    const size = Math.max(16, Math.ceil(bytes / 16) * 16);
    if (!this.buffer || this.buffer.size < size) {
      this.buffer?.destroy();
      this.buffer = this.device.createBuffer({ label: this.label, size: Math.ceil(size * 1.25 / 16) * 16, usage: MAP_READ_COPY_DST });
    }
    return this.buffer;
  }
}

export class MigrationExchange {
  private readonly status: Staging;
  private readonly segments: Staging;

  constructor(
    private readonly gpu: Gpu,
    private readonly state: SimState,
    private readonly migrate: MigratePhase,
    private readonly exchanger: Exchanger,
    /** Grows the particle buffers mid-step (keeping the sort's scratch) and rebinds every phase. */
    private readonly growParticles: (capacity: number, nAll: number) => void,
    /** Rebinds every phase after the migrant buffer was reallocated. */
    private readonly rebind: () => void,
  ) {
    this.status = new Staging(gpu.device, 'migrate-status');
    this.segments = new Staging(gpu.device, 'migrate-segments');
  }

  /** Control words and migrants per destination (plus misrouted arrivals) as the queue has them now. */
  private async readStatus(): Promise<{ ctl: Uint32Array; counts: Uint32Array }> {
    const { device } = this.gpu;
    const W = this.state.subdomain.worldSize;
    const ctlBytes = 4 * CTL.WORDS;
    const staging = this.status.get(ctlBytes + 4 * (W + 1));
    const enc = device.createCommandEncoder({ label: 'migrate-status' });
    enc.copyBufferToBuffer(this.state.ctl, 0, staging, 0, ctlBytes);
    enc.copyBufferToBuffer(this.state.migCounts, 0, staging, ctlBytes, 4 * (W + 1));
    device.queue.submit([enc.finish()]);
    await staging.mapAsync(0x0001, 0, ctlBytes + 4 * (W + 1));
    const words = new Uint32Array(staging.getMappedRange(0, ctlBytes + 4 * (W + 1)).slice(0));
    staging.unmap();
    return { ctl: words.subarray(0, CTL.WORDS), counts: words.subarray(CTL.WORDS) };
  }

  /** Copies each destination's migrant records to the host. */
  private async readSegments(counts: Uint32Array): Promise<Uint32Array[]> {
    const { device } = this.gpu;
    const { rank, worldSize } = this.state.subdomain;
    const recordBytes = 4 * MIGRANT_WORDS;
    let total = 0;
    for (let d = 0; d < worldSize; d++) if (d !== rank) total += counts[d];
    const out: Uint32Array[] = [];
    if (total === 0) {
      for (let d = 0; d < worldSize; d++) out.push(new Uint32Array(0));
      return out;
    }
    const staging = this.segments.get(total * recordBytes);
    const enc = device.createCommandEncoder({ label: 'migrate-segments' });
    let at = 0;
    for (let d = 0; d < worldSize; d++) {
      if (d === rank || counts[d] === 0) continue;
      enc.copyBufferToBuffer(this.state.migOut, d * this.state.segCap * recordBytes, staging, at, counts[d] * recordBytes);
      at += counts[d] * recordBytes;
    }
    device.queue.submit([enc.finish()]);
    await staging.mapAsync(0x0001, 0, at);
    const all = new Uint32Array(staging.getMappedRange(0, at).slice(0));
    staging.unmap();
    let from = 0;
    for (let d = 0; d < worldSize; d++) {
      const n = d === rank ? 0 : counts[d] * MIGRANT_WORDS;
      out.push(all.subarray(from, from + n));
      from += n;
    }
    return out;
  }

  /** Grows the migrant buffer to hold `largest` per destination and collects every migrant again. */
  private async regrow(largest: number, set: 0 | 1): Promise<void> {
    const { device } = this.gpu;
    this.state.growMigrants(Math.ceil(1.5 * largest) + 1024);
    this.rebind();
    device.queue.writeBuffer(this.state.migCounts, 0, new Uint32Array(this.state.subdomain.worldSize));
    const enc = device.createCommandEncoder({ label: 'collect-all' });
    const pass = enc.beginComputePass({ label: 'collect-all' });
    this.migrate.encodeCollectAll(pass, set);
    pass.end();
    device.queue.submit([enc.finish()]);
  }

  /** Exchanges this step's migrants (the move and injection of `set` are submitted) and uploads the arrivals. */
  async run(step: number, set: 0 | 1): Promise<ExchangeResult> {
    let { ctl, counts } = await this.readStatus();
    const { rank, worldSize } = this.state.subdomain;
    if (counts[worldSize] > 0) {
      throw new Error(`rank ${rank}: ${counts[worldSize]} arriving particles belong to cells this rank does not own (a routing error between ranks); the run was stopped`);
    }
    let largest = 0;
    for (let d = 0; d < worldSize; d++) largest = Math.max(largest, counts[d]);
    if (largest > this.state.segCap) {
      await this.regrow(largest, set);
      ({ ctl, counts } = await this.readStatus());
    }
    throwIfGpuError(this.gpu);
    const t0 = performance.now();
    const outgoing = await this.readSegments(counts);
    let sent = 0;
    for (const o of outgoing) sent += o.length / MIGRANT_WORDS;
    const incoming = await this.exchanger.exchange(step, outgoing);
    let received = 0;
    for (const a of incoming) received += a.length / MIGRANT_WORDS;
    const nAll = ctl[CTL.N_ALL];
    if (nAll + received > this.state.capacity) this.growParticles(Math.ceil(1.25 * (nAll + received)) + 1024, nAll);
    if (this.state.ensureArrivals(received)) this.rebind();
    const words = new Uint32Array(received * MIGRANT_WORDS);
    let at = 0;
    for (const a of incoming) {
      words.set(a, at);
      at += a.length;
    }
    const { device } = this.gpu;
    if (received > 0) device.queue.writeBuffer(this.state.arrivals, 0, words);
    device.queue.writeBuffer(this.state.ctl, 4 * CTL.ARRIVALS, new Uint32Array([received]));
    return { sent, received, seconds: (performance.now() - t0) / 1000 };
  }
}
