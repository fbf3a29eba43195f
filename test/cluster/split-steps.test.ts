// Split steps of a multi-rank run (src-main/solver/halo-split.ts): each rank sorts and collides its
// interior cells while migrants are exchanged and its halo cells after they arrived. The result must be
// bitwise that of one rank whether the halo guess holds (no step redone), is too shallow (steps redone
// whole, then the halo deepens), or covers the whole box.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Case } from '../../src-main/common/case-schema.js';
import type { Int3 } from '../../src-main/cluster/decomposition/types.js';
import type { Gpu } from '../../src-main/solver/gpu/device.js';
import { fieldsSha256 } from '../../src-main/solver/fields.js';
import { REDOS_PER_STEP, arrivalsBeyond, arrivalsOutsideHalo, globalHalo, haloBits, haloCellCount, haloList, initialHaloDepth } from '../../src-main/solver/halo-split.js';
import { globalCellOf, localCellOf, subdomainOf } from '../../src-main/solver/subdomain.js';
import { mostProbableSpeed } from '../../src-main/common/physics.js';
import { decompose } from '../../src-main/cluster/decomposition/index.js';
import type { StepStats } from '../../src-main/solver/loop-types.js';
import { gpuForTests, presetCase, simulate } from '../physics/harness.js';
import { internalState, particleState, runInProcessRanks } from './in-process-ranks.js';

let gpu: Gpu;
beforeAll(async () => { gpu = await gpuForTests(); });
afterAll(() => gpu?.device.destroy());

/** The step statistics that must not depend on the decomposition. */
function invariantStats(steps: StepStats[]) {
  return steps.map((s) => [s.step, s.particlesBefore, s.injected, s.particlesAfter, s.collisions, s.candidates]);
}

/** A periodic box long in z (collide-box physics), so slabs of 2 ranks have interior cells. */
const longBox = (): Case => presetCase('collide-box', [
  'grid.cells=[6,6,40]', 'run.steps=30', 'sampling.enabled=true', 'sampling.start=5', 'sampling.interval=1',
  'boundaries.xmin={"type":"periodic"}', 'boundaries.xmax={"type":"periodic"}',
  'boundaries.ymin={"type":"periodic"}', 'boundaries.ymax={"type":"periodic"}',
  'boundaries.zmin={"type":"periodic"}', 'boundaries.zmax={"type":"periodic"}',
]);

describe('halo bits', () => {
  it('mark the layers within the depth of faces shared with other ranks, and only those', () => {
    const grid: Int3 = [4, 3, 10];
    const d = decompose('slab', grid, 2);
    const sub = subdomainOf(d, 0);
    expect(sub.box.lo[2]).toBe(0);
    expect(sub.box.hi[2]).toBe(5);
    // periodic z: both z faces border rank 1; x and y span the grid, so they border nobody
    const bits = haloBits(grid, [true, true, true], sub, [1, 1, 2]);
    const layers = [...Array(5).keys()].map((z) => [...Array(12).keys()].every((k) => {
      const c = z * 12 + k;
      return (bits[c >>> 5] & (1 << (c & 31))) !== 0;
    }));
    expect(layers).toEqual([true, true, false, true, true]);
    expect(haloCellCount(bits)).toBe(4 * 12);
    // not periodic in z: only the inner face (z = 5) borders another rank
    const walled = haloBits(grid, [true, true, false], sub, [1, 1, 2]);
    expect(haloCellCount(walled)).toBe(2 * 12);
  });

  it('mark exactly the cells within the depth of an open face, cell by cell, on boxes of any shape and depth', () => {
    const grid: Int3 = [37, 23, 11];
    // the halo by its definition, one cell at a time: within depth[a] of a face along a where another rank (or the
    // periodic wrap of a box that does not span a) lies beyond it
    const reference = (periodic: boolean[], sub: ReturnType<typeof subdomainOf>, depth: Int3) => {
      const { lo, hi } = sub.box;
      const open = (a: number, side: 'lo' | 'hi') => {
        const spans = lo[a] === 0 && hi[a] === grid[a];
        return side === 'lo' ? lo[a] > 0 || (periodic[a] && !spans) : hi[a] < grid[a] || (periodic[a] && !spans);
      };
      const out: number[] = [];
      let c = 0;
      for (let z = lo[2]; z < hi[2]; z++) for (let y = lo[1]; y < hi[1]; y++) for (let x = lo[0]; x < hi[0]; x++, c++) {
        const v = [x, y, z];
        if ([0, 1, 2].some((a) => (open(a, 'lo') && v[a] - lo[a] < depth[a]) || (open(a, 'hi') && hi[a] - 1 - v[a] < depth[a]))) out.push(c);
      }
      return out;
    };
    let checked = 0;
    for (const [method, ranks] of [['slab', 3], ['block', 4], ['rcb', 5], ['rcb', 7]] as const) {
      const d = decompose(method, grid, ranks);
      for (let r = 0; r < ranks; r++) {
        const sub = subdomainOf(d, r);
        for (const periodic of [[false, false, false], [true, false, true], [true, true, true]]) {
          for (const depth of [[1, 1, 1], [2, 3, 1], [40, 1, 2]] as Int3[]) {
            expect([...haloList(haloBits(grid, periodic, sub, depth))]).toEqual(reference(periodic, sub, depth));
            checked++;
          }
        }
      }
    }
    expect(checked).toBe(9 * 19);
  });

  it('list the halo cells in ascending order and find arrivals outside the halo (any byte alignment)', () => {
    const bits = new Uint32Array([0b1010, 0, 1 << 31]);
    expect([...haloList(bits)]).toEqual([1, 3, 95]);
    // a box spanning x and y, cellBase 100: local l is global 100 + l
    const halo = globalHalo(haloList(bits), 96, (l) => 100 + l);
    expect(halo.first).toBe(100);
    // two records of 3 words, the cell word (with a species bit above the mask) at index 1
    const words = new Uint32Array([0, 100 + 3 + (1 << 27), 0, 0, 100 + 2, 0]);
    const bytes = new Uint8Array(words.byteLength + 1);
    bytes.set(new Uint8Array(words.buffer), 1);
    const unaligned = bytes.subarray(1);
    expect(arrivalsOutsideHalo(unaligned, halo, 3, 1, 0x07ffffff)).toBe(1);
    expect(arrivalsOutsideHalo(new Uint8Array(words.buffer), globalHalo(haloList(bits), 96, (l) => 103 + l), 3, 1, 0x07ffffff)).toBe(2);
  });

  it('find arrivals outside the halo of boxes that do not span x and y as the local numbering does (rcb and x-cut slabs)', () => {
    const grid: Int3 = [7, 5, 6];
    const nCells = grid[0] * grid[1] * grid[2];
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
    let checked = 0;
    for (const method of ['rcb', 'slab'] as const) {
      for (const ranks of [2, 3, 4]) {
        const d = decompose(method, grid, ranks);
        for (let r = 0; r < ranks; r++) {
          const sub = subdomainOf(d, r);
          // a random halo over local ids, and records in every cell of the grid (owned or not), species bits above the mask
          const localBits = new Uint32Array(Math.ceil(sub.nLocal / 32));
          for (let l = 0; l < sub.nLocal; l++) if (random() < 0.3) localBits[l >>> 5] |= 1 << (l & 31);
          const halo = globalHalo(haloList(localBits), sub.nLocal, (l) => globalCellOf(sub, grid, l));
          const records = new Uint32Array(2 * nCells);
          let expected = 0;
          for (let g = 0; g < nCells; g++) {
            records[2 * g + 1] = g + (random() < 0.5 ? 1 << 27 : 0);
            const l = localCellOf(sub, grid, g);
            if (l < 0 || (localBits[l >>> 5] & (1 << (l & 31))) === 0) expected++;
          }
          expect(arrivalsOutsideHalo(new Uint8Array(records.buffer), halo, 2, 1, 0x07ffffff)).toBe(expected);
          checked++;
        }
      }
    }
    expect(checked).toBe(18);
  });

  it('first guess: the fewest layers past which under REDOS_PER_STEP arrivals a step are expected (1 for collide-box physics)', () => {
    const c = longBox();
    // argon at 273 K crosses a quarter of a cell a step at the most probable speed: arrivals beyond one layer are a
    // tail of exp(-(dx / (c_mp dt))^2) ~ 1e-8 of the crossings
    const cmpPerStep = (mostProbableSpeed(c.initial.temperature, c.species[0].mass) * c.run.dt) / c.grid.cellSize[2];
    expect(cmpPerStep).toBeGreaterThan(0.2);
    expect(cmpPerStep).toBeLessThan(0.3);
    expect(initialHaloDepth(c, 2)).toEqual([1, 1, 1]);
    expect(arrivalsBeyond(c, 2, 1, 2)).toBeLessThan(REDOS_PER_STEP);
    expect(arrivalsBeyond(c, 2, 0, 2)).toBeGreaterThan(1); // every crossing lands past depth 0
    // 25 times hotter: c_mp 5 times larger, more than a cell a step: deeper
    const hot = presetCase('collide-box', ['grid.cells=[6,6,40]', 'initial.temperature=6828']);
    const depth = initialHaloDepth(hot, 2);
    expect(depth[2]).toBeGreaterThanOrEqual(3);
    expect(arrivalsBeyond(hot, 2, depth[2], 2)).toBeLessThan(REDOS_PER_STEP);
    expect(arrivalsBeyond(hot, 2, depth[2] - 1, 2)).toBeGreaterThanOrEqual(REDOS_PER_STEP);
    // a flow of 3 cells a step along z: 3 layers more along z, none along x
    const flowing = presetCase('collide-box', ['grid.cells=[6,6,40]', `initial.velocity=[0,0,${(3 * c.grid.cellSize[2]) / c.run.dt}]`]);
    const [dx, , dz] = initialHaloDepth(flowing, 2);
    expect(dx).toBe(1);
    expect(dz).toBe(4);
  });
});

describe('split steps', () => {
  let reference: { sha: string; stats: unknown[] };
  beforeAll(async () => {
    const { result } = await simulate(gpu, longBox(), { timing: 'off' });
    reference = { sha: fieldsSha256(result.fields), stats: invariantStats(result.stepStats) };
  });

  /** Runs the long box on 2 slab ranks with a halo depth (or the first guess) and checks it against one rank. */
  async function check(depth?: Int3, checkOnArrival = true) {
    const { assembler, sims } = await runInProcessRanks(gpu, longBox(), 'slab', 2, undefined, { haloDepth: depth, checkOnArrival });
    expect(invariantStats(assembler.stepStats)).toEqual(reference.stats);
    expect(fieldsSha256(assembler.fields.fields())).toBe(reference.sha);
    return sims.map((s) => s.splitStats()!);
  }

  it('with the first guess: interior cells exist, no step is redone, sampled steps move early too, bitwise one rank', async () => {
    const split = await check();
    for (const s of split) {
      expect(s.haloCells).toBeGreaterThan(0);
      expect(s.haloCells).toBeLessThan(s.ownedCells);
      expect(s.redos).toBe(0);
      // the box samples every step from step 5: those steps sample their interior cells in the interior pass and
      // still move the next step's interior part early (before, only steps 1-3 could)
      expect(s.earlyMoves).toBeGreaterThan(20);
    }
  });

  it.each([
    ['as each peer\'s records arrive', true], ['after the exchange (exchangers without arrival checks)', false],
  ])('with no halo at all, arrivals checked %s: steps are redone whole and the halo deepens, bitwise one rank', async (_how, onArrival) => {
    const split = await check([0, 0, 0], onArrival);
    for (const s of split) {
      expect(s.redos).toBeGreaterThan(0);
      expect(s.depth[2]).toBeGreaterThan(0);
      // sampled steps moved early and were redone: their interior cells' sums were taken back (else fields differ)
      expect(s.earlyMoves).toBeGreaterThan(0);
    }
  });

  it('with no halo, sampled from the first step: sampled steps redone whole take their interior cells\' sums back, bitwise one rank', async () => {
    // the first steps' arrivals land outside the halo while every step samples and moves the next one's interior early
    const c = presetCase('collide-box', [
      'grid.cells=[6,6,40]', 'run.steps=12', 'sampling.enabled=true', 'sampling.start=1', 'sampling.interval=1',
      'boundaries.zmin={"type":"periodic"}', 'boundaries.zmax={"type":"periodic"}',
    ]);
    const { result } = await simulate(gpu, c, { timing: 'off' });
    const { assembler, sims } = await runInProcessRanks(gpu, c, 'slab', 2, undefined, { haloDepth: [0, 0, 0] });
    expect(invariantStats(assembler.stepStats)).toEqual(invariantStats(result.stepStats));
    expect(fieldsSha256(assembler.fields.fields())).toBe(fieldsSha256(result.fields));
    for (const s of sims.map((r) => r.splitStats()!)) {
      expect(s.redos).toBeGreaterThan(0);
      expect(s.earlyMoves).toBeGreaterThan(0);
    }
  });

  it('with buffers that must grow for arrivals after the interior pass: those steps are redone whole, bitwise one rank', async () => {
    // the gas streams towards +z in a closed box, piling up on rank 1 within one submit, so its buffers grow for
    // arrivals in the middle of steps, after the interior pass filled the set that growing replaces
    const c = presetCase('collide-box', [
      'grid.cells=[6,6,40]', 'run.steps=30', 'run.stepsPerSubmit=30', 'initial.velocity=[0,0,600]',
      'sampling.enabled=true', 'sampling.start=5', 'sampling.interval=1',
    ]);
    const { sim: one, result } = await simulate(gpu, c, { timing: 'off' });
    // about 7200 particles per rank at the start: buffers of 7300 leave room for the first steps only
    const { assembler, sims } = await runInProcessRanks(gpu, c, 'slab', 2, undefined, { capacity: 7300 });
    expect(invariantStats(assembler.stepStats)).toEqual(invariantStats(result.stepStats));
    expect(fieldsSha256(assembler.fields.fields())).toBe(fieldsSha256(result.fields));
    expect(sims[1].splitStats()!.redos).toBeGreaterThan(0);
    expect(sims[1].splitStats()!.earlyMoves).toBeGreaterThan(0);
    // the walls' sums (sampled as particles hit them, also in early moves that a redo undid) equal one rank's
    const summed = one.surface.totals.map((_, k) => sims.reduce((a, r) => a + r.surface.totals[k], 0n));
    expect(summed.some((v) => v !== 0n)).toBe(true);
    expect([...summed]).toEqual([...one.surface.totals]);
  });

  it('with migrant segments far too small: they grow, every migrant is collected again, nothing is lost, bitwise one rank', async () => {
    // 8 slots per destination against about 70 migrants per step: the first exchange overflows, the buffer grows
    // (after the interior pass was submitted) and the records the status read did not bring are read separately
    const { assembler, sims } = await runInProcessRanks(gpu, longBox(), 'slab', 2, undefined, { segmentCapacity: 8 });
    expect(invariantStats(assembler.stepStats)).toEqual(reference.stats);
    expect(fieldsSha256(assembler.fields.fields())).toBe(reference.sha);
    for (const s of sims) expect(s.state.segCap).toBeGreaterThan(8);
  });

  it('with the halo pass dispatched for one workgroup: its loops cover every listed particle and arrival, bitwise one rank', async () => {
    // a halo covering every cell puts all particles in the halo pass, far more than the 64 invocations dispatched
    const { assembler, sims } = await runInProcessRanks(gpu, longBox(), 'slab', 2, undefined, { haloDepth: [6, 6, 40], haloThreads: 64 });
    expect(invariantStats(assembler.stepStats)).toEqual(reference.stats);
    expect(fieldsSha256(assembler.fields.fields())).toBe(reference.sha);
    for (const s of sims) expect(s.liveParticles).toBeGreaterThan(64);
  });

  it('with a halo covering every cell: bitwise one rank', async () => {
    const split = await check([6, 6, 40]);
    for (const s of split) {
      expect(s.haloCells).toBe(s.ownedCells);
      expect(s.redos).toBe(0);
    }
  });

  it('with cells of some 300 particles (dense halo and mixed interior cells): bitwise one rank', async () => {
    // a drifting gas in a periodic box, 300 particles a cell: the halo pass ranks cells of its own, crossed and arrived
    // particles, the interior pass cells with many crossed ones, each particle against hundreds
    const c = presetCase('collide-box', [
      'grid.cells=[3,3,12]', 'particles.perCell=300', 'run.steps=16', 'initial.velocity=[150,-100,400]',
      'sampling.enabled=true', 'sampling.start=4', 'sampling.interval=1',
      'boundaries.xmin={"type":"periodic"}', 'boundaries.xmax={"type":"periodic"}',
      'boundaries.ymin={"type":"periodic"}', 'boundaries.ymax={"type":"periodic"}',
      'boundaries.zmin={"type":"periodic"}', 'boundaries.zmax={"type":"periodic"}',
    ]);
    const { result } = await simulate(gpu, c, { timing: 'off' });
    for (const [method, ranks] of [['slab', 2], ['rcb', 3]] as const) {
      const { assembler, sims } = await runInProcessRanks(gpu, c, method, ranks);
      expect(invariantStats(assembler.stepStats)).toEqual(invariantStats(result.stepStats));
      expect(fieldsSha256(assembler.fields.fields())).toBe(fieldsSha256(result.fields));
      for (const sim of sims) {
        const s = sim.splitStats()!;
        expect(s.haloCells).toBeGreaterThan(0);
        // the split passes ran (no step redone whole)
        expect(s.redos).toBe(0);
        expect(sim.liveParticles / s.ownedCells).toBeGreaterThan(250);
      }
    }
  });
});

describe('early moves (the next step\'s interior part moved while this step\'s migrants are exchanged)', () => {
  // unsampled, so that every step but a submit's last moves the next one's interior part early; the particles
  // themselves (position, velocity, cell) are compared with one rank's after the last step
  const unsampled = (extra: string[] = []): Case => presetCase('collide-box', [
    'grid.cells=[6,6,40]', 'run.steps=30', 'run.stepsPerSubmit=15', 'sampling.enabled=false',
    'boundaries.xmin={"type":"periodic"}', 'boundaries.xmax={"type":"periodic"}',
    'boundaries.ymin={"type":"periodic"}', 'boundaries.ymax={"type":"periodic"}',
    'boundaries.zmin={"type":"periodic"}', 'boundaries.zmax={"type":"periodic"}', ...extra,
  ]);
  let one: { stats: unknown[]; particles: string[] };
  beforeAll(async () => {
    const { sim, result } = await simulate(gpu, unsampled(), { timing: 'off' });
    one = { stats: invariantStats(result.stepStats), particles: await particleState([sim]) };
  });

  /** Runs the unsampled box on ranks and checks it against one rank, particle by particle; returns the split statistics. */
  async function check(method: 'slab' | 'rcb', ranks: number, options: Parameters<typeof runInProcessRanks>[5] = {}) {
    const { assembler, sims } = await runInProcessRanks(gpu, unsampled(), method, ranks, undefined, options);
    expect(invariantStats(assembler.stepStats)).toEqual(one.stats);
    expect(await particleState(sims)).toEqual(one.particles);
    return sims.map((s) => s.splitStats()!);
  }

  it.each([['slab', 2], ['rcb', 4]] as const)('%s over %i ranks: every step but a submit\'s last moved early, bitwise one rank', async (method, ranks) => {
    for (const s of await check(method, ranks)) {
      expect(s.redos).toBe(0);
      expect(s.earlyMoves).toBe(28); // two submits of 15 steps: 14 each
    }
  });

  it('with the rest of each move and the halo pass dispatched for one workgroup: their loops cover every particle, bitwise one rank', async () => {
    for (const s of await check('slab', 2, { haloThreads: 64 })) expect(s.earlyMoves).toBe(28);
  });

  it('with every pass over the live particles dispatched for one workgroup (move, early part, sort, halo pass): their loops cover every particle, bitwise one rank', async () => {
    for (const [method, ranks] of [['slab', 2], ['rcb', 4]] as const) {
      for (const s of await check(method, ranks, { particleThreads: 64, haloThreads: 64 })) expect(s.earlyMoves).toBe(28);
    }
  });

  it('dispatches the passes over the live particles for a bound that holds every particle and leaves the idle slots out', async () => {
    const { sims } = await runInProcessRanks(gpu, unsampled(), 'slab', 2, undefined, { capacity: 20_000 });
    for (const sim of sims) {
      expect(sim.state.liveBound).toBeGreaterThanOrEqual(sim.liveParticles);
      expect(sim.state.particleThreads()).toBeLessThan(0.6 * sim.state.capacity);
    }
  });

  it('off: bitwise the same, no step moved early', async () => {
    for (const s of await check('slab', 2, { earlyMove: false })) expect(s.earlyMoves).toBe(0);
  });

  it('with no halo at all: steps moved early are redone whole (the early part with them), the halo deepens, bitwise one rank', async () => {
    for (const s of await check('slab', 2, { haloDepth: [0, 0, 0] })) {
      expect(s.redos).toBeGreaterThan(0);
      expect(s.earlyMoves).toBeGreaterThan(0);
      expect(s.earlyMoves + s.redos).toBeLessThanOrEqual(28);
    }
  });

  it('with migrant segments far too small: the regrown buffers lose the early part\'s migrants, so that step is redone, bitwise one rank', async () => {
    const split = await check('slab', 2, { segmentCapacity: 8 });
    for (const s of split) expect(s.redos).toBeGreaterThan(0);
  });

  it('with buffers that must grow for arrivals after the interior pass and the early part: redone whole, bitwise one rank', async () => {
    const c = unsampled(['initial.velocity=[0,0,600]', 'boundaries.zmin={"type":"specular"}', 'boundaries.zmax={"type":"specular"}']);
    const { sim, result } = await simulate(gpu, c, { timing: 'off' });
    // about 7200 particles per rank at the start: buffers of 7300 leave room for the first steps only
    const { assembler, sims } = await runInProcessRanks(gpu, c, 'slab', 2, undefined, { capacity: 7300 });
    expect(invariantStats(assembler.stepStats)).toEqual(invariantStats(result.stepStats));
    expect(await particleState(sims)).toEqual(await particleState([sim]));
    expect(sims[1].splitStats()!.redos).toBeGreaterThan(0);
    expect(sims[1].splitStats()!.earlyMoves).toBeGreaterThan(0);
  });

  it('with vibrating N2 (collect_all emits its migrants after the move), segments far too small and buffers that must grow: bitwise one rank, internal energies too', async () => {
    // move_rotating leaves its migrants for collect_all, which keys them by their old cell and the rank in it that the
    // move kept; the segments of 8 overflow, so collect_all runs again after the buffer grew, and rank 1's buffers grow
    // for arrivals in the middle of steps
    const c = unsampled([
      'species=[{"use":"N2","vibration":{"characteristicTemperature":3371,"relaxation":5,"millikanWhite":false}}]', 'initial.vibrationalTemperature=3000',
      'initial.velocity=[0,0,600]', 'boundaries.zmin={"type":"specular"}', 'boundaries.zmax={"type":"specular"}',
    ]);
    const { sim, result } = await simulate(gpu, c, { timing: 'off' });
    // every pass over the live particles dispatched for one workgroup: move_rotating's and collect_all's loops
    const { assembler, sims } = await runInProcessRanks(gpu, c, 'slab', 2, undefined, { capacity: 7300, segmentCapacity: 8, particleThreads: 64 });
    expect(invariantStats(assembler.stepStats)).toEqual(invariantStats(result.stepStats));
    expect(await particleState(sims)).toEqual(await particleState([sim]));
    const internal = await internalState([sim]);
    expect(internal.filter((r) => !r.endsWith(':0')).length).toBeGreaterThan(100);
    expect(await internalState(sims)).toEqual(internal);
    for (const s of sims) expect(s.state.segCap).toBeGreaterThan(8);
    expect(sims[1].splitStats()!.redos).toBeGreaterThan(0);
  });
});

describe('sampling inside the split collide (the walk, DSMC_SAMPLE_KERNEL=walk) on ranks', () => {
  /** Runs `c` on one rank with the sampling pass and on `ranks` ranks with the walk; both fields and stats must agree. */
  async function walkAgainstPass(c: Case, method: 'slab' | 'rcb', ranks: number, options: { haloDepth?: Int3 } = {}) {
    const saved = process.env.DSMC_SAMPLE_KERNEL;
    try {
      process.env.DSMC_SAMPLE_KERNEL = 'pass';
      const { result } = await simulate(gpu, c, { timing: 'off' });
      process.env.DSMC_SAMPLE_KERNEL = 'walk';
      const { assembler, sims, results } = await runInProcessRanks(gpu, c, method, ranks, undefined, options);
      expect(results.every((r) => r.sampleKernel.kernel === 'walk')).toBe(true);
      expect(result.sampleKernel.kernel).toBe('pass');
      expect(invariantStats(assembler.stepStats)).toEqual(invariantStats(result.stepStats));
      expect(fieldsSha256(assembler.fields.fields())).toBe(fieldsSha256(result.fields));
      expect(result.samples).toBeGreaterThan(10);
      return sims.map((s) => s.splitStats()!);
    } finally {
      if (saved === undefined) delete process.env.DSMC_SAMPLE_KERNEL;
      else process.env.DSMC_SAMPLE_KERNEL = saved;
    }
  }

  it.each([['slab', 2], ['rcb', 4]] as const)('%s over %i ranks: bitwise one rank sampled by the pass, steps moved early', async (method, ranks) => {
    for (const s of await walkAgainstPass(longBox(), method, ranks)) expect(s.earlyMoves).toBeGreaterThan(10);
  });

  it('with no halo: redone sampled steps take the walk\'s interior sums back exactly, bitwise one rank', async () => {
    const split = await walkAgainstPass(longBox(), 'slab', 2, { haloDepth: [0, 0, 0] });
    for (const s of split) expect(s.redos).toBeGreaterThan(0);
  });

  it('vibrating N2: the internal energies sampled by the walk, bitwise one rank', async () => {
    const c = presetCase('collide-box', [
      'species=[{"use":"N2","vibration":{"characteristicTemperature":3371,"relaxation":5,"millikanWhite":false}}]', 'initial.vibrationalTemperature=3000',
      'grid.cells=[6,6,40]', 'run.steps=30', 'sampling.enabled=true', 'sampling.start=5', 'sampling.interval=1', 'initial.velocity=[0,0,600]',
    ]);
    await walkAgainstPass(c, 'slab', 2);
  });
});
