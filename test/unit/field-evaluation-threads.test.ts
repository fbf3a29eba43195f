// The end of a sampled run evaluates its cells on worker threads over shared memory (field-evaluation-threads.ts):
// the fields and standard errors are bitwise those of one thread, for the whole grid of a mixture with cut cells, for a
// rank's cells (gas volume by global cell id) and for a gas with rotation and vibration; the workers really run (the
// threads used are counted); a state outside shared memory is copied into it; a failing range fails the call;
// DSMC_EVAL_THREADS is checked.
import { describe, expect, it } from 'vitest';
import { decompose } from '../../src-main/cluster/decomposition/decompose.js';
import type { Case } from '../../src-main/common/case-schema.js';
import { FieldAccumulator, evaluationSpec } from '../../src-main/solver/field-accumulator.js';
import { evaluateOnThreads, evaluationThreads } from '../../src-main/solver/field-evaluation-threads.js';
import { fieldsSha256 } from '../../src-main/solver/fields.js';
import { endOfRunArena, endOfRunState, rankFields } from '../../src-main/solver/rank-fields.js';
import { SAMPLE_PARTS, type SampleState } from '../../src-main/solver/sample-buffers.js';
import { ownedCellIds, subdomainOf } from '../../src-main/solver/subdomain.js';
import { buildTables, type SolverTables } from '../../src-main/solver/tables.js';
import { presetCase } from '../physics/harness.js';
import { seededUniform } from '../seeded-random.js';

/** A channel of Ar + He with a block in the flow (cut cells), sampled. */
const mixture = presetCase('free-stream', [
  'grid.cells=[16,6,4]', 'species=[{"use":"Ar"},{"use":"He"}]',
  'boundaries.xmin={"type":"inflow","numberDensity":1e20,"temperature":300,"velocity":[1060.4,0,0],"fractions":{"Ar":0.7,"He":0.3}}',
  'bodies=[{"name":"block","shape":{"type":"box","min":[0.021,0.0061,0.0041],"max":[0.033,0.017,0.0119]},"surface":{"model":"diffuse","temperature":400}}]',
]);
/** Vibrating N2 with argon: the internal temperatures too. */
const internal = presetCase('free-stream', [
  'grid.cells=[12,6,4]', 'species=[{"use":"N2","vibration":{"characteristicTemperature":3371,"relaxation":5,"millikanWhite":false}},{"use":"Ar"}]',
  'boundaries.xmin={"type":"inflow","numberDensity":1e20,"temperature":300,"velocity":[1060.4,0,0],"fractions":{"N2":0.6,"Ar":0.4}}',
]);
const counters = { samples: 40, blockPasses: 3, blockSubmits: 1, blocks: 5 };

/** Plausible seeded sums into `st`: counts, moments of either sign in the high words, batch means in [0, 1). */
function seed(st: SampleState, seedValue: number): SampleState {
  const random = seededUniform(seedValue);
  for (const part of SAMPLE_PARTS) {
    const a = st[part];
    for (let i = 0; i < a.length; i++) a[i] = part === 'welford' ? random() : Math.floor(random() * (part.endsWith('Hi') ? 16 : 2 ** 32));
  }
  return st;
}

/** The whole grid's accumulator over a seeded state in an end-of-run arena (shared memory), and one over fresh arrays. */
function accumulators(kase: Case, t: SolverTables): { shared: FieldAccumulator; fresh: FieldAccumulator } {
  const arena = endOfRunArena(kase, t, t.nCells);
  const shared = new FieldAccumulator(kase, t, null, arena.f64());
  shared.state = seed(endOfRunState(arena, t, t.nCells), 11);
  shared.counters = { ...counters };
  const fresh = new FieldAccumulator(kase, t);
  fresh.state = seed(endOfRunState(endOfRunArena(kase, t, 0), t, t.nCells), 11); // past the arena's end: fresh arrays
  fresh.counters = { ...counters };
  return { shared, fresh };
}

describe('fields evaluated on worker threads', () => {
  for (const [name, kase] of [['a mixture with cut cells', mixture], ['vibrating N2 with argon', internal]] as const) {
    it(`are bitwise one thread's for ${name}`, async () => {
      const t = buildTables(kase);
      const { shared, fresh } = accumulators(kase, t);
      expect(shared.state.runLo.buffer).toBeInstanceOf(SharedArrayBuffer);
      const one = { fields: fieldsSha256(fresh.fields()), errors: fieldsSha256(fresh.errors()) };
      for (const threads of [2, 3, 5]) {
        const got = await shared.evaluate(threads);
        expect(got.threads).toBe(threads);
        expect(fieldsSha256(got.fields)).toBe(one.fields);
        expect(fieldsSha256(got.errors)).toBe(one.errors);
      }
      if (kase === internal) expect(Object.keys((await shared.evaluate(2)).fields)).toContain('Tvib');
      if (kase === mixture) expect(t.bodies.volumeFraction?.some((f) => f > 0 && f < 1)).toBe(true);
    });
  }

  it('give a rank\'s cells bitwise as on one thread (gas volume by global cell id)', async () => {
    const t = buildTables(mixture);
    const d = decompose('rcb', mixture.grid.cells, 3);
    for (let r = 0; r < 3; r++) {
      const sub = subdomainOf(d, r);
      const arena = endOfRunArena(mixture, t, sub.nLocal);
      const state = seed(endOfRunState(arena, t, sub.nLocal), 20 + r);
      const threaded = await rankFields(mixture, t, sub, state, counters, arena.f64(), 3);
      const single = await rankFields(mixture, t, sub, state, counters);
      expect(threaded.names).toEqual(single.names);
      threaded.planes.forEach((p, k) => expect(Buffer.from(p.buffer, p.byteOffset, p.byteLength).equals(Buffer.from(single.planes[k].buffer, single.planes[k].byteOffset, single.planes[k].byteLength))).toBe(true));
      expect(ownedCellIds(sub, mixture.grid.cells).length).toBe(sub.nLocal);
    }
  });

  it('copy a state outside shared memory into it and still use the threads', async () => {
    const t = buildTables(mixture);
    const { fresh } = accumulators(mixture, t);
    expect(fresh.state.runLo.buffer).not.toBeInstanceOf(SharedArrayBuffer);
    const got = await fresh.evaluate(4);
    expect(got.threads).toBe(4);
    expect(fieldsSha256(got.fields)).toBe(fieldsSha256(fresh.fields()));
    expect(fieldsSha256(got.errors)).toBe(fieldsSha256(fresh.errors()));
  });

  it('fail when a range fails, with the reason', async () => {
    const t = buildTables(mixture);
    const { shared } = accumulators(mixture, t);
    const spec = { ...evaluationSpec(mixture, t, t.nCells, counters), errorNames: ['n', 'no_such_field'] as never };
    const arrays = { state: shared.state, sums: new Float64Array(new SharedArrayBuffer(8)), fields: (await shared.evaluate(1)).fields, errors: (await shared.evaluate(1)).errors };
    await expect(evaluateOnThreads(spec, { ...arrays, sums: shared.momentSums(null, (n) => new Float64Array(new SharedArrayBuffer(8 * n))) }, 3)).rejects.toThrow(/have no_such_field/);
  });

  it('take DSMC_EVAL_THREADS or a share of the cores', () => {
    expect(evaluationThreads(10_000_000, 1, { DSMC_EVAL_THREADS: '3' })).toBe(3);
    expect(evaluationThreads(2, 1, { DSMC_EVAL_THREADS: '3' })).toBe(2);
    expect(() => evaluationThreads(100, 1, { DSMC_EVAL_THREADS: 'many' })).toThrow(/DSMC_EVAL_THREADS is "many": set a whole number/);
    expect(evaluationThreads(1000, 1, {})).toBe(1); // too few cells for a second thread
    const big = evaluationThreads(100_000_000, 1, {});
    expect(big).toBeGreaterThanOrEqual(1);
    expect(big).toBeLessThanOrEqual(8);
    expect(evaluationThreads(100_000_000, 1_000, {})).toBe(1); // a thousand ranks share the cores
  });
});
