// SimParams values of a rank's subdomain and its local cell numbering (src-main/solver/subdomain.ts): a rank's
// per-cell arrays hold only its own cells, numbered x fastest within its box; localDense says whether the box spans
// x and y (one rank, slabs along z), where the local ids are the global ones less the base and the shaders need no
// coordinates to tell them.
import { describe, expect, it } from 'vitest';
import { decompose } from '../../src-main/cluster/decomposition/index.js';
import { boxCells } from '../../src-main/cluster/decomposition/box.js';
import type { Int3 } from '../../src-main/cluster/decomposition/types.js';
import { copyOwnedCells, globalCellOf, localCellOf, subdomainOf, subdomainParams, takeOwnedCells, wholeGrid } from '../../src-main/solver/subdomain.js';

describe('subdomainParams', () => {
  it('localDense: one rank and slabs along z span x and y, blocks split along x or y do not; nLocal is the box', () => {
    expect(subdomainParams(wholeGrid([6, 5, 4]), [6, 5, 4], 1).localDense).toBe(1);
    const slabs = decompose('slab', [6, 5, 12], 3); // the longest axis: z
    for (let r = 0; r < 3; r++) expect(subdomainParams(subdomainOf(slabs, r), [6, 5, 12], 1).localDense, `slab rank ${r}`).toBe(1);
    const blocks = decompose('block', [8, 8, 8], 8);
    for (let r = 0; r < 8; r++) {
      const sub = subdomainOf(blocks, r);
      const p = subdomainParams(sub, [8, 8, 8], 1);
      expect(p.localDense, `block rank ${r}`).toBe(0);
      expect(p.nLocal).toBe(64);
    }
  });

  it('gives relayout the old box (this box when there was no rebalance)', () => {
    const grid: Int3 = [10, 6, 4];
    const a = subdomainOf(decompose('slab', grid, 2), 1);
    const b = subdomainOf(decompose('rcb', grid, 3), 2);
    expect(subdomainParams(a, grid, 1)).toMatchObject({ oldLoX: a.box.lo[0], oldBx: a.box.hi[0] - a.box.lo[0], oldCellBase: a.cellBase });
    expect(subdomainParams(b, grid, 1, a)).toMatchObject({ loX: b.box.lo[0], oldLoX: a.box.lo[0], oldLoY: a.box.lo[1], oldLoZ: a.box.lo[2], oldBx: 5, oldBy: 6 });
  });
});

describe('local cell numbering', () => {
  const grids: Int3[] = [[10, 6, 4], [7, 9, 5], [16, 3, 3]];
  for (const grid of grids) {
    for (const method of ['slab', 'block', 'rcb'] as const) {
      it(`${method} on ${grid.join('x')}: every cell is owned once, local ids are 0..nLocal-1 and invert, copies round-trip`, () => {
        const d = decompose(method, grid, 4);
        const n = grid[0] * grid[1] * grid[2];
        const owners = new Int32Array(n).fill(-1);
        const global = Float32Array.from({ length: n }, (_, g) => g + 0.5);
        const back = new Float32Array(n);
        for (let r = 0; r < 4; r++) {
          const sub = subdomainOf(d, r);
          expect(sub.nLocal).toBe(boxCells(sub.box));
          const seen = new Uint8Array(sub.nLocal);
          for (let g = 0; g < n; g++) {
            const l = localCellOf(sub, grid, g);
            if (l < 0) continue;
            expect(owners[g], `cell ${g} owned twice`).toBe(-1);
            owners[g] = r;
            expect(l).toBeLessThan(sub.nLocal);
            seen[l] += 1;
            expect(globalCellOf(sub, grid, l)).toBe(g);
          }
          expect(seen.every((x) => x === 1)).toBe(true);
          const local = new Float32Array(sub.nLocal);
          takeOwnedCells(global, sub, grid, local);
          for (let l = 0; l < sub.nLocal; l++) expect(local[l]).toBe(globalCellOf(sub, grid, l) + 0.5);
          copyOwnedCells(local, sub, grid, back);
        }
        expect(owners.every((r) => r >= 0)).toBe(true);
        expect([...back]).toEqual([...global]);
      });
    }
  }
});
