// Gas-phase reactions of a case, resolved against its species, and Bird's total collision energy (TCE) model:
// the probability that a collision of collision energy E_c reacts (Bird 1994, eq. 6.10, as SPARTA writes it),
//   P = C1 Gamma(z + 5/2 - omega) / Gamma(z + b + 3/2) (E_c - Ea)^(b - 1 + omega) (1 - Ea/E_c)^(z + 3/2 - omega),
//   C1 = sqrt(pi) eps A / (2 sigma) sqrt(m_r / (2 k T_ref)) T_ref^(1 - omega) / k^(b - 1 + omega), sigma = pi d_ref^2,
// eps 2 for identical reactants, else 1. With E_c = E_trans + internal energy distributed as Gamma(z) kT in
// equilibrium, the mean of sigma_T c_r P over the collisions is eps A T^b exp(-Ea/kT): the rate coefficient k(T), with
// reaction events per volume and time k n1 n2 (n1^2 for identical reactants).
import { BOLTZMANN, gamma, pairModel } from './physics.js';
import type { Case, Species } from './case-schema.js';
import { MAX_REACTIONS, type ReactionInput } from './reaction-schema.js';
import { REACTION_LIBRARY } from './reaction-library.js';
import type { CaseIssue } from './case-errors.js';
import { FACES, domainVolume, moleFractions, resolvedFnum } from './case-helpers.js';

/** How a reaction changes its reactants. */
export type ReactionKind = 'dissociation' | 'exchange';

/** One reaction of a case, its species as indices into the case's species. */
export interface ResolvedReaction {
  equation: string;
  kind: ReactionKind;
  /** R1 (dissociates, or becomes P1) and R2 (the partner; unchanged by a dissociation). */
  reactants: [number, number];
  /** P1 (what R1 becomes) and P2 (the new particle of a dissociation, or what R2 becomes in an exchange). */
  products: [number, number];
  internalDof: number;
  activationEnergy: number;
  prefactor: number;
  temperatureExponent: number;
  reactionEnergy: number;
  /** Where it comes from: the case's list or a library set. */
  source: string;
}

/** An equation's reactants and products as species names, or a message saying what is wrong. */
export function parseEquation(equation: string): { reactants: string[]; products: string[] } | string {
  const sides = equation.split('-->');
  if (sides.length !== 2) return 'expected one "-->" between the reactants and the products, e.g. "N2 + O --> N + N + O"';
  const names = (side: string) => side.split('+').map((t) => t.trim());
  const reactants = names(sides[0]);
  const products = names(sides[1]);
  if ([...reactants, ...products].some((t) => t.length === 0)) return 'expected species names separated by " + ", e.g. "N2 + O --> N + N + O"';
  return { reactants, products };
}

/** The reactions a case asks for: its library set's (those whose species it has) with its own list on top. */
export function caseReactions(c: Case): { reactions: ResolvedReaction[]; issues: CaseIssue[] } {
  const r = c.reactions;
  if (!r) return { reactions: [], issues: [] };
  const index = new Map(c.species.map((s, i) => [s.name, i]));
  const issues: CaseIssue[] = [];
  const out = new Map<string, ResolvedReaction>();
  if (r.use) {
    const set = REACTION_LIBRARY[r.use];
    for (const input of set.reactions) {
      const resolved = resolveReaction(input, index, c.species, `reactions.use ${r.use}`);
      // like SPARTA: a library reaction whose species the case lacks is left out
      if (typeof resolved !== 'string') out.set(normalised(input.equation), resolved);
    }
  }
  r.list.forEach((input, i) => {
    const resolved = resolveReaction(input, index, c.species, `reactions.list[${i}]`);
    if (typeof resolved === 'string') issues.push({ path: `reactions.list[${i}].equation`, message: resolved });
    else out.set(normalised(input.equation), resolved);
  });
  if (out.size > MAX_REACTIONS) {
    issues.push({ path: 'reactions', message: `the case has ${out.size} reactions (its list and its library set), more than ${MAX_REACTIONS}: list fewer` });
  }
  if (issues.length === 0 && out.size === 0) {
    issues.push({ path: 'reactions', message: `none of the reactions applies to this case's species (${c.species.map((s) => s.name).join(', ')}): add the species they need, list reactions, or remove "reactions"` });
  }
  return { reactions: [...out.values()], issues };
}

// An equation with single spaces, so that a case's reaction replaces the library's of the same equation.
function normalised(equation: string): string {
  return equation.split(/\s+/).filter((t) => t.length > 0).join(' ');
}

// A reaction with its species resolved and checked, or what is wrong with it.
function resolveReaction(input: ReactionInput, index: Map<string, number>, species: Species[], source: string): ResolvedReaction | string {
  const eq = parseEquation(input.equation);
  if (typeof eq === 'string') return eq;
  const missing = [...eq.reactants, ...eq.products].filter((n) => !index.has(n));
  if (missing.length > 0) return `species ${[...new Set(missing)].join(', ')} not in the case's species (${[...index.keys()].join(', ')}): add them to "species" or fix the equation`;
  if (eq.reactants.length !== 2) return `expected two reactants, got ${eq.reactants.length}`;
  const [r1, r2] = eq.reactants.map((n) => index.get(n)!) as [number, number];
  const p = eq.products.map((n) => index.get(n)!);
  let kind: ReactionKind;
  if (p.length === 3) {
    if (p[2] !== r2) return `a dissociation "R1 + R2 --> P1 + P2 + R2" keeps its second reactant as the third product; got ${eq.products[2]} for ${eq.reactants[1]}`;
    kind = 'dissociation';
  } else if (p.length === 2) {
    kind = 'exchange';
  } else {
    return `expected 2 products (exchange) or 3 (dissociation, the third being R2); recombination is not supported yet`;
  }
  const massIn = species[r1].mass + species[r2].mass;
  const massOut = p.reduce((m, k) => m + species[k].mass, 0);
  if (Math.abs(massOut - massIn) > 1e-6 * massIn) {
    return `the products' masses (${massOut.toExponential(5)} kg) differ from the reactants' (${massIn.toExponential(5)} kg): give the species masses that add up (e.g. N2 = 2 N), so that the reaction keeps momentum and energy`;
  }
  return {
    equation: normalised(input.equation), kind, reactants: [r1, r2], products: [p[0], p[1]],
    internalDof: input.internalDof, activationEnergy: input.activationEnergy, prefactor: input.prefactor,
    temperatureExponent: input.temperatureExponent, reactionEnergy: input.reactionEnergy, source,
  };
}

/** Arrhenius rate coefficient k(T) = A T^b exp(-Ea / kT), m^3/s. */
export function arrheniusRate(r: Pick<ResolvedReaction, 'prefactor' | 'temperatureExponent' | 'activationEnergy'>, temperature: number): number {
  return r.prefactor * Math.pow(temperature, r.temperatureExponent) * Math.exp(-r.activationEnergy / (BOLTZMANN * temperature));
}

/** The TCE terms of one reaction for the GPU: E_c weights on the reactants' rotational energies and the probability's factors. */
export interface TceTerms {
  /** Weights of R1's and R2's rotational energy in the collision energy. */
  w1: number;
  w2: number;
  /** z, the gamma shape of the internal energy counted (equals internalDof unless the reactants have less rotation). */
  z: number;
  /** P = prefactor ((E_c - Ea)/k)^powA (1 - Ea/E_c)^powB. */
  prefactor: number;
  powA: number;
  powB: number;
}

/**
 * The TCE terms of reaction r between species s1 (R1) and s2 (R2). Model "reactant-rotation": the collision energy
 * counts the whole rotational energy of R1, then of R2, until their gamma shapes (rotational dof / 2) add up to
 * internalDof; both are Gamma(dof/2) kT in equilibrium, so the rate is the Arrhenius rate exactly where internalDof
 * is such a sum (a fraction of a shape is counted as that fraction of the energy, an approximation). Model "rdof"
 * (SPARTA's partial energy): internalDof / mean rotational dof of both molecules' rotational energy.
 */
export function tceTerms(r: ResolvedReaction, s1: Species, s2: Species, model: 'reactant-rotation' | 'rdof'): TceTerms {
  const pair = pairModel(s1, s2);
  const omega = pair.omega;
  const shape1 = s1.rotationalDof / 2;
  const shape2 = s2.rotationalDof / 2;
  let w1 = 0;
  let w2 = 0;
  let z = r.internalDof;
  if (model === 'rdof') {
    const mean = (s1.rotationalDof + s2.rotationalDof) / 2;
    if (mean > 0.1) w1 = w2 = z / mean;
  } else {
    w1 = shape1 > 0 ? Math.min(1, z / shape1) : 0;
    const rest = z - w1 * shape1;
    w2 = shape2 > 0 ? Math.min(1, rest / shape2) : 0;
    z = w1 * shape1 + w2 * shape2;
  }
  const eps = r.reactants[0] === r.reactants[1] ? 2 : 1;
  const b = r.temperatureExponent;
  const sigma = Math.PI * pair.dRef * pair.dRef;
  // C1 with the energies in kelvin (E/k), so that no power of k appears: C1 k^(b-1+omega) = the factor below
  const c1Kelvin = (Math.sqrt(Math.PI) * eps * r.prefactor / (2 * sigma)) * Math.sqrt(pair.reducedMass / (2 * BOLTZMANN * pair.tRef)) * Math.pow(pair.tRef, 1 - omega);
  const prefactor = c1Kelvin * gamma(z + 2.5 - omega) / gamma(z + b + 1.5);
  return { w1, w2, z, prefactor, powA: b - 1 + omega, powB: z + 1.5 - omega };
}

/** A gas state the reaction estimate looks at: where it is, density, temperature and mole fractions. */
export interface ReactingState {
  source: string;
  numberDensity: number;
  temperature: number;
  fractions: number[];
}

/**
 * The states of case c that may react: the initial gas, and each inflow at its stagnation temperature
 * T0 = T + m u^2 / (7 k) (a diatomic gas brought to rest: where a body's shock heats it most).
 */
export function reactingStates(c: Case): ReactingState[] {
  const states: ReactingState[] = [];
  if (c.initial.kind !== 'empty' && c.initial.numberDensity > 0) {
    states.push({ source: 'initial', numberDensity: c.initial.numberDensity, temperature: c.initial.temperature, fractions: moleFractions(c, c.initial.fractions) });
  }
  for (const face of FACES) {
    const b = c.boundaries[face];
    if (b.type !== 'inflow') continue;
    const x = moleFractions(c, b.fractions);
    const mass = c.species.reduce((m, s, k) => m + x[k] * s.mass, 0);
    const u2 = b.velocity.reduce((a, v) => a + v * v, 0);
    states.push({ source: `boundaries.${face} (stagnation)`, numberDensity: b.numberDensity, temperature: b.temperature + (mass * u2) / (7 * BOLTZMANN), fractions: x });
  }
  return states;
}

/** Dissociation events per volume and time (m^-3 s^-1) of a state by the Arrhenius rates of reactions rs. */
export function dissociationRate(rs: ResolvedReaction[], s: ReactingState): number {
  let rate = 0;
  for (const r of rs) {
    if (r.kind !== 'dissociation') continue;
    const [a, b] = r.reactants;
    rate += arrheniusRate(r, s.temperature) * s.fractions[a] * s.fractions[b] * s.numberDensity * s.numberDensity;
  }
  return rate;
}

/** Simulated particles the case's dissociations make per step at first, at most over its reacting states (the whole box at each). */
export function productsPerStepEstimate(c: Case, rs: ResolvedReaction[]): number {
  const volume = domainVolume(c);
  const fnum = resolvedFnum(c);
  return Math.max(0, ...reactingStates(c).map((s) => (dissociationRate(rs, s) * volume * c.run.dt) / fnum));
}
