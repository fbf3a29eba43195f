// Checkpoints hold a rank's particles in ascending local cell order (restore rebuilds the cells' starts from
// that; local ids number the rank's box x fastest, so they equal the global order on one rank). A rank of a multi-rank run keeps its interior cells before its halo cells in memory (split
// steps), so its snapshot is put back in cell order here, keeping each cell's particle order.
import { CELL_WORD } from '../gpu/struct-layouts.js';
import { PARTICLE_ATTRIBUTES } from '../particle-attributes.js';
import type { RankSnapshot } from './checkpoint-state.js';

/** Where each particle goes in ascending local cell order (stable), or null when the particles are in that order already. */
export function cellOrderMap(cell: Uint32Array, localOf: (g: number) => number, nLocal: number): Uint32Array | null {
  const n = cell.length;
  const local = new Uint32Array(n);
  let sorted = true;
  for (let i = 0; i < n; i++) {
    local[i] = localOf(cell[i] & CELL_WORD.MASK);
    if (i > 0 && local[i - 1] > local[i]) sorted = false;
  }
  if (sorted) return null;
  const starts = new Uint32Array(nLocal + 1);
  for (let i = 0; i < n; i++) starts[local[i] + 1] += 1;
  for (let c = 0; c < nLocal; c++) starts[c + 1] += starts[c];
  const to = new Uint32Array(n);
  for (let i = 0; i < n; i++) to[i] = starts[local[i]]++;
  return to;
}

/** src moved by cellOrderMap's `to` (a new array of the same type). */
export function reordered<T extends Float32Array | Uint32Array>(src: T, to: Uint32Array): T {
  const dst = new (src.constructor as new (n: number) => T)(src.length);
  for (let i = 0; i < src.length; i++) dst[to[i]] = src[i];
  return dst;
}

/** The arrays in ascending cell order (stable: a cell's particles keep their order); unchanged when already so. */
export function inCellOrder(arrays: RankSnapshot['arrays'], localOf: (g: number) => number, nLocal: number): RankSnapshot['arrays'] {
  const to = cellOrderMap(arrays.cell as Uint32Array, localOf, nLocal);
  if (!to) return arrays;
  const out = {} as RankSnapshot['arrays'];
  for (const a of PARTICLE_ATTRIBUTES) out[a] = reordered(arrays[a] as Float32Array | Uint32Array, to) as never;
  return out;
}

/**
 * Cell counts and starts of a checkpoint's particles (the first n cell words, in ascending local cell order): what
 * restore writes back; refuses particles outside the rank's cells or out of order, naming the particle.
 */
export function savedCellStarts(cell: Uint32Array, n: number, nLocal: number, localOf: (g: number) => number, rank: number): { counts: Uint32Array<ArrayBuffer>; starts: Uint32Array<ArrayBuffer> } {
  const counts = new Uint32Array(nLocal);
  let previous = 0;
  for (let i = 0; i < n; i++) {
    const local = localOf(cell[i] & CELL_WORD.MASK);
    if (local < 0) throw new Error(`checkpoint particle ${i} lies in cell ${cell[i] & CELL_WORD.MASK}, outside rank ${rank}'s cells (damaged checkpoint)`);
    if (local < previous) throw new Error(`checkpoint particles are not in cell order at particle ${i} (damaged checkpoint)`);
    previous = local;
    counts[local] += 1;
  }
  const starts = new Uint32Array(nLocal);
  for (let c = 1; c < nLocal; c++) starts[c] = starts[c - 1] + counts[c - 1];
  return { counts, starts };
}
