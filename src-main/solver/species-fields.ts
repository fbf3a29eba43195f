// Per-species fields of a gas of two or more species, per cell, from the sampled particle counts (moment 0 of each
// species, sample.wgsl layout): number density n_<s> = N_s fnum / (cell volume x passes) and mole fraction
// x_<s> = N_s / sum_r N_r (0 in a cell without particles). sample.wgsl's sample_close computes the same per block
// (in particles per cell and pass, and as a fraction) for the batch means' standard errors.
import { speciesFieldNames, type Fields, type SpeciesFieldName } from '../common/field-names.js';

/** Adds zeroed per-species fields over n cells to out (none for fewer than two species); out, for chaining. */
export function addSpeciesFields(out: Fields, species: readonly string[], n: number, alloc: (n: number) => Float64Array = (m) => new Float64Array(m)): Fields {
  for (const name of speciesFieldNames(species)) out[name] = alloc(n);
  return out;
}

/**
 * Fills out's n_<s> and x_<s> (which must exist: addSpeciesFields) from the sums ([moment][species][cell], moment 0
 * first, over nCells cells) of `passes` passes. `cells`: as in fillFields, a range (out[c] is cell c) or a list of cell
 * ids (out[k] is cell ids[k]). Does nothing for fewer than two species.
 */
export function fillSpeciesFields(out: Fields, sums: Float64Array, passes: number, species: readonly string[], nCells: number, fnum: number, cellVolume: number,
  cells: { from: number; to: number } | ArrayLike<number> = { from: 0, to: nCells }): void {
  const S = species.length;
  if (S < 2) return;
  const arrays = (prefix: 'n_' | 'x_') => species.map((s) => {
    const a = out[`${prefix}${s}` as SpeciesFieldName];
    if (!a) throw new Error(`internal: the species fields are filled into fields that have ${prefix}${s}`);
    return a;
  });
  const nOf = arrays('n_'), xOf = arrays('x_');
  const range = typeof (cells as { from?: unknown }).from === 'number' ? (cells as { from: number; to: number }) : null;
  const ids = range ? null : (cells as ArrayLike<number>);
  const [first, end] = range ? [range.from, range.to] : [0, ids!.length];
  const scale = passes > 0 ? fnum / (cellVolume * passes) : 0; // real molecules per m^3 per sampled particle
  for (let o = first; o < end; o++) {
    const c = ids ? ids[o] : o;
    let count = 0;
    for (let s = 0; s < S; s++) count += sums[s * nCells + c];
    for (let s = 0; s < S; s++) {
      const N = passes > 0 ? sums[s * nCells + c] : 0;
      nOf[s][o] = N * scale;
      xOf[s][o] = count > 0 && passes > 0 ? N / count : 0;
    }
  }
}
