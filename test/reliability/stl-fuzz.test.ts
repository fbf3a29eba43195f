// Property-based fuzzing of bodies (fast-check, seeded): generated STL files, binary and ASCII, valid and broken
// (a facet dropped, flipped or doubled, a coordinate NaN, the file cut short, bytes flipped, the binary count wrong,
// a binary header that reads "solid ... facet", the mesh scaled by 1e-320 ... 1e6), placed at random scales and
// offsets in the sphere preset's box beside random built-in bodies (boxes and spheres inside, across, outside the
// box and each other). Each case is judged as in case-fuzz (case-judge.ts): accepted with finite tables and a
// pre-launch report, or refused by a CaseError whose every issue names a real path and says what to do; never
// another error. Valid meshes placed well inside the box must be accepted. DSMC_FUZZ_SEED, DSMC_STL_FUZZ_RUNS.
import fc from 'fast-check';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { shapeSchema } from '../../src-main/common/body-schema.js';
import { tessellateShape } from '../../src-main/common/geometry/index.js';
import { judge } from './case-judge.js';

const SEED = Number(process.env.DSMC_FUZZ_SEED ?? 20261122);
const RUNS = Number(process.env.DSMC_STL_FUZZ_RUNS ?? 600);
const DIR = mkdtempSync(join(tmpdir(), 'dsmc-stl-fuzz-'));
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

const BASE = JSON.parse(readFileSync(new URL('../../resources/cases/sphere-free-molecular.json', import.meta.url), 'utf8'));
delete BASE.$schema;
/** The preset's box edge, m (12 cells of 0.05 m). */
const L = 0.6;

/** Closed outward meshes about the origin of about unit size. */
const MESHES = [
  tessellateShape(shapeSchema.parse({ type: 'box', min: [-0.5, -0.5, -0.5], max: [0.5, 0.5, 0.5] }), [1, 1, 1]),
  tessellateShape(shapeSchema.parse({ type: 'sphere', center: [0, 0, 0], radius: 0.5, subdivisions: 1 }), [1, 1, 1]),
  Float64Array.from([0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 1, 0, 0, 0, 1, 0, 0, 0, 1].map((x) => x - 0.25)),
];

type Broken = 'none' | 'drop' | 'flip' | 'double' | 'nan' | 'cut' | 'flipbytes' | 'count' | 'scale';

/** One STL file to generate: mesh, encoding, header, damage. */
const stlSpec = fc.record({
  mesh: fc.nat(MESHES.length - 1),
  binary: fc.boolean(),
  header: fc.constantFrom('binary', 'solid x\nfacet normal 0 0 1\n', 'solid', ''),
  broken: fc.constantFrom<Broken>('none', 'none', 'none', 'none', 'none', 'none', 'drop', 'flip', 'double', 'nan', 'cut', 'flipbytes', 'count', 'scale'),
  at: fc.nat(),
  exp: fc.integer({ min: -320, max: 6 }),
});

type StlSpec = typeof stlSpec extends fc.Arbitrary<infer T> ? T : never;

/** The triangles of a spec after the damage to the mesh itself. */
function trianglesOf(s: StlSpec): Float64Array {
  let t = MESHES[s.mesh].slice();
  const n = t.length / 9;
  const k = s.at % n;
  if (s.broken === 'drop') t = Float64Array.from([...t.subarray(0, 9 * k), ...t.subarray(9 * k + 9)]);
  if (s.broken === 'flip') { const v = t.slice(9 * k + 3, 9 * k + 6); t.set(t.subarray(9 * k + 6, 9 * k + 9), 9 * k + 3); t.set(v, 9 * k + 6); }
  if (s.broken === 'double') t = Float64Array.from([...t, ...t.subarray(9 * k, 9 * k + 9)]);
  if (s.broken === 'nan') t[9 * k] = NaN;
  if (s.broken === 'scale') t = t.map((x) => x * 10 ** s.exp);
  return t;
}

/** The bytes of an STL spec. */
function bytesOf(s: StlSpec): Uint8Array {
  const t = trianglesOf(s);
  const n = t.length / 9;
  let bytes: Uint8Array;
  if (s.binary) {
    bytes = new Uint8Array(84 + 50 * n);
    for (let i = 0; i < Math.min(80, s.header.length); i++) bytes[i] = s.header.charCodeAt(i);
    const view = new DataView(bytes.buffer);
    view.setUint32(80, s.broken === 'count' ? n + 1 + (s.at % 5) : n, true);
    for (let i = 0; i < n; i++) for (let q = 0; q < 9; q++) view.setFloat32(84 + 50 * i + 12 + 4 * q, t[9 * i + q], true);
  } else {
    let text = 'solid fuzz\n';
    for (let i = 0; i < n; i++) {
      text += ' facet normal 0 0 0\n  outer loop\n';
      for (let v = 0; v < 3; v++) text += `   vertex ${t[9 * i + 3 * v]} ${t[9 * i + 3 * v + 1]} ${t[9 * i + 3 * v + 2]}\n`;
      text += '  endloop\n endfacet\n';
    }
    bytes = new TextEncoder().encode(s.broken === 'count' ? text.replace(/endloop\n endfacet\n$/, '') : text + 'endsolid fuzz\n');
  }
  if (s.broken === 'cut') bytes = bytes.subarray(0, s.at % bytes.length);
  if (s.broken === 'flipbytes') { bytes = bytes.slice(); for (let j = 0; j < 4; j++) bytes[(s.at * (j + 7)) % bytes.length] ^= 0xa5; }
  return bytes;
}

/** A coordinate spread evenly over [lo, hi] in steps of 1 mm (fc.double crowds the ends). */
function coord(lo: number, hi: number): fc.Arbitrary<number> {
  return fc.integer({ min: Math.round(lo * 1000), max: Math.round(hi * 1000) }).map((k) => k / 1000);
}

/** A built-in body at a random place and size (possibly outside the box or over another body). */
const builtIn = fc.record({
  kind: fc.constantFrom('box', 'sphere'),
  c: fc.tuple(coord(-0.2, 0.8), coord(-0.2, 0.8), coord(-0.2, 0.8)),
  r: fc.double({ min: 1e-4, max: 0.5, noNaN: true }),
});

/** A placement of the STL body: scale and centre. */
const placement = fc.record({
  scale: fc.constantFrom(1e-300, 1e-9, 0.01, 0.05, 0.05, 0.1, 0.1, 0.2, 1, 1e3),
  c: fc.tuple(coord(0, 0.6), coord(0, 0.6), coord(0, 0.6)),
});

let serial = 0;
describe('fuzzing bodies: generated STL files and placements', () => {
  it(`never throws anything but a CaseError naming a real path (${RUNS} cases, seed ${SEED})`, () => {
    const seen = { accepted: 0, refused: 0, validInside: 0 };
    fc.assert(
      fc.property(stlSpec, placement, fc.array(builtIn, { maxLength: 2 }), (s, p, extra) => {
        const file = join(DIR, `b${serial++}.stl`);
        writeFileSync(file, bytesOf(s));
        const c = structuredClone(BASE);
        c.bodies = [
          { name: 'stl', shape: { type: 'stl', file, scale: p.scale, translate: p.c }, surface: { model: 'specular' } },
          ...extra.map((b, i) => ({
            name: `b${i}`, surface: { model: 'diffuse', temperature: 300 },
            shape: b.kind === 'box' ? { type: 'box', min: b.c.map((x) => x - b.r / 2), max: b.c.map((x) => x + b.r / 2) } : { type: 'sphere', center: b.c, radius: b.r / 2, subdivisions: 1 },
          })),
        ];
        const outcome = judge(c);

        seen[outcome]++;
        // a sound mesh well inside the box, alone, must be accepted
        const sound = s.broken === 'none';
        const half = 0.75 * p.scale;
        if (sound && extra.length === 0 && p.scale >= 0.01 && p.scale <= 0.2 && p.c.every((x) => x - half > 0 && x + half < L)) {
          seen.validInside++;
          expect(outcome, `a valid ${s.binary ? 'binary' : 'ASCII'} mesh inside the box was refused`).toBe('accepted');
        }
      }),
      { seed: SEED, numRuns: RUNS },
    );
    if (process.env.DSMC_STL_FUZZ_DEBUG) console.log(JSON.stringify(seen));
    expect(seen.accepted).toBeGreaterThan(0);
    expect(seen.validInside).toBeGreaterThan(0);
    expect(seen.refused).toBeGreaterThan(RUNS * 0.3);
  }, 300_000);
});
