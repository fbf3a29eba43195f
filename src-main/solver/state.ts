// All GPU buffers of one simulation: parameters and tables, two particle sets (the sort gathers
// from one into the other), per-cell arrays, sampling sums, control words and step statistics.
import { STORAGE, makeBuffer, makeBufferWith } from './gpu/buffers.js';
import {
  CTL, FaceInfo, FaceSpecies, InitParams, PARTIAL_WORDS, PairInfo, SAMPLE_MOMENTS, STATS, SimParams, SpeciesInfo,
} from './gpu/struct-layouts.js';
import { PARTICLE_ATTRIBUTES, type ParticleSet } from './particle-attributes.js';
import type { SolverTables } from './tables.js';

const UNIFORM = 0x40 | 0x08; // UNIFORM | COPY_DST

/** One buffer the solver will allocate, for the pre-launch memory check. */
export interface BufferRequirement {
  label: string;
  bytes: number;
}

/**
 * Particle capacity to start with. A closed box keeps its initial count exactly; with inflow the
 * count heads for the reference fill (plus 10 % and a batch of injection with margin); the loop
 * grows the buffers between submits if the flow packs in more.
 */
export function initialCapacity(t: SolverTables, stepsPerSubmit: number): number {
  if (t.nFaceCells === 0) return t.initialParticles + 1024;
  const base = Math.max(t.initialParticles, 1.1 * t.referenceParticles);
  const inj = t.injectionPerStep * stepsPerSubmit;
  return Math.ceil(base + inj + 10 * Math.sqrt(inj) + 1024);
}

/** Every buffer of a run with this capacity, largest first. */
export function bufferPlan(t: SolverTables, capacity: number): BufferRequirement[] {
  const S = t.species.length;
  const plan: BufferRequirement[] = [];
  for (const set of ['A', 'B']) for (const a of PARTICLE_ATTRIBUTES) plan.push({ label: `particles.${a}.${set}`, bytes: 4 * capacity });
  plan.push({ label: 'sample.sums', bytes: t.sampling ? 4 * SAMPLE_MOMENTS * S * t.nCells : 4 });
  for (const a of ['cell.counts', 'cell.starts', 'cell.sigmaCrMax', 'cell.remainder']) plan.push({ label: a, bytes: 4 * t.nCells });
  plan.push({ label: 'reduce.partials', bytes: 4 * PARTIAL_WORDS * Math.ceil(capacity / 256) });
  plan.push({ label: 'inject.counts', bytes: 4 * t.nFaceCells }, { label: 'inject.starts', bytes: 4 * t.nFaceCells });
  return plan.sort((a, b) => b.bytes - a.bytes);
}

/** Creates one set of particle arrays. */
function makeParticleSet(device: GPUDevice, name: string, capacity: number): ParticleSet {
  const set = {} as ParticleSet;
  for (const a of PARTICLE_ATTRIBUTES) set[a] = makeBuffer(device, `particles.${a}.${name}`, 4 * capacity);
  return set;
}

/** The GPU buffers of one run. */
export class SimState {
  readonly params: GPUBuffer;
  readonly initParams: GPUBuffer;
  readonly ctl: GPUBuffer;
  readonly stats: GPUBuffer;
  readonly pairs: GPUBuffer;
  readonly speciesInfo: GPUBuffer;
  readonly faces: GPUBuffer;
  readonly faceSpecies: GPUBuffer;
  readonly counts: GPUBuffer;
  readonly starts: GPUBuffer;
  readonly sigmaCrMax: GPUBuffer;
  readonly remainder: GPUBuffer;
  readonly sums: GPUBuffer;
  readonly injCounts: GPUBuffer;
  readonly injStarts: GPUBuffer;
  sets: [ParticleSet, ParticleSet];
  partials: GPUBuffer;
  /** Which particle set holds the live particles between steps. */
  current: 0 | 1 = 0;

  constructor(private readonly device: GPUDevice, readonly tables: SolverTables, public capacity: number, readonly statsRing: number) {
    const t = tables;
    this.params = makeBufferWith(device, 'params', SimParams.pack(this.paramValues()), UNIFORM);
    this.initParams = makeBufferWith(device, 'init-params', InitParams.pack(t.init), UNIFORM);
    this.ctl = makeBufferWith(device, 'control', this.initialControl(), STORAGE);
    this.stats = makeBuffer(device, 'step-stats', 4 * STATS.WORDS * statsRing);
    this.pairs = makeBufferWith(device, 'pairs', PairInfo.packArray(t.pairs), STORAGE);
    this.speciesInfo = makeBufferWith(device, 'species', SpeciesInfo.packArray(t.species), STORAGE);
    this.faces = makeBufferWith(device, 'faces', FaceInfo.packArray(t.faces), STORAGE);
    this.faceSpecies = makeBufferWith(device, 'face-species', FaceSpecies.packArray(t.faceSpecies), STORAGE);
    this.counts = makeBuffer(device, 'cell.counts', 4 * t.nCells);
    this.starts = makeBuffer(device, 'cell.starts', 4 * t.nCells);
    this.sigmaCrMax = makeBufferWith(device, 'cell.sigmaCrMax', new Float32Array(t.nCells).fill(t.sigmaCrMaxInit), STORAGE);
    this.remainder = makeBuffer(device, 'cell.remainder', 4 * t.nCells);
    this.sums = makeBuffer(device, 'sample.sums', t.sampling ? 4 * SAMPLE_MOMENTS * t.species.length * t.nCells : 4);
    this.injCounts = makeBuffer(device, 'inject.counts', 4 * t.nFaceCells);
    this.injStarts = makeBuffer(device, 'inject.starts', 4 * t.nFaceCells);
    this.sets = [makeParticleSet(device, 'A', capacity), makeParticleSet(device, 'B', capacity)];
    this.partials = makeBuffer(device, 'reduce.partials', 4 * PARTIAL_WORDS * Math.ceil(capacity / 256));
  }

  /** SimParams values including the capacity-dependent ones. */
  private paramValues(): Record<string, number> {
    return { ...this.tables.simParams, capacity: this.capacity, statsRing: this.statsRing };
  }

  /** Control words at step 0: no particles until init runs. */
  private initialControl(): Uint32Array {
    const ctl = new Uint32Array(CTL.WORDS);
    ctl[CTL.N] = this.tables.initialParticles;
    ctl[CTL.N_ALL] = this.tables.initialParticles;
    return ctl;
  }

  /** Particle arrays holding the live particles. */
  get live(): ParticleSet {
    return this.sets[this.current];
  }

  /** Particle arrays not in use between steps (the sort's scratch and destination). */
  get idle(): ParticleSet {
    return this.sets[1 - this.current];
  }

  /**
   * Reallocates the particle arrays with a larger capacity, copying the n live particles; callers
   * must rebuild their bind groups afterwards.
   */
  grow(newCapacity: number, liveCount: number): void {
    const device = this.device;
    const fresh = makeParticleSet(device, this.current === 0 ? 'A' : 'B', newCapacity);
    const enc = device.createCommandEncoder({ label: 'grow' });
    for (const a of PARTICLE_ATTRIBUTES) if (liveCount > 0) enc.copyBufferToBuffer(this.live[a], 0, fresh[a], 0, 4 * liveCount);
    device.queue.submit([enc.finish()]);
    const other = makeParticleSet(device, this.current === 0 ? 'B' : 'A', newCapacity);
    for (const set of this.sets) for (const a of PARTICLE_ATTRIBUTES) set[a].destroy();
    this.sets = this.current === 0 ? [fresh, other] : [other, fresh];
    this.partials.destroy();
    this.partials = makeBuffer(device, 'reduce.partials', 4 * PARTIAL_WORDS * Math.ceil(newCapacity / 256));
    this.capacity = newCapacity;
    device.queue.writeBuffer(this.params, 0, SimParams.pack(this.paramValues()));
  }
}
