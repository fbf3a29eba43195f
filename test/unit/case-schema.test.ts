// Case schema: presets parse, bad input is rejected naming the field, the value and the fix, defaults apply.
import { describe, expect, it } from 'vitest';
import {
  CaseError,
  cellCount,
  cellVolume,
  domainLengths,
  moleFractions,
  parseCase,
  referenceState,
  resolvedFnum,
} from '../../src-main/common/case-schema.js';
import { baseCase, preset, presets } from './case-fixtures.js';

// Parses and returns the CaseError it must throw.
function caseError(json: unknown): CaseError {
  try {
    parseCase(json);
  } catch (e) {
    if (e instanceof CaseError) return e;
    throw e;
  }
  throw new Error('parseCase accepted the input');
}

// A copy of the base case changed by `edit`.
function edited(edit: (c: any) => void): any {
  const c = baseCase();
  edit(c);
  return c;
}

describe('presets', () => {
  it('finds the twelve presets', () => {
    expect(presets().map(([f]) => f)).toEqual([
      'collide-box.json', 'couette.json', 'free-stream.json', 'hypersonic-wedge.json', 'lid-driven-cavity.json', 'mach-reflection.json',
      'periodic-relaxation.json', 'reacting-air.json', 'scaling-box.json', 'sphere-free-molecular.json', 'supersonic-block.json', 'supersonic-cavity.json',
    ]);
  });

  it.each(presets())('%s parses, points at the schema and explains itself', (_file, json) => {
    const c = parseCase(json);
    expect(c.$schema).toBe('../case.schema.json');
    expect(c.description!.length).toBeGreaterThan(100);
  });

  it('collide-box has exactly the SPARTA bench/in.collide physics', () => {
    const c = parseCase(preset('collide-box.json'));
    expect(c.species).toEqual([{ name: 'Ar', mass: 6.63e-26, dRef: 4.11e-10, omega: 0.81, tRef: 273.15, alpha: 1.4, rotationalDof: 0, rotationalRelaxation: 5 }]);
    expect(c.initial).toMatchObject({ kind: 'maxwellian', numberDensity: 7.07043e22, temperature: 273.15 });
    expect(c.grid).toEqual({ cells: [20, 20, 20], cellSize: [1e-5, 1e-5, 1e-5] });
    expect(c.particles).toEqual({ perCell: 10 });
    expect(c.run).toMatchObject({ steps: 1000, dt: 7e-9 });
    expect(Object.values(c.boundaries).every((b) => b.type === 'specular')).toBe(true);
  });
});

/** Bad inputs: [what, input, path that must be named, text the message must contain]. */
const badInputs: [string, () => unknown, string, string][] = [
  ['wrong type for cells', () => edited((c) => { c.grid.cells = '10'; }), 'grid.cells', 'got "10"; expected an array of exactly 3 integers from 1 to 16777216'],
  ['NaN dt', () => edited((c) => { c.run.dt = NaN; }), 'run.dt', 'got NaN; expected a number from 1e-15 to 1000 (s)'],
  ['Infinity mass', () => edited((c) => { c.species[0].mass = Infinity; }), 'species[0].mass', 'got Infinity; expected a number from 1e-31 to 1e-18 (kg)'],
  ['-Infinity velocity', () => edited((c) => { c.initial.velocity = [0, -Infinity, 0]; }), 'initial.velocity[1]', 'got -Infinity; expected a finite number from -1000000 to 1000000 (m/s)'],
  ['negative cell size', () => edited((c) => { c.grid.cellSize[1] = -1e-5; }), 'grid.cellSize[1]', 'got -0.00001; expected a number from 1e-9 to 10000 (m)'],
  ['zero cells', () => edited((c) => { c.grid.cells[2] = 0; }), 'grid.cells[2]', 'got 0; expected an integer from 1 to 16777216'],
  ['fractional cells', () => edited((c) => { c.grid.cells[0] = 2.5; }), 'grid.cells[0]', 'got 2.5; expected an integer from 1 to 16777216'],
  ['two cell counts', () => edited((c) => { c.grid.cells = [4, 4]; }), 'grid.cells', 'got [4,4]; expected an array of exactly 3'],
  ['unknown top-level key', () => edited((c) => { c.gird = {}; }), 'gird', 'allowed keys in (case file): $schema, name, description, grid,'],
  ['unknown key in a boundary', () => edited((c) => { c.boundaries.xmin = { type: 'specular', temperature: 300 }; }), 'boundaries.xmin.temperature', 'got unknown key "temperature"; allowed keys in boundaries.xmin: type'],
  ['missing species', () => edited((c) => { delete c.species; }), 'species', 'got nothing (the field is missing); expected an array of 1 to 16 species'],
  ['no species', () => edited((c) => { c.species = []; }), 'species', 'got []; expected an array of 1 to 16 species'],
  ['17 species', () => edited((c) => { c.species = Array.from({ length: 17 }, (_, i) => ({ ...c.species[0], name: `s${i}` })); }), 'species', 'expected an array of 1 to 16 species'],
  ['missing dt', () => edited((c) => { delete c.run.dt; }), 'run.dt', 'got nothing (the field is missing); expected a number from 1e-15 to 1000 (s)'],
  ['unknown species in fractions', () => edited((c) => { c.initial.fractions = { Ar: 1, Xe: 1 }; }), 'initial.fractions.Xe', 'got unknown species "Xe"; expected one of the species names: Ar'],
  ['unknown species in inflow fractions', () => edited((c) => {
    c.boundaries.xmin = { type: 'inflow', numberDensity: 1e20, temperature: 300, fractions: { N2: 1 } };
    c.boundaries.xmax = { type: 'outflow' };
  }), 'boundaries.xmin.fractions.N2', 'got unknown species "N2"'],
  ['fractions summing to 0', () => edited((c) => { c.initial.fractions = { Ar: 0 }; }), 'initial.fractions', 'expected mole fractions whose sum is finite and > 0'],
  ['negative fraction', () => edited((c) => { c.initial.fractions = { Ar: -1 }; }), 'initial.fractions.Ar', 'got -1; expected a finite number >= 0 (mole fraction)'],
  ['periodic on xmin only', () => edited((c) => { c.boundaries.xmin = { type: 'periodic' }; }), 'boundaries.xmax', 'periodic on xmin requires periodic on xmax'],
  ['periodic on zmax only', () => edited((c) => { c.boundaries.zmax = { type: 'periodic' }; }), 'boundaries.zmin', 'got type "specular"; periodic on zmax requires periodic on zmin'],
  ['both fnum and perCell', () => edited((c) => { c.particles = { fnum: 1e10, perCell: 20 }; }), 'particles', 'got both fnum = 10000000000 and perCell = 20; expected exactly one'],
  ['neither fnum nor perCell', () => edited((c) => { c.particles = {}; }), 'particles', 'got neither fnum nor perCell; expected exactly one'],
  ['perCell without any density', () => edited((c) => { c.initial = { kind: 'empty' }; }), 'particles.perCell', 'use particles.fnum instead'],
  ['negative seed', () => edited((c) => { c.run.seed = -1; }), 'run.seed', 'got -1; expected an integer from 0 to 4294967295'],
  ['seed above 2^32-1', () => edited((c) => { c.run.seed = 4294967296; }), 'run.seed', 'got 4294967296; expected an integer from 0 to 4294967295'],
  ['seed as a string', () => edited((c) => { c.run.seed = '7'; }), 'run.seed', 'got "7"; expected an integer'],
  ['alpha above 2', () => edited((c) => { c.species[0].alpha = 2.5; }), 'species[0].alpha', 'got 2.5; expected a number from 1 to 2'],
  ['alpha below 1', () => edited((c) => { c.species[0].alpha = 0.9; }), 'species[0].alpha', 'got 0.9; expected a number from 1 to 2'],
  ['omega below 0.5', () => edited((c) => { c.species[0].omega = 0.3; }), 'species[0].omega', 'got 0.3; expected a number from 0.5 to 1'],
  ['duplicate species names', () => edited((c) => { c.species.push({ ...c.species[0] }); }), 'species[1].name', 'got "Ar", which species[0] already uses'],
  ['duplicate body names', () => edited((c) => {
    const ball = { name: 'ball', shape: { type: 'sphere', center: [5e-5, 5e-5, 5e-5], radius: 2e-5 }, surface: { model: 'specular' } };
    c.bodies = [ball, { ...ball }];
  }), 'bodies[1].name', 'got "ball", which bodies[0] already uses'],
  ['body with an unknown shape', () => edited((c) => { c.bodies = [{ name: 'x', shape: { type: 'cone' }, surface: { model: 'specular' } }]; }), 'bodies[0].shape.type', 'expected a shape type: one of "stl", "box", "wedge", "cylinder", "sphere"'],
  ['maxwell surface with accommodation above 1', () => edited((c) => {
    c.bodies = [{ name: 'x', shape: { type: 'sphere', center: [5e-5, 5e-5, 5e-5], radius: 2e-5 }, surface: { model: 'maxwell', temperature: 300, accommodation: 1.5 } }];
  }), 'bodies[0].surface.accommodation', 'got 1.5; expected a number from 0 to 1'],
  ['unknown boundary type', () => edited((c) => { c.boundaries.ymin = { type: 'wall' }; }), 'boundaries.ymin.type', 'got "wall"; expected one of "periodic", "specular", "diffuse", "inflow", "outflow"'],
  ['boundary not an object', () => edited((c) => { c.boundaries.ymin = 'specular'; }), 'boundaries.ymin', 'got "specular"; expected an object such as {"type": "specular"}'],
  ['diffuse wall without temperature', () => edited((c) => { c.boundaries.ymin = { type: 'diffuse' }; }), 'boundaries.ymin.temperature', 'got nothing (the field is missing); expected a number from 0.001 to 1000000 (K)'],
  ['inflow with zero density', () => edited((c) => {
    c.boundaries.xmin = { type: 'inflow', numberDensity: 0, temperature: 300 };
    c.boundaries.xmax = { type: 'outflow' };
  }), 'boundaries.xmin.numberDensity', 'got 0; expected a finite number > 0 and <= 1e+33 (m^-3)'],
  ['maxwellian without density', () => edited((c) => { c.initial = { kind: 'maxwellian' }; c.particles = { fnum: 1e10 }; }), 'initial.numberDensity', 'got 0; initial.kind "maxwellian" needs a number density > 0'],
  ['diffuse wall moving along its normal', () => edited((c) => { c.boundaries.ymax = { type: 'diffuse', temperature: 300, velocity: [100, 5, 0] }; }), 'boundaries.ymax.velocity[1]', 'got 5 m/s; a wall moves only within its plane'],
  ['unknown initial kind', () => edited((c) => { c.initial.kind = 'uniform'; }), 'initial.kind', 'got "uniform"; expected one of "maxwellian", "plusMinus", "empty"'],
  ['stepsPerSubmit 0', () => edited((c) => { c.run.stepsPerSubmit = 0; }), 'run.stepsPerSubmit', 'got 0; expected an integer from 1 to 1000'],
  ['stepsPerSubmit 1001', () => edited((c) => { c.run.stepsPerSubmit = 1001; }), 'run.stepsPerSubmit', 'got 1001; expected an integer from 1 to 1000'],
  ['negative steps', () => edited((c) => { c.run.steps = -3; }), 'run.steps', 'got -3; expected an integer from 0 to 4294967295'],
  ['sampling enabled as a string', () => edited((c) => { c.sampling = { enabled: 'no' }; }), 'sampling.enabled', 'got "no"; expected true or false'],
  ['sampling interval 0', () => edited((c) => { c.sampling = { interval: 0 }; }), 'sampling.interval', 'got 0; expected an integer from 1 to 4294967295'],
  ['empty name', () => edited((c) => { c.name = ''; }), 'name', 'got ""; expected a string of 1 to 100 characters'],
  ['name too long', () => edited((c) => { c.name = 'x'.repeat(101); }), 'name', 'expected a string of 1 to 100 characters'],
  ['$schema not a string', () => edited((c) => { c.$schema = 5; }), '$schema', 'got 5; expected a string'],
  ['not an object', () => 42, '(case file)', 'got 42; expected an object with keys: $schema, name,'],
  ['null', () => null, '(case file)', 'got null; expected an object'],
];

describe('bad input', () => {
  it.each(badInputs)('%s is rejected naming the field', (_what, input, path, text) => {
    const err = caseError(input());
    const issue = err.issues.find((i) => i.path === path);
    expect(issue, `issues: ${err.message}`).toBeDefined();
    expect(issue!.message).toContain(text);
    expect(err.message).toContain(`${path}: ${issue!.message}`);
  });

  it('writes the exact one-line form path: got value; expected', () => {
    const err = caseError(edited((c) => { c.grid.cells[0] = -5; }));
    expect(err.issues).toEqual([{ path: 'grid.cells[0]', message: 'got -5; expected an integer from 1 to 16777216' }]);
    expect(err.message).toBe('grid.cells[0]: got -5; expected an integer from 1 to 16777216');
    expect(err.name).toBe('CaseError');
    expect(err).toBeInstanceOf(Error);
  });

  it('lists every problem, one line each', () => {
    const err = caseError(edited((c) => { c.grid.cells[0] = 0; c.run.dt = -1; c.species[0].omega = 2; }));
    expect(err.issues.map((i) => i.path)).toEqual(['grid.cells[0]', 'species[0].omega', 'run.dt']);
    expect(err.message.split('\n')).toHaveLength(3);
  });

  it('names each unknown key separately', () => {
    const err = caseError(edited((c) => { c.grid.foo = 1; c.grid.bar = 2; }));
    expect(err.issues.map((i) => i.path)).toEqual(['grid.foo', 'grid.bar']);
    expect(err.issues[0].message).toContain('allowed keys in grid: cells, cellSize');
  });

  it('reports a periodic mismatch on every axis that has one', () => {
    const err = caseError(edited((c) => { c.boundaries.xmin = { type: 'periodic' }; c.boundaries.ymax = { type: 'periodic' }; }));
    expect(err.issues.map((i) => i.path)).toEqual(['boundaries.xmax', 'boundaries.ymin']);
  });
});

describe('defaults', () => {
  it('fills every default of a minimal case', () => {
    const c = parseCase(edited((cs) => {
      cs.boundaries.ymin = { type: 'diffuse', temperature: 300 };
      cs.boundaries.xmin = { type: 'inflow', numberDensity: 1e20, temperature: 300 };
      cs.boundaries.xmax = { type: 'outflow' };
    }));
    expect(c.species[0].alpha).toBe(1);
    expect(c.initial).toEqual({ kind: 'maxwellian', numberDensity: 1e21, temperature: 273.15, velocity: [0, 0, 0] });
    expect(c.run).toEqual({ steps: 10, dt: 1e-7, seed: 1, stepsPerSubmit: 50, checkpointEvery: 0 });
    expect(c.sampling).toEqual({ enabled: true, start: 0, interval: 1 });
    expect(c.boundaries.ymin).toEqual({ type: 'diffuse', temperature: 300, velocity: [0, 0, 0] });
    expect(c.boundaries.xmin).toEqual({ type: 'inflow', numberDensity: 1e20, temperature: 300, velocity: [0, 0, 0] });
  });

  it('fills missing sampling fields one by one', () => {
    expect(parseCase(edited((c) => { c.sampling = { start: 5 }; })).sampling).toEqual({ enabled: true, start: 5, interval: 1 });
  });

  it('an empty box needs no density', () => {
    const c = parseCase(edited((cs) => { cs.initial = { kind: 'empty' }; cs.particles = { fnum: 1e12 }; }));
    expect(c.initial.numberDensity).toBe(0);
  });

  it('does not share default arrays between parses or mutate the input', () => {
    const input = baseCase();
    const frozen = JSON.stringify(input);
    const a = parseCase(input);
    a.initial.velocity[0] = 99;
    expect(parseCase(input).initial.velocity).toEqual([0, 0, 0]);
    expect(JSON.stringify(input)).toBe(frozen);
  });
});

describe('helpers', () => {
  const c = parseCase(edited((cs) => { cs.grid = { cells: [2, 3, 4], cellSize: [1e-3, 2e-3, 3e-3] }; }));

  it('measures cells and the domain', () => {
    expect(cellCount(c)).toBe(24);
    expect(cellVolume(c)).toBeCloseTo(6e-9, 20);
    expect(domainLengths(c)).toEqual([2e-3, 6e-3, 12e-3]);
  });

  it('resolves fnum from perCell at the reference density', () => {
    expect(resolvedFnum(c)).toBeCloseTo((1e21 * 6e-9) / 20, 0);
    expect(resolvedFnum(parseCase(edited((cs) => { cs.particles = { fnum: 1.23e6 }; })))).toBe(1.23e6);
  });

  it('takes the reference state from the densest of initial and inflows', () => {
    const withInflow = parseCase(edited((cs) => {
      cs.boundaries.xmin = { type: 'inflow', numberDensity: 5e21, temperature: 400, velocity: [10, 0, 0] };
      cs.boundaries.xmax = { type: 'outflow' };
    }));
    expect(referenceState(withInflow)).toMatchObject({ source: 'boundaries.xmin', numberDensity: 5e21, temperature: 400 });
    expect(resolvedFnum(withInflow)).toBeCloseTo((5e21 * 1e-9) / 20, 0);
    // An empty box ignores its initial density.
    const empty = parseCase(edited((cs) => {
      cs.initial = { kind: 'empty', numberDensity: 1e25 };
      cs.boundaries.xmin = { type: 'inflow', numberDensity: 5e21, temperature: 400 };
      cs.boundaries.xmax = { type: 'outflow' };
    }));
    expect(referenceState(empty).numberDensity).toBe(5e21);
  });

  it('normalises mole fractions in species order', () => {
    const mix = parseCase(edited((cs) => {
      cs.species.push({ name: 'N2', mass: 4.65e-26, dRef: 4.17e-10, omega: 0.74, tRef: 273 });
      cs.species.push({ name: 'O2', mass: 5.31e-26, dRef: 4.07e-10, omega: 0.77, tRef: 273 });
    }));
    expect(moleFractions(mix)).toEqual([1 / 3, 1 / 3, 1 / 3]);
    expect(moleFractions(mix, { O2: 1, Ar: 3 })).toEqual([0.75, 0, 0.25]);
    expect(() => moleFractions(mix, { Xe: 1 })).toThrow(/Xe/);
    expect(() => moleFractions(mix, { Ar: 0 })).toThrow(/sum/);
  });
});
