// The migrant buffer a rank sends: each destination's segment holds exactly the particles bound for that rank's box,
// each once. The move compacts its migrants by subgroup where the adapter has subgroups (count-subgroup.wgsl:
// emit_migrant, records in buffer order within a subgroup), by workgroup otherwise (move.wgsl: emit_migrants, in buffer
// order within a workgroup: with fewer particles per rank than one workgroup, 256, the whole segment is in buffer
// order, which is ascending key order, since a moved particle's key is its cell and its rank in that cell). Both run
// here: the default adapter, and one opened with DSMC_SUBGROUPS=0.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Case } from '../../src-main/common/case-schema.js';
import { decompose } from '../../src-main/cluster/decomposition/index.js';
import { openGpu, type Gpu } from '../../src-main/solver/gpu/device.js';
import { MIGRANT_WORDS } from '../../src-main/solver/gpu/struct-layouts.js';
import { fieldsSha256 } from '../../src-main/solver/fields.js';
import { subdomainOf } from '../../src-main/solver/subdomain.js';
import { gpuForTests, presetCase, simulate } from '../physics/harness.js';
import { runInProcessRanks } from './in-process-ranks.js';

let gpu: Gpu;
/** A device without subgroups: the move compacts by workgroup. */
let workgroupGpu: Gpu;
beforeAll(async () => {
  gpu = await gpuForTests();
  const before = process.env.DSMC_SUBGROUPS;
  process.env.DSMC_SUBGROUPS = '0';
  try {
    workgroupGpu = await openGpu();
  } finally {
    if (before === undefined) delete process.env.DSMC_SUBGROUPS;
    else process.env.DSMC_SUBGROUPS = before;
  }
});
afterAll(() => {
  gpu?.device.destroy();
  workgroupGpu?.device.destroy();
});

const CELL_MASK = 0x07ffffff;

/** A small periodic box (collide-box physics, 4 x 4 x 4 cells, 8 particles per cell): about 128 particles on each of 4 ranks. */
const smallBox = (): Case => presetCase('collide-box', [
  'grid.cells=[4,4,4]', 'particles.perCell=8', 'run.steps=20', 'sampling.enabled=true', 'sampling.start=2', 'sampling.interval=1',
  ...['xmin', 'xmax', 'ymin', 'ymax', 'zmin', 'zmax'].map((f) => `boundaries.${f}={"type":"periodic"}`),
]);

/** One sent segment: sender, destination and records. */
interface Sent { from: number; to: number; exchange: number; records: Uint32Array }

/** Runs the small box on 4 block ranks, keeping every segment sent; checks the fields against one rank. */
async function runCapturing(gpu: Gpu, segmentCapacity?: number): Promise<{ sent: Sent[]; c: Case }> {
  const c = smallBox();
  const { result } = await simulate(gpu, c, { timing: 'off' });
  const sent: Sent[] = [];
  const { assembler, sims } = await runInProcessRanks(gpu, c, 'block', 4, undefined, {
    segmentCapacity,
    observeExchange: (from, exchange, outgoing) => outgoing.forEach((records, to) => {
      if (to !== from) sent.push({ from, to, exchange, records: records.slice() });
    }),
  });
  expect(fieldsSha256(assembler.fields.fields())).toBe(fieldsSha256(result.fields));
  for (const s of sims) expect(s.liveParticles).toBeLessThanOrEqual(256);
  return { sent, c };
}

/** Checks every segment: records in the destination's box, no key twice per sender and exchange, keys ascending (inOrder). */
function checkSegments(sent: Sent[], c: Case, inOrder: boolean): { records: number; destinations: Set<string> } {
  const d = decompose('block', c.grid.cells, 4);
  const boxes = d.boxes.map((_, r) => subdomainOf(d, r).box);
  const [nx, ny] = c.grid.cells;
  const seen = new Map<string, Set<string>>();
  let records = 0;
  const destinations = new Set<string>();
  for (const s of sent) {
    const n = s.records.length / MIGRANT_WORDS;
    expect(Number.isInteger(n)).toBe(true);
    let previous: [number, number] | null = null;
    for (let k = 0; k < n; k++) {
      const o = k * MIGRANT_WORDS;
      const g = s.records[o + 6] & CELL_MASK;
      const v = [g % nx, Math.floor(g / nx) % ny, Math.floor(g / (nx * ny))];
      const box = boxes[s.to];
      expect(v.every((x, a) => x >= box.lo[a] && x < box.hi[a]), `record in rank ${s.to}'s box`).toBe(true);
      const key: [number, number] = [s.records[o + 7], s.records[o + 8]];
      const tag = `${s.from}:${s.exchange}`;
      const keys = seen.get(tag) ?? new Set<string>();
      seen.set(tag, keys);
      expect(keys.has(key.join(',')), 'no particle sent twice').toBe(false);
      keys.add(key.join(','));
      if (previous && inOrder) {
        const ascending = key[0] > previous[0] || (key[0] === previous[0] && key[1] > previous[1]);
        expect(ascending, `segment ${s.from} -> ${s.to} of exchange ${s.exchange} in buffer order`).toBe(true);
      }
      previous = key;
      records++;
    }
    if (n > 0) destinations.add(`${s.from}:${s.exchange}:${s.to}`);
  }
  return { records, destinations };
}

describe('migrant compaction by workgroup (an adapter without subgroups)', () => {
  it('puts each migrant once into its owner\'s segment, in buffer order, several destinations per workgroup', async () => {
    expect(workgroupGpu.device.features.has('subgroups')).toBe(false);
    const { sent, c } = await runCapturing(workgroupGpu);
    const { records, destinations } = checkSegments(sent, c, true);
    expect(records).toBeGreaterThan(100);
    // some sender sends to at least two ranks in one exchange: one workgroup compacts for several destinations
    const perSender = new Map<string, number>();
    for (const key of destinations) {
      const [from, exchange] = key.split(':');
      perSender.set(`${from}:${exchange}`, (perSender.get(`${from}:${exchange}`) ?? 0) + 1);
    }
    expect(Math.max(...perSender.values())).toBeGreaterThanOrEqual(2);
  });

  it('keeps that order when the segments overflow and every migrant is collected again', async () => {
    const { sent, c } = await runCapturing(workgroupGpu, 2);
    const { records } = checkSegments(sent, c, true);
    expect(records).toBeGreaterThan(100);
  });
});

describe('migrant compaction on the default adapter (by subgroup where it has subgroups)', () => {
  it('puts each migrant once into its owner\'s segment, and the fields are one rank\'s', async () => {
    const { sent, c } = await runCapturing(gpu);
    expect(checkSegments(sent, c, false).records).toBeGreaterThan(100);
  });

  it('and when the segments overflow and every migrant is collected again', async () => {
    const { sent, c } = await runCapturing(gpu, 2);
    expect(checkSegments(sent, c, false).records).toBeGreaterThan(100);
  });
});
