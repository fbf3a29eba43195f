// SimParams values of a rank's subdomain (src-main/solver/subdomain.ts): localDense says whether every global
// cell id in the rank's per-cell range is its own (then the sort needs no coordinates to tell), which holds for
// one rank and for slabs along z, not for blocks split along x or y, whose range passes through other ranks' cells.
import { describe, expect, it } from 'vitest';
import { decompose } from '../../src-main/cluster/decomposition/index.js';
import { subdomainOf, subdomainParams, wholeGrid } from '../../src-main/solver/subdomain.js';

describe('subdomainParams', () => {
  it('localDense: one rank and slabs along z own their whole id range, blocks split along x or y do not', () => {
    expect(subdomainParams(wholeGrid([6, 5, 4]), 1).localDense).toBe(1);
    const slabs = decompose('slab', [6, 5, 12], 3); // the longest axis: z
    for (let r = 0; r < 3; r++) expect(subdomainParams(subdomainOf(slabs, r), 1).localDense, `slab rank ${r}`).toBe(1);
    const blocks = decompose('block', [8, 8, 8], 8);
    for (let r = 0; r < 8; r++) {
      const sub = subdomainOf(blocks, r);
      const p = subdomainParams(sub, 1);
      expect(p.localDense, `block rank ${r}`).toBe(0);
      expect(p.nLocal).toBeGreaterThan(64);
    }
  });
});
