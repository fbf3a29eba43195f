// Cross-field rules of a case file, checked after the schema passes. Each rule returns the issues it
// finds, naming the field, the value received and how to fix it.
import type { CaseIssue } from './case-errors.js';
import { formatPath } from './case-errors.js';
import { FACES, cellCount, domainVolume, referenceState, resolvedFnum } from './case-helpers.js';
import type { Case } from './case-schema.js';
import { caseReactions, tceTerms } from './reactions.js';

/**
 * Bounds that keep every derived quantity finite in the solver's 32-bit floats and 32-bit counters,
 * with wide margins around any physical gas: values outside them are typing mistakes.
 */
export const LIMITS = {
  /** Cells along one axis: positions are f32, which resolve about 1 part in 2^24 of the box. */
  cellsPerAxis: 16_777_216,
  /** Cells in all: a particle keeps its cell index in 27 bits (CELL_WORD in solver/gpu/struct-layouts.ts). */
  cells: 0x07ffffff,
  /** Simulated particles: particle indices and counts are u32 on the GPU. */
  particles: 4_294_967_295,
  /** Steps and step numbers: the step counter that seeds the random streams is u32. */
  steps: 4_294_967_295,
  cellSizeMin: 1e-9,
  cellSizeMax: 1e4,
  massMin: 1e-31,
  massMax: 1e-18,
  dRefMin: 1e-11,
  dRefMax: 1e-7,
  temperatureMin: 1e-3,
  temperatureMax: 1e6,
  numberDensity: 1e33,
  speed: 1e6,
  dtMin: 1e-15,
  dtMax: 1e3,
} as const;

type Rule = (c: Case) => CaseIssue[];

// The reactions' species, kinds and masses (reactions.ts), and TCE terms that exist: Gamma(z + b + 3/2) needs z + b + 3/2 > 0.
function reactionIssues(c: Case): CaseIssue[] {
  if (!c.reactions) return [];
  const { reactions, issues } = caseReactions(c);
  // a reacting gas moves with the internal-energy kernels (move.wgsl: move_rotating), which a molecule brings
  if (!c.species.some((s) => s.rotationalDof > 0)) {
    issues.push({ path: 'reactions', message: 'reactions need a molecular species (rotationalDof 2), such as N2 or O2: add one or remove "reactions"' });
  }
  for (const r of reactions) {
    const t = tceTerms(r, c.species[r.reactants[0]], c.species[r.reactants[1]], c.reactions.collisionEnergy);
    if (t.z + r.temperatureExponent + 1.5 <= 0) {
      issues.push({ path: 'reactions', message: `reaction "${r.equation}" (${r.source}): the TCE model needs internalDof + temperatureExponent + 3/2 > 0, got ${t.z} + ${r.temperatureExponent} + 1.5; raise internalDof or check the exponent` });
    }
  }
  return issues;
}

// Issues for names used twice in a list (`list` at path `key`, e.g. species): each repeat names the first user.
function repeatedNames(list: { name: string }[], key: string, what: string): CaseIssue[] {
  const issues: CaseIssue[] = [];
  list.forEach((x, i) => {
    const first = list.findIndex((y) => y.name === x.name);
    if (first < i) issues.push({ path: `${key}[${i}].name`, message: `got "${x.name}", which ${key}[${first}] already uses; expected a unique ${what} name` });
  });
  return issues;
}

// Species names must be unique.
const uniqueSpeciesNames: Rule = (c) => repeatedNames(c.species, 'species', 'species');

// Body names must be unique (reports and comparisons match bodies by name).
const uniqueBodyNames: Rule = (c) => repeatedNames(c.bodies, 'bodies', 'body');

// Periodic must be on both faces of an axis or on neither.
const periodicPairs: Rule = (c) => {
  const issues: CaseIssue[] = [];
  for (const axis of ['x', 'y', 'z'] as const) {
    const lo = c.boundaries[`${axis}min`];
    const hi = c.boundaries[`${axis}max`];
    if ((lo.type === 'periodic') === (hi.type === 'periodic')) continue;
    const [set, other, otherType] = lo.type === 'periodic' ? [`${axis}min`, `${axis}max`, hi.type] : [`${axis}max`, `${axis}min`, lo.type];
    issues.push({
      path: `boundaries.${other}`,
      message: `got type "${otherType}"; periodic on ${set} requires periodic on ${other}: set both ${axis}min and ${axis}max to {"type": "periodic"}, or neither`,
    });
  }
  return issues;
};

// A filled initial state needs a positive number density.
const initialDensity: Rule = (c) => {
  if (c.initial.kind === 'empty' || c.initial.numberDensity > 0) return [];
  return [{
    path: 'initial.numberDensity',
    message: `got ${c.initial.numberDensity}; initial.kind "${c.initial.kind}" needs a number density > 0 (m^-3): set it, or use kind "empty" for a box that starts empty`,
  }];
};

// Fraction keys must name species and the fractions must not all be zero.
const fractionNames: Rule = (c) => {
  const names = [...new Set(c.species.map((s) => s.name))];
  const issues: CaseIssue[] = [];
  const check = (base: (string | number)[], fr: Record<string, number> | undefined) => {
    if (fr === undefined) return;
    for (const key of Object.keys(fr)) {
      if (!names.includes(key)) {
        issues.push({ path: formatPath([...base, key]), message: `got unknown species "${key}"; expected one of the species names: ${names.join(', ')}` });
      }
    }
    const sum = names.reduce((a, n) => a + (fr[n] ?? 0), 0);
    if (Object.keys(fr).every((k) => names.includes(k)) && !(sum > 0 && Number.isFinite(sum))) {
      issues.push({ path: formatPath(base), message: `got ${JSON.stringify(fr)}; expected mole fractions whose sum is finite and > 0, e.g. {"${names[0]}": 1} (leave fractions out for equal fractions)` });
    }
  };
  check(['initial', 'fractions'], c.initial.fractions);
  for (const face of FACES) {
    const b = c.boundaries[face];
    if (b.type === 'inflow') check(['boundaries', face, 'fractions'], b.fractions);
  }
  return issues;
};

// Exactly one of particles.fnum and particles.perCell; perCell needs a reference density.
const particleResolution: Rule = (c) => {
  const { fnum, perCell } = c.particles;
  const what = 'expected exactly one of particles.fnum (real molecules per simulated particle) and particles.perCell (simulated particles per cell at the reference density)';
  if (fnum !== undefined && perCell !== undefined) return [{ path: 'particles', message: `got both fnum = ${fnum} and perCell = ${perCell}; ${what}` }];
  if (fnum === undefined && perCell === undefined) return [{ path: 'particles', message: `got neither fnum nor perCell; ${what}` }];
  if (perCell !== undefined && !(referenceState(c).numberDensity > 0)) {
    return [{
      path: 'particles.perCell',
      message: `got ${perCell}, but neither initial (kind not "empty") nor any inflow boundary gives a number density > 0 to scale it by; set one, or use particles.fnum instead`,
    }];
  }
  return [];
};

// A diffuse wall moves only in its own plane: the box does not deform, so a normal velocity has no meaning.
const tangentialWalls: Rule = (c) => {
  const issues: CaseIssue[] = [];
  FACES.forEach((face, f) => {
    const b = c.boundaries[face];
    const axis = Math.floor(f / 2);
    if (b.type === 'diffuse' && b.velocity[axis] !== 0) {
      issues.push({
        path: `boundaries.${face}.velocity[${axis}]`,
        message: `got ${b.velocity[axis]} m/s; a wall moves only within its plane (the box does not deform): set the component along ${'xyz'[axis]} to 0`,
      });
    }
  });
  return issues;
};

// The grid must fit a particle's cell index (LIMITS.cells).
const gridSize: Rule = (c) => {
  const n = cellCount(c);
  if (n <= LIMITS.cells) return [];
  return [{
    path: 'grid.cells',
    message: `got ${JSON.stringify(c.grid.cells)} = ${n} cells; a particle stores its cell index in 27 bits, so at most ${LIMITS.cells} cells fit: use fewer, larger cells (grid.cells, grid.cellSize)`,
  }];
};

// The simulated particle count (whole box at the reference density) must be at least one and fit u32 counters.
const particleCount: Rule = (c) => {
  const nRef = referenceState(c).numberDensity;
  if (!(nRef > 0)) return [];
  const fnum = resolvedFnum(c);
  const count = (nRef * domainVolume(c)) / fnum;
  const field = c.particles.fnum !== undefined ? 'particles.fnum' : 'particles.perCell';
  const value = c.particles.fnum ?? c.particles.perCell;
  const makes = `got ${value}, which makes ${count.toPrecision(3)} simulated particles (number density ${nRef} m^-3 over ${domainVolume(c).toExponential(2)} m^3)`;
  if (!(count <= LIMITS.particles)) {
    const fix = field === 'particles.fnum' ? 'raise particles.fnum' : 'lower particles.perCell';
    return [{ path: field, message: `${makes}; at most ${LIMITS.particles} fit the GPU's 32-bit counters: ${fix} or use fewer cells` }];
  }
  if (!(count >= 1)) {
    const fix = field === 'particles.fnum' ? 'lower particles.fnum' : 'raise particles.perCell (about 20 is good)';
    return [{ path: field, message: `${makes}, less than one: ${fix}` }];
  }
  return [];
};

/** Largest magnitude a 32-bit float holds (with a little margin). */
const F32_MAX = 3.4e38;

// The per-cell collision factor fnum * dt / (2 V_cell), which the GPU keeps as f32, must be finite there.
const collisionFactor: Rule = (c) => {
  if (!(referenceState(c).numberDensity > 0)) return [];
  const [dx, dy, dz] = c.grid.cellSize;
  const factor = (0.5 * resolvedFnum(c) * c.run.dt) / (dx * dy * dz);
  if (factor <= F32_MAX) return [];
  return [{
    path: 'run.dt',
    message: `got ${c.run.dt} s, which with fnum = ${resolvedFnum(c).toPrecision(3)} and cell volume ${(dx * dy * dz).toPrecision(3)} m^3 makes the collision factor fnum*dt/(2 V) = ${factor.toPrecision(3)}, beyond 32-bit floats (${F32_MAX}): lower run.dt or the real molecules per particle (particles.fnum / more particles.perCell), or use larger cells`,
  }];
};

// An inflow stream must not carry particles across more than one cell per step (dt too large for the flow).
const inflowCrossing: Rule = (c) => {
  const issues: CaseIssue[] = [];
  for (const face of FACES) {
    const b = c.boundaries[face];
    if (b.type !== 'inflow') continue;
    // the axis where the stream crosses cells fastest, skipping a single periodic cell (no gradient there)
    let worst = -1;
    let worstRatio = 1;
    for (let a = 0; a < 3; a++) {
      if (c.grid.cells[a] === 1 && c.boundaries[FACES[2 * a]].type === 'periodic') continue;
      const ratio = (Math.abs(b.velocity[a]) * c.run.dt) / c.grid.cellSize[a];
      if (ratio > worstRatio) { worst = a; worstRatio = ratio; }
    }
    if (worst < 0) continue;
    const v = Math.abs(b.velocity[worst]);
    const d = c.grid.cellSize[worst];
    const xyz = 'xyz'[worst];
    issues.push({
      path: 'run.dt',
      message: `got ${c.run.dt} s, but the inflow stream of boundaries.${face} (${v} m/s along ${xyz}) crosses ${worstRatio.toPrecision(3)} cells of d${xyz} = ${d} m per step; ` +
        `use run.dt <= d${xyz} / |v${xyz}| = ${(d / v).toPrecision(3)} s (ideally a quarter of that), or larger cells, or a slower inflow`,
    });
  }
  return issues;
};

// A vibrating species must rotate: every molecule with a vibrational mode also has two rotational degrees of freedom.
const vibrationNeedsRotation: Rule = (c) =>
  c.species.flatMap((s, i) => s.vibration && s.rotationalDof === 0
    ? [{ path: `species[${i}].rotationalDof`, message: `got 0 while species ${s.name} vibrates; expected 2 (a vibrating molecule also rotates), or remove its vibration` }]
    : []);

/** Every cross-field rule, run in this order (particleCount after particleResolution has passed). */
const RULES: Rule[] = [vibrationNeedsRotation, uniqueSpeciesNames, uniqueBodyNames, periodicPairs, initialDensity, fractionNames, particleResolution, tangentialWalls, gridSize, inflowCrossing];

// Runs all cross-field rules on a schema-valid case and returns their issues.
export function caseRuleIssues(c: Case): CaseIssue[] {
  const issues = [...RULES.flatMap((rule) => rule(c)), ...reactionIssues(c)];
  // the particle count needs a resolvable fnum: only once the particle fields are consistent
  if (!issues.some((i) => i.path.startsWith('particles') || i.path.endsWith('fractions'))) {
    const count = particleCount(c);
    issues.push(...count, ...(count.length === 0 ? collisionFactor(c) : []));
  }
  return issues;
}
