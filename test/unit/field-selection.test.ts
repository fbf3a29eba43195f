// `dsmc fields` selections (plane, line, point by cell index; --at by position in metres) and the gas means of the
// text summaries (density averaged over gas cells, temperatures weighted by density, errors combined per cell).
import { describe, expect, it } from 'vitest';
import { parseSelection, selectedCells } from '../../src-main/common/reports/field-selection.js';
import { gasMeans } from '../../src-main/common/reports/gas-means.js';

const CELLS = [4, 3, 2];
const SIZE = [0.01, 0.02, 0.5];

describe('field selection', () => {
  it('plane, line and point by index, cells x fastest with their storage ids', () => {
    const plane = selectedCells(parseSelection({ plane: 'z=1' }, CELLS, SIZE), CELLS);
    expect(plane).toHaveLength(12);
    expect(plane[0]).toEqual({ i: 0, j: 0, k: 1, id: 12 });
    expect(plane[5]).toEqual({ i: 1, j: 1, k: 1, id: 17 });
    const line = selectedCells(parseSelection({ line: 'x=2,z=0' }, CELLS, SIZE), CELLS);
    expect(line.map((c) => c.id)).toEqual([2, 6, 10]);
    expect(selectedCells(parseSelection({ point: 'x=3,y=2,z=1' }, CELLS, SIZE), CELLS)).toEqual([{ i: 3, j: 2, k: 1, id: 23 }]);
  });

  it('--at maps metres to the cell holding them (the far face to the last cell); one coordinate a plane, two a line, three a point', () => {
    expect(parseSelection({ at: 'x=0.025' }, CELLS, SIZE)).toMatchObject({ kind: 'plane', fixed: { x: 2 } });
    expect(parseSelection({ at: 'y=0.06,z=0.2' }, CELLS, SIZE)).toMatchObject({ kind: 'line', fixed: { y: 2, z: 0 } });
    expect(parseSelection({ at: 'x=0,y=0,z=1' }, CELLS, SIZE)).toMatchObject({ kind: 'point', fixed: { x: 0, y: 0, z: 1 } });
  });

  it('refuses wrong input naming the option and the fix', () => {
    expect(() => parseSelection({}, CELLS, SIZE)).toThrow(/give exactly one of --plane, --line, --point .* or --at/);
    expect(() => parseSelection({ plane: 'z=0', at: 'x=0.01' }, CELLS, SIZE)).toThrow(/not --plane and --at/);
    expect(() => parseSelection({ plane: 'x=4' }, CELLS, SIZE)).toThrow(/--plane x=4: expected a cell index from 0 to 3/);
    expect(() => parseSelection({ plane: 'x=-1' }, CELLS, SIZE)).toThrow(/--plane x=-1: expected a cell index/);
    expect(() => parseSelection({ line: 'x=1' }, CELLS, SIZE)).toThrow(/--line takes 2 coordinates, got 1/);
    expect(() => parseSelection({ line: 'x=1,x=2' }, CELLS, SIZE)).toThrow(/axis x is given twice/);
    expect(() => parseSelection({ at: 'x=0.05' }, CELLS, SIZE)).toThrow(/--at x=0.05: expected a position in metres inside the box, 0 to 0.04 m along x/);
    expect(() => parseSelection({ point: 'w=1,y=1,z=1' }, CELLS, SIZE)).toThrow(/"w=1" is not AXIS=VALUE/);
  });
});

describe('gas means', () => {
  const f = (xs: number[]) => Float64Array.from(xs);
  it('averages n over gas cells and weights T by n; errors combine as independent cells', () => {
    const values = { particlesPerSample: f([10, 0, 30]), n: f([1, 0, 3]), T: f([100, 0, 300]), Trot: f([90, 0, 310]) };
    const errors = { n: f([0.1, 0, 0.3]), T: f([4, 0, 2]), Trot: f([1, 0, 1]) };
    const g = gasMeans(values, errors)!;
    expect(g.gasCells).toBe(2);
    expect(g.n.mean).toBeCloseTo(2, 12);
    expect(g.n.error).toBeCloseTo(Math.sqrt(0.01 + 0.09) / 2, 12);
    expect(g.T.mean).toBeCloseTo((1 * 100 + 3 * 300) / 4, 12);
    expect(g.T.error).toBeCloseTo(Math.sqrt(16 + 36) / 4, 12);
    expect(g.Trot!.mean).toBeCloseTo((90 + 930) / 4, 12);
    expect(g.Tvib).toBeUndefined();
  });

  it('NaN errors (fewer than two blocks) stay NaN; no gas gives null', () => {
    const g = gasMeans({ particlesPerSample: f([1]), n: f([2]), T: f([300]) }, { n: f([NaN]), T: f([NaN]) })!;
    expect(g.T.mean).toBe(300);
    expect(g.T.error).toBeNaN();
    expect(gasMeans({ particlesPerSample: f([0]), n: f([0]), T: f([0]) }, {})).toBeNull();
  });
});
