// The pre-launch check of chemistry: a case hot enough for its molecules to dissociate but without reactions is
// warned; a case with reactions gets the particles its dissociations will make (at first, per step, by the Arrhenius
// rates at its hottest states; and at most, when every dissociable molecule dissociates), and a warning for each
// reaction whose Arrhenius rate the TCE model cannot reach there (its probabilities would pass 1: tce-equilibrium.ts).
import type { Case } from '../common/case-schema.js';
import { domainVolume, resolvedFnum } from '../common/case-helpers.js';
import { caseReactions, productsPerStepEstimate, reactingStates } from '../common/reactions.js';
import { tceEquilibriumRates } from '../common/tce-equilibrium.js';
import type { Finding } from './prelaunch.js';

/** Temperature above which air's molecules dissociate noticeably (O2 from about 2,500 K, N2 from about 4,000 K). */
export const DISSOCIATION_TEMPERATURE = 4000;

/** What the check estimates of a reacting case. */
export interface ReactionEstimates {
  reactions: number;
  /** Simulated particles the dissociations make per step at first (Arrhenius rates at the hottest reacting state, whole box). */
  productsPerStep: number;
  /** Simulated particles the dissociations can make at most: one per molecule that can dissociate (no recombination). */
  mostProducts: number;
  /** The hottest reacting state (initial gas, or an inflow at its stagnation temperature) and its temperature. */
  hottest: { source: string; temperature: number };
}

/** The reaction estimates of case c, or null when it has no reactions. */
export function reactionEstimates(c: Case): ReactionEstimates | null {
  if (!c.reactions) return null;
  const { reactions } = caseReactions(c);
  const states = reactingStates(c);
  const hottest = states.reduce((a, b) => (b.temperature > a.temperature ? b : a), states[0] ?? { source: 'none', temperature: 0, numberDensity: 0, fractions: [] });
  const dissociable = new Set(reactions.filter((r) => r.kind === 'dissociation').map((r) => r.reactants[0]));
  const particles = (c.initial.kind !== 'empty' ? c.initial.numberDensity * domainVolume(c) : 0) / resolvedFnum(c);
  const initialFractions = states.find((s) => s.source === 'initial')?.fractions ?? [];
  const mostProducts = [...dissociable].reduce((sum, k) => sum + particles * (initialFractions[k] ?? 0), 0);
  return {
    reactions: reactions.length,
    productsPerStep: c.reactions.perform ? productsPerStepEstimate(c, reactions) : 0,
    mostProducts: c.reactions.perform ? mostProducts : 0,
    hottest: { source: hottest.source, temperature: hottest.temperature },
  };
}

/** Warnings about chemistry: hot molecules without reactions; reactions the TCE model cannot carry at full rate. */
export function reactionFindings(c: Case): Finding[] {
  const states = reactingStates(c);
  const hottest = states.reduce((a, b) => (b.temperature > a.temperature ? b : a), states[0]);
  if (!hottest) return [];
  const molecules = c.species.filter((s, k) => s.rotationalDof > 0 && hottest.fractions[k] > 0);
  if (!c.reactions) {
    if (hottest.temperature <= DISSOCIATION_TEMPERATURE || molecules.length === 0) return [];
    return [{
      code: 'hot-without-reactions', field: 'reactions',
      message: `the gas reaches about ${Math.round(hottest.temperature)} K (${hottest.source}), where molecules (${molecules.map((s) => s.name).join(', ')}) ` +
        `dissociate, but the case has no reactions: add "reactions": {"use": "air5"} for air (O2, N2, NO, O, N), or list the case's own`,
    }];
  }
  const { reactions } = caseReactions(c);
  const short = tceEquilibriumRates(c, reactions, hottest.temperature, 40_000).filter((r) => r.arrhenius > 0 && r.attained < 0.9 * r.arrhenius);
  if (short.length === 0) return [];
  return [{
    code: 'reaction-rates-out-of-reach', field: 'reactions',
    message: `at ${Math.round(hottest.temperature)} K (${hottest.source}) the TCE model reaches less than 90 % of the Arrhenius rate of ${short.length} ` +
      `reaction${short.length === 1 ? '' : 's'}: ${short.map((r) => `${r.reaction.equation} ${(100 * r.attained / r.arrhenius).toFixed(0)} %`).join(', ')}. ` +
      'Their species pairs\' reaction probabilities pass 1 at some collision energies (the rates near the pairs\' collision rates), as in SPARTA; ' +
      'expect slower chemistry at that temperature than the rates say',
  }];
}
