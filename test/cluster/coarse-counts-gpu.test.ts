// A rebalance check's first round sums every rank's cell counts and their squares over the blocks of the coarse grid on
// the GPU (coarse-counts.wgsl): the sums must be exactly the host's (coarseSumsOf over the rank's cell counts, packed),
// for blocks that do and do not divide the boxes, on boxes a rebalance moved, add up to the rank's particles, and hold
// squares of counts beyond 2^16 (64-bit sums); read with every submit (a rebalancing rank sends them after each), they
// equal those read on their own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { coarseGridWithBlock, coarseSumsOf, packCoarseSums, unpackCoarseSums } from '../../src-main/cluster/decomposition/coarse-grid.js';
import type { Gpu } from '../../src-main/solver/gpu/device.js';
import type { Simulation } from '../../src-main/solver/loop.js';
import { gpuForTests, presetCase } from '../physics/harness.js';
import { runInProcessRanks } from './in-process-ranks.js';

let gpu: Gpu;
beforeAll(async () => { gpu = await gpuForTests(); });
afterAll(() => gpu?.device.destroy());

/** Checks every rank's GPU block sums against the host's for each block size. */
async function expectHostSums(sims: Simulation[], blocks: number[]): Promise<void> {
  for (const sim of sims) {
    const cells = await sim.cellCounts();
    const particles = cells.reduce((a, b) => a + b, 0);
    expect(particles).toBe(sim.liveParticles);
    for (const block of blocks) {
      const cg = coarseGridWithBlock(sim.kase.grid.cells, block);
      const host = packCoarseSums(coarseSumsOf(cells, sim.subdomain.box, cg));
      const onGpu = await sim.coarseCellSums(block);
      expect(onGpu.length).toBe(host.length);
      expect(Buffer.from(onGpu.buffer, onGpu.byteOffset, onGpu.byteLength).equals(Buffer.from(host.buffer))).toBe(true);
      const sums = unpackCoarseSums(onGpu, cg.grid[0] * cg.grid[1] * cg.grid[2]);
      expect(sums.counts.reduce((a, b) => a + b, 0)).toBe(particles);
      expect(sums.squares.reduce((a, b) => a + b, 0)).toBe(cells.reduce((a, b) => a + b * b, 0));
    }
  }
}

describe('coarse block counts on the GPU', () => {
  it('equal the host sums on rcb boxes, before and after rebalances moved them', async () => {
    const c = () => presetCase('supersonic-cavity', ['run.steps=160', 'run.stepsPerSubmit=20']);
    const fixed = await runInProcessRanks(gpu, c(), 'rcb', 3);
    await expectHostSums(fixed.sims, [1, 2, 3, 7]);
    const balanced = await runInProcessRanks(gpu, c(), 'rcb', 3, 5);
    expect(balanced.events.length).toBeGreaterThan(0);
    await expectHostSums(balanced.sims, [1, 3, 4]);
  });
  it('read with every submit (a rebalancing rank\'s), equal the sums read after it, before and after re-splits', async () => {
    const c = presetCase('supersonic-cavity', ['run.steps=160', 'run.stepsPerSubmit=20']);
    const { events, blockReads } = await runInProcessRanks(gpu, c, 'slab', 3, 5, { blockSums: 3 });
    expect(events.length).toBeGreaterThan(0);
    expect(blockReads).toHaveLength(3 * 8);
    for (const { withSubmit, after } of blockReads) {
      expect(withSubmit).toBeDefined();
      expect(Buffer.from(withSubmit!.buffer, withSubmit!.byteOffset, withSubmit!.byteLength).equals(Buffer.from(after.buffer, after.byteOffset, after.byteLength))).toBe(true);
    }
  });
  it('sum squares of counts beyond 2^16 in 64 bits, with the carry into the high word', async () => {
    const c = presetCase('supersonic-cavity', ['run.steps=20', 'run.stepsPerSubmit=20']);
    const { sims } = await runInProcessRanks(gpu, c, 'slab', 2);
    const sim = sims[1];
    // counts written over the last sort's (only the sums read them): squares of 2^16 + 1, 0xffff and 3e6 each, and
    // enough of them in one block that the low words overflow
    const n = sim.subdomain.nLocal;
    const counts = new Uint32Array(n);
    for (let i = 0; i < n; i++) counts[i] = [65537, 0xffff, 3_000_000, 1][i % 4];
    gpu.device.queue.writeBuffer(sim.state.lastCounts, 0, counts);
    const cg = coarseGridWithBlock(sim.kase.grid.cells, 4);
    const onGpu = unpackCoarseSums(await sim.coarseCellSums(4), cg.grid[0] * cg.grid[1] * cg.grid[2]);
    const host = coarseSumsOf(counts, sim.subdomain.box, cg);
    expect(onGpu.counts).toEqual(host.counts);
    expect(onGpu.squares).toEqual(host.squares);
    expect(Math.max(...onGpu.squares)).toBeGreaterThan(2 ** 40);
  });
});
