// A rank builds its solver tables when the orchestrator's `prepare` brings the case (solver/rank-tables.ts), while the
// orchestrator builds its own; `configure` then takes them when it carries the same case, and builds anew otherwise.
import { describe, expect, it } from 'vitest';
import { parseCase } from '../../src-main/common/case-schema.js';
import { RankTables } from '../../src-main/solver/rank-tables.js';
import { baseCase } from './case-fixtures.js';

/** A channel stand-in that hands `prepare` messages to the handler RankTables registers. */
function channel() {
  let handler: ((m: { message: { type: 'prepare'; case: unknown } }) => void) | null = null;
  const ch = {
    on: (type: string, h: typeof handler) => {
      expect(type).toBe('prepare');
      handler = h;
      return () => { handler = null; };
    },
  };
  /** Delivers `prepare` with `json` as a decoded message would arrive (a JSON round trip). */
  const prepare = (json: unknown) => handler?.({ message: { type: 'prepare', case: JSON.parse(JSON.stringify(json)) } });
  return { ch: ch as never, prepare, listening: () => handler !== null };
}

describe('a rank\'s solver tables built at prepare', () => {
  it('configure with the same case takes the tables prepare built', async () => {
    const { ch, prepare, listening } = channel();
    const tables = new RankTables(ch);
    const c = parseCase(baseCase());
    prepare(c);
    const early = await tables.prepared;
    expect(early?.nCells).toBe(64);
    const json = JSON.parse(JSON.stringify(c));
    expect(await tables.forCase(json, parseCase(json))).toBe(early);
    expect(tables.prepared).toBe(null);
    expect(listening()).toBe(false);
    expect(tables.buildSeconds).toBeGreaterThan(0);
    expect(tables.builtAt).not.toBe(null);
  });

  it('configure with another case builds its tables anew', async () => {
    const { ch, prepare } = channel();
    const tables = new RankTables(ch);
    prepare(parseCase(baseCase()));
    const early = await tables.prepared;
    const other = baseCase();
    other.grid.cells = [6, 4, 4];
    const c = parseCase(other);
    const got = await tables.forCase(JSON.parse(JSON.stringify(c)), c);
    expect(got).not.toBe(early);
    expect(got.nCells).toBe(96);
  });

  it('without prepare the tables are built at configure', async () => {
    const { ch } = channel();
    const tables = new RankTables(ch);
    expect(tables.prepared).toBe(null);
    const c = parseCase(baseCase());
    expect((await tables.forCase(JSON.parse(JSON.stringify(c)), c)).nCells).toBe(64);
  });

  it('a case that does not parse fails in prepare with the case\'s error', () => {
    const { ch, prepare } = channel();
    new RankTables(ch);
    const bad = baseCase();
    bad.grid.cells = [0, 4, 4];
    expect(() => prepare(bad)).toThrow(/grid\.cells/);
  });
});
