// `--set path=value` overrides: JSON values or plain strings, array indices, deep copies, clear errors.
import { describe, expect, it } from 'vitest';
import { applyOverrides, parseSet } from '../../src-main/common/case-overrides.js';
import { CaseError, parseCase } from '../../src-main/common/case-schema.js';
import { baseCase } from './case-fixtures.js';

// Freezes an object and everything inside it, so any mutation throws.
function deepFreeze<T>(o: T): T {
  if (o !== null && typeof o === 'object') {
    for (const v of Object.values(o)) deepFreeze(v);
    Object.freeze(o);
  }
  return o;
}

describe('applyOverrides', () => {
  it('sets values parsed as JSON', () => {
    const out: any = applyOverrides(baseCase(), [
      'grid.cells=[100,100,160]',
      'run.steps=200',
      'run.dt=2.5e-7',
      'boundaries.xmin.type="outflow"',
      'initial.velocity=[1, 2, 3]',
      'particles={"fnum": 1e12}',
    ]);
    expect(out.grid.cells).toEqual([100, 100, 160]);
    expect(out.run.steps).toBe(200);
    expect(out.run.dt).toBe(2.5e-7);
    expect(out.boundaries.xmin).toEqual({ type: 'outflow' });
    expect(out.initial.velocity).toEqual([1, 2, 3]);
    expect(out.particles).toEqual({ fnum: 1e12 });
  });

  it('takes text that is not JSON as a plain string', () => {
    const out: any = applyOverrides(baseCase(), ['name=foo', 'boundaries.xmin.type=outflow', 'description=a=b c', 'grid.foo=']);
    expect(out.name).toBe('foo');
    expect(out.boundaries.xmin.type).toBe('outflow');
    expect(out.description).toBe('a=b c');
    expect(out.grid.foo).toBe('');
  });

  it('parses true, null and quoted numbers as JSON', () => {
    const out: any = applyOverrides({}, ['a=true', 'b=null', 'c="5"']);
    expect(out).toEqual({ a: true, b: null, c: '5' });
  });

  it('indexes arrays with numeric segments', () => {
    const out: any = applyOverrides(baseCase(), ['grid.cells.0=5', 'grid.cellSize.2=2e-3', 'species.0.mass=1e-26']);
    expect(out.grid.cells).toEqual([5, 4, 4]);
    expect(out.grid.cellSize).toEqual([1e-3, 1e-3, 2e-3]);
    expect(out.species[0].mass).toBe(1e-26);
  });

  it('appends at index = length and creates missing containers', () => {
    const out: any = applyOverrides(baseCase(), ['species.1={"name":"N2"}', 'sampling.start=3', 'extra.list.0=7']);
    expect(out.species[1]).toEqual({ name: 'N2' });
    expect(out.sampling).toEqual({ start: 3 });
    expect(out.extra).toEqual({ list: [7] });
  });

  it('applies sets in order, later ones winning', () => {
    const out: any = applyOverrides(baseCase(), ['run.steps=1', 'run.steps=2']);
    expect(out.run.steps).toBe(2);
  });

  it('returns a deep copy and never mutates the input', () => {
    const input = deepFreeze(baseCase());
    const out: any = applyOverrides(input, ['run.steps=99']);
    expect(out).not.toBe(input);
    expect(input.run.steps).toBe(10);
    out.grid.cells[0] = 1000;
    expect(input.grid.cells[0]).toBe(4);
    expect(applyOverrides(input, [])).toEqual(input);
    expect(applyOverrides(input, [])).not.toBe(input);
  });

  it('creates unknown keys, which the schema then rejects by name', () => {
    const out = applyOverrides(baseCase(), ['run.stpes=5']);
    expect((out as any).run.stpes).toBe(5);
    expect(() => parseCase(out)).toThrow(CaseError);
    expect(() => parseCase(out)).toThrow(/run\.stpes: got unknown key "stpes"; allowed keys in run: steps, dt, seed, stepsPerSubmit/);
  });

  it('gives a case the schema accepts after valid overrides', () => {
    const c = parseCase(applyOverrides(baseCase(), ['grid.cells=[8,8,8]', 'run.seed=42']));
    expect(c.grid.cells).toEqual([8, 8, 8]);
    expect(c.run.seed).toBe(42);
  });
});

describe('malformed --set', () => {
  const bad: [string, unknown, RegExp][] = [
    ['run.steps', {}, /no "=" found/],
    ['=5', {}, /path before "=" is empty/],
    [' =5', {}, /path before "=" is empty/],
    ['run..steps=5', {}, /empty segment/],
    ['run.steps.=5', {}, /empty segment/],
    ['run.steps.x=1', { run: { steps: 10 } }, /cannot index into run\.steps, which is 10/],
    ['name.first=1', { name: 'foo' }, /cannot index into name, which is "foo"/],
    ['a.b=1', { a: null }, /cannot index into a, which is null/],
    ['grid.cells.x=1', { grid: { cells: [1, 2, 3] } }, /grid\.cells is an array, so "x" must be an index 0\.\.2/],
    ['grid.cells.5=1', { grid: { cells: [1, 2, 3] } }, /index 5 is past the end of grid\.cells \(length 3\)/],
    ['__proto__.polluted=1', {}, /"__proto__" cannot be used as a key/],
    ['a.constructor.prototype=1', {}, /"constructor" cannot be used as a key/],
    ['x=1', 5, /cannot index into \(the case root\), which is 5/],
  ];

  it.each(bad)('--set %s throws naming the text and the form path=value', (set, json, reason) => {
    let err: Error | undefined;
    try {
      applyOverrides(json, [set]);
    } catch (e) {
      err = e as Error;
    }
    expect(err).toBeInstanceOf(Error);
    expect(err!.message).toContain(`--set "${set}"`);
    expect(err!.message).toMatch(reason);
    expect(err!.message).toContain('path=value');
  });

  it('does not pollute Object.prototype', () => {
    expect(() => applyOverrides({}, ['__proto__.polluted=1'])).toThrow();
    expect(({} as any).polluted).toBeUndefined();
  });
});

describe('parseSet', () => {
  it('splits at the first "=" and parses the value', () => {
    expect(parseSet('grid.cells.0=5')).toEqual({ path: ['grid', 'cells', '0'], value: 5 });
    expect(parseSet('description=x=y')).toEqual({ path: ['description'], value: 'x=y' });
  });
});
