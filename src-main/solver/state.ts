// All GPU buffers of one simulation: parameters and tables, two particle sets (the sort gathers
// from one into the other), per-cell arrays, the sampling state, control words and step statistics.
import { STORAGE, WORKGROUP_SIZE, makeBuffer, makeBufferWith } from './gpu/buffers.js';
import {
  ARRIVALS_HEADER_WORDS, CTL, FaceInfo, FaceSpecies, HALO_WORK, InitParams, PARTIAL_WORDS, PairInfo, REACTION_WORDS, STATS, SimParams, SpeciesInfo,
  SurfaceModel, SurfaceSpecies, UNIFORM_TABLES,
} from './gpu/struct-layouts.js';
import { SURFACE_WORDS } from '../common/surface-layout.js';
import { SAMPLE_PARTS, SampleBuffers, partPlanes, sampleLayout } from './sample-buffers.js';
import { speciesModes } from './internal-fields.js';
import { PARTICLE_ATTRIBUTES, SORT_SCRATCH, type ParticleSet } from './particle-attributes.js';
import { packBoxes, subdomainParams, wholeGrid, type Subdomain } from './subdomain.js';
import type { SolverTables } from './tables.js';
import { REACTION_TABLE_BYTES, packReactionTable } from './reaction-tables.js';
import type { Case } from '../common/case-schema.js';
import type { Int3 } from '../cluster/decomposition/types.js';
import { haloBufferBytes } from './halo-split.js';
import { stepTimeline } from './step-timeline.js';

const UNIFORM = 0x40 | 0x08; // UNIFORM | COPY_DST

/** Planes of nLocal words in split.mixed: the lowest and highest old cell of a cell's crossed particles' keys, and their count. */
const MIXED_PLANES = 3;

/** One buffer the solver will allocate, for the pre-launch memory check. */
export interface BufferRequirement {
  label: string;
  bytes: number;
}

/**
 * Room a rank of an open flow (inflow faces) starts with beyond its share, as a factor: where the flow develops,
 * particles gather in some ranks' cells (a shock layer ahead of a body, a compressed corner) and leave others (a wake),
 * away from the split by gas volume. Measured on the hypersonic wedge at full size on 4 H100s (docs/PERFORMANCE.md,
 * ninth session, call 5): its ranks ended with up to 25 % more particles than a quarter of all, and two of them, starting
 * without room, grew their buffers in the loop (each some 80 ms of host work and a redone step that every rank waited for); 1.4 times the
 * share spared both (+3.9 %). A rank that gathers more still grows.
 */
export const RANK_GATHER_ROOM = 1.4;

/**
 * Particle capacity to start with. A closed box keeps its initial count exactly; with inflow the
 * count heads for the reference fill (plus 10 % and a batch of injection with margin); the loop
 * grows the buffers between submits if the flow packs in more. A rank of several holds its share (by cells) of
 * that, with room for particles gathering in its cells where the flow is open (RANK_GATHER_ROOM).
 */
export function initialCapacity(t: SolverTables, stepsPerSubmit: number, share = 1, gatherRoom = true): number {
  // a rank of a multi-rank run holds about its share of the cells' particles, plus 6 sigma and 3 % for the
  // particles that arrive in a step before those that leave are dropped by the sort
  const spread = (n: number) => share * n + (share < 1 ? 0.03 * share * n + 6 * Math.sqrt(share * n) + 4096 : 0);
  if (t.nFaceCells === 0) return Math.ceil(spread(t.initialParticles) + 1024);
  const gather = share < 1 && gatherRoom ? RANK_GATHER_ROOM : 1;
  const base = gather * Math.max(spread(t.initialParticles), 1.1 * spread(t.referenceParticles));
  const inj = t.injectionPerStep * stepsPerSubmit;
  return Math.ceil(base + inj + 10 * Math.sqrt(inj) + 1024);
}

/**
 * A rank's first capacity: with room for gathering particles (initialCapacity) where every buffer it plans then fits the
 * adapter's largest buffer and binding, else without (the room is a convenience; a rank whose share fits runs).
 */
export function rankCapacity(t: SolverTables, stepsPerSubmit: number, share: number, nLocal: number, worldSize: number, limits: { maxBinding: number; maxBuffer: number }): number {
  const roomy = initialCapacity(t, stepsPerSubmit, share);
  const largest = Math.min(limits.maxBinding, limits.maxBuffer);
  return bufferPlan(t, roomy, nLocal, worldSize).every((b) => b.bytes <= largest) ? roomy : initialCapacity(t, stepsPerSubmit, share, false);
}

/**
 * DSMC_CAPACITY_FACTOR=F (a benchmark switch, issue 24): particle buffers start F times the planned capacity (F >= 1),
 * for measuring what idle slots cost the passes dispatched over the capacity and what room spares a growing rank.
 */
export function capacityFactorFromEnvironment(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.DSMC_CAPACITY_FACTOR;
  if (raw === undefined || raw === '') return 1;
  const f = Number(raw);
  if (!(f >= 1 && f <= 16)) throw new Error(`DSMC_CAPACITY_FACTOR is ${JSON.stringify(raw)}: give a number from 1 to 16 (the particle buffers start that many times the planned capacity), or leave it unset`);
  return f;
}

/** Room for `injected` expected injected particles: 10 standard deviations and 64 more (Poisson counts). */
export function injectionMargin(injected: number): number {
  return injected + 10 * Math.sqrt(injected) + 64;
}

/** Migrant slots per destination rank to start with: ~2 % of the particles, at least 4096. */
export function initialSegmentCapacity(capacity: number, worldSize: number): number {
  return worldSize > 1 ? Math.max(4096, Math.ceil(0.02 * capacity)) : 1;
}

/** Bytes of one particle array: 4 per particle, rounded up to 16 (sample.wgsl reads the arrays as vec4s). */
export function particleArrayBytes(capacity: number): number {
  return 16 * Math.ceil(capacity / 4);
}

/** Records of the totals' second-level partials for `capacity` particles: one per 256 workgroups of 256 (reduce.wgsl). */
export function secondPartials(capacity: number): number {
  return Math.max(1, Math.ceil(Math.ceil(capacity / 256) / 256));
}

/** Every buffer of a run with this capacity, largest first (nLocal: cells the per-cell arrays hold). */
export function bufferPlan(t: SolverTables, capacity: number, nLocal = t.nCells, worldSize = 1): BufferRequirement[] {
  const layout = sampleLayout(t);
  const plan: BufferRequirement[] = [];
  for (const set of ['A', 'B']) for (const a of PARTICLE_ATTRIBUTES) plan.push({ label: `particles.${a}.${set}`, bytes: particleArrayBytes(capacity) });
  if (t.hasRotation) for (const set of ['A', 'B']) plan.push({ label: `particles.eint.${set}`, bytes: particleArrayBytes(t.internalWords * capacity) });
  for (const part of SAMPLE_PARTS) plan.push({ label: `sample.${part}`, bytes: t.sampling ? 4 * partPlanes(part, layout) * nLocal : 4 });
  for (const a of ['cell.counts', 'cell.starts', 'cell.sigmaCrMax', 'cell.remainder']) plan.push({ label: a, bytes: 4 * nLocal });
  plan.push({ label: 'reduce.partials', bytes: 4 * PARTIAL_WORDS * Math.ceil(capacity / 256) });
  plan.push({ label: 'reduce.partials2', bytes: 4 * PARTIAL_WORDS * secondPartials(capacity) });
  plan.push({ label: 'inject.counts', bytes: 4 * t.nFaceCells }, { label: 'inject.starts', bytes: 4 * t.nFaceCells });
  plan.push({ label: 'bodies.data', bytes: t.bodies.bodyData.byteLength }, { label: 'surface.sums', bytes: 4 * SURFACE_WORDS * t.bodies.gpuElements });
  if (t.bodies.volumeFraction) plan.push({ label: 'cell.volumeFraction', bytes: 4 * t.nCells });
  if (worldSize > 1) {
    // per particle set (a rank moves one set's interior particles while the other set's halo pass still reads its own)
    for (const set of ['A', 'B']) {
      plan.push({ label: `particles.keys.${set}`, bytes: 8 * capacity }, { label: `particles.slots.${set}`, bytes: 4 * capacity });
      plan.push({ label: `particles.moved.${set}`, bytes: 4 * capacity });
      plan.push({ label: `cell.counts.${set}`, bytes: 4 * nLocal });
    }
    plan.push({ label: 'split.haloParticles', bytes: 4 * capacity }, { label: 'split.haloWork', bytes: 4 * HALO_WORK.WORDS });
    for (const a of ['split.masked', 'split.scanned', 'split.savedSigmaCrMax', 'split.savedRemainder']) plan.push({ label: a, bytes: 4 * nLocal });
    plan.push({ label: 'split.mixed', bytes: 4 * MIXED_PLANES * nLocal });
    plan.push({ label: 'split.halo', bytes: haloBufferBytes(nLocal) });
    for (const set of ['A', 'B']) plan.push({ label: `migrate.out.${set}`, bytes: 4 * t.migrantWords * worldSize * initialSegmentCapacity(capacity, worldSize) });
    plan.push({ label: 'migrate.arrivals', bytes: 4 * (ARRIVALS_HEADER_WORDS + t.migrantWords * initialSegmentCapacity(capacity, worldSize)) });
  }
  return plan.sort((a, b) => b.bytes - a.bytes);
}

/** The packed bytes of a uniform table, zero-padded to the fixed length its WGSL array declares. */
function padded(packed: ArrayBuffer, bytes: number): ArrayBuffer {
  if (packed.byteLength > bytes) throw new Error(`internal: a uniform table of ${packed.byteLength} bytes exceeds its ${bytes}-byte WGSL array`);
  const out = new Uint8Array(bytes);
  out.set(new Uint8Array(packed));
  return out.buffer;
}

/** Creates one set of particle arrays. */
function makeParticleSet(device: GPUDevice, name: string, capacity: number): ParticleSet {
  const set = {} as ParticleSet;
  for (const a of PARTICLE_ATTRIBUTES) set[a] = makeBuffer(device, `particles.${a}.${name}`, particleArrayBytes(capacity));
  return set;
}

/** How much room per-cell buffers made by a re-split get over the rank's new cells. */
const CELL_ROOM_GROWTH = 1.25;

/**
 * The room (a multiple of its cells) a rank of a run that may re-split gets in its per-cell buffers from the start: a
 * re-split within it makes none (on the hypersonic wedge the largest rank's new per-cell buffers took 93-150 ms of its
 * re-split, docs/PERFORMANCE.md); some 50 bytes a cell of GPU memory.
 */
export const CELL_ROOM_FOR_REBALANCING = 1.5;

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
  /** Bodies (body.wgsl bodyData), the surface models and their species entries (uniform tables). */
  readonly bodyData: GPUBuffer;
  readonly surfModels: GPUBuffer;
  readonly surfSpecies: GPUBuffer;
  /** 64-bit fixed-point surface sums per element (SURFACE_WORDS words each), cleared after each read. */
  readonly surfSums: GPUBuffer;
  /** Reactions (react.wgsl): the reaction table (uniform; zeros without reactions) and the products' entries (three regions of productCap: common.wgsl product_final). */
  readonly reactionTable: GPUBuffer;
  productInfo: GPUBuffer;
  productCap: number;
  /** Gas volume fraction of every global cell (collide.wgsl; a stub of ones without bodies). */
  readonly volumeFraction: GPUBuffer;
  /**
   * Per-cell particle counts of each particle set's move (countsOf; the sort of that set scans them, the collide and
   * sampling of the sorted set read them). A rank of several keeps one per set, so that the next step's move of one
   * set can count while the halo pass of the other still reads its counts; one rank has one buffer for both.
   */
  private countsBySet: [GPUBuffer, GPUBuffer];
  starts: GPUBuffer;
  sigmaCrMax: GPUBuffer;
  remainder: GPUBuffer;
  /** The sampled fields' state: exact sums of the run and the open block, batch means (sample-buffers.ts). */
  readonly sample: SampleBuffers;
  readonly injCounts: GPUBuffer;
  readonly injStarts: GPUBuffer;
  readonly boxes: GPUBuffer;
  /** Migrants per destination rank of each set's move (entry worldSize: misrouted arrivals; multi-rank; stubs otherwise). */
  private migCountsBySet: [GPUBuffer, GPUBuffer];
  sets: [ParticleSet, ParticleSet];
  /** Internal energy per particle (internalWords f32 words: rotational, vibrational; J) of each particle set (16-byte stubs when no species rotates). */
  eint: [GPUBuffer, GPUBuffer];
  partials: GPUBuffer;
  /** The partials summed 256 at a time on the GPU (reduce.wgsl:reduce_partials): what the host reads. */
  partials2: GPUBuffer;
  /**
   * In-cell order keys per particle set, indexed like that set's particles (multi-rank; a stub otherwise): written for
   * the particles that did not move here (injected, arrived, the first fill, a relayout); a moved particle is ordered
   * by its cell before the move (sort.wgsl: order_key).
   */
  private keysBySet: [GPUBuffer, GPUBuffer];
  /**
   * Cell words after each set's move (multi-rank; a stub otherwise): the move leaves the set's cell array with the
   * words before it, which the sort orders moved particles by; injection, arrivals, the first fill and a relayout write
   * here too, and the sort gathers these words into the other set's cell array.
   */
  private movedBySet: [GPUBuffer, GPUBuffer];
  /**
   * Arrival slots of the sort per particle set (multi-rank; a stub otherwise): on one rank the slots live in the idle
   * set's vz array, but a split step's interior pass fills part of the idle set while the halo pass still needs them.
   */
  private slotsBySet: [GPUBuffer, GPUBuffer];
  /** Migrants of each set's move per destination rank, segCap slots each (multi-rank; a stub otherwise). */
  private migOutBySet: [GPUBuffer, GPUBuffer];
  /** Particles arrived from other ranks, before append_arrivals (multi-rank; grown as needed). */
  arrivals: GPUBuffer;
  segCap: number;
  /**
   * Split steps (multi-rank; a stub otherwise): one bit per local cell in the halo (haloBitWords words), then the halo
   * cells' local ids, written by the loop (halo-split.ts).
   */
  halo!: GPUBuffer;
  /**
   * Split steps: the particles of halo cells the interior pass met (their indices; the halo pass scatters those and the
   * arrivals instead of scanning every particle), and the words of HALO_WORK (the list length).
   */
  haloParticles: GPUBuffer;
  readonly haloWork: GPUBuffer;
  /** Halo cells listed in `halo` (the halo pass's per-cell dispatches). */
  haloCells = 0;
  /** Split steps: this pass's cell counts, the halo scan, and the per-cell collision state saved before the interior pass. */
  split!: { masked: GPUBuffer; scanned: GPUBuffer; savedSigmaCrMax: GPUBuffer; savedRemainder: GPUBuffer; mixed: GPUBuffer };
  /** Which particle set holds the live particles between steps. */
  current: 0 | 1 = 0;
  /**
   * The host's bound on the particles a per-particle pass of the steps being recorded can meet (the loop sets it:
   * particlesNeeded on one rank, the step before's count with its arrivals and one step's injection on several). Those
   * passes are dispatched for it rather than the capacity, so that idle slots cost nothing (issue 24: 2.5 us a
   * million slots a pass on an H100), and loop over any more: a low bound costs time, never particles.
   */
  liveBound = Infinity;
  /** Tests: invocations of every per-particle pass, whatever the bound (one workgroup exercises the kernels' loops). */
  fixedParticleThreads: number | undefined;
  nLocal: number;
  /** Cells the per-cell buffers hold (nLocal or more: room a re-split may fill without new buffers). */
  private cellRoom: number;
  /** The starts buffer a relayout read (the layout before it), kept as the next re-split's new one. */
  private spareStarts: GPUBuffer | null = null;
  readonly multiRank: boolean;

  subdomain: Subdomain;
  /** The subdomain before a rebalance, while its relayout runs (params' old box); undefined otherwise. */
  private oldSubdomain: Subdomain | undefined;

  /** Invocations of a pass over the live particles: the live bound within the capacity (at least one workgroup). */
  particleThreads(): number {
    return this.fixedParticleThreads ?? Math.max(WORKGROUP_SIZE, Math.min(this.capacity, Math.ceil(this.liveBound)));
  }

  /** subdomain: the rank's part of the grid (default: the whole grid, one rank). */
  constructor(private readonly device: GPUDevice, readonly tables: SolverTables, public capacity: number, readonly statsRing: number,
    subdomain?: Subdomain, kase?: Case, cellRoom?: number) {
    const t = tables;
    this.subdomain = subdomain ?? wholeGrid([t.simParams.nx, t.simParams.ny, t.simParams.nz]);
    this.nLocal = this.subdomain.nLocal;
    this.cellRoom = Math.max(this.nLocal, cellRoom ?? 0);
    this.multiRank = this.subdomain.worldSize > 1;
    this.segCap = initialSegmentCapacity(capacity, this.subdomain.worldSize);
    this.params = makeBufferWith(device, 'params', SimParams.pack(this.paramValues()), UNIFORM);
    this.initParams = makeBufferWith(device, 'init-params', InitParams.pack(t.init), UNIFORM);
    this.ctl = makeBufferWith(device, 'control', this.initialControl(), STORAGE);
    // the step ring, then (reactions) the products' and tallies' words (REACTION_WORDS)
    this.stats = makeBuffer(device, 'step-stats', 4 * (STATS.WORDS * statsRing + (t.reactions ? REACTION_WORDS.WORDS : 0)));
    this.reactionTable = makeBufferWith(device, 'reactions.table', t.reactions && kase ? packReactionTable(kase, t.reactions) : new ArrayBuffer(REACTION_TABLE_BYTES), UNIFORM);
    this.productCap = t.reactions?.dissociates ? Math.max(4096, Math.ceil(t.reactions.productsPerStep * 4)) : 1;
    this.productInfo = makeBuffer(device, 'reactions.products', 3 * 16 * this.productCap);
    this.pairs = makeBufferWith(device, 'pairs', PairInfo.packArray(t.pairs), STORAGE);
    this.speciesInfo = makeBufferWith(device, 'species', SpeciesInfo.packArray(t.species), STORAGE);
    this.faces = makeBufferWith(device, 'faces', FaceInfo.packArray(t.faces), UNIFORM);
    this.faceSpecies = makeBufferWith(device, 'face-species', padded(FaceSpecies.packArray(t.faceSpecies), 6 * UNIFORM_TABLES.MAX_SPECIES * FaceSpecies.byteSize), UNIFORM);
    const b = t.bodies;
    this.bodyData = makeBufferWith(device, 'bodies.data', b.bodyData, STORAGE);
    this.surfModels = makeBufferWith(device, 'surface.models', padded(SurfaceModel.packArray(b.surfModels), UNIFORM_TABLES.MAX_SURFACE_MODELS * SurfaceModel.byteSize), UNIFORM);
    this.surfSpecies = makeBufferWith(device, 'surface.species',
      padded(SurfaceSpecies.packArray(b.surfSpecies), UNIFORM_TABLES.MAX_SURFACE_MODELS * UNIFORM_TABLES.MAX_SPECIES * SurfaceSpecies.byteSize), UNIFORM);
    this.surfSums = makeBuffer(device, 'surface.sums', 4 * SURFACE_WORDS * b.gpuElements);
    this.volumeFraction = makeBufferWith(device, 'cell.volumeFraction', b.volumeFraction ? Float32Array.from(b.volumeFraction) : new Float32Array(4).fill(1), STORAGE);
    const nLocal = this.nLocal;
    const room = this.cellRoom;
    this.countsBySet = this.makeCounts(room);
    this.starts = makeBuffer(device, 'cell.starts', 4 * room);
    this.sigmaCrMax = makeBufferWith(device, 'cell.sigmaCrMax', new Float32Array(room).fill(t.sigmaCrMaxInit), STORAGE);
    this.remainder = makeBuffer(device, 'cell.remainder', 4 * room);
    this.sample = new SampleBuffers(device, sampleLayout(t), t.sampling, nLocal, t.species.map((x) => x.mass / t.species[0].mass), speciesModes(t));
    this.injCounts = makeBuffer(device, 'inject.counts', 4 * t.nFaceCells);
    this.injStarts = makeBuffer(device, 'inject.starts', 4 * t.nFaceCells);
    this.sets = [makeParticleSet(device, 'A', capacity), makeParticleSet(device, 'B', capacity)];
    this.eint = [this.makeEint('A', capacity), this.makeEint('B', capacity)];
    this.partials = makeBuffer(device, 'reduce.partials', 4 * PARTIAL_WORDS * Math.ceil(capacity / 256));
    this.partials2 = makeBuffer(device, 'reduce.partials2', 4 * PARTIAL_WORDS * secondPartials(capacity));
    this.boxes = makeBufferWith(device, 'boxes', packBoxes(this.subdomain), UNIFORM);
    this.migCountsBySet = this.perSet((set) => makeBuffer(device, `migrate.counts.${set}`, 4 * (this.subdomain.worldSize + 1)));
    this.keysBySet = this.perSet((set) => makeBuffer(device, `particles.keys.${set}`, this.multiRank ? 8 * capacity : 16));
    this.slotsBySet = this.perSet((set) => makeBuffer(device, `particles.slots.${set}`, this.multiRank ? 4 * capacity : 16));
    this.movedBySet = this.perSet((set) => makeBuffer(device, `particles.moved.${set}`, this.multiRank ? 4 * capacity : 16));
    this.haloParticles = makeBuffer(device, 'split.haloParticles', this.multiRank ? 4 * capacity : 16);
    this.haloWork = makeBuffer(device, 'split.haloWork', 4 * HALO_WORK.WORDS);
    this.migOutBySet = this.makeMigrantBuffers();
    // as many arrivals as one destination's migrant segment holds: the first steps need no regrowth (and rebinding)
    this.arrivals = makeBuffer(device, 'migrate.arrivals', 4 * (ARRIVALS_HEADER_WORDS + this.tables.migrantWords * (this.multiRank ? this.segCap : 1)));
    this.makeSplitBuffers();
  }

  /** Two buffers made by `make` (set name A or B), or one buffer for both on one rank (nothing overlaps there). */
  private perSet(make: (set: string) => GPUBuffer): [GPUBuffer, GPUBuffer] {
    const a = make('A');
    return [a, this.multiRank ? make('B') : a];
  }

  /** The per-cell count buffers of both sets for nLocal cells. */
  private makeCounts(nLocal: number): [GPUBuffer, GPUBuffer] {
    return this.perSet((set) => makeBuffer(this.device, `cell.counts.${set}`, 4 * nLocal));
  }

  /** The migrant buffers of both sets for the current segCap. */
  private makeMigrantBuffers(): [GPUBuffer, GPUBuffer] {
    return this.perSet((set) => makeBuffer(this.device, `migrate.out.${set}`, 4 * this.tables.migrantWords * this.subdomain.worldSize * this.segCap));
  }

  /** Per-cell counts of set `set`'s move (what its sort scans; the collide and sampling of the set sorted from it read them). */
  countsOf(set: 0 | 1): GPUBuffer {
    return this.countsBySet[set];
  }

  /** The in-cell order keys of set `set`'s particles (multi-rank; a stub otherwise). */
  keysOf(set: 0 | 1): GPUBuffer {
    return this.keysBySet[set];
  }

  /** What move.wgsl binds as `moved`: set `set`'s moved-cell array (multi-rank; a stub on one rank, whose move writes the cell array in place). */
  movedOf(set: 0 | 1): GPUBuffer {
    return this.movedBySet[set];
  }

  /**
   * The cell words of set `set`'s particles after its move, injection and arrivals (what its sort reads and gathers):
   * the moved-cell array on several ranks, the set's own cell array on one rank.
   */
  cellsAfterMove(set: 0 | 1): GPUBuffer {
    return this.multiRank ? this.movedBySet[set] : this.sets[set].cell;
  }

  /** The migrant buffer of set `set`'s move (multi-rank; a stub otherwise). */
  migOutOf(set: 0 | 1): GPUBuffer {
    return this.migOutBySet[set];
  }

  /** Migrants per destination of set `set`'s move (multi-rank). */
  migCountsOf(set: 0 | 1): GPUBuffer {
    return this.migCountsBySet[set];
  }

  /** Per-cell counts of the last sort (the step just done): those of the set it sorted from. */
  get lastCounts(): GPUBuffer {
    return this.countsOf(this.current === 0 ? 1 : 0);
  }

  /** Destroys a per-set pair (one buffer on one rank). */
  private destroyPair(pair: [GPUBuffer, GPUBuffer]): void {
    pair[0].destroy();
    if (pair[1] !== pair[0]) pair[1].destroy();
  }

  /** The internal energy array of one particle set (internalWords J per molecule; a 16-byte stub when nothing rotates). */
  private makeEint(name: string, capacity: number): GPUBuffer {
    return makeBuffer(this.device, `particles.eint.${name}`, this.tables.hasRotation ? particleArrayBytes(this.tables.internalWords * capacity) : 16);
  }

  /** (Re)creates the split-step buffers for cellRoom cells (the halo bits start empty: no halo). */
  private makeSplitBuffers(): void {
    const device = this.device;
    const bytes = this.multiRank ? 4 * this.cellRoom : 16;
    this.halo = makeBuffer(device, 'split.halo', this.multiRank ? haloBufferBytes(this.cellRoom) : 16);
    this.split = {
      masked: makeBuffer(device, 'split.masked', bytes),
      scanned: makeBuffer(device, 'split.scanned', bytes),
      savedSigmaCrMax: makeBuffer(device, 'split.savedSigmaCrMax', bytes),
      savedRemainder: makeBuffer(device, 'split.savedRemainder', bytes),
      // per local cell: the lowest and highest old cell of its crossed particles' keys, and their count (sort.wgsl)
      mixed: makeBuffer(device, 'split.mixed', MIXED_PLANES * bytes),
    };
  }

  /** The grid's cells per axis. */
  get grid(): Int3 {
    const p = this.tables.simParams;
    return [p.nx, p.ny, p.nz];
  }

  /** SimParams values including the capacity- and subdomain-dependent ones. */
  private paramValues(): Record<string, number> {
    return { ...this.tables.simParams, capacity: this.capacity, statsRing: this.statsRing, ...subdomainParams(this.subdomain, this.grid, this.segCap, this.oldSubdomain) };
  }

  /** Control words at step 0: one rank fills slots 0..count-1; ranks of a multi-rank run append what they own. */
  private initialControl(): Uint32Array {
    const ctl = new Uint32Array(CTL.WORDS);
    const n = this.multiRank ? 0 : this.tables.initialParticles;
    ctl[CTL.N] = n;
    ctl[CTL.N_ALL] = n;
    return ctl;
  }

  /**
   * Moves this rank to a new subdomain after a rebalance: new per-cell arrays (with the cells' (sigma c_r)_max
   * and remainders as the orchestrator gathered them), params with the new box and the old base; returns the
   * old starts buffer, which move.wgsl:relayout reads (the caller destroys it afterwards). The sampling state is not
   * among them: the caller reallocates it (sample.reallocate) once the relayout's first pass is on the GPU.
   */
  resubdomain(sub: Subdomain, sigmaCrMax: Float32Array, remainder: Float32Array): GPUBuffer {
    const device = this.device;
    const old = this.subdomain;
    const oldStarts = this.starts;
    let t = performance.now();
    // the parts' host time in the timeline (DSMC_TIMELINE_DIR)
    const part = (name: string) => {
      stepTimeline?.hostEvent(`resubdomain ${name}`, t);
      t = performance.now();
    };
    this.subdomain = sub;
    this.nLocal = sub.nLocal;
    const cells = [this.sigmaCrMax, this.remainder, this.halo, ...Object.values(this.split), ...new Set(this.countsBySet)];
    const spare = this.spareStarts;
    this.spareStarts = null;
    if (sub.nLocal <= this.cellRoom) {
      // the per-cell buffers hold the new cells: kept, and cleared as new ones would be (nothing of the old layout left)
      this.starts = spare ?? makeBuffer(device, 'cell.starts', 4 * this.cellRoom);
      const enc = device.createCommandEncoder({ label: 'resubdomain-clear' });
      for (const b of spare ? [...cells, spare] : cells) enc.clearBuffer(b);
      device.queue.submit([enc.finish()]);
      part('per-cell buffers kept and cleared');
    } else {
      for (const b of cells) b.destroy();
      spare?.destroy();
      part('destroyed');
      // new ones with room for more cells (the next re-split may give this rank more still)
      this.cellRoom = Math.ceil(CELL_ROOM_GROWTH * sub.nLocal);
      this.makeSplitBuffers();
      this.countsBySet = this.makeCounts(this.cellRoom);
      this.starts = makeBuffer(device, 'cell.starts', 4 * this.cellRoom);
      part('split, counts, starts made');
      this.sigmaCrMax = makeBuffer(device, 'cell.sigmaCrMax', 4 * this.cellRoom);
      this.remainder = makeBuffer(device, 'cell.remainder', 4 * this.cellRoom);
    }
    device.queue.writeBuffer(this.sigmaCrMax, 0, sigmaCrMax as Float32Array<ArrayBuffer>);
    device.queue.writeBuffer(this.remainder, 0, remainder as Float32Array<ArrayBuffer>);
    part('collision state written');
    this.oldSubdomain = old;
    device.queue.writeBuffer(this.params, 0, SimParams.pack(this.paramValues()));
    device.queue.writeBuffer(this.boxes, 0, packBoxes(sub));
    return oldStarts;
  }

  /** Takes back the old starts buffer once a relayout read it: the next re-split's new starts, if it has the room. */
  releaseOldStarts(oldStarts: GPUBuffer): void {
    if (oldStarts.size >= 4 * this.cellRoom) this.spareStarts = oldStarts;
    else oldStarts.destroy();
  }

  /** Restores params' old box to the current one once a relayout is done. */
  settleLayout(): void {
    this.oldSubdomain = undefined;
    this.device.queue.writeBuffer(this.params, 0, SimParams.pack(this.paramValues()));
  }

  /** Resizes both sets' migrant buffers to `segCap` slots per destination, larger or smaller (their contents are collected again afterwards, or no longer needed). */
  growMigrants(segCap: number): void {
    const t0 = performance.now();
    this.destroyPair(this.migOutBySet);
    this.segCap = segCap;
    this.migOutBySet = this.makeMigrantBuffers();
    this.device.queue.writeBuffer(this.params, 0, SimParams.pack(this.paramValues()));
    stepTimeline?.hostEvent(`migrant segments ${segCap}`, t0);
  }

  /**
   * Makes room for `perStep` products of one step (three regions: the step's as made, and the appended ones of odd and
   * even steps, which stay readable, so every region is kept). True when reallocated (rebind).
   */
  ensureProducts(perStep: number): boolean {
    if (perStep <= this.productCap) return false;
    const cap = Math.ceil(1.5 * perStep);
    const fresh = makeBuffer(this.device, 'reactions.products', 3 * 16 * cap);
    const enc = this.device.createCommandEncoder({ label: 'grow-products' });
    for (const half of [0, 1, 2]) enc.copyBufferToBuffer(this.productInfo, half * 16 * this.productCap, fresh, half * 16 * cap, 16 * this.productCap);
    this.device.queue.submit([enc.finish()]);
    this.productInfo.destroy();
    this.productInfo = fresh;
    this.productCap = cap;
    return true;
  }

  /** The adapter's largest storage-buffer binding, bytes. */
  get maxBinding(): number {
    return Number(this.device.limits.maxStorageBufferBindingSize);
  }

  /** Makes room for `count` arrived particles (and their count) in the arrivals buffer; true when it was reallocated (rebind). */
  ensureArrivals(count: number): boolean {
    const bytes = 4 * (ARRIVALS_HEADER_WORDS + this.tables.migrantWords * count);
    if (bytes <= this.arrivals.size) return false;
    const t0 = performance.now();
    this.arrivals.destroy();
    // headroom for the next steps, within the adapter's binding size (a relayout round's arrivals are bounded below it)
    this.arrivals = makeBuffer(this.device, 'migrate.arrivals', Math.max(bytes, Math.min(Math.ceil(1.5 * bytes), this.maxBinding)));
    stepTimeline?.hostEvent(`arrivals ${count}`, t0);
    return true;
  }

  /** Where the sort of set `set` (into the other set) keeps each particle's arrival slot. */
  slotsFor(set: 0 | 1): GPUBuffer {
    return this.multiRank ? this.slotsBySet[set] : this.sets[1 - set][SORT_SCRATCH.slot];
  }

  /** Particle arrays holding the live particles. */
  get live(): ParticleSet {
    return this.sets[this.current];
  }

  /** Internal energy words of the live particles (a stub when nothing rotates). */
  get liveEint(): GPUBuffer {
    return this.eint[this.current];
  }

  /** Particle arrays not in use between steps (the sort's scratch and destination). */
  get idle(): ParticleSet {
    return this.sets[1 - this.current];
  }

  /**
   * Reallocates the particle arrays with a larger capacity, copying the n live particles (and, in the
   * middle of a step, the live set's arrival slots, order keys and cell words after the move of the first
   * `scratchCount`); the other set's are not kept. Callers must rebuild their bind groups afterwards.
   */
  grow(newCapacity: number, liveCount: number, scratchCount = 0): void {
    const t0 = performance.now();
    const device = this.device;
    const fresh = makeParticleSet(device, this.current === 0 ? 'A' : 'B', newCapacity);
    const other = makeParticleSet(device, this.current === 0 ? 'B' : 'A', newCapacity);
    const freshEint = this.makeEint(this.current === 0 ? 'A' : 'B', newCapacity);
    const otherEint = this.makeEint(this.current === 0 ? 'B' : 'A', newCapacity);
    const keys = this.perSet((set) => makeBuffer(device, `particles.keys.${set}`, this.multiRank ? 8 * newCapacity : 16));
    const slots = this.perSet((set) => makeBuffer(device, `particles.slots.${set}`, this.multiRank ? 4 * newCapacity : 16));
    const moved = this.perSet((set) => makeBuffer(device, `particles.moved.${set}`, this.multiRank ? 4 * newCapacity : 16));
    const live = this.current;
    const enc = device.createCommandEncoder({ label: 'grow' });
    for (const a of PARTICLE_ATTRIBUTES) if (liveCount > 0) enc.copyBufferToBuffer(this.live[a], 0, fresh[a], 0, 4 * liveCount);
    if (this.tables.hasRotation && liveCount > 0) enc.copyBufferToBuffer(this.liveEint, 0, freshEint, 0, 4 * this.tables.internalWords * liveCount);
    if (scratchCount > 0) {
      if (this.multiRank) {
        enc.copyBufferToBuffer(this.slotsBySet[live], 0, slots[live], 0, 4 * scratchCount);
        enc.copyBufferToBuffer(this.keysBySet[live], 0, keys[live], 0, 8 * scratchCount);
        enc.copyBufferToBuffer(this.movedBySet[live], 0, moved[live], 0, 4 * scratchCount);
      } else {
        enc.copyBufferToBuffer(this.idle[SORT_SCRATCH.slot], 0, other[SORT_SCRATCH.slot], 0, 4 * scratchCount);
      }
    }
    device.queue.submit([enc.finish()]);
    for (const set of this.sets) for (const a of PARTICLE_ATTRIBUTES) set[a].destroy();
    for (const e of this.eint) e.destroy();
    this.eint = this.current === 0 ? [freshEint, otherEint] : [otherEint, freshEint];
    this.destroyPair(this.keysBySet);
    this.keysBySet = keys;
    this.destroyPair(this.slotsBySet);
    this.slotsBySet = slots;
    this.destroyPair(this.movedBySet);
    this.movedBySet = moved;
    // the list is rebuilt by the next interior pass (a step whose buffers grew after it is redone whole)
    this.haloParticles.destroy();
    this.haloParticles = makeBuffer(device, 'split.haloParticles', this.multiRank ? 4 * newCapacity : 16);
    this.sets = this.current === 0 ? [fresh, other] : [other, fresh];
    this.partials.destroy();
    this.partials = makeBuffer(device, 'reduce.partials', 4 * PARTIAL_WORDS * Math.ceil(newCapacity / 256));
    this.partials2.destroy();
    this.partials2 = makeBuffer(device, 'reduce.partials2', 4 * PARTIAL_WORDS * secondPartials(newCapacity));
    this.capacity = newCapacity;
    device.queue.writeBuffer(this.params, 0, SimParams.pack(this.paramValues()));
    stepTimeline?.hostEvent(`particles ${newCapacity}`, t0);
  }
}
