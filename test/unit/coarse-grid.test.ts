// Rebalance checks on the coarse grid (src-main/cluster/decomposition/coarse-grid.ts, Rebalancer.propose/commit):
// the block counts are exact sums of the cells' counts, grids within the limit keep their cells (b = 1), and a check
// on blocks decides whether a split pays, then the split itself comes from every cell, the same as deciding on the
// cells alone gives.
import { describe, expect, it } from 'vitest';
import { moveCollisionState } from '../../src-main/cluster/decomposition/cell-handover.js';
import { COARSE_CELLS, COARSE_WORDS, coarseBlockCells, coarseCountsOf, coarseGridOf, coarseGridWithBlock, coarseSumsOf, fineBoxOf, packCoarseSums, unpackCoarseSums } from '../../src-main/cluster/decomposition/coarse-grid.js';
import { decompose } from '../../src-main/cluster/decomposition/index.js';
import { boxWeight, cellCoords } from '../../src-main/cluster/decomposition/box.js';
import { Rebalancer, movedWeight, type CellState } from '../../src-main/cluster/orchestrator/rebalancer.js';
import { loadNonUniformity } from '../../src-main/cluster/decomposition/load.js';
import { subdomainOf, takeOwnedCells } from '../../src-main/solver/subdomain.js';
import type { Decomposition, Grid } from '../../src-main/cluster/decomposition/types.js';

/** Every rank's cell state for global per-cell particle counts. */
function statesOf(d: Decomposition, counts: Uint32Array): CellState[] {
  return d.boxes.map((_, r) => {
    const sub = subdomainOf(d, r);
    const local = new Uint32Array(sub.nLocal);
    takeOwnedCells(counts, sub, d.grid, local);
    return { counts: local, sigmaCrMax: new Float32Array(sub.nLocal).fill(r + 1), remainder: new Float32Array(sub.nLocal) };
  });
}

/** Counts piling up towards x = nx and y = ny (the driven cavity's corner), different in every cell. */
function piledUp(grid: Grid): Uint32Array {
  return Uint32Array.from({ length: grid[0] * grid[1] * grid[2] }, (_, g) => {
    const [x, y, z] = cellCoords(grid, g);
    return 10 + x * y + 3 * ((x + 7 * y + 13 * z) % 5);
  });
}

describe('the coarse grid of rebalance checks', () => {
  it('takes the smallest block that keeps the blocks within the limit, and grids within it keep their cells', () => {
    expect(coarseGridOf([40, 40, 1]).block).toBe(1);
    expect(coarseGridOf([800, 400, 20])).toEqual({ block: 3, grid: [267, 134, 7], fine: [800, 400, 20] });
    expect(267 * 134 * 7).toBeLessThanOrEqual(COARSE_CELLS);
    expect(400 * 200 * 10).toBeGreaterThan(COARSE_CELLS); // block 2 would not do
    expect(coarseGridOf([40, 40, 1], 400)).toEqual({ block: 2, grid: [20, 20, 1], fine: [40, 40, 1] });
    expect(coarseGridOf([41, 40, 1], 400)).toEqual({ block: 3, grid: [14, 14, 1], fine: [41, 40, 1] });
  });

  it('counts the fine cells of every block, the last blocks along an axis thinner', () => {
    // 10 x 7 x 5 cells in blocks of 3: 4 x 3 x 2 blocks, the last ones 1, 1 and 2 cells thick
    const cg = coarseGridWithBlock([10, 7, 5], 3);
    const cells = coarseBlockCells(cg);
    expect(cells.length).toBe(4 * 3 * 2);
    expect(cells.reduce((a, b) => a + b, 0)).toBe(10 * 7 * 5);
    expect(cells[0]).toBe(27);
    expect(cells[3]).toBe(1 * 3 * 3);
    expect(cells[4 * 3 * 2 - 1]).toBe(1 * 1 * 2);
  });

  it('sums every rank\'s cells and their squares into its blocks exactly, blocks cut by rank boxes included', () => {
    const grid: Grid = [23, 17, 5];
    const counts = piledUp(grid);
    const cg = coarseGridWithBlock(grid, 3);
    const d = decompose('rcb', grid, 5);
    const total = new Uint32Array(cg.grid[0] * cg.grid[1] * cg.grid[2]);
    const totalSquares = new Float64Array(total.length);
    statesOf(d, counts).forEach((s, r) => {
      const mine = coarseSumsOf(s.counts, d.boxes[r], cg);
      expect(mine.counts).toEqual(coarseCountsOf(s.counts, d.boxes[r], cg));
      expect(mine.counts.reduce((a, b) => a + b, 0)).toBe(s.counts.reduce((a, b) => a + b, 0));
      expect(mine.squares.reduce((a, b) => a + b, 0)).toBe(s.counts.reduce((a, b) => a + b * b, 0));
      mine.counts.forEach((c, k) => { total[k] += c; });
      mine.squares.forEach((c, k) => { totalSquares[k] += c; });
    });
    // brute force: each cell into the block that holds it
    const expected = new Uint32Array(total.length);
    const expectedSquares = new Float64Array(total.length);
    counts.forEach((c, g) => {
      const [x, y, z] = cellCoords(grid, g);
      const k = Math.floor(x / 3) + cg.grid[0] * (Math.floor(y / 3) + cg.grid[1] * Math.floor(z / 3));
      expected[k] += c;
      expectedSquares[k] += c * c;
    });
    expect(total).toEqual(expected);
    expect(totalSquares).toEqual(expectedSquares);
    // the last blocks are clipped to the grid
    expect(fineBoxOf({ lo: [7, 5, 1], hi: [8, 6, 2] }, cg)).toEqual({ lo: [21, 15, 3], hi: [23, 17, 5] });
  });
});

describe('a check on blocks (propose), the split from the cells (commit)', () => {
  it.each(['slab', 'rcb', 'block'] as const)('%s: the split, moves, largest send and UN are those of deciding on every cell', (method) => {
    const grid: Grid = [40, 40, 2];
    const counts = piledUp(grid);
    const d = decompose(method, grid, 4);
    const onBlocks = new Rebalancer(d, 5, [], 1e9, undefined, 200);
    expect(onBlocks.coarse.block).toBe(3);
    const onCells = new Rebalancer(d, 5, [], 1e9);
    expect(onCells.coarse.block).toBe(1);
    const cost = { movedParticleSteps: 1, fixedParticles: 0 };
    const coarse = statesOf(d, counts).map((s, r) => coarseSumsOf(s.counts, d.boxes[r], onBlocks.coarse));
    const proposal = onBlocks.propose(10, 50, coarse, cost);
    expect(proposal).toMatchObject({ step: 10, un: 50, cost });
    const decision = onBlocks.commit(proposal!, statesOf(d, counts))!;
    const exact = onCells.decide(10, 50, statesOf(d, counts), cost)!;
    expect(decision).toEqual(exact);
    expect(decision.decomposition.method).toBe(method);
    expect(decision.moved).toBe(movedWeight(d, decision.decomposition, counts));
    expect(decision.largest).toBe(Math.max(...d.boxes.map((b) => boxWeight(grid, counts, b))));
    const loads = decision.decomposition.boxes.map((b) => boxWeight(grid, counts, b));
    expect(decision.unAfter).toBe(loadNonUniformity(loads));
    expect(Math.max(...loads)).toBeLessThan(Math.max(...d.boxes.map((b) => boxWeight(grid, counts, b))));
    // each rank's new cells carry the collision state of their old owner (traded by the ranks: rank r's old cells hold r + 1)
    const collision = moveCollisionState(d.boxes, statesOf(d, counts), decision.decomposition.boxes);
    decision.subdomains.forEach((sub, k) => expect(collision[k].sigmaCrMax.length).toBe(sub.nLocal));
    expect(new Set(collision.flatMap((c) => [...new Set(c.sigmaCrMax)])).size).toBeGreaterThan(1);
    expect(onBlocks.events).toEqual(onCells.events);
  });

  it('gathers no cell when the split of the blocks cannot pay (too few steps left), and backs off', () => {
    const grid: Grid = [40, 40, 2];
    const counts = piledUp(grid);
    const d = decompose('slab', grid, 4);
    const r = new Rebalancer(d, 5, [], 10, undefined, 200); // ten steps left
    const coarse = statesOf(d, counts).map((s, k) => coarseSumsOf(s.counts, d.boxes[k], r.coarse));
    expect(r.propose(0, 50, coarse)).toBeNull();
    expect(r.decomposition).toBe(d);
    expect([r.wants(50), r.wants(50)]).toEqual([false, true]);
    expect(r.propose(0, 3, coarse)).toBeNull(); // under the threshold: never
  });

  it('a proposal whose exact moves do not pay is dropped at commit, with the same back-off', () => {
    const grid: Grid = [40, 40, 2];
    const counts = piledUp(grid);
    const d = decompose('slab', grid, 4);
    const r = new Rebalancer(d, 5, [], 1e9, undefined, 200);
    // a cost the estimate passed but the exact moves do not: priced far above the gain
    expect(r.commit({ step: 0, un: 50, cost: { movedParticleSteps: 1e12, fixedParticles: 0 } }, statesOf(d, counts))).toBeNull();
    expect(r.decomposition).toBe(d);
    expect([r.wants(50), r.wants(50)]).toEqual([false, true]);
  });
});

describe('packed coarse sums (a rank\'s GPU layout and the wire\'s)', () => {
  it('keep counts and 64-bit sums of squares through a pack and an unpack, above 2^32 included', () => {
    const sums = { counts: Uint32Array.from([0, 7, 0xffffffff, 70000]), squares: Float64Array.from([0, 49, 2 ** 40 + 12345, 70000 * 70000]) };
    const words = packCoarseSums(sums);
    expect(words.length).toBe(COARSE_WORDS * 4);
    expect([...words.subarray(8)]).toEqual([0, 0, 256, 1]);
    const back = unpackCoarseSums(words, 4);
    expect(back.counts).toEqual(sums.counts);
    expect(back.squares).toEqual(sums.squares);
    expect(() => unpackCoarseSums(words, 5)).toThrow(/12 words of coarse sums for 5 blocks/);
  });
});
