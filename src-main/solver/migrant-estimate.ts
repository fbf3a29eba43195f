// How many particles a rank expects to send each other rank in one step, before the first step ran: the one-way
// Maxwellian flux of the case's gas through the faces its box shares with each peer (periodic faces included), over
// one dt. The exchange sizes its staging buffers and first status read with it, so that the first steps of a run do
// not allocate host-visible buffers (several milliseconds each on a GPU machine) on every rank's critical path. An
// estimate only: every step's real counts drive the exchange from the first one on, and any buffer still grows.
import type { Case } from '../common/case-schema.js';
import { FACES, moleFractions } from '../common/case-helpers.js';
import { maxwellianFlux } from '../common/physics.js';
import type { Box } from '../cluster/decomposition/types.js';
import type { Subdomain } from './subdomain.js';

/** The gas whose flux is estimated: the initial fill, or the densest inflow for a box that starts empty. */
interface GasState {
  numberDensity: number;
  temperature: number;
  velocity: readonly number[];
  fractions: number[];
}

/** The gas a run's migrants will mostly be made of at first (null: no gas at all). */
function estimateGas(c: Case): GasState | null {
  if (c.initial.kind !== 'empty' && c.initial.numberDensity > 0) {
    const i = c.initial;
    return { numberDensity: i.numberDensity, temperature: i.temperature, velocity: i.velocity, fractions: moleFractions(c, i.fractions) };
  }
  let best: GasState | null = null;
  for (const f of FACES) {
    const b = c.boundaries[f];
    if (b.type !== 'inflow' || (best && best.numberDensity >= b.numberDensity)) continue;
    best = { numberDensity: b.numberDensity, temperature: b.temperature, velocity: b.velocity, fractions: moleFractions(c, b.fractions) };
  }
  return best;
}

/** Cells of `peer`'s box in the layer `at` of axis a that face `box` across that layer (its overlap in the other two axes). */
function facingCells(box: Box, peer: Box, a: number, at: number): number {
  if (at < peer.lo[a] || at >= peer.hi[a]) return 0;
  let n = 1;
  for (const t of [0, 1, 2]) {
    if (t === a) continue;
    n *= Math.max(0, Math.min(box.hi[t], peer.hi[t]) - Math.max(box.lo[t], peer.lo[t]));
  }
  return n;
}

/** Expected migrants per step from this rank to each rank (0 for itself and for ranks it shares no face with). */
export function expectedMigrants(c: Case, sub: Subdomain, fnum: number): number[] {
  const out = new Array<number>(sub.worldSize).fill(0);
  const gas = estimateGas(c);
  if (!gas || sub.worldSize < 2) return out;
  const grid = c.grid.cells;
  const { box } = sub;
  for (let a = 0; a < 3; a++) {
    const periodic = c.boundaries[FACES[2 * a]].type === 'periodic';
    const faceArea = c.grid.cellSize[(a + 1) % 3] * c.grid.cellSize[(a + 2) % 3];
    // the layer just outside each side of the box (wrapped on a periodic axis), and the flow along the outward normal
    for (const [side, outward] of [[box.lo[a] - 1, -1], [box.hi[a], 1]] as const) {
      const at = side < 0 || side >= grid[a] ? (periodic ? (side + grid[a]) % grid[a] : -1) : side;
      if (at < 0) continue;
      let perCell = 0;
      c.species.forEach((s, k) => {
        perCell += (maxwellianFlux(gas.fractions[k] * gas.numberDensity, gas.temperature, s.mass, outward * gas.velocity[a]) * faceArea * c.run.dt) / fnum;
      });
      sub.boxes.forEach((peer, d) => {
        if (d !== sub.rank) out[d] += perCell * facingCells(box, peer, a, at);
      });
    }
  }
  return out;
}
