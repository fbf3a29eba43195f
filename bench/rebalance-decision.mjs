// The orchestrator's side of a re-split at the hypersonic wedge's full size (800 x 400 x 20 cells, 4 rcb ranks), on the
// CPU from the compiled out/ (npx tsc -p tsconfig.json first): the coarse round (propose) and the full round (commit)
// with every rank's cell state, timed in parts. Counts are synthetic: the free stream's 18 a cell, a dense layer
// along an oblique line (a shock's worth of compression), 30 downstream of x = 500 and none in a triangle (the body), so
// that a split pays. Then a fingerprint of the decisions of every method (slab, block, rcb), 3, 4 and 6 ranks, by counts
// and by time (cellWeight; a second fingerprint with a price per squared count too), GPU and software relayout costs, and on a small grid deep along z (splits that cut z-planes):
// the boxes, moved, maxSend, largest, unAfter and a checksum of every rank's sigmaCrMax and remainder after the ranks' trade, so that a change
// to the code can be checked to decide bitwise the same (compare the fingerprint line before and after).
// Usage: node bench/rebalance-decision.mjs [repeats] [--detail]   (--detail prints every decision's line, not only the hash)
import { createHash } from 'node:crypto';
import { decompose } from '../out/src-main/cluster/decomposition/index.js';
import { Rebalancer, relayoutCost } from '../out/src-main/cluster/orchestrator/rebalancer.js';
import { coarseSumsOf } from '../out/src-main/cluster/decomposition/coarse-grid.js';
import { subdomainOf, takeOwnedCells } from '../out/src-main/solver/subdomain.js';
import { moveCollisionState } from '../out/src-main/cluster/decomposition/cell-handover.js';
const grid = [800, 400, 20];
const [nx, ny, nz] = grid;
const repeats = Number(process.argv[2] ?? 3);
const detail = process.argv.includes('--detail');
const counts = new Uint32Array(nx * ny * nz);
// per-cell collision state that differs from cell to cell (so a cell that lands in the wrong place shows in the checksum)
const sigmaGlobal = new Float32Array(nx * ny * nz);
const remainderGlobal = new Float32Array(nx * ny * nz);
for (let z = 0; z < nz; z++) for (let y = 0; y < ny; y++) for (let x = 0; x < nx; x++) {
  const inBody = x > 120 && y < (x - 120) * 0.577 && x < 600;
  const shock = Math.abs(y - (x - 120) * 0.93) < 30 && x > 120;
  const g = (z * ny + y) * nx + x;
  counts[g] = inBody ? 0 : shock ? 90 : x > 500 ? 30 : 18;
  sigmaGlobal[g] = 1e-16 * (1 + (g % 977) / 977);
  remainderGlobal[g] = (g % 1009) / 1009;
}

/** Every rank's cell state of a decomposition of grid g, cut from the global arrays (the counts given, the collision state the wedge's). */
function statesOf(d, g, cellCounts) {
  return d.boxes.map((_, r) => {
    const s = subdomainOf(d, r);
    const take = (global, out) => (takeOwnedCells(global, s, g, out), out);
    return { counts: take(cellCounts, new Uint32Array(s.nLocal)), sigmaCrMax: take(sigmaGlobal, new Float32Array(s.nLocal)), remainder: take(remainderGlobal, new Float32Array(s.nLocal)) };
  });
}

const current = decompose('rcb', grid, 4);
const states = statesOf(current, grid, counts);
for (let rep = 0; rep < repeats; rep++) {
  const reb = new Rebalancer(current, 20, [], 1500);
  const t0 = performance.now();
  const coarse = states.map((s, r) => coarseSumsOf(s.counts, current.boxes[r], reb.coarse));
  const t1 = performance.now();
  const proposal = reb.propose(300, 40, coarse, relayoutCost(false));
  const t2 = performance.now();
  const decision = proposal && reb.commit(proposal, states);
  const t3 = performance.now();
  // the same check balancing by time (every cell's count plus a price per cell and per squared count)
  const byTime = new Rebalancer(current, 20, [], 1500);
  const timed = byTime.propose(300, 40, coarse, relayoutCost(false), { cellWeight: 7.3, squareWeight: 0.02 });
  const t4 = performance.now();
  const timedDecision = timed && byTime.commit(timed, states);
  const t5 = performance.now();
  // the collision state's trade: every rank's parts and assembly (each rank does its own, at the same time)
  const t6 = performance.now();
  if (decision) moveCollisionState(current.boxes, states, decision.decomposition.boxes);
  const t7 = performance.now();
  console.log(`rep ${rep}: coarse counts (4 ranks' share, done on the ranks) ${(t1 - t0).toFixed(1)} ms, propose ${(t2 - t1).toFixed(1)} ms, commit ${(t3 - t2).toFixed(1)} ms; ${decision ? `moved ${decision.moved}, UN after ${decision.unAfter.toFixed(2)} %` : 'kept'}; by time: propose ${(t4 - t3).toFixed(1)} ms, commit ${(t5 - t4).toFixed(1)} ms${timedDecision ? '' : ' (kept)'}; collision state traded (4 ranks' share, done on the ranks) ${(t7 - t6).toFixed(1)} ms`);
}

/** A hex digest of a typed array's bytes. */
function digest(a) {
  return createHash('sha256').update(new Uint8Array(a.buffer, a.byteOffset, a.byteLength)).digest('hex').slice(0, 16);
}

/** One line that fixes a decision (or a kept split) bitwise. */
function fingerprint(method, ranks, prices, software, coarse, decision, collision) {
  const by = prices === undefined ? 'by counts' : `by time (cellWeight ${prices.cellWeight}${prices.squareWeight ? `, squareWeight ${prices.squareWeight}` : ''})`;
  const head = `${method} ${ranks} ranks, ${by}, ${software ? 'software' : 'gpu'} cost: coarse ${coarse.map((c) => digest(c.counts)).join(',')}`;
  if (!decision) return `${head}; kept`;
  const { decomposition, largest, moved, maxSend, unAfter } = decision;
  return `${head}; boxes ${JSON.stringify(decomposition.boxes)} subs ${JSON.stringify(decision.subdomains.map((s) => [s.cellBase, s.nLocal]))} largest ${largest} moved ${moved} maxSend ${maxSend} unAfter ${unAfter}`
    + ` sigma ${collision.map((c) => digest(c.sigmaCrMax)).join(',')} remainder ${collision.map((c) => digest(c.remainder)).join(',')}`;
}

const lines = [];
/** Both rounds of a check on `g` with `cells` counts split by `method` over `ranks`, fingerprinted (and printed with --detail). */
function check(label, g, cells, method, ranks, prices, software, threshold, lastStep, into = lines) {
  const d = decompose(method, g, ranks);
  const st = statesOf(d, g, cells);
  const reb = new Rebalancer(d, threshold, [], lastStep);
  const coarse = st.map((s, r) => coarseSumsOf(s.counts, d.boxes[r], reb.coarse));
  const proposal = reb.propose(300, 40, coarse, relayoutCost(software), prices);
  const decision = proposal && reb.commit(proposal, st);
  // the collision state as the ranks trade it after the split (cell-handover.ts)
  const collision = decision && moveCollisionState(d.boxes, st, decision.decomposition.boxes);
  into.push(fingerprint(label, ranks, prices, software, coarse, decision, collision));
  if (detail) console.log(into.at(-1));
}
for (const method of ['slab', 'block', 'rcb']) for (const ranks of [3, 4, 6]) for (const cellWeight of [undefined, 7.3]) for (const software of [false, true]) {
  check(method, grid, counts, method, ranks, cellWeight === undefined ? undefined : { cellWeight, squareWeight: 0 }, software, 20, 1500);
}
// a grid deep along z (splits that cut z-planes), its counts piled up towards one corner
const deep = [40, 36, 70];
const deepCounts = Uint32Array.from({ length: deep[0] * deep[1] * deep[2] }, (_, g) => {
  const x = g % deep[0], y = Math.floor(g / deep[0]) % deep[1], z = Math.floor(g / (deep[0] * deep[1]));
  return 5 + ((x * y * z) >> 6) + ((x + 3 * y + 7 * z) % 4);
});
for (const method of ['slab', 'block', 'rcb']) for (const ranks of [3, 5, 8]) for (const cellWeight of [undefined, 0.7]) {
  check(`${method} (grid ${deep.join(' x ')})`, deep, deepCounts, method, ranks, cellWeight === undefined ? undefined : { cellWeight, squareWeight: 0 }, true, 5, 100000);
}
// with a price per squared count (balancing by time's dense cells)
const squared = [];
for (const method of ['slab', 'block', 'rcb']) for (const ranks of [3, 4, 6]) check(method, grid, counts, method, ranks, { cellWeight: 2.5, squareWeight: 0.02 }, false, 20, 1500, squared);
for (const method of ['slab', 'block', 'rcb']) for (const ranks of [3, 5, 8]) check(`${method} (grid ${deep.join(' x ')})`, deep, deepCounts, method, ranks, { cellWeight: 0, squareWeight: 0.05 }, true, 5, 100000, squared);
console.log(`decisions: ${lines.filter((l) => !l.endsWith('kept')).length} of ${lines.length} taken; fingerprint ${createHash('sha256').update(lines.join('\n')).digest('hex')}`);
console.log(`with squared counts: ${squared.filter((l) => !l.endsWith('kept')).length} of ${squared.length} taken; fingerprint ${createHash('sha256').update(squared.join('\n')).digest('hex')}`);
