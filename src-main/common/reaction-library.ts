// The reaction sets shipped with the product, selectable in a case file by name: `"reactions": {"use": "air5"}`.
//
// air5: the 15 dissociation and 4 exchange reactions of neutral five-species air (O2, N2, NO, O, N) with the
// Arrhenius parameters that SPARTA ships in data/air.tce (Bird 1994, Table 6.X values as SPARTA gives them;
// published data, used as such). Each entry: "R1 + R2 --> products", the internal degrees of freedom that contribute
// to the collision energy (TCE's zeta, SPARTA's C1), activation energy Ea (J), rate prefactor A (m^3/s/K^b), temperature
// exponent b, and the reaction energy (J, positive when the reaction releases energy). No recombination reactions.
import type { ReactionInput } from './reaction-schema.js';

/** Where the air5 numbers come from. */
export const AIR5_SOURCE = 'SPARTA data/air.tce (neutral reactions; Bird 1994, chapter 6)';

// One air.tce entry as [equation, zeta, Ea, A, b, reaction energy].
type Row = [string, number, number, number, number, number];

const AIR5_ROWS: Row[] = [
  ['O2 + N --> O + O + N', 1, 8.197e-19, 1.660e-8, -1.5, -8.197e-19],
  ['O2 + NO --> O + O + NO', 1, 8.197e-19, 3.321e-9, -1.5, -8.197e-19],
  ['O2 + N2 --> O + O + N2', 1, 8.197e-19, 3.321e-9, -1.5, -8.197e-19],
  ['O2 + O2 --> O + O + O2', 1, 8.197e-19, 3.321e-9, -1.5, -8.197e-19],
  ['O2 + O --> O + O + O', 1, 8.197e-19, 1.660e-8, -1.5, -8.197e-19],
  ['N2 + O --> N + N + O', 1, 1.561e-18, 4.980e-8, -1.6, -1.561e-18],
  ['N2 + O2 --> N + N + O2', 1, 1.561e-18, 1.162e-8, -1.6, -1.561e-18],
  ['N2 + NO --> N + N + NO', 1, 1.561e-18, 1.162e-8, -1.6, -1.561e-18],
  ['N2 + N2 --> N + N + N2', 1, 1.561e-18, 1.162e-8, -1.6, -1.561e-18],
  ['N2 + N --> N + N + N', 1, 1.561e-18, 4.980e-8, -1.6, -1.561e-18],
  ['NO + N2 --> N + O + N2', 1, 1.043e-18, 8.302e-15, 0, -1.043e-18],
  ['NO + O2 --> N + O + O2', 1, 1.043e-18, 8.302e-15, 0, -1.043e-18],
  ['NO + NO --> N + O + NO', 1, 1.043e-18, 8.302e-15, 0, -1.043e-18],
  ['NO + O --> N + O + O', 1, 1.043e-18, 1.862e-13, 0, -1.043e-18],
  ['NO + N --> N + O + N', 1, 1.043e-18, 1.862e-13, 0, -1.043e-18],
  ['NO + O --> O2 + N', 0, 2.684e-19, 1.389e-17, 0, -2.684e-19],
  ['N2 + O --> NO + N', 0, 5.175e-19, 1.069e-12, -1.0, -5.175e-19],
  ['O2 + N --> NO + O', 0, 0, 4.601e-15, -0.546, 2.684e-19],
  ['NO + N --> N2 + O', 0, 0, 4.059e-12, -1.359, 5.175e-19],
];

/** The shipped reaction sets by name. */
export const REACTION_LIBRARY: Readonly<Record<string, { source: string; reactions: ReactionInput[] }>> = {
  air5: {
    source: AIR5_SOURCE,
    reactions: AIR5_ROWS.map(([equation, internalDof, activationEnergy, prefactor, temperatureExponent, reactionEnergy]) => ({
      equation, internalDof, activationEnergy, prefactor, temperatureExponent, reactionEnergy,
    })),
  },
};

/** Names of the shipped reaction sets. */
export const REACTION_SET_NAMES = Object.keys(REACTION_LIBRARY) as [string, ...string[]];
