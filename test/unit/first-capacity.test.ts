// A rank's first particle capacity (state.ts initialCapacity): its share of the cells' particles with the spread of a
// step's arrivals, and, where the flow is open (inflow faces), room for particles gathering in its cells
// (RANK_GATHER_ROOM) so that a developing flow does not make it grow its buffers in the loop.
import { describe, expect, it } from 'vitest';
import { RANK_GATHER_ROOM, bufferPlan, initialCapacity, rankCapacity } from '../../src-main/solver/state.js';
import { buildTables } from '../../src-main/solver/tables.js';
import { presetCase } from '../physics/harness.js';

describe('a rank\'s first particle capacity', () => {
  it('gives a rank of an open flow room beyond its share of the reference fill', () => {
    const t = buildTables(presetCase('free-stream'));
    expect(t.nFaceCells).toBeGreaterThan(0);
    const share = 0.25;
    const rank = initialCapacity(t, 1, share);
    const n = share * Math.max(t.initialParticles, t.referenceParticles);
    // at least the room times the share (plus the arrivals' spread), and no more than that with the one-rank margins
    expect(rank).toBeGreaterThanOrEqual(RANK_GATHER_ROOM * n);
    expect(rank).toBeLessThan(RANK_GATHER_ROOM * 1.1 * 1.04 * n + 10 * Math.sqrt(n) + 20_000 + t.injectionPerStep * 2);
    // one rank (share 1) has no such room: the reference fill with its 10 %
    expect(initialCapacity(t, 1)).toBeLessThan(1.2 * Math.max(t.initialParticles, t.referenceParticles) + 20_000 + t.injectionPerStep * 2);
  });

  it('gives a rank of a closed box its share and the spread of a step\'s arrivals only', () => {
    const t = buildTables(presetCase('scaling-box'));
    expect(t.nFaceCells).toBe(0);
    const share = 0.25;
    const n = share * t.initialParticles;
    const rank = initialCapacity(t, 1, share);
    expect(rank).toBeGreaterThanOrEqual(n);
    expect(rank).toBeLessThanOrEqual(Math.ceil(1.03 * n + 6 * Math.sqrt(n) + 4096 + 1024));
  });

  it('keeps the room only where every buffer it plans fits the adapter\'s largest binding, else starts without it', () => {
    // many particles a cell: the particle buffers are the largest
    const t = buildTables(presetCase('free-stream', ['particles.perCell=2000']));
    const [share, nLocal, ranks] = [0.25, Math.ceil(t.nCells / 4), 4];
    const roomy = initialCapacity(t, 1, share);
    const bare = initialCapacity(t, 1, share, false);
    expect(roomy).toBeGreaterThan(bare);
    const huge = { maxBinding: 2 ** 31, maxBuffer: 2 ** 40 };
    expect(rankCapacity(t, 1, share, nLocal, ranks, huge)).toBe(roomy);
    // a binding that holds the bare plan's largest buffer but not the roomy one's
    const largest = (capacity: number) => Math.max(...bufferPlan(t, capacity, nLocal, ranks).map((b) => b.bytes));
    const tight = { maxBinding: largest(bare), maxBuffer: 2 ** 40 };
    expect(largest(roomy)).toBeGreaterThan(tight.maxBinding);
    expect(rankCapacity(t, 1, share, nLocal, ranks, tight)).toBe(bare);
  });
});
