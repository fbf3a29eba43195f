// Property-based fuzzing of the case layer (fast-check): random mutations of the bundled presets, of their
// text and of --set overrides. A mutated case either parses, passes the rules and gives finite solver
// tables and a pre-launch report without throwing, or it is refused with the product's CaseError whose
// every issue names a real path of the case and says what to do. Never another exception, never a crash.
// Seeded: a failure prints the seed and path to replay; DSMC_FUZZ_SEED and DSMC_FUZZ_RUNS explore further.
// The judge and the mutations live in case-judge.ts (hostile-case-fuzz and cli-fuzz use them too).
// The two costly pure functions of the bodies' geometry answer a repeat of exactly the same arguments from memory
// (geometry-memo.ts: most mutations of the big presets leave their mesh and grid as they were); every new mesh or
// grid is still meshed by the product. The last test checks that the stand-ins give the product's own results.
import fc from 'fast-check';
import { afterAll, describe, expect, it, vi } from 'vitest';
import * as geometry from '../../src-main/common/geometry/index.js';
import { applyOverrides } from '../../src-main/common/case-overrides.js';
import { CaseError, parseCase, parseCaseText } from '../../src-main/common/case-schema.js';
import { bodyTriangles } from '../../src-main/solver/body-tables.js';
import { turnEvery } from '../helpers/event-loop.js';
import { FIX_WORDS, PRESETS, PRESET_TEXTS, judge, mutate, mutation, parsePath } from './case-judge.js';
import { memoStats, memoizedGeometry } from './geometry-memo.js';

vi.mock('../../src-main/common/geometry/index.js', async (importOriginal) =>
  (await import('./geometry-memo.js')).memoizedGeometry(await importOriginal()));
afterAll(() => { process.stdout.write(`case-fuzz geometry memo: ${JSON.stringify(memoStats)}\n`); });

const SEED = Number(process.env.DSMC_FUZZ_SEED ?? 20261122);
const RUNS = Number(process.env.DSMC_FUZZ_RUNS ?? 2500);

describe('fuzzing the case schema with mutations of the presets', () => {
  it(`never throws anything but a CaseError naming a real path (${RUNS} cases, seed ${SEED})`, async () => {
    const seen = { accepted: 0, refused: 0 };
    const turn = turnEvery();
    await fc.assert(
      fc.asyncProperty(fc.nat(PRESETS.length - 1), fc.array(mutation, { minLength: 1, maxLength: 4 }), async (p, ms) => {
        // a turn of the event loop every 250 ms: the whole run takes a minute or more on 2 cores (presets with bodies
        // are meshed per case, up to seconds each), and a worker that never yields misses vitest's 60 s deadline for
        // its reports (a turn every 20 cases still left 10-20 s blocks on a loaded machine)
        await turn();
        const input = ms.reduce((j, m) => mutate(j, m), PRESETS[p]);
        seen[judge(input)]++;
      }),
      { seed: SEED, numRuns: RUNS },
    );
    // both outcomes must occur, or the mutations are too tame or too wild to test anything
    expect(seen.accepted).toBeGreaterThan(RUNS * 0.02);
    expect(seen.refused).toBeGreaterThan(RUNS * 0.5);
  });

  it('the presets themselves are accepted by the same judge', async () => {
    const turn = turnEvery(); // the big presets take seconds each to mesh and tabulate
    for (const p of PRESETS) {
      await turn();
      expect(judge(p)).toBe('accepted');
    }
  });
});

describe('fuzzing the case text', () => {
  it('damaged preset text gives a CaseError with line and column, never another error', () => {
    const junk = fc.constantFrom('NaN', 'Infinity', '-Infinity', ',', '}', ']', '{', '[', '"', "'", '//', '/*', ':', 'x', '\n', '\\', '01', '1e999', '\u0000');
    fc.assert(
      fc.property(fc.nat(PRESET_TEXTS.length - 1), fc.nat(), fc.nat(8), junk, (p, at, cut, ins) => {
        const t = PRESET_TEXTS[p];
        const i = at % t.length;
        const text = t.slice(0, i) + ins + t.slice(i + cut);
        try {
          parseCaseText(text);
        } catch (e) {
          if (!(e instanceof CaseError)) throw new Error(`parseCaseText threw ${(e as Error)?.name}: ${(e as Error)?.message}`);
          for (const issue of e.issues) {
            expect(() => parsePath(issue.path)).not.toThrow();
            expect(issue.message).toMatch(FIX_WORDS);
            if (issue.message.includes('not valid JSON')) expect(issue.message).toMatch(/at line \d+ column \d+: /);
          }
        }
      }),
      { seed: SEED, numRuns: Math.ceil(RUNS / 2) },
    );
  });
});

describe('fuzzing --set overrides', () => {
  it('a random --set either applies or throws an Error naming the --set; the result is then judged as above', () => {
    const pathText = fc.oneof(
      fc.constantFrom('run.dt', 'grid.cells', 'grid.cells.0', 'grid.cells.3', 'grid.cells.x', 'species.0.mass', 'species.1', 'boundaries.xmin.type',
        'boundaries.xmin', 'initial.velocity.2', 'initial.fractions.Ar', 'name', '', '.', 'a..b', '__proto__.x', 'constructor', 'run.dt.x'),
      fc.string({ maxLength: 10 }),
    );
    const valueText = fc.oneof(fc.constantFrom('NaN', 'Infinity', '1e999', '-1e999', 'null', '[]', '{}', '[0,1,1]', '"periodic"', 'periodic', '-1', '0', '1e-300'),
      fc.jsonValue({ maxDepth: 1 }).map((v) => JSON.stringify(v)), fc.string({ maxLength: 8 }));
    const set = fc.oneof(fc.tuple(pathText, valueText).map(([p, v]) => `${p}=${v}`), fc.string({ maxLength: 12 }));
    fc.assert(
      fc.property(fc.nat(PRESETS.length - 1), fc.array(set, { minLength: 1, maxLength: 3 }), (p, sets) => {
        let json: unknown;
        try {
          json = applyOverrides(PRESETS[p], sets);
        } catch (e) {
          expect(e).toBeInstanceOf(Error);
          expect((e as Error).message).toMatch(/^--set ".*": .*expected --set path=value/s);
          return;
        }
        judge(json);
      }),
      { seed: SEED, numRuns: Math.ceil(RUNS / 2) },
    );
  });
});

describe('the memoized geometry of this file', () => {
  it('gives the product\'s own mesh issues and cell tables, for a first call and a repeat alike', async () => {
    const original = await vi.importActual<typeof geometry>('../../src-main/common/geometry/index.js');
    expect(geometry.buildCellTable).not.toBe(original.buildCellTable); // the mock is in place
    const memo = memoizedGeometry(original);
    const sphere = parseCase(PRESETS.find((p) => (p as { name: string }).name === 'sphere-free-molecular'));
    const { tris } = bodyTriangles(sphere);
    const grid = { cells: sphere.grid.cells, cellSize: sphere.grid.cellSize };
    const want = original.buildCellTable(tris, grid);
    for (let k = 0; k < 2; k++) {
      expect(memo.buildCellTable(tris, grid)).toEqual(want);
      expect(memo.meshIssues(tris)).toEqual(original.meshIssues(tris));
    }
    // another grid, another mesh, a damaged mesh: not the remembered answer
    const finer = { cells: [13, 12, 12] as const, cellSize: sphere.grid.cellSize };
    expect(memo.buildCellTable(tris, finer)).toEqual(original.buildCellTable(tris, finer));
    const moved = tris.map((x, i) => (i % 3 === 0 ? x + 1e-3 * sphere.grid.cellSize[0] : x));
    expect(memo.buildCellTable(moved, grid)).toEqual(original.buildCellTable(moved, grid));
    const open = tris.slice(9);
    expect(memo.meshIssues(open)).toEqual(original.meshIssues(open));
    expect(memo.meshIssues(open).length).toBeGreaterThan(0);
    // a table handed out is the caller's own: changing it does not change the next answer
    const got = memo.buildCellTable(tris, grid);
    got.volumeFraction.fill(7);
    expect(memo.buildCellTable(tris, grid)).toEqual(want);
  });
});
