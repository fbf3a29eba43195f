// A rank's first particle capacity (state.ts initialCapacity): its share of the cells' particles with the spread of a
// step's arrivals, and, where the flow is open (inflow faces), room for particles gathering in its cells
// (RANK_GATHER_ROOM) so that a developing flow does not make it grow its buffers in the loop.
import { describe, expect, it } from 'vitest';
import { RANK_GATHER_ROOM, initialCapacity } from '../../src-main/solver/state.js';
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
});
