// Per-step uploads through staging buffers of our own (MAP_WRITE | COPY_SRC, a few in rotation, each mapped
// again when its turn comes, by when its last copy has long run: a map left pending keeps Dawn's event poll
// spinning, see poll-pacing.ts). Dawn's queue.writeBuffer stages through its own upload memory and,
// with megabytes of uploads pending behind long GPU work, waits for that work to finish: measured on
// 2 x H200 (scaling-box, 63M particles per rank), uploading a step's arrivals took 2.0 ms on average and
// ended just as the overlapped interior pass did. With these buffers an upload is one memcpy into mapped
// memory and a copy command queued behind the GPU work.

const MAP_WRITE_COPY_SRC = 0x0002 | 0x0004;
const MAP_MODE_WRITE = 0x0002;

/** One staging buffer of the ring; `mapped`: writable now (created mapped, or not used since its last map). */
interface Slot {
  buffer: GPUBuffer | null;
  mapped: boolean;
}

export class UploadRing {
  private readonly slots: Slot[];
  private next = 0;

  constructor(private readonly device: GPUDevice, private readonly label: string, count = 3) {
    this.slots = Array.from({ length: count }, () => ({ buffer: null, mapped: false }));
  }

  /**
   * Uploads `bytes` bytes: `fill` writes them into the mapped staging range, `copy` records the copies out of the
   * staging buffer (source offsets into what `fill` wrote), and they are submitted at once, behind the work already
   * queued. Waits only when this slot's previous copy has not run yet (count uploads ago).
   */
  async write(bytes: number, fill: (mapped: ArrayBuffer) => void, copy: (enc: GPUCommandEncoder, staging: GPUBuffer) => void): Promise<void> {
    const slot = this.slots[this.next];
    this.next = (this.next + 1) % this.slots.length;
    const size = Math.max(16, Math.ceil(bytes / 16) * 16);
    if (!slot.buffer || slot.buffer.size < size) {
      slot.buffer?.destroy();
      // headroom: the arrivals vary from step to step
      slot.buffer = this.device.createBuffer({ label: this.label, size: Math.ceil((size * 1.25) / 16) * 16, usage: MAP_WRITE_COPY_SRC, mappedAtCreation: true });
      slot.mapped = true;
    }
    const buffer = slot.buffer;
    // its last copy was submitted `count` uploads ago and has run: the map resolves at the next poll
    if (!slot.mapped) await buffer.mapAsync(MAP_MODE_WRITE);
    fill(buffer.getMappedRange(0, size));
    buffer.unmap();
    slot.mapped = false;
    const enc = this.device.createCommandEncoder({ label: this.label });
    copy(enc, buffer);
    this.device.queue.submit([enc.finish()]);
  }
}
