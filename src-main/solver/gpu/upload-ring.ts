// Per-step uploads through staging buffers of our own (MAP_WRITE | COPY_SRC, a few in rotation). Dawn's
// queue.writeBuffer stages through its own upload memory and, with megabytes of uploads pending behind long GPU
// work, waits for that work to finish: measured on 2 x H200 (scaling-box, 63M particles per rank), uploading a
// step's arrivals took 2.0 ms on average and ended just as the overlapped interior pass did. With these buffers
// an upload is one memcpy into mapped memory and a copy command queued behind the GPU work. Each buffer is mapped
// again once its copy is submitted and the owner next waits for the GPU anyway (requestMaps: a rank's next status
// read), or at the latest on its next turn; the map resolves once the GPU has run the copy, so by its next turn it
// is writable at once: the host does not wait for a map on the critical path of a step. A pending map keeps the
// binding's event poll going (poll-pacing.ts): mapped at once after its submit, a buffer kept it going through the
// wait for the peers' migrants too, some 50-100 polls a step, each a native function that V8 keeps past scavenges.

import { stepTimeline } from '../step-timeline.js';

const MAP_WRITE_COPY_SRC = 0x0002 | 0x0004;
const MAP_MODE_WRITE = 0x0002;

/** One staging buffer of the ring and its map: resolves true once writable (created mapped, or remapped after its copy ran). */
interface Slot {
  buffer: GPUBuffer | null;
  mapped: Promise<boolean>;
  /** Whether the buffer is mapped now (mapped promise resolved true, no write since). */
  writable: boolean;
  /** The whole mapped range, once handed out ahead (reserveNextRange): the write fills this one. */
  range: ArrayBuffer | null;
  /** Its copy was submitted and its map not requested yet (requestMaps, or its next write). */
  remapDue: boolean;
}

export class UploadRing {
  private readonly slots: Slot[];
  private next = 0;
  /** Buffers whose copies were recorded into a caller's command buffer that is not submitted yet (no map until it is). */
  private unsubmitted: GPUBuffer[] = [];

  constructor(private readonly device: GPUDevice, private readonly label: string, count = 3) {
    this.slots = Array.from({ length: count }, () => ({ buffer: null, mapped: Promise.resolve(false), writable: false, range: null, remapDue: false }));
  }

  /** Creates every staging buffer of the ring for uploads of up to `bytes` (before a run, instead of in its first steps). */
  reserve(bytes: number): void {
    for (const slot of this.slots) this.ready(slot, bytes);
  }

  /** Makes the buffer the next write() takes hold `bytes` (a big upload known ahead: made now, not on its turn). */
  reserveNext(bytes: number): void {
    this.ready(this.slots[this.next], bytes);
  }

  /**
   * reserveNext(), and the mapped range of that buffer when it is writable now (null otherwise): what is written there
   * before the next write() is what that write uploads (a relayout's arrivals read straight into it), so its `fill`
   * must leave it in place.
   */
  reserveNextRange(bytes: number): ArrayBuffer | null {
    const slot = this.slots[this.next];
    this.ready(slot, bytes);
    if (!slot.buffer || !slot.writable || slot.buffer.size < bytes || this.unsubmitted.includes(slot.buffer)) return null;
    slot.range ??= slot.buffer.getMappedRange();
    return slot.range;
  }

  /** Gives `slot` a mapped buffer of at least `bytes` unless it has one, or its copy is not submitted yet (grown on its turn). */
  private ready(slot: Slot, bytes: number): void {
    const size = Math.max(16, Math.ceil(bytes / 16) * 16);
    // a buffer whose range is handed out keeps it until its write (which grows it, if need be, after taking what is there)
    if (slot.buffer && (slot.buffer.size >= size || this.unsubmitted.includes(slot.buffer) || slot.range)) return;
    this.remake(slot, size)?.destroy();
  }

  /** Replaces `slot`'s buffer by a new one of `size` bytes, created mapped (the host event names its size); returns the old one, for the caller to destroy. */
  private remake(slot: Slot, size: number): GPUBuffer | null {
    const t0 = performance.now();
    const old = slot.buffer;
    slot.buffer = this.device.createBuffer({ label: this.label, size, usage: MAP_WRITE_COPY_SRC, mappedAtCreation: true });
    slot.mapped = Promise.resolve(true);
    slot.writable = true;
    slot.range = null;
    slot.remapDue = false;
    stepTimeline?.hostEvent(`${this.label} staging ${size}`, t0);
    return old;
  }

  /**
   * Uploads `bytes` bytes: `fill` writes them into the mapped staging range, `copy` records the copies out of the
   * staging buffer (source offsets into what `fill` wrote), and they are submitted at once, behind the work already
   * queued, or recorded into `into` (a command buffer the caller submits, then calls submitted()). Waits only when
   * this slot's previous copy has not run yet (count uploads ago).
   */
  async write(
    bytes: number, fill: (mapped: ArrayBuffer) => void, copy: (enc: GPUCommandEncoder, staging: GPUBuffer) => void, into?: GPUCommandEncoder,
  ): Promise<void> {
    const slot = this.slots[this.next];
    if (slot.buffer && this.unsubmitted.includes(slot.buffer)) {
      throw new Error(`internal: ${this.label} staging reused before the command buffer holding its last copy was submitted`);
    }
    this.next = (this.next + 1) % this.slots.length;
    const size = Math.max(16, Math.ceil(bytes / 16) * 16);
    // its map was requested after its last copy was submitted, `count` uploads ago (or is now)
    this.requestMap(slot);
    let mapped = await slot.mapped;
    // a buffer too small is replaced; the old one lives until `fill` has run (what was read into its range handed out)
    let outgrown: GPUBuffer | null = null;
    if (!slot.buffer || slot.buffer.size < size) {
      // headroom: the arrivals vary from step to step
      outgrown = this.remake(slot, Math.ceil((size * 1.25) / 16) * 16);
      mapped = true;
    }
    const buffer = slot.buffer!;
    if (!mapped) await buffer.mapAsync(MAP_MODE_WRITE);
    // the range handed out ahead, with what was written there, else the bytes this upload takes
    const range = slot.range ?? buffer.getMappedRange(0, size);
    slot.range = null;
    fill(range);
    outgrown?.destroy();
    buffer.unmap();
    slot.writable = false;
    if (into) {
      copy(into, buffer);
      this.unsubmitted.push(buffer);
      slot.mapped = Promise.resolve(false); // mapped again once submitted()
      return;
    }
    const enc = this.device.createCommandEncoder({ label: this.label });
    copy(enc, buffer);
    this.device.queue.submit([enc.finish()]);
    slot.remapDue = true;
  }

  /** The command buffer that write() recorded copies into was submitted: their staging buffers may be mapped again (requestMaps). */
  submitted(): void {
    for (const buffer of this.unsubmitted) {
      const slot = this.slots.find((x) => x.buffer === buffer);
      if (slot) slot.remapDue = true;
    }
    this.unsubmitted = [];
  }

  /** Requests the maps of the buffers whose copies were submitted since (call where the host waits for the GPU anyway). */
  requestMaps(): void {
    for (const slot of this.slots) this.requestMap(slot);
  }

  /** Requests `slot`'s map again if its copy was submitted and its map not requested yet. */
  private requestMap(slot: Slot): void {
    if (!slot.remapDue || !slot.buffer) return;
    slot.remapDue = false;
    slot.mapped = remap(slot, slot.buffer);
  }
}

/** Maps `slot`'s staging buffer for writing again; resolves false when it was destroyed (grown, or the device gone) instead. */
function remap(slot: Slot, buffer: GPUBuffer): Promise<boolean> {
  return buffer.mapAsync(MAP_MODE_WRITE).then(() => {
    if (slot.buffer === buffer) slot.writable = true;
    return true;
  }, () => false);
}
