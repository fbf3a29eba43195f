// The orchestrator's side of a re-split at the hypersonic wedge's full size (800 x 400 x 20 cells, 4 rcb ranks), on the
// CPU from the compiled out/ (npx tsc -p tsconfig.json first): the coarse round (propose) and the full round (commit)
// with every rank's cell state, timed in parts. Counts are synthetic: the free stream's 18 a cell, a dense layer
// along an oblique line (a shock's worth of compression), 30 downstream of x = 500 and none in a triangle (the body), so
// that a split pays.
// Usage: node bench/rebalance-decision.mjs [repeats]
import { decompose } from '../out/src-main/cluster/decomposition/index.js';
import { Rebalancer, relayoutCost } from '../out/src-main/cluster/orchestrator/rebalancer.js';
import { coarseCountsOf } from '../out/src-main/cluster/decomposition/coarse-grid.js';
import { subdomainOf, takeOwnedCells } from '../out/src-main/solver/subdomain.js';
const grid = [800, 400, 20];
const [nx, ny, nz] = grid;
const repeats = Number(process.argv[2] ?? 3);
const counts = new Uint32Array(nx * ny * nz);
for (let z = 0; z < nz; z++) for (let y = 0; y < ny; y++) for (let x = 0; x < nx; x++) {
  const inBody = x > 120 && y < (x - 120) * 0.577 && x < 600;
  const shock = Math.abs(y - (x - 120) * 0.93) < 30 && x > 120;
  counts[(z * ny + y) * nx + x] = inBody ? 0 : shock ? 90 : x > 500 ? 30 : 18;
}
const current = decompose('rcb', grid, 4);
const subs = current.boxes.map((_, r) => subdomainOf(current, r));
const states = subs.map((s) => {
  const c = new Uint32Array(s.nLocal);
  takeOwnedCells(counts, s, grid, c);
  return { counts: c, sigmaCrMax: new Float32Array(s.nLocal).fill(1e-16), remainder: new Float32Array(s.nLocal).fill(0.5) };
});
for (let rep = 0; rep < repeats; rep++) {
  const reb = new Rebalancer(current, 20, [], 1500);
  const t0 = performance.now();
  const coarse = states.map((s, r) => coarseCountsOf(s.counts, current.boxes[r], reb.coarse));
  const t1 = performance.now();
  const proposal = reb.propose(300, 40, coarse, relayoutCost(false));
  const t2 = performance.now();
  const decision = proposal && reb.commit(proposal, states);
  const t3 = performance.now();
  console.log(`rep ${rep}: coarse counts (4 ranks' share, done on the ranks) ${(t1 - t0).toFixed(1)} ms, propose ${(t2 - t1).toFixed(1)} ms, commit ${(t3 - t2).toFixed(1)} ms; ${decision ? `moved ${decision.moved}, UN after ${decision.unAfter.toFixed(2)} %` : 'kept'}`);
}
