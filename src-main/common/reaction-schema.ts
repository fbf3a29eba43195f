// The case file's `reactions` section: gas-phase chemistry by Bird's total collision energy (TCE) model, each reaction
// given by its Arrhenius rate k(T) = A T^b exp(-Ea / kT) (zod schema; the species are checked by reaction-rules.ts).
import { z } from 'zod';

// A finite number within [min, max], with the unit in the error.
function within(min: number, max: number, unit: string) {
  const e = `expected a finite number from ${min} to ${max} (${unit})`;
  return z.number({ error: e }).min(min, { error: e }).max(max, { error: e });
}

/** Most reactions one case may list (its own plus a library set's). */
export const MAX_REACTIONS = 64;

/** One reaction as written in a case file or a library set. */
export const reactionSchema = z.strictObject({
  equation: z.string({ error: 'expected a string such as "N2 + O --> N + N + O" (dissociation: R1 + R2 --> P1 + P2 + R2) or "N2 + O --> NO + N" (exchange)' })
    .max(200, { error: 'expected at most 200 characters' })
    .describe('"R1 + R2 --> P1 + P2 + R2" (R1 dissociates into P1 and P2, R2 unchanged) or "R1 + R2 --> P1 + P2" (exchange); species by name'),
  internalDof: within(0, 10, 'degrees of freedom').describe('internal degrees of freedom whose energy counts towards the collision energy (TCE zeta; air.tce: 1 for dissociation, 0 for exchange)'),
  activationEnergy: within(0, 1e-16, 'J').describe('activation energy Ea, J'),
  prefactor: within(0, 1e10, 'm^3/s/K^b').describe('Arrhenius prefactor A of k(T) = A T^b exp(-Ea/kT), m^3/s/K^b'),
  temperatureExponent: within(-10, 10, 'temperature exponent b').describe('Arrhenius temperature exponent b'),
  reactionEnergy: within(-1e-16, 1e-16, 'J').describe('energy the reaction releases, J (negative for endothermic, e.g. -Ea for dissociation)'),
}, { error: (iss) => (iss.code === 'unrecognized_keys' ? 'equation, internalDof, activationEnergy, prefactor, temperatureExponent, reactionEnergy' : 'expected an object with keys: equation, internalDof, activationEnergy, prefactor, temperatureExponent, reactionEnergy') });

/** One reaction as written. */
export type ReactionInput = z.input<typeof reactionSchema>;

/** How much of the colliding molecules' rotational energy counts towards the TCE collision energy. */
export const COLLISION_ENERGY_MODELS = ['reactant-rotation', 'rdof'] as const;

/** The case's `reactions` section (optional). */
export function reactionsSchema(setNames: [string, ...string[]]) {
  return z.strictObject({
    use: z.enum(setNames, { error: `expected one of the library reaction sets: ${setNames.join(', ')}` }).optional()
      .describe(`a reaction set of the library (${setNames.join(', ')}); its reactions whose species the case has are used (as SPARTA does)`),
    list: z.array(reactionSchema, { error: `expected an array of at most ${MAX_REACTIONS} reactions` })
      .max(MAX_REACTIONS, { error: `expected an array of at most ${MAX_REACTIONS} reactions` }).default([])
      .describe('reactions of the case; one with the same equation as a library reaction replaces it'),
    collisionEnergy: z.enum(COLLISION_ENERGY_MODELS, { error: `expected one of ${COLLISION_ENERGY_MODELS.map((m) => `"${m}"`).join(', ')}` })
      .default('reactant-rotation')
      .describe('"reactant-rotation" (default): the collision energy is the relative translational energy plus the whole rotational energy of as many reactants (R1 first) as internalDof asks, so the rates in equilibrium are the Arrhenius rates exactly; "rdof": plus internalDof / (mean rotational dof) of both rotational energies (SPARTA\'s default partial_energy model, which gives lower rates for two molecules)'),
    perform: z.boolean({ error: 'expected true or false' }).default(true)
      .describe('false: count the reactions each collision would make without making them (heat-bath rate measurements, as SPARTA\'s compute_chem_rates)'),
  }, { error: (iss) => (iss.code === 'unrecognized_keys' ? 'use, list, collisionEnergy, perform' : 'expected an object with keys: use, list, collisionEnergy, perform, e.g. {"use": "air5"}') })
    .optional()
    .describe('gas-phase chemistry by Bird\'s total collision energy (TCE) model: dissociation and exchange reactions');
}
