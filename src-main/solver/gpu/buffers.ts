// Small helpers for labelled GPU buffers and reading them back.

/** Usage flags of a storage buffer that may also be copied from and to. */
export const STORAGE = 0x80 | 0x04 | 0x08; // STORAGE | COPY_SRC | COPY_DST

/** Creates a labelled buffer of at least 4 bytes, rounded up to a multiple of 4. */
export function makeBuffer(device: GPUDevice, label: string, bytes: number, usage: number = STORAGE): GPUBuffer {
  return device.createBuffer({ label, size: Math.max(4, Math.ceil(bytes / 4) * 4), usage });
}

/** Creates a buffer holding data (uniform or storage). */
export function makeBufferWith(device: GPUDevice, label: string, data: ArrayBuffer | ArrayBufferView, usage: number): GPUBuffer {
  const bytes = data.byteLength;
  const buffer = makeBuffer(device, label, bytes, usage | 0x08);
  const src = ArrayBuffer.isView(data) ? data : new Uint8Array(data);
  device.queue.writeBuffer(buffer, 0, src as ArrayBufferView<ArrayBuffer>);
  return buffer;
}

/** Copies bytes [offset, offset+bytes) of a buffer to the host once the queue reaches this point. */
export async function readBuffer(device: GPUDevice, src: GPUBuffer, bytes: number, offset = 0): Promise<ArrayBuffer> {
  const size = Math.max(4, Math.ceil(bytes / 4) * 4);
  const staging = device.createBuffer({ label: `readback:${src.label}`, size, usage: 0x0001 | 0x0008 }); // MAP_READ | COPY_DST
  const enc = device.createCommandEncoder({ label: `readback:${src.label}` });
  enc.copyBufferToBuffer(src, offset, staging, 0, size);
  device.queue.submit([enc.finish()]);
  await staging.mapAsync(0x0001);
  const out = staging.getMappedRange().slice(0, bytes);
  staging.unmap();
  staging.destroy();
  return out;
}

/** Released staging buffers a Readback keeps for reuse. */
const MAX_SPARE_STAGING = 8;

/** One source of Readback.readAll: bytes [0, bytes) of src, into a host array the caller keeps when given. */
export interface ReadSource {
  src: GPUBuffer;
  bytes: number;
  into?: Uint8Array<ArrayBuffer>;
}

/** Copies Readback.recordAll recorded into its staging buffer, for readRecorded. */
export interface RecordedRead {
  readonly staging: GPUBuffer;
  readonly sources: readonly ReadSource[];
  readonly sizes: readonly number[];
  readonly total: number;
}

/**
 * Read-backs that repeat every submit (step statistics, control words, sampling sums, reduction
 * partials): one MAP_READ staging buffer per source, kept and grown as needed instead of created
 * and destroyed on every call.
 */
export class Readback {
  private readonly staging = new Map<GPUBuffer, GPUBuffer>();
  /** Staging buffers of sources released (replaced by a re-split), taken again by new sources they are large enough for. */
  private readonly spare: GPUBuffer[] = [];
  /** The staging buffer of readAll. */
  private combined: GPUBuffer | null = null;

  constructor(private readonly device: GPUDevice) {}

  /** Copies bytes [0, bytes) of src to the host once the queue reaches this point. */
  async read(src: GPUBuffer, bytes: number): Promise<ArrayBuffer> {
    return this.mapped(src, bytes, (range) => range.slice(0, bytes));
  }

  /**
   * Copies bytes [0, into.byteLength) of src into a host array the caller keeps (the sampling sums: hundreds of
   * megabytes on big grids, where a new array every submit costs more in page faults than the copy itself).
   */
  async readInto<T extends ArrayBufferView>(src: GPUBuffer, into: T): Promise<T> {
    const bytes = into.byteLength;
    return this.mapped(src, bytes, (range) => {
      new Uint8Array(into.buffer, into.byteOffset, bytes).set(new Uint8Array(range, 0, bytes));
      return into;
    });
  }

  /** Makes readAll's staging buffer hold at least `bytes` now (a read known to come, kept from read to read). */
  reserve(bytes: number): void {
    this.combinedOf(bytes);
  }

  /** readAll's staging buffer, replaced by one of `bytes` when smaller. */
  private combinedOf(bytes: number): GPUBuffer {
    if (!this.combined || this.combined.size < bytes) {
      this.combined?.destroy();
      this.combined = this.device.createBuffer({ label: 'readback:combined', size: Math.ceil(bytes / 4) * 4, usage: 0x0001 | 0x0008 }); // MAP_READ | COPY_DST
    }
    return this.combined;
  }

  /**
   * Copies bytes [0, bytes) of each source into one staging buffer and maps it once (the read-back after every submit:
   * one round trip to the GPU instead of one per source); returns a host copy per source, in order: a new one, or
   * the source's `into` (bytes long) filled, which the caller keeps from read to read (megabytes of surface sums a
   * sampled submit on a body case: new arrays of that size every submit made the ranks' major garbage collections).
   */
  async readAll(sources: readonly ReadSource[]): Promise<ArrayBuffer[]> {
    const enc = this.device.createCommandEncoder({ label: 'readback:combined' });
    const recorded = this.recordAll(enc, sources);
    this.device.queue.submit([enc.finish()]);
    return this.readRecorded(recorded);
  }

  /**
   * readAll's copies recorded at the end of `enc`, a command buffer the caller submits (the last of a submit's steps):
   * readRecorded then only maps, with no round trip of its own to the GPU once that work is done.
   */
  recordAll(enc: GPUCommandEncoder, sources: readonly ReadSource[]): RecordedRead {
    const sizes = sources.map((x) => Math.max(4, Math.ceil(x.bytes / 4) * 4));
    const total = sizes.reduce((a, b) => a + b, 0);
    const staging = this.combinedOf(total);
    let at = 0;
    sources.forEach((x, k) => {
      enc.copyBufferToBuffer(x.src, 0, staging, at, sizes[k]);
      at += sizes[k];
    });
    return { staging, sources, sizes, total };
  }

  /** The host copies of a read recordAll recorded (its command buffer submitted), as readAll returns them. */
  async readRecorded(read: RecordedRead): Promise<ArrayBuffer[]> {
    const { staging, sources, sizes, total } = read;
    await staging.mapAsync(0x0001, 0, total);
    try {
      const range = staging.getMappedRange(0, total);
      let from = 0;
      return sources.map((x, k) => {
        let out: ArrayBuffer;
        if (x.into && x.into.byteOffset === 0 && x.into.byteLength === x.bytes && x.into.buffer.byteLength === x.bytes) {
          x.into.set(new Uint8Array(range, from, x.bytes));
          out = x.into.buffer;
        } else {
          out = range.slice(from, from + x.bytes);
        }
        from += sizes[k];
        return out;
      });
    } finally {
      staging.unmap();
    }
  }

  /** Copies src to its staging buffer, maps it and hands the mapped range to `use` (unmapped afterwards). */
  private async mapped<R>(src: GPUBuffer, bytes: number, use: (range: ArrayBuffer) => R): Promise<R> {
    const size = Math.max(4, Math.ceil(bytes / 4) * 4);
    let staging = this.staging.get(src);
    if (!staging || staging.size < size) {
      staging?.destroy();
      // a spare one that fits (the smallest), else a new one
      const fits = this.spare.filter((b) => b.size >= size).sort((a, b) => a.size - b.size)[0];
      if (fits) this.spare.splice(this.spare.indexOf(fits), 1);
      staging = fits ?? this.device.createBuffer({ label: `readback:${src.label}`, size, usage: 0x0001 | 0x0008 }); // MAP_READ | COPY_DST
      this.staging.set(src, staging);
    }
    const enc = this.device.createCommandEncoder({ label: `readback:${src.label}` });
    enc.copyBufferToBuffer(src, 0, staging, 0, size);
    this.device.queue.submit([enc.finish()]);
    await staging.mapAsync(0x0001, 0, size);
    try {
      return use(staging.getMappedRange(0, size));
    } finally {
      staging.unmap();
    }
  }

  /**
   * Forgets the sources' staging buffers (their sources were reallocated by a re-split), keeping them as spares for the
   * new sources: freeing pinned host memory inside the loop held up the next submit (docs/PERFORMANCE.md).
   */
  release(): void {
    this.spare.push(...this.staging.values());
    this.staging.clear();
    // a few spares at most (one per per-cell array a check reads): older ones are freed
    for (const b of this.spare.splice(0, Math.max(0, this.spare.length - MAX_SPARE_STAGING))) b.destroy();
  }

}

/** Invocations per workgroup of the per-particle and per-cell kernels (the WG_SIZE override). */
export const WORKGROUP_SIZE = 256;

/** Workgroup counts (x, y) covering n invocations with x <= 65535, as dispatch_dims in common.wgsl. */
export function dispatchDims(n: number, workgroupSize: number): [number, number] {
  const groups = Math.ceil(n / workgroupSize);
  if (groups <= 65535) return [groups, 1];
  return [65535, Math.ceil(groups / 65535)];
}
