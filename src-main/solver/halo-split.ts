// The halo of a split step (multi-rank): the cells of a rank's box that particles arriving from other
// ranks can reach in one step, i.e. the cells within `depth` layers of a face the rank shares with
// another rank (a first guess from the case's gas: arrivalsBeyond). The interior pass sorts and collides
// every other cell while the host exchanges migrants (common.wgsl: SPLIT_PASS). The depth is a guess, not a
// promise: an arrival beyond it makes the halo pass redo the whole step (split.wgsl), so results never depend
// on it, and the loop deepens the halo when a second such redo follows within DEEPEN_WINDOW steps.
import { maxwellianReach } from '../common/physics.js';
import { FACES, resolvedFnum } from '../common/case-helpers.js';
import type { Case } from '../common/case-schema.js';
import type { Int3 } from '../cluster/decomposition/types.js';
import type { Subdomain } from './subdomain.js';
import { hottest } from './tables.js';

/**
 * Steps redone per step that the first guess of the depth may expect: a redo costs about one step, and the loop
 * deepens the halo once two come within DEEPEN_WINDOW steps, so a rare one costs less than a deeper halo every step.
 */
export const REDOS_PER_STEP = 0.01;

/** Steps within which a second arrival beyond the halo makes the loop deepen it (one alone is a tail event: redone, kept). */
export const DEEPEN_WINDOW = 50;

/** Gas compressed by shocks or cooled at walls is denser than any the case sets: the guess allows for ten times. */
const DENSITY_MARGIN = 10;

/**
 * The densest gas, the fastest flow along each axis and the hottest temperature the case sets (initial fill, inflows,
 * diffuse walls). Gas heated by shocks beyond these is not foreseen: a guess too shallow costs a redone step or two
 * before the loop deepens the halo, one too deep costs a larger halo pass every step.
 */
function extremeGas(c: Case): { density: number; flow: Int3; temperature: number } {
  const flow: Int3 = [0, 0, 0];
  let density = 0;
  const moving = (u: readonly number[]) => u.forEach((v, a) => { flow[a] = Math.max(flow[a], Math.abs(v)); });
  if (c.initial.kind !== 'empty') {
    density = c.initial.numberDensity;
    moving(c.initial.velocity);
  }
  for (const f of FACES) {
    const b = c.boundaries[f];
    if (b.type === 'inflow') density = Math.max(density, b.numberDensity);
    if (b.type === 'inflow' || b.type === 'diffuse') moving(b.velocity);
  }
  return { density, flow, temperature: hottest(c) };
}

/**
 * Expected arrivals per step that land `depth` layers or more past a face along axis `a`, over `planes` cuts of the
 * grid's whole cross-section, both ways: the Maxwellian molecules that cross within one dt faster than depth cells
 * per dt (maxwellianReach), of the densest gas (ten times) at the hottest temperature with the fastest flow, and of
 * the lightest species.
 */
export function arrivalsBeyond(c: Case, a: number, depth: number, planes: number): number {
  const { density, flow, temperature } = extremeGas(c);
  if (density === 0) return 0;
  const lightest = Math.min(...c.species.map((s) => s.mass));
  const [t1, t2] = [(a + 1) % 3, (a + 2) % 3];
  const area = c.grid.cells[t1] * c.grid.cellSize[t1] * c.grid.cells[t2] * c.grid.cellSize[t2];
  const speed = (depth * c.grid.cellSize[a]) / c.run.dt;
  const n = DENSITY_MARGIN * density;
  const both = maxwellianReach(n, temperature, lightest, flow[a], speed) + maxwellianReach(n, temperature, lightest, -flow[a], speed);
  return (planes * both * area * c.run.dt) / resolvedFnum(c);
}

/**
 * First guess of the halo depth in cells per axis: the fewest layers past which fewer than REDOS_PER_STEP arrivals a
 * step are expected over the cuts of `worldSize` ranks (at least one layer; at most the grid).
 */
export function initialHaloDepth(c: Case, worldSize = 2): Int3 {
  return [0, 1, 2].map((a) => {
    let depth = 1;
    while (depth < c.grid.cells[a] && arrivalsBeyond(c, a, depth, worldSize) >= REDOS_PER_STEP) depth += 1;
    return depth;
  }) as Int3;
}

/** Words of the halo's bits for nLocal local cells (halo_bit_words in common.wgsl: at least 4). */
export function haloBitWords(nLocal: number): number {
  return Math.max(4, Math.ceil(nLocal / 32));
}

/** Bytes of the halo buffer of nLocal local cells: the bits, then room for every local cell's id. */
export function haloBufferBytes(nLocal: number): number {
  return 4 * (haloBitWords(nLocal) + Math.max(1, nLocal));
}

/** Whether each axis wraps around (periodic on both faces). */
export function periodicAxes(c: Case): [boolean, boolean, boolean] {
  return [0, 1, 2].map((a) => c.boundaries[FACES[2 * a]].type === 'periodic') as [boolean, boolean, boolean];
}

/**
 * One bit per local cell of `sub` (its box's cells, x fastest), set for owned cells within depth[a] layers of
 * a face of the box that borders another rank (an inner face, or a periodic one when the box does not span
 * the axis, which wraps to another rank).
 */
export function haloBits(grid: Int3, periodic: readonly boolean[], sub: Subdomain, depth: Int3): Uint32Array<ArrayBuffer> {
  const { lo, hi } = sub.box;
  const bits = new Uint32Array(haloBitWords(sub.nLocal));
  const spans = (a: number) => lo[a] === 0 && hi[a] === grid[a];
  const openLo = [0, 1, 2].map((a) => lo[a] > 0 || (periodic[a] && !spans(a)));
  const openHi = [0, 1, 2].map((a) => hi[a] < grid[a] || (periodic[a] && !spans(a)));
  // a layer of the box along axis a is in the halo when it is within depth[a] of an open face
  const layer = [0, 1, 2].map((a) => {
    const inHalo = new Uint8Array(Math.max(0, hi[a] - lo[a]));
    for (let k = 0; k < inHalo.length; k++) {
      inHalo[k] = Number((openLo[a] && k < depth[a]) || (openHi[a] && inHalo.length - 1 - k < depth[a]));
    }
    return inHalo;
  });
  // a row in a halo layer of y or z is whole; any other row has only its x-layers' cells (the box's millions of cells
  // are not visited one by one: a re-split's new halo is written on its critical path)
  const nx = hi[0] - lo[0];
  const xs: number[] = [];
  layer[0].forEach((h, k) => { if (h) xs.push(k); });
  let c = 0;
  for (let z = lo[2]; z < hi[2]; z++) {
    const hz = layer[2][z - lo[2]];
    for (let y = lo[1]; y < hi[1]; y++, c += nx) {
      if (hz || layer[1][y - lo[1]]) setBitRange(bits, c, c + nx);
      else for (const k of xs) bits[(c + k) >>> 5] |= 1 << ((c + k) & 31);
    }
  }
  return bits;
}

/** Sets bits [from, to) of `bits`, whole words at a time between the partial ends. */
function setBitRange(bits: Uint32Array, from: number, to: number): void {
  let c = from;
  for (; c < to && (c & 31) !== 0; c++) bits[c >>> 5] |= 1 << (c & 31);
  for (; c + 32 <= to; c += 32) bits[c >>> 5] = 0xffffffff;
  for (; c < to; c++) bits[c >>> 5] |= 1 << (c & 31);
}

/** Cells of the halo (set bits). */
export function haloCellCount(bits: Uint32Array): number {
  let n = 0;
  for (let w of bits) for (; w !== 0; w &= w - 1) n++;
  return n;
}

/** The local ids of the halo cells (set bits), ascending. */
export function haloList(bits: Uint32Array): Uint32Array<ArrayBuffer> {
  const out = new Uint32Array(haloCellCount(bits));
  let n = 0;
  bits.forEach((word, k) => {
    for (let w = word; w !== 0; w &= w - 1) out[n++] = 32 * k + (31 - Math.clz32(w & -w));
  });
  return out;
}

/**
 * A rank's halo as bits over global cell ids from `first` (its first owned cell) to its last owned cell: the arrival
 * check looks a record's cell up with one subtraction, where the local id of a box that does not span x and y (an rcb
 * or x-cut slab) took two divisions and a call, 20-30 ns a record on the critical path of every exchange.
 */
export interface GlobalHalo {
  first: number;
  bits: Uint32Array;
}

/** The halo cells `list` (local ids, haloList) as bits over global ids; `globalOf` maps a local id to its global id. */
export function globalHalo(list: Uint32Array, nLocal: number, globalOf: (local: number) => number): GlobalHalo {
  if (nLocal === 0) return { first: 0, bits: new Uint32Array(0) };
  // local ids run x fastest within the box, so global ids grow with them: the first and last owned cells bound the range
  const first = globalOf(0);
  const bits = new Uint32Array(Math.ceil((globalOf(nLocal - 1) - first + 1) / 32));
  for (const l of list) {
    const g = globalOf(l) - first;
    bits[g >>> 5] |= 1 << (g & 31);
  }
  return { first, bits };
}

/**
 * How many of one peer's arrived migrant records (`words` 32-bit words each, the cell word at index `cellWord`) land
 * in cells outside the halo: the interior pass may have handled those cells already, so the step must be redone whole.
 * halo: this rank's halo over global ids (globalHalo); a cell it does not own counts as outside.
 */
export function arrivalsOutsideHalo(records: Uint8Array, halo: GlobalHalo, words: number, cellWord: number, cellMask: number): number {
  // received frames are normally 4-byte aligned views; copy the rare one that is not (little-endian hosts)
  const aligned = records.byteOffset % 4 === 0 ? records : records.slice();
  const u32 = new Uint32Array(aligned.buffer, aligned.byteOffset, aligned.byteLength >>> 2);
  const { first, bits } = halo;
  const limit = 32 * bits.length;
  let outside = 0;
  // this runs for every arrival on the critical path of the exchange: one subtraction and one lookup a record
  for (let k = cellWord; k < u32.length; k += words) {
    const c = (u32[k] & cellMask) - first;
    if (c < 0 || c >= limit || (bits[c >>> 5] & (1 << (c & 31))) === 0) outside += 1;
  }
  return outside;
}
