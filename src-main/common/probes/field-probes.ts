// Line and point probes of a run's stored fields. Interpolation rule: none. Each point takes the value of the cell
// it lies in (ParaView's rule for cell data), so a line probe is piecewise constant with one piece per cell crossed.
// A DSMC cell value is an average over the cell's volume with its own batch-means standard error; interpolating
// between cell centres would blend cells with too few samples, cut cells at a body and the two sides of a shock
// thinner than a cell, and the error of a blend would need the cells' covariances, which are not kept.
import { CELL_CUT, CELL_INSIDE } from '../geometry/index.js';
import { MIN_GAS_FRACTION } from '../charts/slice-bodies.js';
import { isMasked } from '../field-mask.js';
import { fieldInfo, fieldNamesOf, type FieldName } from '../field-names.js';
import type { FieldSet } from '../run-record.js';
import { cellAt, cellsAlongLine, outsideBox, type Vec3 } from './line-cells.js';
import type { LineProbe, PointProbe, ProbeField } from './probe-types.js';

/** The cells of a run's bodies: per cell 0 gas, 1 cut, 2 inside, and the gas volume fraction (null: unknown). */
export interface ProbeBodies {
  cellKind: Uint8Array;
  volumeFraction: Float64Array | null;
}

/** True when the cell is inside a body or a cut cell with under MIN_GAS_FRACTION gas (left blank, as on the maps). */
function inBody(bodies: ProbeBodies | null, cell: number): boolean {
  if (!bodies) return false;
  const k = bodies.cellKind[cell];
  return k === CELL_INSIDE || (k === CELL_CUT && bodies.volumeFraction !== null && bodies.volumeFraction[cell] < MIN_GAS_FRACTION);
}

/** The value and standard error of a field in a cell: null for a body cell, a masked cell (too few samples) or a non-finite value. */
function cellValue(f: FieldSet, field: FieldName, cell: number, body: boolean): { value: number | null; error: number | null } {
  const v = f.values[field]![cell];
  if (body || !Number.isFinite(v) || isMasked(field, v, f.values.particlesPerSample[cell] * f.samples)) return { value: null, error: null };
  const e = f.errors[field]?.[cell];
  return { value: v, error: e !== undefined && Number.isFinite(e) ? e : null };
}

/** The fields of a set with label and unit, in field order. */
function probeFields(f: FieldSet): ProbeField[] {
  return fieldNamesOf(f.values).map((name) => ({ name, label: fieldInfo(name).label, unit: fieldInfo(name).unit }));
}

/** Every field of run `runId` along the segment from -> to (m): the value and error of each cell it crosses. */
export function lineProbe(f: FieldSet, runId: number, from: Vec3, to: Vec3, bodies: ProbeBodies | null = null): LineProbe {
  const pieces = cellsAlongLine(f, from, to);
  const length = Math.hypot(to[0] - from[0], to[1] - from[1], to[2] - from[2]);
  const fields = probeFields(f);
  const values: LineProbe['values'] = {};
  const errors: LineProbe['errors'] = {};
  for (const { name } of fields) { values[name] = []; errors[name] = []; }
  const out = { s0: [] as number[], s1: [] as number[], s: [] as number[], points: [] as number[], cells: [] as number[] };
  let bodyCells = 0;
  for (const p of pieces) {
    const s = (p.s0 + p.s1) / 2;
    out.s0.push(p.s0); out.s1.push(p.s1); out.s.push(s);
    out.points.push(...[0, 1, 2].map((a) => from[a] + ((to[a] - from[a]) * s) / length));
    out.cells.push(...p.ijk);
    const body = inBody(bodies, p.cell);
    if (body) bodyCells++;
    for (const { name } of fields) {
      const c = cellValue(f, name, p.cell, body);
      values[name]!.push(c.value);
      errors[name]!.push(c.error);
    }
  }
  return { runId, from, to, length, fields, ...out, values, errors, bodyCells };
}

/** Every field of run `runId` at the point `at` (m): the values and errors of the cell holding it. Throws naming the axis when outside the box. */
export function pointProbe(f: FieldSet, runId: number, at: Vec3, bodies: ProbeBodies | null = null): PointProbe {
  const outside = outsideBox(f, at, 'point probe: the point');
  if (outside) throw new Error(outside);
  const { ijk, cell } = cellAt(f, at);
  const body = inBody(bodies, cell);
  return {
    runId, at, cell: ijk, centre: ijk.map((i, a) => (i + 0.5) * f.cellSize[a]) as Vec3, insideBody: body,
    particleSamples: f.values.particlesPerSample[cell] * f.samples,
    rows: probeFields(f).map((fd) => ({ ...fd, ...cellValue(f, fd.name, cell, body) })),
  };
}
