// SortPhase (src-main/solver/phases/sort.ts, shaders/sort.wgsl) on particle arrays written by the
// test: counts, starts, cell-then-id order, every attribute moved with its particle, removed ones gone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCase } from '../../src-main/common/case-schema.js';
import { WORKGROUP_SIZE } from '../../src-main/solver/gpu/buffers.js';
import { PipelineCache } from '../../src-main/solver/gpu/pipeline-cache.js';
import { CTL, STATS } from '../../src-main/solver/gpu/struct-layouts.js';
import { PARTICLE_ATTRIBUTES, type ParticleAttribute } from '../../src-main/solver/particle-attributes.js';
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

// n particles with the given cells, unique shuffled ids and random words in every other attribute.
function makeParticles(cells: Uint32Array, seed: number): Particles {
  const rnd = mulberry32(seed);
  const n = cells.length;
  const p = Object.fromEntries(PARTICLE_ATTRIBUTES.map((a) => [a, new Uint32Array(n).map(() => rnd())])) as Particles;
  p.cell = cells;
  const ids = Uint32Array.from({ length: n }, (_, i) => 3 + 7 * i);
  for (let i = n - 1; i > 0; i--) {
    const j = rnd() % (i + 1);
    [ids[i], ids[j]] = [ids[j], ids[i]];
  }
  p.pid = ids;
  return p;
}

// Writes particles into set `from`, sets N = N_ALL = n and statistics slot 0, runs the sort.
function runSort(p: Particles, from: 0 | 1): void {
  const device = gpu.device;
  const n = p.cell.length;
  for (const a of PARTICLE_ATTRIBUTES) device.queue.writeBuffer(state.sets[from][a], 0, p[a] as Uint32Array<ArrayBuffer>);
  const ctl = new Uint32Array(CTL.WORDS);
  ctl[CTL.N] = n;
  ctl[CTL.N_ALL] = n;
  ctl[CTL.STATS_SLOT] = 0;
  device.queue.writeBuffer(state.ctl, 0, ctl);
  runPass(device, 'sort-test', (pass) => sort.encode(pass, from));
}

// Runs the sort and checks every promised property of its output against the host.
async function checkSort(p: Particles, from: 0 | 1): Promise<void> {
  runSort(p, from);
  const device = gpu.device;
  const nCells = state.tables.nCells;
  const n = p.cell.length;
  const hist = new Uint32Array(nCells);
  const index = new Map<number, number>(); // pid -> input index of surviving particles
  for (let i = 0; i < n; i++) {
    if (p.cell[i] === INVALID) continue;
    hist[p.cell[i]]++;
    index.set(p.pid[i], i);
  }
  const survivors = index.size;
  const ctl = await readU32(device, state.ctl, CTL.WORDS);
  expect(ctl[CTL.N], 'ctl N').toBe(survivors);
  expect((await readU32(device, state.stats, STATS.WORDS))[STATS.N_AFTER], 'stats N_AFTER of slot 0').toBe(survivors);
  expect(Array.from(await readU32(device, state.counts, nCells)), 'counts').toEqual(Array.from(hist));
  const starts = await readU32(device, state.starts, nCells);
  let run = 0;
  for (let c = 0; c < nCells; c++) {
    expect(starts[c], `starts[${c}]`).toBe(run);
    run += hist[c];
  }

  const out = {} as Particles;
  for (const a of PARTICLE_ATTRIBUTES) out[a] = await readU32(device, state.sets[1 - from][a], survivors);
  const seen = new Set<number>();
  const problems: string[] = [];
  for (let k = 0; k < survivors && problems.length < 5; k++) {
    const c = out.cell[k];
    if (k < starts[c] || k >= starts[c] + hist[c]) problems.push(`slot ${k}: cell ${c} outside [${starts[c]}, ${starts[c] + hist[c]})`);
    if (k > 0 && out.cell[k - 1] === c && out.pid[k - 1] >= out.pid[k]) problems.push(`slot ${k}: id ${out.pid[k]} after ${out.pid[k - 1]} in cell ${c}`);
    const i = index.get(out.pid[k]);
    if (i === undefined || seen.has(out.pid[k])) {
      problems.push(`slot ${k}: id ${out.pid[k]} is not a surviving particle or appears twice`);
      continue;
    }
    seen.add(out.pid[k]);
    for (const a of PARTICLE_ATTRIBUTES) if (out[a][k] !== p[a][i]) problems.push(`slot ${k}: ${a} not moved with particle ${out.pid[k]}`);
  }
  expect(problems).toEqual([]);
  expect(seen.size).toBe(survivors);
  await expectNoGpuErrors(gpu);
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

  it('empties the set when every particle was removed', async () => {
    await checkSort(makeParticles(new Uint32Array(300).fill(INVALID), 14), 0);
  });
});
