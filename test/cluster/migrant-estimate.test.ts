// The migrants a rank expects before its first step (migrant-estimate.ts), which sizes the exchange's buffers: the
// one-way Maxwellian flux through the faces a rank's box shares with each peer, against the closed form for simple
// layouts, and against the migrants real ranks send in the first steps of a periodic box of argon at rest.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Case } from '../../src-main/common/case-schema.js';
import { maxwellianFlux } from '../../src-main/common/physics.js';
import { decompose } from '../../src-main/cluster/decomposition/index.js';
import type { Gpu } from '../../src-main/solver/gpu/device.js';
import { expectedMigrants } from '../../src-main/solver/migrant-estimate.js';
import { subdomainOf } from '../../src-main/solver/subdomain.js';
import { buildTables } from '../../src-main/solver/tables.js';
import { gpuForTests, presetCase } from '../physics/harness.js';
import { runInProcessRanks } from './in-process-ranks.js';

/** The scaling box (argon at rest, periodic) on a small grid. */
const box = (sets: string[] = []): Case => presetCase('scaling-box', ['grid.cells=[16,16,32]', 'run.steps=6', ...sets]);

/** Particles crossing one cell face of the box's gas in one dt, from one side (n c_mp / (2 sqrt(pi)) A dt / fnum). */
function perFaceCell(c: Case): number {
  const ar = c.species[0];
  const [dx, dy, dz] = c.grid.cellSize;
  expect(dx).toBe(dy);
  expect(dy).toBe(dz);
  return (maxwellianFlux(c.initial.numberDensity, c.initial.temperature, ar.mass, 0) * dx * dy * c.run.dt) / buildTables(c).fnum;
}

describe('expected migrants from the case (closed form)', () => {
  it('a periodic slab: each rank sends both of its faces\' flux to its two neighbours', () => {
    const c = box();
    const d = decompose('slab', c.grid.cells, 4);
    const face = perFaceCell(c);
    for (let r = 0; r < 4; r++) {
      const sub = subdomainOf(d, r);
      const est = expectedMigrants(c, sub, buildTables(c).fnum);
      const cut = [0, 1, 2].find((a) => sub.box.hi[a] - sub.box.lo[a] < c.grid.cells[a])!;
      const faceCells = c.grid.cells.reduce((p, n, a) => (a === cut ? p : p * n), 1);
      expect(est[r]).toBe(0);
      expect(est.reduce((s, n) => s + n, 0)).toBeCloseTo(2 * faceCells * face, 6);
      // one face to each neighbour
      expect(est.filter((n) => n > 0).length).toBe(2);
    }
  });

  it('walls instead of periodic faces: the end ranks send to one neighbour only', () => {
    const walls = ['xmin', 'xmax', 'ymin', 'ymax', 'zmin', 'zmax'].map((f) => `boundaries.${f}={"type":"specular"}`);
    const c = box(walls);
    const d = decompose('slab', c.grid.cells, 3);
    const sums = d.boxes.map((_, r) => expectedMigrants(c, subdomainOf(d, r), buildTables(c).fnum).reduce((s, n) => s + n, 0));
    expect(sums[0]).toBeCloseTo(sums[2], 9);
    expect(sums[1]).toBeCloseTo(2 * sums[0], 6);
  });

  it('a drift along the cut sends more downstream than upstream, by the flux formula', () => {
    const c = box(['initial.velocity=[0,0,300]']);
    const d = decompose('slab', c.grid.cells, 2);
    const cut = [0, 1, 2].find((a) => d.boxes[0].hi[a] - d.boxes[0].lo[a] < c.grid.cells[a])!;
    expect(cut).toBe(2); // the longest axis
    const fnum = buildTables(c).fnum;
    const faceArea = c.grid.cellSize[0] * c.grid.cellSize[1] * c.grid.cells[0] * c.grid.cells[1];
    const flux = (u: number) => (maxwellianFlux(c.initial.numberDensity, c.initial.temperature, c.species[0].mass, u) * faceArea * c.run.dt) / fnum;
    // two ranks on a periodic axis share two faces: one crossed downstream, one upstream
    const est = expectedMigrants(c, subdomainOf(d, 0), fnum);
    expect(est[1]).toBeCloseTo(flux(300) + flux(-300), 6);
    expect(flux(300)).toBeGreaterThan(3 * flux(-300));
  });

  it('rcb: a face shared with two peers is split between them by the cells they face', () => {
    const c = box();
    const d = decompose('rcb', c.grid.cells, 4);
    const fnum = buildTables(c).fnum;
    const face = perFaceCell(c);
    const est = d.boxes.map((_, r) => expectedMigrants(c, subdomainOf(d, r), fnum));
    for (let r = 0; r < 4; r++) {
      const b = d.boxes[r];
      // a periodic box: every face of every box borders other ranks (or itself, on an axis the box spans)
      let faces = 0;
      for (let a = 0; a < 3; a++) {
        if (b.hi[a] - b.lo[a] === c.grid.cells[a]) continue;
        faces += 2 * ((b.hi[(a + 1) % 3] - b.lo[(a + 1) % 3]) * (b.hi[(a + 2) % 3] - b.lo[(a + 2) % 3]));
      }
      expect(est[r].reduce((s, n) => s + n, 0)).toBeCloseTo(faces * face, 6);
    }
    // the flux between two ranks is the same both ways (the same gas, the same shared faces)
    for (let r = 0; r < 4; r++) for (let q = 0; q < 4; q++) expect(est[r][q]).toBeCloseTo(est[q][r], 6);
  });

  it('a box that starts empty takes the densest inflow\'s gas; no gas at all gives none', () => {
    const c = presetCase('free-stream', ['grid.cells=[16,6,4]']);
    expect(c.initial.kind).toBe('empty');
    const d = decompose('slab', c.grid.cells, 2);
    const est = expectedMigrants(c, subdomainOf(d, 0), buildTables(c).fnum);
    expect(est[1]).toBeGreaterThan(0);
    const vacuum = presetCase('free-stream', ['grid.cells=[16,6,4]', 'boundaries.xmin={"type":"outflow"}', 'particles={"fnum":1e12}']);
    expect(expectedMigrants(vacuum, subdomainOf(d, 0), buildTables(vacuum).fnum)).toEqual([0, 0]);
  });
});

describe('expected migrants against real ranks (lavapipe)', () => {
  let gpu: Gpu;
  beforeAll(async () => { gpu = await gpuForTests(); });
  afterAll(() => gpu?.device.destroy());

  it('the first steps of 4 slab ranks send what the estimate expects, within 4 % (about 5 sigma of the counts)', async () => {
    const c = box();
    const { results, sims } = await runInProcessRanks(gpu, c, 'slab', 4);
    const fnum = buildTables(c).fnum;
    let expected = 0;
    let sent = 0;
    sims.forEach((sim, r) => {
      expected += c.run.steps * expectedMigrants(c, sim.subdomain, fnum).reduce((s, n) => s + n, 0);
      for (const s of results[r].stepStats) sent += s.sent ?? 0;
    });
    // about 16,000 migrants in all: a relative standard deviation of 0.8 %
    expect(sent).toBeGreaterThan(10_000);
    expect(Math.abs(sent / expected - 1)).toBeLessThan(0.04);
  }, 120_000);
});
