// Per-step uploads through staging buffers of our own (MAP_WRITE | COPY_SRC, a few in rotation, each mapped
// again as soon as its copy is submitted). Dawn's queue.writeBuffer stages through its own upload memory and,
// with megabytes of uploads pending behind long GPU work, waits for that work to finish: measured on
// 2 x H200 (scaling-box, 63M particles per rank), uploading a step's arrivals took 2.0 ms on average and
// ended just as the overlapped interior pass did. With these buffers an upload is one memcpy into mapped
// memory and a copy command queued behind the GPU work.

const MAP_WRITE_COPY_SRC = 0x0002 | 0x0004;
const MAP_MODE_WRITE = 0x0002;

/** One staging buffer of the ring and the map that makes it writable again (null: mapped now). */
interface Slot {
  buffer: GPUBuffer | null;
  remap: Promise<void> | null;
  failure: Error | null;
}

export class UploadRing {
  private readonly slots: Slot[];
  private next = 0;

  constructor(private readonly device: GPUDevice, private readonly label: string, count = 3) {
    this.slots = Array.from({ length: count }, () => ({ buffer: null, remap: null, failure: null }));
  }

  /**
   * Uploads `bytes` bytes: `fill` writes them into the mapped staging range, `copy` records the copies out of the
   * staging buffer (source offsets into what `fill` wrote), and they are submitted at once, behind the work already
   * queued. Waits only when this slot's previous copy has not run yet (count uploads ago).
   */
  async write(bytes: number, fill: (mapped: ArrayBuffer) => void, copy: (enc: GPUCommandEncoder, staging: GPUBuffer) => void): Promise<void> {
    const slot = this.slots[this.next];
    this.next = (this.next + 1) % this.slots.length;
    if (slot.remap) await slot.remap;
    slot.remap = null;
    if (slot.failure) throw slot.failure;
    const size = Math.max(16, Math.ceil(bytes / 16) * 16);
    if (!slot.buffer || slot.buffer.size < size) {
      slot.buffer?.destroy();
      // headroom: the arrivals vary from step to step
      slot.buffer = this.device.createBuffer({ label: this.label, size: Math.ceil((size * 1.25) / 16) * 16, usage: MAP_WRITE_COPY_SRC, mappedAtCreation: true });
    }
    const buffer = slot.buffer;
    fill(buffer.getMappedRange(0, size));
    buffer.unmap();
    const enc = this.device.createCommandEncoder({ label: this.label });
    copy(enc, buffer);
    this.device.queue.submit([enc.finish()]);
    // mapped again once the copy ran; a failure (device lost) surfaces at this slot's next use
    slot.remap = buffer.mapAsync(MAP_MODE_WRITE).catch((e: unknown) => {
      slot.failure = e instanceof Error ? e : new Error(String(e));
    });
  }

  /** Frees the staging buffers (pending maps are rejected by destroy and recorded, not thrown). */
  destroy(): void {
    for (const s of this.slots) {
      s.buffer?.destroy();
      s.buffer = null;
    }
  }
}
