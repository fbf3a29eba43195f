// Cross-field rules of a case file, checked after the schema passes. Each rule returns the issues it
// finds, naming the field, the value received and how to fix it.
import type { CaseIssue } from './case-errors.js';
import { formatPath } from './case-errors.js';
import { FACES, referenceState } from './case-helpers.js';
import type { Case } from './case-schema.js';

type Rule = (c: Case) => CaseIssue[];

// Species names must be unique.
const uniqueSpeciesNames: Rule = (c) => {
  const issues: CaseIssue[] = [];
  c.species.forEach((s, i) => {
    const first = c.species.findIndex((t) => t.name === s.name);
    if (first < i) {
      issues.push({ path: `species[${i}].name`, message: `got "${s.name}", which species[${first}] already uses; expected a unique species name` });
    }
  });
  return issues;
};

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
    if (Object.keys(fr).every((k) => names.includes(k)) && !(sum > 0)) {
      issues.push({ path: formatPath(base), message: `got ${JSON.stringify(fr)}; expected mole fractions whose sum is > 0 (leave fractions out for equal fractions)` });
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

/** Every cross-field rule, run in this order. */
const RULES: Rule[] = [uniqueSpeciesNames, periodicPairs, initialDensity, fractionNames, particleResolution, tangentialWalls];

// Runs all cross-field rules on a schema-valid case and returns their issues.
export function caseRuleIssues(c: Case): CaseIssue[] {
  return RULES.flatMap((rule) => rule(c));
}
