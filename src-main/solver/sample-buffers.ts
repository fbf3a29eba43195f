// The sampled fields' state on the GPU (sample.wgsl), per local cell: the run's and the open block's exact
// 64-bit moment sums (low and high words apart), the batch means' running mean and M2 of every field, and an
// overflow flag. It stays on the GPU for the whole sampling window; the host reads it (drain) only when fields
// are needed (end of run, checkpoint, rebalance) and writes it back on resume or after a rebalance.
//
// On the host a rank's state is a SampleState: the same five parts as typed arrays of planes of nLocal values
// ([moment][species][cell] for the sums, [mean | M2][field][cell] for the batch means). Parts move between
// ranks and into global order plane by plane. How many planes: the SampleLayout (a gas with internal modes adds
// the internal-energy moments and the internal temperatures' batch means, a gas of S >= 2 species the 2 S batch means of
// its species' number densities and mole fractions; a monatomic one-species gas keeps the 13 and 13).
import { runFieldNames, speciesFieldCount } from '../common/field-names.js';
import { makeBuffer, makeBufferWith } from './gpu/buffers.js';
import { CloseParams, SAMPLE_MOMENTS, UNIFORM_TABLES } from './gpu/struct-layouts.js';
import { prefaultEnabled } from './prefault.js';

const UNIFORM = 0x40 | 0x08; // UNIFORM | COPY_DST

/** The planes of a sampling state: species, moments per species (sample_moments() in sample-sums.wgsl), batch-means fields (field_count() in sample.wgsl). */
export interface SampleLayout {
  species: number;
  moments: number;
  fields: number;
}

/**
 * The sampling layout of a case's tables: the 13 velocity moments, plus sum E_rot (moment 13) and, when a species
 * vibrates, sum E_vib (moment 14) where the gas has internal modes; the fields of the run (runFieldNames: a mixture's
 * n_<species> and x_<species> too).
 */
export function sampleLayout(t: { species: readonly unknown[]; hasRotation: boolean; internalWords: number }): SampleLayout {
  return {
    species: t.species.length,
    moments: SAMPLE_MOMENTS + (t.hasRotation ? t.internalWords : 0),
    fields: runFieldNames(t.hasRotation).length + speciesFieldCount(t.species.length),
  };
}

/** The parts of the sampling state, in this order everywhere (GPU buffers, checkpoints, messages). */
export const SAMPLE_PARTS = ['runLo', 'runHi', 'blockLo', 'blockHi', 'welford'] as const;
export type SamplePart = (typeof SAMPLE_PARTS)[number];

/** One rank's (or the whole grid's) sampling state on the host. */
export type SampleState = { [K in Exclude<SamplePart, 'welford'>]: Uint32Array<ArrayBuffer> } & { welford: Float32Array<ArrayBuffer> };

/** Planes (of one value per cell) of a part: moments x species for the sums, mean and M2 of every field for welford. */
export function partPlanes(part: SamplePart, layout: SampleLayout): number {
  return part === 'welford' ? 2 * layout.fields : layout.moments * layout.species;
}

/** A zeroed host state for n cells. */
export function emptySampleState(layout: SampleLayout, n: number): SampleState {
  const u = (p: SamplePart) => new Uint32Array(partPlanes(p, layout) * n);
  return { runLo: u('runLo'), runHi: u('runHi'), blockLo: u('blockLo'), blockHi: u('blockHi'), welford: new Float32Array(partPlanes('welford', layout) * n) };
}

export class SampleBuffers {
  runLo: GPUBuffer;
  runHi: GPUBuffer;
  blockLo: GPUBuffer;
  blockHi: GPUBuffer;
  welford: GPUBuffer;
  /** Word 0: set by the GPU when a sum would overflow. */
  readonly flags: GPUBuffer;
  /** sample_close's uniform (CloseParams), the species' mass ratios (vec4 x 4) and internal modes (vec4 per species). */
  readonly closeParams: GPUBuffer;
  readonly closeMasses: GPUBuffer;
  readonly closeModes: GPUBuffer;
  private nLocal: number;
  /**
   * The read's staging buffers (SAMPLE_PARTS order, then the flag) for nLocal cells, kept from read to read: made at the
   * set-up (prepareRead) they spare the end of a run their creation (host memory the driver pins: 0.4 s and more for a
   * rank's half gigabyte on an H100 host, docs/PERFORMANCE.md).
   */
  private staging: GPUBuffer[] | null = null;
  /** Cells the kept staging buffers hold (a re-split that leaves fewer keeps them; more: they are replaced at the next read). */
  private stagingCells = 0;
  /** True while a read maps the kept staging buffers (a read meanwhile takes fresh ones). */
  private reading = false;

  /**
   * Zeroed state for nLocal cells (4-byte stubs when the case samples nothing). modes: per species its rotational
   * degrees of freedom and characteristic vibrational temperature (0: none), for the internal temperatures.
   */
  constructor(private readonly device: GPUDevice, private readonly layout: SampleLayout, private readonly enabled: boolean, nLocal: number, massRatios: number[],
    modes: { rotationalDof: number; thetaV: number }[]) {
    this.nLocal = nLocal;
    [this.runLo, this.runHi, this.blockLo, this.blockHi, this.welford] = this.allocate(nLocal);
    this.flags = makeBuffer(device, 'sample.flags', 4);
    this.closeParams = makeBuffer(device, 'sample.closeParams', CloseParams.pack({}).byteLength, UNIFORM);
    const masses = new Float32Array(UNIFORM_TABLES.MAX_SPECIES);
    massRatios.forEach((m, k) => { masses[k] = m; });
    this.closeMasses = makeBufferWith(device, 'sample.closeMasses', masses, UNIFORM);
    // closeModes[s] = (rotational dof, theta_v, 0, 0)
    const m = new Float32Array(4 * UNIFORM_TABLES.MAX_SPECIES);
    modes.forEach((x, k) => { m[4 * k] = x.rotationalDof; m[4 * k + 1] = x.thetaV; });
    this.closeModes = makeBufferWith(device, 'sample.closeModes', m, UNIFORM);
  }

  /** The five per-cell buffers for n cells (4-byte stubs when the case samples nothing). */
  private allocate(n: number): GPUBuffer[] {
    return SAMPLE_PARTS.map((p) => makeBuffer(this.device, `sample.${p}`, this.enabled ? 4 * partPlanes(p, this.layout) * n : 4));
  }

  /** The per-cell buffers in SAMPLE_PARTS order. */
  private parts(): GPUBuffer[] {
    return [this.runLo, this.runHi, this.blockLo, this.blockHi, this.welford];
  }

  /**
   * Replaces the state by zeroed state for nLocal cells (a rebalance; write() fills it after). The read's staging
   * buffers stay: a read of fewer cells uses their start, and too small ones are replaced at the next read, not here
   * (freeing pinned host memory inside the loop held up the re-split's next submit, docs/PERFORMANCE.md).
   */
  reallocate(nLocal: number): void {
    for (const b of this.parts()) b.destroy();
    this.nLocal = nLocal;
    [this.runLo, this.runHi, this.blockLo, this.blockHi, this.welford] = this.allocate(nLocal);
  }

  /**
   * Reads the whole state once the queue reaches this point; overflow: a sum overflowed. One submit copies every part
   * (and the overflow flag) to staging buffers, the maps resolve together, and each part is copied out of its mapped
   * range once, straight into the array the state keeps (a gigabyte for a big body case: no zeroed copy besides).
   */
  async read(options: { blockEmpty?: boolean; into?: SampleState } = {}): Promise<{ state: SampleState; overflow: boolean }> {
    const n = this.enabled ? this.nLocal : 0;
    const buffers = this.parts();
    // blockEmpty: the open block was just closed (its sums are zero): its two parts need no read
    const wanted = SAMPLE_PARTS.map((p) => partPlanes(p, this.layout) * n > 0 && !(options.blockEmpty && p.startsWith('block')));
    const enc = this.device.createCommandEncoder({ label: 'sample-read' });
    const kept = !this.reading;
    const stagingSet = kept ? this.stagingBuffers() : this.makeStaging();
    if (kept) this.reading = true;
    // each part's bytes: the kept staging buffers may hold more cells (a re-split left this rank fewer)
    const partBytes = SAMPLE_PARTS.map((p) => 4 * partPlanes(p, this.layout) * n);
    const parts = SAMPLE_PARTS.map((p, k) => {
      if (!wanted[k]) return null;
      enc.copyBufferToBuffer(buffers[k], 0, stagingSet[k], 0, partBytes[k]);
      return stagingSet[k];
    });
    const flag = stagingSet[SAMPLE_PARTS.length];
    enc.copyBufferToBuffer(this.flags, 0, flag, 0, 4);
    this.device.queue.submit([enc.finish()]);
    await Promise.all([...parts.map((b, k) => b?.mapAsync(0x0001, 0, partBytes[k])), flag.mapAsync(0x0001, 0, 4)]);
    const all = [...parts.filter((b): b is GPUBuffer => b !== null), flag];
    // a part that was not read is zeros of its length; `into` (arrays of this state's sizes) takes the copies
    const into = options.into && SAMPLE_PARTS.every((p) => options.into![p].length === partPlanes(p, this.layout) * n) ? options.into : null;
    const words = (k: number): ArrayBuffer => parts[k]?.getMappedRange(0, partBytes[k]).slice(0) ?? new ArrayBuffer(partBytes[k]);
    const copied = (k: number) => {
      const a = into![SAMPLE_PARTS[k]];
      const range = parts[k]?.getMappedRange(0, partBytes[k]);
      if (range) new Uint32Array(a.buffer, a.byteOffset, a.length).set(new Uint32Array(range));
      else a.fill(0);
      return a;
    };
    const state: SampleState = into
      ? { runLo: copied(0) as Uint32Array<ArrayBuffer>, runHi: copied(1) as Uint32Array<ArrayBuffer>, blockLo: copied(2) as Uint32Array<ArrayBuffer>, blockHi: copied(3) as Uint32Array<ArrayBuffer>, welford: copied(4) as Float32Array<ArrayBuffer> }
      : {
        runLo: new Uint32Array(words(0)), runHi: new Uint32Array(words(1)), blockLo: new Uint32Array(words(2)), blockHi: new Uint32Array(words(3)),
        welford: new Float32Array(words(4)),
      };
    const overflow = new Uint32Array(flag.getMappedRange(0, 4))[0] !== 0;
    for (const b of all) b.unmap();
    if (kept) this.reading = false;
    // fresh buffers of a read beside another, or kept ones dropped while this read ran (the cell count changed)
    if (!kept || this.staging !== stagingSet) for (const b of stagingSet) b.destroy();
    return { state, overflow };
  }

  /** Makes the read's staging buffers now (the set-up), unless DSMC_PREFAULT=0 (then the first read makes them). */
  prepareRead(): void {
    if (this.enabled && prefaultEnabled()) this.stagingBuffers();
  }

  /** The kept staging buffers, holding at least this state's cells (made on first use, replaced when too small). */
  private stagingBuffers(): GPUBuffer[] {
    const n = this.enabled ? this.nLocal : 0;
    if (this.staging && this.stagingCells < n) this.dropStaging();
    if (!this.staging) {
      this.staging = this.makeStaging();
      this.stagingCells = n;
    }
    return this.staging;
  }

  /** Staging buffers (MAP_READ | COPY_DST) of every part for nLocal cells, and one for the flag. */
  private makeStaging(): GPUBuffer[] {
    const n = this.enabled ? this.nLocal : 0;
    const staging = (label: string, bytes: number) => this.device.createBuffer({ label: `readback:${label}`, size: Math.max(4, bytes), usage: 0x0001 | 0x0008 });
    return [...SAMPLE_PARTS.map((p) => staging(`sample.${p}`, 4 * partPlanes(p, this.layout) * n)), staging('sample.flags', 4)];
  }

  /** Frees the kept staging buffers (the cell count changes, or the state goes). */
  private dropStaging(): void {
    // a read in flight destroys them once it has unmapped them
    if (!this.reading) for (const b of this.staging ?? []) b.destroy();
    this.staging = null;
  }

  /** Writes a host state of this many cells to the GPU (resume, rebalance). */
  write(state: SampleState): void {
    if (!this.enabled) return;
    const buffers = this.parts();
    SAMPLE_PARTS.forEach((p, k) => {
      const a = state[p];
      if (a.length !== partPlanes(p, this.layout) * this.nLocal) {
        // a checkpoint of a mixture written before its species fields had batch means holds fewer of them
        if (p === 'welford' && a.length < partPlanes(p, this.layout) * this.nLocal) {
          throw new Error('the checkpoint was written by an older version whose sampled fields (without per-species batch means) this one cannot continue; start the run again');
        }
        throw new Error(`internal: sampling state part ${p} holds ${a.length} values for ${this.nLocal} cells`);
      }
      this.device.queue.writeBuffer(buffers[k], 0, a);
    });
  }

  /** Frees every buffer. */
  destroy(): void {
    this.dropStaging();
    for (const b of [...this.parts(), this.flags, this.closeParams, this.closeMasses, this.closeModes]) b.destroy();
  }
}

/** A sampling state from the five frames of a message (SAMPLE_PARTS order; copies, aligned). */
export function sampleStateOfFrames(frames: readonly Uint8Array[]): SampleState {
  if (frames.length !== SAMPLE_PARTS.length) throw new Error(`a sampling state travels as ${SAMPLE_PARTS.length} frames, got ${frames.length}`);
  const copy = (f: Uint8Array) => {
    if (f.byteLength % 4 !== 0) throw new Error(`a sampling state frame of ${f.byteLength} bytes is not whole 32-bit words`);
    const b = new ArrayBuffer(f.byteLength);
    new Uint8Array(b).set(f);
    return b;
  };
  const [runLo, runHi, blockLo, blockHi, welford] = frames.map(copy);
  return { runLo: new Uint32Array(runLo), runHi: new Uint32Array(runHi), blockLo: new Uint32Array(blockLo), blockHi: new Uint32Array(blockHi), welford: new Float32Array(welford) };
}
