// The end of a sampled multi-rank run (rank-fields.ts): every rank's fields and standard errors, computed from its own
// cells' sampling state and placed in global order, are bitwise those of the whole grid's state folded and evaluated at
// once, for a mixture with cut cells (per-species fields, gas-volume scaling by global cell id); a rank that sent other
// fields is refused. Planes read from the ranks' files on worker threads (one host) are placed bitwise as frames are,
// with frames and files mixed; a short file fails the placing with its name.
import { mkdtempSync, readdirSync, rmSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeFieldPlanes } from '../../src-main/cluster/transport/field-planes-file.js';
import { decompose } from '../../src-main/cluster/decomposition/decompose.js';
import { FieldAccumulator } from '../../src-main/solver/field-accumulator.js';
import { fieldsSha256 } from '../../src-main/solver/fields.js';
import { placeRankFields, placeRankFieldsOnThreads, rankFields } from '../../src-main/solver/rank-fields.js';
import { SAMPLE_PARTS, emptySampleState, sampleLayout } from '../../src-main/solver/sample-buffers.js';
import { subdomainOf } from '../../src-main/solver/subdomain.js';
import { buildTables } from '../../src-main/solver/tables.js';
import { presetCase } from '../physics/harness.js';
import { seededUniform } from '../seeded-random.js';

/** A channel of Ar + He with a block in the flow (cut cells), sampled. */
const kase = presetCase('free-stream', [
  'grid.cells=[16,6,4]', 'species=[{"use":"Ar"},{"use":"He"}]',
  'boundaries.xmin={"type":"inflow","numberDensity":1e20,"temperature":300,"velocity":[1060.4,0,0],"fractions":{"Ar":0.7,"He":0.3}}',
  'bodies=[{"name":"block","shape":{"type":"box","min":[0.021,0.0061,0.0041],"max":[0.033,0.017,0.0119]},"surface":{"model":"diffuse","temperature":400}}]',
]);

describe('rank fields placed in global order', () => {
  const t = buildTables(kase);
  const d = decompose('rcb', kase.grid.cells, 3);
  const subs = d.boxes.map((_, r) => subdomainOf(d, r));
  const random = seededUniform(7);
  // plausible sums: counts, then moments of either sign in the high words; batch means anywhere in [0, 1)
  const states = subs.map((s) => {
    const st = emptySampleState(sampleLayout(t), s.nLocal);
    for (const part of SAMPLE_PARTS) {
      const a = st[part];
      for (let i = 0; i < a.length; i++) a[i] = part === 'welford' ? random() : Math.floor(random() * (part.endsWith('Hi') ? 16 : 2 ** 32));
    }
    return st;
  });
  const counters = { samples: 40, blockPasses: 0, blockSubmits: 0, blocks: 5 };

  it('are bitwise the whole grid folded and evaluated', async () => {
    expect(t.bodies.volumeFraction?.some((f) => f > 0 && f < 1)).toBe(true);
    const global = new FieldAccumulator(kase, t);
    global.counters = { ...counters };
    states.forEach((s, r) => global.place(s, subs[r]));
    const parts = await Promise.all(states.map(async (s, r) => ({ sub: subs[r], ...await rankFields(kase, t, subs[r], s, counters) })));
    expect(parts[0].names).toContain('n_He');
    const placed = placeRankFields(kase.grid.cells, parts);
    expect(fieldsSha256(placed.fields)).toBe(fieldsSha256(global.fields()));
    expect(fieldsSha256(placed.errors)).toBe(fieldsSha256(global.errors()));
  });

  it('refuses a rank whose fields differ from rank 0\'s', async () => {
    const parts = await Promise.all(states.map(async (s, r) => ({ sub: subs[r], ...await rankFields(kase, t, subs[r], s, counters) })));
    parts[2] = { ...parts[2], names: parts[2].names.slice(1) };
    expect(() => placeRankFields(kase.grid.cells, parts)).toThrow(/rank 2 sent the fields/);
  });

  it('are placed from the ranks\' files on threads bitwise as from frames, frames and files mixed', async () => {
    const parts = await Promise.all(states.map(async (s, r) => ({ sub: subs[r], ...await rankFields(kase, t, subs[r], s, counters) })));
    const framed = placeRankFields(kase.grid.cells, parts);
    const dir = mkdtempSync(join(tmpdir(), 'place-'));
    try {
      for (const [threads, framedRank] of [[3, -1], [2, 1], [7, -1]] as const) {
        const mixed = parts.map((p, r) => (r === framedRank ? p : { sub: p.sub, names: p.names, file: writeFieldPlanes(dir, r, p.planes)! }));
        const placed = await placeRankFieldsOnThreads(kase.grid.cells, mixed, threads);
        expect(placed.fields.n.buffer).toBeInstanceOf(SharedArrayBuffer);
        expect(fieldsSha256(placed.fields)).toBe(fieldsSha256(framed.fields));
        expect(fieldsSha256(placed.errors)).toBe(fieldsSha256(framed.errors));
        expect(readdirSync(dir)).toEqual([]); // every file removed once placed
      }
      const files = parts.map((p, r) => ({ sub: p.sub, names: p.names, file: writeFieldPlanes(dir, r, p.planes)! }));
      truncateSync(files[2].file.path, 16);
      await expect(placeRankFieldsOnThreads(kase.grid.cells, files, 5)).rejects.toThrow(/a field planes reading thread failed: the field planes file .*fields-2\.f64 ends after \d+ bytes/); // whichever of its readers fails first
      expect(readdirSync(dir)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
