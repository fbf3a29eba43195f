// What Bird's TCE model (reactions.ts) makes of a gas in equilibrium at temperature T: the mean reaction probability
// per collision of each reaction, computed by Monte Carlo over the collisions' energies (relative translational
// energy Gamma(5/2 - omega) kT, as VHS collisions weight it; each molecule's rotational energy Gamma(dof/2) kT), with
// the reactions of a species pair tested in turn against one uniform as the GPU does (react.wgsl): where their summed
// probability exceeds 1 the later ones lose what is left and the total is capped, so the model reaches less than the
// Arrhenius rate. Used by the pre-launch check (which warns where a reaction's rate is out of the model's reach) and
// the heat-bath tests (which check the GPU against these expectations and against Arrhenius where they agree).
import { BOLTZMANN, pairModel } from './physics.js';
import { seededUniform } from './seeded-random.js';
import type { Case } from './case-schema.js';
import { arrheniusRate, tceTerms, type ResolvedReaction } from './reactions.js';

/** A standard normal draw (Box-Muller). */
function normal(u: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - u())) * Math.cos(2 * Math.PI * u());
}

/** A Gamma(shape, 1) draw (Marsaglia and Tsang; shape < 1 by the boost u^(1/shape)). */
function gammaDraw(shape: number, u: () => number): number {
  if (shape <= 0) return 0;
  if (shape < 1) return gammaDraw(shape + 1, u) * Math.pow(1 - u(), 1 / shape);
  const d = shape - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (;;) {
    const x = normal(u);
    const v = Math.pow(1 + c * x, 3);
    if (v <= 0) continue;
    const w = 1 - u();
    if (Math.log(w) < 0.5 * x * x + d - d * v + d * Math.log(v)) return d * v;
  }
}

/** One reaction's equilibrium outcome at a temperature. */
export interface TceRate {
  reaction: ResolvedReaction;
  /** k(T) = A T^b exp(-Ea/kT), m^3/s. */
  arrhenius: number;
  /** What the model reaches: the collision rate coefficient times the mean probability it gives the reaction, m^3/s (Arrhenius's convention: events k n1 n2). */
  attained: number;
  /** Standard error of `attained` from the Monte Carlo. */
  attainedError: number;
}

/**
 * The TCE model's rate coefficient of each reaction of case c in equilibrium at temperature t (m^3/s, events per
 * volume and time k n1 n2), from `samples` collisions per species pair, next to its Arrhenius rate.
 */
export function tceEquilibriumRates(c: Case, reactions: ResolvedReaction[], t: number, samples = 200_000, seed = 1): TceRate[] {
  const model = c.reactions?.collisionEnergy ?? 'reactant-rotation';
  const terms = reactions.map((r) => tceTerms(r, c.species[r.reactants[0]], c.species[r.reactants[1]], model));
  const kT = BOLTZMANN * t;
  const out: TceRate[] = reactions.map((r) => ({ reaction: r, arrhenius: arrheniusRate(r, t), attained: 0, attainedError: 0 }));
  const pairsDone = new Set<string>();
  reactions.forEach((r0) => {
    const [s1, s2] = [Math.min(...r0.reactants), Math.max(...r0.reactants)];
    const key = `${s1}:${s2}`;
    if (pairsDone.has(key)) return;
    pairsDone.add(key);
    // the pair's reactions in the GPU's order (the case's), and its VHS collision rate coefficient <sigma c_r>
    const mine = reactions.map((r, k) => ({ r, k })).filter(({ r }) => Math.min(...r.reactants) === s1 && Math.max(...r.reactants) === s2);
    const a = c.species[s1];
    const b = c.species[s2];
    const p = pairModel(a, b);
    const sigmaCr = 2 * Math.sqrt(Math.PI) * p.dRef * p.dRef * Math.sqrt((2 * BOLTZMANN * p.tRef) / p.reducedMass) * Math.pow(t / p.tRef, 1 - p.omega);
    // like reactants: the collisions of n^2/2 pairs, against the convention k n^2
    const perPair = s1 === s2 ? 0.5 : 1;
    const u = seededUniform(seed + 7919 * s1 + 104729 * s2);
    const sum = mine.map(() => 0);
    const sum2 = mine.map(() => 0);
    // defensive importance sampling: half the draws at kT, half at lambda kT (lambda: the smallest positive activation
    // energy over the energies' summed shapes, so that the tail where reactions happen is sampled), each weighted by
    // f / (f/2 + f_lambda/2), at most 2
    const shapes = [2.5 - p.omega, a.rotationalDof / 2, b.rotationalDof / 2];
    const shapeSum = shapes[0] + shapes[1] + shapes[2];
    const eaMin = Math.min(...mine.map(({ r }) => r.activationEnergy).filter((e) => e > 0), Infinity);
    const lambda = Number.isFinite(eaMin) ? Math.max(1, eaMin / (kT * shapeSum)) : 1;
    for (let n = 0; n < samples; n++) {
      const scale = (u() < 0.5 ? 1 : lambda) * kT;
      const [et, e1s, e2s] = shapes.map((shape) => gammaDraw(shape, u) * scale);
      const logRatio = -shapeSum * Math.log(lambda) + ((et + e1s + e2s) / kT) * (1 - 1 / lambda);
      const weight = logRatio > 50 ? 2 * Math.exp(-logRatio) : 1 / (0.5 + 0.5 * Math.exp(logRatio));
      const e = [e1s, e2s];
      let cumulative = 0;
      let taken = 0;
      mine.forEach(({ r, k }, q) => {
        const x = terms[k];
        const r1First = r.reactants[0] === s1;
        const e1 = r1First ? e[0] : e[1];
        const e2 = r1First ? e[1] : e[0];
        cumulative += tceProbability(r, x, et + x.w1 * e1 + x.w2 * e2);
        const share = Math.min(1, cumulative) - taken;
        taken += share;
        sum[q] += weight * share;
        sum2[q] += (weight * share) ** 2;
      });
    }
    mine.forEach(({ k }, q) => {
      const mean = sum[q] / samples;
      const sd = Math.sqrt(Math.max(0, sum2[q] / samples - mean * mean) / samples);
      out[k].attained = perPair * sigmaCr * mean;
      out[k].attainedError = perPair * sigmaCr * sd;
    });
  });
  return out;
}

/** The TCE probability of reaction r at collision energy ecc (J), as react.wgsl computes it (in f64). */
export function tceProbability(r: ResolvedReaction, x: ReturnType<typeof tceTerms>, ecc: number): number {
  const excess = r.activationEnergy <= -r.reactionEnergy ? ecc + r.reactionEnergy : ecc - r.activationEnergy;
  if (excess <= 0 || ecc <= 0) return 0;
  return x.prefactor * Math.pow(Math.max(ecc - r.activationEnergy, 1e-30) / BOLTZMANN, x.powA) * Math.pow(Math.max(1 - r.activationEnergy / ecc, 0), x.powB);
}
