// SortPhase (src-main/solver/phases/sort.ts, shaders/sort.wgsl) on particle arrays written by the
// test with the counts and arrival slots move.wgsl would leave: starts, cell-then-input order (stable),
// every attribute moved with its particle, removed ones gone; cells at every alignment of the order's blocks of four.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCase } from '../../src-main/common/case-schema.js';
import { WORKGROUP_SIZE } from '../../src-main/solver/gpu/buffers.js';
import { PipelineCache } from '../../src-main/solver/gpu/pipeline-cache.js';
import { CELL_WORD, CTL, STATS } from '../../src-main/solver/gpu/struct-layouts.js';
import { PARTICLE_ATTRIBUTES, SORT_SCRATCH, type ParticleAttribute } from '../../src-main/solver/particle-attributes.js';
import { SortPhase } from '../../src-main/solver/phases/sort.js';
import { SimState } from '../../src-main/solver/state.js';
import { buildTables } from '../../src-main/solver/tables.js';
import { expectNoGpuErrors, mulberry32, openGpu, readU32, runPass, type Gpu } from './gpu-helpers.js';

const INVALID = 0xffffffff;
const CAPACITY = 20_000;
let gpu: Gpu;
let state: SimState;
let sort: SortPhase;

// A periodic box of 12^3 = 1728 cells (two scan blocks), one species.
function boxCase() {
  return parseCase({
    name: 'sort-test',
    grid: { cells: [12, 12, 12], cellSize: [1e-3, 1e-3, 1e-3] },
    species: [{ name: 'Ar', mass: 6.63e-26, dRef: 4.17e-10, omega: 0.81, tRef: 273, alpha: 1 }],
    particles: { perCell: 5 },
    initial: { kind: 'maxwellian', numberDensity: 1e21, temperature: 300, velocity: [0, 0, 0] },
    boundaries: {
      xmin: { type: 'periodic' }, xmax: { type: 'periodic' }, ymin: { type: 'periodic' },
      ymax: { type: 'periodic' }, zmin: { type: 'periodic' }, zmax: { type: 'periodic' },
    },
    run: { steps: 1, dt: 1e-7 },
  });
}

beforeAll(async () => {
  gpu = await openGpu();
  const cache = new PipelineCache(gpu.device, { WG_SIZE: WORKGROUP_SIZE });
  state = new SimState(gpu.device, buildTables(boxCase()), CAPACITY, 4);
  sort = new SortPhase({ device: gpu.device, cache, state });
  sort.bind();
});
afterAll(() => gpu?.device.destroy());

type Particles = Record<ParticleAttribute, Uint32Array>;

// n particles in the given cell indices (INVALID = removed), random species bits, px = the input index
// (to identify particles after the gather) and random words in the other attributes.
function makeParticles(cells: Uint32Array, seed: number): Particles {
  const rnd = mulberry32(seed);
  const n = cells.length;
  const p = Object.fromEntries(PARTICLE_ATTRIBUTES.map((a) => [a, new Uint32Array(n).map(() => rnd())])) as Particles;
  p.px = Uint32Array.from({ length: n }, (_, i) => i);
  p.cell = cells.map((c) => (c === INVALID ? INVALID : c | ((rnd() % 4) << CELL_WORD.BITS)));
  return p;
}

// The list shuffled in place by `rnd` (Fisher-Yates), returned.
function shuffled(list: Uint32Array, rnd: () => number): Uint32Array {
  for (let i = list.length - 1; i > 0; i--) {
    const j = rnd() % (i + 1);
    [list[i], list[j]] = [list[j], list[i]];
  }
  return list;
}

// What move.wgsl leaves for the sort: per-cell counts and each particle's arrival slot, the slots
// handed out in a shuffled order as concurrent atomics would.
function countAndSlot(p: Particles, nCells: number, seed: number): { counts: Uint32Array; slots: Uint32Array } {
  const rnd = mulberry32(seed);
  const n = p.cell.length;
  const counts = new Uint32Array(nCells);
  const slots = new Uint32Array(n);
  for (const i of shuffled(Uint32Array.from({ length: n }, (_, i) => i), rnd)) {
    if (p.cell[i] === INVALID) continue;
    const c = p.cell[i] & CELL_WORD.MASK;
    slots[i] = counts[c]++;
  }
  return { counts, slots };
}

// Writes particles into set `from` with counts and arrival slots, sets N = N_ALL = n, runs the sort.
function runSort(p: Particles, from: 0 | 1, seed: number): Uint32Array {
  const device = gpu.device;
  const n = p.cell.length;
  const { counts, slots } = countAndSlot(p, state.tables.nCells, seed);
  for (const a of PARTICLE_ATTRIBUTES) device.queue.writeBuffer(state.sets[from][a], 0, p[a] as Uint32Array<ArrayBuffer>);
  device.queue.writeBuffer(state.countsOf(from), 0, counts);
  device.queue.writeBuffer(state.sets[1 - from][SORT_SCRATCH.slot], 0, slots);
  const ctl = new Uint32Array(CTL.WORDS);
  ctl[CTL.N] = n;
  ctl[CTL.N_ALL] = n;
  ctl[CTL.STATS_SLOT] = 0;
  device.queue.writeBuffer(state.ctl, 0, ctl);
  runPass(device, 'sort-test', (pass) => sort.encode(pass, from));
  return counts;
}

// Runs the sort and checks every promised property of its output against the host.
async function checkSort(p: Particles, from: 0 | 1): Promise<Uint32Array> {
  const hist = runSort(p, from, 99);
  const device = gpu.device;
  const nCells = state.tables.nCells;
  const n = p.cell.length;
  const survivors = p.cell.filter((w) => w !== INVALID).length;
  const ctl = await readU32(device, state.ctl, CTL.WORDS);
  expect(ctl[CTL.N], 'ctl N').toBe(survivors);
  expect((await readU32(device, state.stats, STATS.WORDS))[STATS.N_AFTER], 'stats N_AFTER of slot 0').toBe(survivors);
  const starts = await readU32(device, state.starts, nCells);
  let run = 0;
  for (let c = 0; c < nCells; c++) {
    expect(starts[c], `starts[${c}]`).toBe(run);
    run += hist[c];
  }
  // expected: cells in order, inside a cell the input order (a stable sort)
  const expected: number[] = [];
  const byCell: number[][] = Array.from({ length: nCells }, () => []);
  for (let i = 0; i < n; i++) if (p.cell[i] !== INVALID) byCell[p.cell[i] & CELL_WORD.MASK].push(i);
  for (const list of byCell) expected.push(...list);

  const out = {} as Particles;
  for (const a of PARTICLE_ATTRIBUTES) out[a] = await readU32(device, state.sets[1 - from][a], survivors);
  const problems: string[] = [];
  for (let k = 0; k < survivors && problems.length < 5; k++) {
    const i = expected[k];
    if (out.px[k] !== i) problems.push(`slot ${k}: particle ${out.px[k]}, expected ${i} (cell-then-input order)`);
    for (const a of PARTICLE_ATTRIBUTES) if (out[a][k] !== p[a][i]) problems.push(`slot ${k}: ${a} not moved with particle ${i}`);
  }
  expect(problems).toEqual([]);
  await expectNoGpuErrors(gpu);
  return hist;
}

describe('SortPhase', () => {
  it('sorts 15,000 particles in random cells', async () => {
    const rnd = mulberry32(1);
    const cells = new Uint32Array(15_000).map(() => rnd() % state.tables.nCells);
    await checkSort(makeParticles(cells, 11), 0);
  });

  it('sorts one cell holding 5000 particles and others scattered', async () => {
    const rnd = mulberry32(2);
    const cells = new Uint32Array(12_000).map((_, i) => (i % 12 < 5 ? 777 : rnd() % state.tables.nCells));
    await checkSort(makeParticles(cells, 12), 0);
  });

  it('drops removed particles (cell 0xffffffff) and lowers N, sorting from set 1 too', async () => {
    const rnd = mulberry32(3);
    const cells = new Uint32Array(14_000).map(() => (rnd() % 5 === 0 ? INVALID : rnd() % state.tables.nCells));
    cells[0] = INVALID;
    cells[cells.length - 1] = INVALID;
    await checkSort(makeParticles(cells, 13), 1);
  });

  it('orders cells of 1 to 13 particles starting at every offset of the count\'s blocks of four (count_below)', async () => {
    // cell c holds 1 + (c mod 13) particles, so the cells' starts (their prefix sums) fall on every offset mod 4 and a
    // cell lies within one block, spans two, or fills several; the particles are shuffled over the buffer
    const cells: number[] = [];
    for (let c = 0; c < 1000; c++) for (let k = 0; k <= c % 13; k++) cells.push(c);
    const hist = await checkSort(makeParticles(shuffled(Uint32Array.from(cells), mulberry32(4)), 15), 1);
    const offsets = new Set<string>();
    let start = 0;
    for (let c = 0; c < 1000; c++) {
      offsets.add(`${start % 4}:${hist[c] % 4}`);
      start += hist[c];
    }
    expect(offsets.size).toBe(16);
  });

  it('empties the set when every particle was removed', async () => {
    await checkSort(makeParticles(new Uint32Array(300).fill(INVALID), 14), 0);
  });
});
