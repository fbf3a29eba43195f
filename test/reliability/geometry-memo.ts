// Memoized stand-ins for the two costly pure functions of the bodies' geometry (meshIssues and buildCellTable),
// for the case fuzzer (case-fuzz.test.ts mocks src-main/common/geometry/index.js with them).
//
// Why: nearly all of the fuzzer's time went into meshing the large presets (the hypersonic wedge's 6.4M cells,
// the Mach reflection's 1.6M, the supersonic block's 1.6M): 23 of 2500 cases took 87 of 88 s, and most of them
// are mutations that leave the body and the grid as they were (a new dt, a boundary, a species), so the product
// meshed exactly the same triangles on exactly the same grid again. Both functions are pure (their result depends
// only on their arguments), so a call with arguments byte for byte those of an earlier call proves nothing the
// earlier call did not: the stand-in answers it with a copy of the earlier result. Every new mesh or grid (a
// mutated shape, apex, angle, cell count or size) still goes through the product's own function, and a call
// that throws is never remembered (it throws again every time).
import { createHash } from 'node:crypto';
import type * as Geometry from '../../src-main/common/geometry/index.js';

type GeometryModule = typeof Geometry;

/** Bytes of cell tables kept (one of the wedge preset holds about 240 MB): the least recently used go first. */
const MAX_TABLE_BYTES = 1.2e9;
/** Mesh issue lists kept. */
const MAX_ISSUES = 64;

/** Counts of calls answered from memory and computed, for the fuzzer's report. */
export const memoStats = { tableHits: 0, tableMisses: 0, issueHits: 0, issueMisses: 0 };

// SHA-256 of the exact bytes of a mesh plus a JSON text of the other arguments.
function keyOf(tris: Float64Array, rest: unknown): string {
  const h = createHash('sha256');
  h.update(new Uint8Array(tris.buffer, tris.byteOffset, tris.byteLength));
  h.update(`|${tris.length}|${JSON.stringify(rest)}`);
  return h.digest('hex');
}

// A number as text that tells apart every two numbers Object.is tells apart (JSON writes -0 as 0 and NaN as null).
const exact = (x: unknown): string => (typeof x === 'number' ? (Object.is(x, -0) ? '-0' : String(x)) : `${typeof x}:${String(x)}`);

// A least-recently-used map whose entries' sizes (by `size`) add up to at most `max`.
function lru<V>(max: number, size: (v: V) => number) {
  const m = new Map<string, V>();
  let total = 0;
  return {
    get(k: string): V | undefined {
      const v = m.get(k);
      if (v !== undefined) { m.delete(k); m.set(k, v); }
      return v;
    },
    set(k: string, v: V): void {
      m.set(k, v);
      total += size(v);
      while (total > max && m.size > 1) {
        const oldest = m.keys().next().value!;
        total -= size(m.get(oldest)!);
        m.delete(oldest);
      }
    },
  };
}

// A fresh copy of a cell table (the caller owns its arrays, as with the product's function).
function copyTable(t: Geometry.CellTable): Geometry.CellTable {
  return { triStart: t.triStart.slice(), triList: t.triList.slice(), kind: t.kind.slice(), volumeFraction: t.volumeFraction.slice(), refPoint: t.refPoint.slice() };
}

/** The geometry module with meshIssues and buildCellTable answered from memory for repeated exact arguments. */
export function memoizedGeometry(original: GeometryModule): GeometryModule {
  const tables = lru<Geometry.CellTable>(MAX_TABLE_BYTES, (t) => t.triStart.byteLength + t.triList.byteLength + t.kind.byteLength + t.volumeFraction.byteLength + t.refPoint.byteLength);
  const issues = lru<string[]>(MAX_ISSUES, () => 1);
  return {
    ...original,
    meshIssues(tris: Float64Array): string[] {
      const k = keyOf(tris, null);
      const hit = issues.get(k);
      if (hit) { memoStats.issueHits++; return [...hit]; }
      memoStats.issueMisses++;
      const r = original.meshIssues(tris);
      issues.set(k, [...r]);
      return r;
    },
    buildCellTable(tris: Float64Array, grid: Geometry.CellGrid, opts: Geometry.CellTableOptions = {}): Geometry.CellTable {
      // Object.is keeps -0 apart from 0 and NaN equal to itself in the key (JSON would not)
      const k = keyOf(tris, [[...grid.cells], [...grid.cellSize], [opts.subLines]].map((xs) => xs.map(exact)));
      const hit = tables.get(k);
      if (hit) { memoStats.tableHits++; return copyTable(hit); }
      memoStats.tableMisses++;
      const r = original.buildCellTable(tris, grid, opts);
      tables.set(k, copyTable(r));
      return r;
    },
  };
}
