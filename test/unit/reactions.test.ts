// The reaction layer without a GPU: equations and their checks (species, kinds, masses), the library set, the TCE
// terms (exact where the reactants' rotational energies carry the internal dof asked for), and the equilibrium rates:
// where the probabilities stay below 1, the TCE model's rate is the Arrhenius rate it is built from.
import { describe, expect, it } from 'vitest';
import { CaseError, parseCase, type Case } from '../../src-main/common/case-schema.js';
import { arrheniusRate, caseReactions, parseEquation, tceTerms } from '../../src-main/common/reactions.js';
import { REACTION_LIBRARY } from '../../src-main/common/reaction-library.js';
import { SPECIES_LIBRARY } from '../../src-main/common/species-library.js';
import { tceEquilibriumRates } from '../../src-main/common/tce-equilibrium.js';
import { prelaunchCheck } from '../../src-main/cases/prelaunch.js';
import { packReactionTable, REACTION_TABLE_BYTES, buildReactionTables } from '../../src-main/solver/reaction-tables.js';

/** A small box of the given species and reactions (case-file objects). */
function box(species: unknown[], reactions: unknown, extra: Record<string, unknown> = {}): unknown {
  const specular = { type: 'specular' };
  return {
    name: 'reactions unit', grid: { cells: [2, 2, 2], cellSize: [1e-5, 1e-5, 1e-5] }, species, particles: { perCell: 10 },
    initial: { numberDensity: 1e23, temperature: 10000 },
    boundaries: { xmin: specular, xmax: specular, ymin: specular, ymax: specular, zmin: specular, zmax: specular },
    run: { steps: 1, dt: 1e-9 }, reactions, ...extra,
  };
}

const AIR = [{ use: 'O2' }, { use: 'N2' }, { use: 'NO' }, { use: 'O' }, { use: 'N' }];

/** The issues parseCase reports for a case object. */
function issuesOf(json: unknown): { path: string; message: string }[] {
  try {
    parseCase(json);
    return [];
  } catch (e) {
    if (e instanceof CaseError) return e.issues;
    throw e;
  }
}

describe('equations', () => {
  it('splits reactants and products and refuses what is not an equation, saying how to write one', () => {
    expect(parseEquation('N2 + O --> N + N + O')).toEqual({ reactants: ['N2', 'O'], products: ['N', 'N', 'O'] });
    expect(parseEquation('N2 + O -> N + N')).toMatch(/one "-->"/);
    expect(parseEquation('N2 + --> N')).toMatch(/species names separated by " \+ "/);
  });
});

describe('the air5 library set', () => {
  it('holds 15 dissociations and 4 exchanges whose masses add up with the library species', () => {
    const c = parseCase(box(AIR, { use: 'air5' }));
    const { reactions, issues } = caseReactions(c);
    expect(issues).toEqual([]);
    expect(reactions.filter((r) => r.kind === 'dissociation')).toHaveLength(15);
    expect(reactions.filter((r) => r.kind === 'exchange')).toHaveLength(4);
    expect(REACTION_LIBRARY.air5.reactions).toHaveLength(19);
    // N = N2/2, O = O2/2, NO = N + O exactly (the reactions keep mass and momentum)
    expect(SPECIES_LIBRARY.N.mass * 2).toBeCloseTo(SPECIES_LIBRARY.N2.mass, 35);
    expect(SPECIES_LIBRARY.O.mass * 2).toBeCloseTo(SPECIES_LIBRARY.O2.mass, 35);
    expect(SPECIES_LIBRARY.N.mass + SPECIES_LIBRARY.O.mass).toBeCloseTo(SPECIES_LIBRARY.NO.mass, 35);
  });

  it('keeps only the reactions whose species the case has (as SPARTA does)', () => {
    const c = parseCase(box([{ use: 'N2' }, { use: 'N' }], { use: 'air5' }));
    expect(caseReactions(c).reactions.map((r) => r.equation)).toEqual(['N2 + N2 --> N + N + N2', 'N2 + N --> N + N + N']);
  });

  it('a listed reaction with the equation of a library one replaces it', () => {
    const own = { equation: 'N2  +  N --> N + N + N', internalDof: 1, activationEnergy: 1.561e-18, prefactor: 1e-8, temperatureExponent: -1.6, reactionEnergy: -1.561e-18 };
    const c = parseCase(box([{ use: 'N2' }, { use: 'N' }], { use: 'air5', list: [own] }));
    const r = caseReactions(c).reactions.find((x) => x.equation === 'N2 + N --> N + N + N')!;
    expect(r.prefactor).toBe(1e-8);
    expect(r.source).toBe('reactions.list[0]');
  });
});

describe('reaction errors name the field and the fix', () => {
  const rx = (equation: string) => ({ list: [{ equation, internalDof: 1, activationEnergy: 1e-18, prefactor: 1e-8, temperatureExponent: -1, reactionEnergy: -1e-18 }] });
  it('an unknown species', () => {
    const issues = issuesOf(box(AIR, rx('N2 + Ar --> N + N + Ar')));
    expect(issues[0].path).toBe('reactions.list[0].equation');
    expect(issues[0].message).toMatch(/species Ar not in the case's species .* add them/);
  });
  it('a dissociation whose third product is not its partner, and recombination', () => {
    expect(issuesOf(box(AIR, rx('N2 + O --> N + N + N')))[0].message).toMatch(/keeps its second reactant as the third product/);
    expect(issuesOf(box(AIR, rx('N + N --> N2')))[0].message).toMatch(/recombination is not supported yet/);
  });
  it('masses that do not add up', () => {
    const species = [{ use: 'N2' }, { use: 'N', mass: 2.4e-26 }];
    expect(issuesOf(box(species, rx('N2 + N --> N + N + N')))[0].message).toMatch(/masses .* differ from the reactants'/);
  });
  it('a gas without a molecule, a library set with nothing for the case, an unknown set', () => {
    expect(issuesOf(box([{ use: 'N' }, { use: 'O' }], { use: 'air5' })).map((i) => i.message).join(' ')).toMatch(/need a molecular species/);
    expect(issuesOf(box([{ use: 'Ar' }, { use: 'N2', vibration: null }], { use: 'air5' })).map((i) => i.message).join(' ')).toMatch(/none of the reactions applies/);
    expect(issuesOf(box(AIR, { use: 'air11' }))[0].message).toMatch(/library reaction sets: air5/);
  });
  it('a TCE model that does not exist (internalDof + b + 3/2 <= 0)', () => {
    const bad = { list: [{ equation: 'N2 + O --> NO + N', internalDof: 0, activationEnergy: 1e-19, prefactor: 1e-12, temperatureExponent: -2, reactionEnergy: -1e-19 }] };
    expect(issuesOf(box(AIR, bad))[0].message).toMatch(/internalDof \+ temperatureExponent \+ 3\/2 > 0/);
  });
});

describe('TCE terms', () => {
  const c = parseCase(box(AIR, { use: 'air5' }));
  const { reactions } = caseReactions(c);
  const n2n2 = reactions.find((r) => r.equation === 'N2 + N2 --> N + N + N2')!;
  const n2n = reactions.find((r) => r.equation === 'N2 + N --> N + N + N')!;
  it('reactant-rotation counts R1\'s whole rotational energy for internalDof 1; rdof half of both molecules\' (SPARTA\'s partial energy)', () => {
    expect(tceTerms(n2n2, c.species[1], c.species[1], 'reactant-rotation')).toMatchObject({ w1: 1, w2: 0, z: 1 });
    expect(tceTerms(n2n2, c.species[1], c.species[1], 'rdof')).toMatchObject({ w1: 0.5, w2: 0.5, z: 1 });
    // with an atom as partner both models count the molecule's rotation whole
    expect(tceTerms(n2n, c.species[1], c.species[4], 'rdof')).toMatchObject({ w1: 1, w2: 1, z: 1 });
  });

  it('in equilibrium the model gives the Arrhenius rate where its probabilities stay below 1 (N2 dissociation at 10,000 K, O2 + N2 at 6,000 K)', () => {
    for (const [eq, t] of [['N2 + N2 --> N + N + N2', 10000], ['N2 + O --> N + N + O', 10000], ['O2 + N2 --> O + O + N2', 6000], ['N2 + O --> NO + N', 6000]] as const) {
      const rates = tceEquilibriumRates(c, reactions, t, 100_000);
      const k = reactions.findIndex((r) => r.equation === eq);
      const r = rates[k];
      expect(r.arrhenius).toBeCloseTo(arrheniusRate(reactions[k], t), 30);
      expect(Math.abs(r.attained / r.arrhenius - 1), eq).toBeLessThan(Math.max(0.03, 3 * r.attainedError / r.arrhenius));
    }
  });

  it('SPARTA\'s rdof model gives N2 + N2 about half its Arrhenius rate at 10,000 K (half of two molecules\' rotation is not Gamma(1))', () => {
    const rdof = parseCase(box(AIR, { use: 'air5', collisionEnergy: 'rdof' }));
    const k = reactions.findIndex((r) => r.equation === 'N2 + N2 --> N + N + N2');
    const r = tceEquilibriumRates(rdof, caseReactions(rdof).reactions, 10000, 100_000)[k];
    expect(r.attained / r.arrhenius).toBeGreaterThan(0.4);
    expect(r.attained / r.arrhenius).toBeLessThan(0.6);
  });
});

describe('the reaction table', () => {
  it('lists each pair\'s reactions in both orders and fits its uniform buffer', () => {
    const c: Case = parseCase(box(AIR, { use: 'air5' }));
    const t = buildReactionTables(c)!;
    const buf = packReactionTable(c, t);
    expect(buf.byteLength).toBe(REACTION_TABLE_BYTES);
    const view = new DataView(buf);
    expect(view.getUint32(0, true)).toBe(19);
    const pairsAt = 16 + 64 * 64;
    // O2 (0) with N (4): the dissociation of O2 and the exchange O2 + N --> NO + O, the same list both ways
    const word = (s1: number, s2: number) => view.getUint32(pairsAt + 4 * (s1 * 5 + s2), true);
    const listAt = pairsAt + 4 * 256;
    const list = (s1: number, s2: number) => {
      const w = word(s1, s2);
      return Array.from({ length: w >>> 16 }, (_, q) => view.getUint32(listAt + 4 * ((w & 0xffff) + q), true));
    };
    const names = t.reactions.map((r) => r.equation);
    expect(list(0, 4).map((k) => names[k])).toEqual(['O2 + N --> O + O + N', 'O2 + N --> NO + O']);
    expect(list(4, 0)).toEqual(list(0, 4));
    // N + N and O + O have none
    expect(word(4, 4)).toBe(0);
    expect(word(3, 3)).toBe(0);
  });
});

describe('the pre-launch check of chemistry', () => {
  const gpu = { limits: { maxStorageBufferBindingSize: 2 ** 31 - 4, maxBufferSize: 2 ** 36 }, buffers: [] };
  it('warns a hot molecular gas without reactions, naming the temperature and the fix', () => {
    const hot = parseCase(box([{ use: 'N2' }], undefined, { initial: { numberDensity: 1e22, temperature: 8000 } }));
    const w = prelaunchCheck(hot, gpu).warnings.find((x) => x.code === 'hot-without-reactions');
    expect(w?.field).toBe('reactions');
    expect(w?.message).toMatch(/about 8000 K \(initial\).*N2.*"reactions": \{"use": "air5"\}/);
    const cold = parseCase(box([{ use: 'N2' }], undefined, { initial: { numberDensity: 1e22, temperature: 3000 } }));
    expect(prelaunchCheck(cold, gpu).warnings.some((x) => x.code === 'hot-without-reactions')).toBe(false);
  });

  it('estimates the particles reactions make and names the reactions the model cannot carry at full rate', () => {
    const c = parseCase(box(AIR, { use: 'air5' }, { initial: { numberDensity: 1e23, temperature: 20000, fractions: { N2: 0.79, O2: 0.21 } } }));
    const r = prelaunchCheck(c, gpu);
    const e = r.estimates.reactions!;
    expect(e.reactions).toBe(19);
    expect(e.hottest).toEqual({ source: 'initial', temperature: 20000 });
    // every particle is a molecule that can dissociate
    expect(e.mostProducts).toBeCloseTo(r.estimates.particles, 6);
    expect(e.productsPerStep).toBeGreaterThan(0);
    const w = r.warnings.find((x) => x.code === 'reaction-rates-out-of-reach');
    expect(w?.message).toMatch(/NO \+ O --> N \+ O \+ O \d %/);
  });
});
