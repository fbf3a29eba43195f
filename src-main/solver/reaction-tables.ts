// The reactions of a case as the collide kernel reads them (react.wgsl: ReactionTable, a uniform buffer): per reaction
// its species and TCE terms, per species pair the list of its reactions, per species the data of the energy disposal.
import type { Case } from '../common/case-schema.js';
import { caseReactions, productsPerStepEstimate, tceTerms, type ResolvedReaction, type TceTerms } from '../common/reactions.js';
import { pairModel, vibrationalQuantum } from '../common/physics.js';
import { Reaction, REACTION_WORDS, UNIFORM_TABLES } from './gpu/struct-layouts.js';

/** A case's reactions with their TCE terms (null when it has none). */
export interface ReactionTables {
  reactions: ResolvedReaction[];
  terms: TceTerms[];
  /** False: count the reactions without making them (heat-bath rates). */
  perform: boolean;
  /** Whether a reaction makes particles (a dissociation). */
  dissociates: boolean;
  /** Particles the dissociations make per step at first, by the Arrhenius rates (productsPerStepEstimate). */
  productsPerStep: number;
}

/** Entries of the table's per-pair word array and reaction list (react.wgsl: pairs 64 x vec4, list 32 x vec4). */
const PAIR_WORDS = 256;
const LIST_WORDS = 128;
/** Bytes of ReactionTable: a 16-byte header, the reactions, the pair words, the list words, a vec4 per species. */
export const REACTION_TABLE_BYTES = 16 + REACTION_WORDS.MAX_REACTIONS * Reaction.byteSize + 4 * PAIR_WORDS + 4 * LIST_WORDS + 16 * UNIFORM_TABLES.MAX_SPECIES;

/** The reactions of case c for the solver, or null without any; throws on a case parseCase would refuse. */
export function buildReactionTables(c: Case): ReactionTables | null {
  if (!c.reactions) return null;
  const { reactions, issues } = caseReactions(c);
  if (issues.length > 0) throw new Error(`internal: reactions of an unchecked case: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`);
  const terms = reactions.map((r) => tceTerms(r, c.species[r.reactants[0]], c.species[r.reactants[1]], c.reactions!.collisionEnergy));
  const perform = c.reactions.perform;
  return {
    reactions, terms, perform, dissociates: perform && reactions.some((r) => r.kind === 'dissociation'),
    productsPerStep: perform ? productsPerStepEstimate(c, reactions) : 0,
  };
}

/** The uniform ReactionTable of case c's reactions (react.wgsl). */
export function packReactionTable(c: Case, t: ReactionTables): ArrayBuffer {
  const buf = new ArrayBuffer(REACTION_TABLE_BYTES);
  const view = new DataView(buf);
  const n = c.species.length;
  view.setUint32(0, t.reactions.length, true);
  view.setUint32(4, t.perform ? 1 : 0, true);
  t.reactions.forEach((r, k) => {
    const x = t.terms[k];
    Reaction.write(view, 16 + k * Reaction.byteSize, {
      r1: r.reactants[0], r2: r.reactants[1], p1: r.products[0], p2: r.products[1], kind: r.kind === 'dissociation' ? 0 : 1,
      ea: r.activationEnergy, er: r.reactionEnergy, prefactor: x.prefactor, powA: x.powA, powB: x.powB, w1: x.w1, w2: x.w2,
    });
  });
  // per pair (s1, s2), both orders: the reactions with those reactants, as (first | count << 16) into the list
  const pairsAt = 16 + REACTION_WORDS.MAX_REACTIONS * Reaction.byteSize;
  const listAt = pairsAt + 4 * PAIR_WORDS;
  let used = 0;
  for (let s1 = 0; s1 < n; s1++) {
    for (let s2 = 0; s2 < n; s2++) {
      const mine = t.reactions.map((r, k) => ({ r, k }))
        .filter(({ r }) => (r.reactants[0] === s1 && r.reactants[1] === s2) || (r.reactants[0] === s2 && r.reactants[1] === s1));
      if (mine.length === 0) continue;
      if (used + mine.length > LIST_WORDS) throw new Error(`the case's reactions list more than ${LIST_WORDS} (species pair, reaction) entries; use fewer reactions`);
      view.setUint32(pairsAt + 4 * (s1 * n + s2), used | (mine.length << 16), true);
      for (const { k } of mine) view.setUint32(listAt + 4 * used++, k, true);
    }
  }
  const speciesAt = listAt + 4 * LIST_WORDS;
  c.species.forEach((s, k) => {
    const o = speciesAt + 16 * k;
    view.setFloat32(o, s.mass, true);
    view.setFloat32(o + 4, s.rotationalDof, true);
    view.setFloat32(o + 8, vibrationalQuantum(s), true);
    view.setFloat32(o + 12, pairModel(s, s).omega, true);
  });
  return buf;
}
