// No silent caps: when the particle count outgrows the buffers (a supersonic stream piling up in a
// closed box), the buffers grow between submits and every particle is kept.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gpu } from '../../src-main/solver/gpu/device.js';
import { CELL_WORD } from '../../src-main/solver/gpu/struct-layouts.js';
import { initialCapacity } from '../../src-main/solver/state.js';
import { buildTables } from '../../src-main/solver/tables.js';
import { gpuForTests, presetCase, simulate } from './harness.js';

let gpu: Gpu;
beforeAll(async () => { gpu = await gpuForTests(); });
afterAll(() => gpu?.device.destroy());

describe('particle buffer growth', () => {
  it('grows past the initial capacity without losing a particle', async () => {
    const c = presetCase('free-stream', ['boundaries.xmax={"type":"specular"}', 'run.steps=600', 'sampling.start=601']);
    const first = initialCapacity(buildTables(c), c.run.stepsPerSubmit);
    const { sim, result } = await simulate(gpu, c);
    expect(result.capacity).toBeGreaterThan(first);
    expect(sim.liveParticles).toBeGreaterThan(first);
    // the count carries over from step to step: nothing vanishes between the read-backs
    for (let k = 1; k < result.stepStats.length; k++) {
      expect(result.stepStats[k].particlesBefore).toBe(result.stepStats[k - 1].particlesAfter);
    }
    // every particle in the buffers is a live one, inside the box, in the cell its position gives
    const r = await sim.readParticles(['px', 'cell']);
    const cells = new Uint32Array(r.cell);
    const px = new Float32Array(r.px);
    const [nx] = c.grid.cells;
    expect(cells.length).toBe(sim.liveParticles);
    for (let i = 0; i < cells.length; i++) {
      const ix = Math.min(Math.floor(px[i] / c.grid.cellSize[0]), nx - 1);
      expect((cells[i] & CELL_WORD.MASK) % nx).toBe(ix);
    }
  });
});
