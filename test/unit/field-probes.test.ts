// Issue 27 item 8: line and point probes of stored fields. The cells a segment crosses (checked against brute-force
// sampling of the segment), the rule that a probe takes the value of the cell it lies in (no interpolation), blank
// values for cells with too few samples and cells inside bodies, errors naming the fix, and the CSV of one or
// several runs.
import { describe, expect, it } from 'vitest';
import { lineProbeOption, probePointCount, stepCurve } from '../../src-main/common/charts/probe-chart.js';
import { FIELD_NAMES, type Fields } from '../../src-main/common/field-names.js';
import { lineProbe, pointProbe } from '../../src-main/common/probes/field-probes.js';
import { cellAt, cellsAlongLine, type ProbeGrid, type Vec3 } from '../../src-main/common/probes/line-cells.js';
import { lineOnPlane, planePointToGrid } from '../../src-main/common/probes/plane-points.js';
import { lineProbeCsv, pointProbeCsv } from '../../src-main/common/probes/probe-csv.js';
import type { FieldSet } from '../../src-main/common/run-record.js';

const GRID: ProbeGrid = { cells: [4, 3, 2], cellSize: [0.1, 0.2, 0.3] };
const N = 4 * 3 * 2;

/** A field set on GRID: T of cell c is 300 + c, its error c / 10; n is 1e20 (c + 1); 20 particles per sample, except `sparse` cells with none. */
function fieldSet(sparse: number[] = []): FieldSet {
  const values = Object.fromEntries(FIELD_NAMES.map((f) => [f, new Float64Array(N)])) as unknown as Fields;
  const errors = Object.fromEntries(FIELD_NAMES.map((f) => [f, new Float64Array(N).fill(NaN)])) as unknown as Fields;
  for (let c = 0; c < N; c++) {
    values.T[c] = 300 + c;
    errors.T[c] = c / 10;
    values.n[c] = 1e20 * (c + 1);
    errors.n[c] = 1e18;
    values.particlesPerSample[c] = sparse.includes(c) ? 0 : 20;
  }
  return { cells: [...GRID.cells] as [number, number, number], cellSize: [...GRID.cellSize] as [number, number, number], samples: 10, blocks: 5, values, errors };
}

/** The cells met walking the segment in 20 000 tiny steps (runs of the same cell merged): the brute-force answer. */
function sampledCells(from: Vec3, to: Vec3): number[] {
  const out: number[] = [];
  const L = [0, 1, 2].map((a) => GRID.cells[a] * GRID.cellSize[a]);
  for (let n = 0; n < 20_000; n++) {
    const t = (n + 0.5) / 20_000;
    const p = [0, 1, 2].map((a) => from[a] + t * (to[a] - from[a])) as Vec3;
    if (p.some((x, a) => x < 0 || x > L[a])) continue;
    const c = cellAt(GRID, p).cell;
    if (out[out.length - 1] !== c) out.push(c);
  }
  return out;
}

describe('cells along a line', () => {
  it('an axis-aligned line crosses one cell per cell width, each piece a cell long', () => {
    const pieces = cellsAlongLine(GRID, [0, 0.25, 0.45], [0.4, 0.25, 0.45]);
    expect(pieces.map((p) => p.ijk)).toEqual([[0, 1, 1], [1, 1, 1], [2, 1, 1], [3, 1, 1]]);
    pieces.forEach((p, i) => { expect(p.s0).toBeCloseTo(0.1 * i, 12); expect(p.s1).toBeCloseTo(0.1 * (i + 1), 12); });
  });

  it('an oblique line crosses the cells brute-force sampling finds, its pieces adding up to the part inside the box', () => {
    for (const [from, to] of [
      [[0, 0, 0.15], [0.4, 0.6, 0.15]],
      [[0.01, 0.02, 0.03], [0.39, 0.57, 0.59]],
      [[-0.1, 0.3, 0.2], [0.5, 0.1, 0.5]], // starts and ends outside the box
    ] as [Vec3, Vec3][]) {
      const pieces = cellsAlongLine(GRID, from, to);
      expect(pieces.map((p) => p.cell), JSON.stringify([from, to])).toEqual(sampledCells(from, to));
      for (let i = 1; i < pieces.length; i++) expect(pieces[i].s0).toBeCloseTo(pieces[i - 1].s1, 12);
    }
    // the third line enters at x = 0 (1/6 along) and leaves at x = 0.4 (5/6 along): distances count from its start
    const outside = cellsAlongLine(GRID, [-0.1, 0.3, 0.2], [0.5, 0.1, 0.5]);
    const len = Math.hypot(0.6, 0.2, 0.3);
    expect(outside[0].s0).toBeCloseTo(len / 6, 12);
    expect(outside[outside.length - 1].s1).toBeCloseTo((5 * len) / 6, 12);
  });

  it('refuses a line of two equal points and one that misses the box, saying what to give', () => {
    expect(() => cellsAlongLine(GRID, [0.1, 0.1, 0.1], [0.1, 0.1, 0.1])).toThrow(/two points are the same.*point probe/);
    expect(() => cellsAlongLine(GRID, [0.5, 0.1, 0.1], [0.9, 0.1, 0.1])).toThrow(/misses the box \(0 to 0\.4, 0\.6, 0\.6 m along x, y, z\); give points inside it/);
  });
});

describe('line and point probes of stored fields', () => {
  it('takes each crossed cell\'s value and standard error as they are (no interpolation), blank where too few samples or inside a body', () => {
    const f = fieldSet([2]);
    const kind = new Uint8Array(N);
    kind[3] = 2; // cell (3, 0, 0) inside a body
    const p = lineProbe(f, 7, [0, 0.1, 0.15], [0.4, 0.1, 0.15], { cellKind: kind, volumeFraction: null });
    expect(p.runId).toBe(7);
    expect(p.s).toEqual([0.05, 0.15, 0.25, 0.35].map((x) => expect.closeTo(x, 12)));
    expect(p.cells).toEqual([0, 0, 0, 1, 0, 0, 2, 0, 0, 3, 0, 0]);
    // cell 2 has no particle samples: its T is blank but its density (a count) stays; cell 3 is in the body
    expect(p.values.T).toEqual([300, 301, null, null]);
    expect(p.errors.T).toEqual([0, 0.1, null, null]);
    expect(p.values.n).toEqual([1e20, 2e20, 3e20, null]);
    expect(p.bodyCells).toBe(1);
    expect(p.fields.find((x) => x.name === 'T')).toEqual({ name: 'T', label: 'translational temperature', unit: 'K' });
    // a point just left of the face between cells 0 and 1 has cell 0's value, not a blend with cell 1's
    const q = pointProbe(f, 7, [0.0999, 0.1, 0.15]);
    expect(q.cell).toEqual([0, 0, 0]);
    expect(q.centre).toEqual([0.05, 0.1, 0.15].map((x) => expect.closeTo(x, 12)));
    expect(q.rows.find((r) => r.name === 'T')).toMatchObject({ value: 300, error: 0, unit: 'K' });
    expect(q.particleSamples).toBe(200);
  });

  it('puts a point on the box\'s top face in the last cell and refuses one outside, naming the axis', () => {
    const f = fieldSet();
    expect(pointProbe(f, 1, [0.4, 0.6, 0.6]).cell).toEqual([3, 2, 1]);
    expect(pointProbe(f, 1, [0.4, 0.6, 0.6]).rows.find((r) => r.name === 'T')!.value).toBe(300 + N - 1);
    expect(() => pointProbe(f, 1, [0.2, 0.7, 0.1])).toThrow(/outside the box along y: give y from 0 to 0\.6 m/);
  });

  it('writes CSV with a run column, a row per crossed cell and empty cells for blank values', () => {
    const f = fieldSet([2]);
    const a = lineProbe(f, 1, [0, 0.1, 0.15], [0.4, 0.1, 0.15]);
    const b = lineProbe(f, 2, [0, 0.1, 0.15], [0.4, 0.1, 0.15]);
    const lines = lineProbeCsv([a, b]).trimEnd().split('\r\n');
    expect(lines).toHaveLength(1 + 8);
    const header = lines[0].split(',');
    expect(header.slice(0, 3)).toEqual(['run', 'distance (m)', 'x (m)']);
    const tCol = header.indexOf('T (K)');
    expect(header[tCol + 1]).toBe('T standard error (K)');
    const rows = lines.slice(1).map((l) => l.split(','));
    expect(rows.map((r) => r[0])).toEqual(['1', '1', '1', '1', '2', '2', '2', '2']);
    expect(rows.slice(0, 4).map((r) => r[tCol])).toEqual(['300', '301', '', '303']);
    const point = pointProbeCsv([pointProbe(f, 1, [0.05, 0.1, 0.15])]).trimEnd().split('\r\n');
    expect(point[0]).toBe('run,x (m),y (m),z (m),i,j,k,field,label,unit,value,standard error');
    expect(point.find((l) => l.includes(',T,'))).toBe('1,0.05,0.1,0.15,0,0,0,T,translational temperature,K,300,0');
    expect(() => lineProbeCsv([])).toThrow(/probe a line first/);
  });
});

describe('the line probe chart', () => {
  it('draws each cell as a flat step between its faces, with gaps where a value is blank, and one legend entry per run', () => {
    const f = fieldSet([2]);
    const p = lineProbe(f, 3, [0, 0.1, 0.15], [0.4, 0.1, 0.15]);
    const curve = stepCurve(p, (n) => p.values.T![n]);
    expect(curve).toHaveLength(8);
    expect(curve.slice(0, 4)).toEqual([[0, 300], [expect.closeTo(0.1, 12), 300], [expect.closeTo(0.1, 12), 301], [expect.closeTo(0.2, 12), 301]]);
    expect(curve[4][1]).toBeNull();
    expect(probePointCount(p, 'T')).toBe(3);
    const option = lineProbeOption([{ label: 'run 3', probe: p }, { label: 'run 4', probe: { ...p, runId: 4 } }], 'T');
    const names = (option.series as { name: string }[]).map((s) => s.name);
    expect(names).toEqual(['run 3', 'run 3 ± standard error', 'run 3 ± standard error', 'run 4', 'run 4 ± standard error', 'run 4 ± standard error']);
    // the dashed lines lie one standard error above and below: cell 1 has T 301 +- 0.1
    const upper = (option.series as { data: [number, number | null][] }[])[1].data;
    expect(upper[2][1]).toBeCloseTo(301.1, 12);
  });
});

describe('probe points picked on a map', () => {
  it('puts a click on a map normal to y at the plane\'s cell centres, and draws a line as its projection', () => {
    expect(planePointToGrid('y', 2, 0.123456789, 0.4, [0.1, 0.2, 0.3])).toEqual([0.123457, 0.5, 0.4]);
    expect(planePointToGrid('z', 0, 0.1, 0.2, [0.1, 0.2, 0.3])).toEqual([0.1, 0.2, 0.15]);
    expect(lineOnPlane('x', [0.1, 0.2, 0.3], [0.4, 0.5, 0.6])).toEqual([[0.2, 0.3], [0.5, 0.6]]);
  });
});
