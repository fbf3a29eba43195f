// The composition of a run's gas for its summary (RunSummary.composition): the box's mean mole fraction of each
// species and the particles of each species over time. The mean comes from the sampled fields where the run sampled:
// x_s = sum_c x_s[c] N[c] / sum_c N[c] with N[c] the cell's sampled particles per pass (particlesPerSample), i.e. the
// molecules of species s over all molecules in the sampling window; otherwise from the particles counted at the end.
// The counts over time come from the totals (reduce.wgsl's run plus species-count.wgsl for a mixture).
import type { Case } from '../common/case-schema.js';
import type { Fields, SpeciesFieldName } from '../common/field-names.js';
import type { CompositionSummary } from '../common/run-summary.js';
import type { LoopResult } from './loop-types.js';

/** What the composition is computed from: the species' names and a loop's fields, sample count and totals. */
export type CompositionInput = Pick<LoopResult, 'fields' | 'samples' | 'start' | 'startStep' | 'end' | 'totalsOverTime'>;

/** Mole fractions of the species from their count (all 0 without particles). */
function fractionsOfCounts(counts: readonly number[]): number[] {
  const total = counts.reduce((a, b) => a + b, 0);
  return counts.map((k) => (total > 0 ? k / total : 0));
}

/** The box's mean mole fractions from the sampled fields (x_<s> weighted by each cell's sampled particles); null without sampled particles. */
export function fieldMoleFractions(species: readonly string[], f: Fields): number[] | null {
  const pps = f.particlesPerSample;
  let total = 0;
  for (let c = 0; c < pps.length; c++) total += pps[c];
  if (!(total > 0)) return null;
  if (species.length === 1) return [1];
  return species.map((s) => {
    const x = f[`x_${s}` as SpeciesFieldName];
    if (!x) throw new Error(`internal: the sampled fields of a mixture lack x_${s}`);
    let sum = 0;
    for (let c = 0; c < pps.length; c++) sum += x[c] * pps[c];
    return sum / total;
  });
}

/** The composition of a run (c: its case, for the species' names). */
export function compositionSummary(c: Pick<Case, 'species'>, r: CompositionInput): CompositionSummary {
  const species = c.species.map((s) => s.name);
  // totals saved before the counts were kept (a resumed checkpoint's) have none but for one species
  const countsOf = (t: LoopResult['end']) => t.speciesCounts ?? (species.length === 1 ? [t.particles] : null);
  const sampled = r.samples > 0 && r.fields.particlesPerSample.length > 0 ? fieldMoleFractions(species, r.fields) : null;
  // one entry per step, the last taken (a loop stopped and kept took its totals after its last submit twice)
  const steps = new Map([{ step: r.startStep, totals: r.start }, ...r.totalsOverTime].map((x) => [x.step, countsOf(x.totals)]));
  const end = countsOf(r.end);
  return {
    species,
    moleFractions: sampled ?? (end ? fractionsOfCounts(end) : species.map(() => 0)),
    from: sampled ? 'fields' : 'particles',
    overTime: [...steps].flatMap(([step, speciesCounts]) => (speciesCounts ? [{ step, speciesCounts }] : [])),
  };
}
