// Checkpoints hold a rank's particles in ascending cell order (restore rebuilds the cells' starts from
// that). A rank of a multi-rank run keeps its interior cells before its halo cells in memory (split
// steps), so its snapshot is put back in cell order here, keeping each cell's particle order.
import { CELL_WORD } from '../gpu/struct-layouts.js';
import { PARTICLE_ATTRIBUTES } from '../particle-attributes.js';
import type { RankSnapshot } from './checkpoint-state.js';

/** The arrays in ascending cell order (stable: a cell's particles keep their order); unchanged when already so. */
export function inCellOrder(arrays: RankSnapshot['arrays'], cellBase: number, nLocal: number): RankSnapshot['arrays'] {
  const cell = arrays.cell as Uint32Array;
  const n = cell.length;
  let sorted = true;
  for (let i = 1; i < n && sorted; i++) sorted = (cell[i - 1] & CELL_WORD.MASK) <= (cell[i] & CELL_WORD.MASK);
  if (sorted) return arrays;
  const starts = new Uint32Array(nLocal + 1);
  for (let i = 0; i < n; i++) starts[(cell[i] & CELL_WORD.MASK) - cellBase + 1] += 1;
  for (let c = 0; c < nLocal; c++) starts[c + 1] += starts[c];
  const to = new Uint32Array(n);
  for (let i = 0; i < n; i++) to[i] = starts[(cell[i] & CELL_WORD.MASK) - cellBase]++;
  const out = {} as RankSnapshot['arrays'];
  for (const a of PARTICLE_ATTRIBUTES) {
    const src = arrays[a];
    const dst = new (src.constructor as Float32ArrayConstructor | Uint32ArrayConstructor)(n);
    for (let i = 0; i < n; i++) dst[to[i]] = src[i];
    out[a] = dst as never;
  }
  return out;
}
