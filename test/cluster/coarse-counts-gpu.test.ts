// A rebalance check's first round sums every rank's cell counts over the blocks of the coarse grid on the GPU
// (coarse-counts.wgsl): the sums must be exactly the host's (coarseCountsOf over the rank's cell counts), for blocks that
// do and do not divide the boxes, on boxes a rebalance moved, and add up to the rank's particles.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { coarseCountsOf, coarseGridWithBlock } from '../../src-main/cluster/decomposition/coarse-grid.js';
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
      const host = coarseCountsOf(cells, sim.subdomain.box, coarseGridWithBlock(sim.kase.grid.cells, block));
      const onGpu = await sim.coarseCellCounts(block);
      expect(onGpu.length).toBe(host.length);
      expect(Buffer.from(onGpu.buffer, onGpu.byteOffset, onGpu.byteLength).equals(Buffer.from(host.buffer))).toBe(true);
      expect(onGpu.reduce((a, b) => a + b, 0)).toBe(particles);
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
});
