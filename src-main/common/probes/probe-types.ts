// What the line and point probes of a run return (the contract's probeLine and probePoint results). Values are the
// cell values (piecewise constant along a line: the value of the cell each piece lies in), null where the cell has
// too few samples for the field, lies inside a body or has no value.
import type { FieldName } from '../field-names.js';

/** A field as a probe lists it: name, label and SI unit. */
export interface ProbeField {
  name: FieldName;
  label: string;
  unit: string;
}

/** The fields of a run along a segment: one entry per cell the segment crosses, in order from `from`. */
export interface LineProbe {
  runId: number;
  /** The segment's ends as asked, m. */
  from: [number, number, number];
  to: [number, number, number];
  /** |to - from|, m (distances below count from `from`). */
  length: number;
  fields: ProbeField[];
  /** Where the line enters and leaves each cell, and the middle of that piece (the point plotted), m along the line. */
  s0: number[];
  s1: number[];
  s: number[];
  /** The middle of each piece in the grid (3 numbers each), m. */
  points: number[];
  /** Cell indices (i, j, k: 3 numbers each) of each piece. */
  cells: number[];
  /** Per field name: the cell value of each piece, and its standard error (batch means; null where unknown). */
  values: Partial<Record<FieldName, (number | null)[]>>;
  errors: Partial<Record<FieldName, (number | null)[]>>;
  /** Pieces in a cell inside a body (or a cut cell under 1 % gas): no value for any field. */
  bodyCells: number;
}

/** Every field of a run at one point: the values of the cell holding it. */
export interface PointProbe {
  runId: number;
  /** The point as asked, m. */
  at: [number, number, number];
  /** The cell holding it (a point on a face between cells: the upper one) and that cell's centre, m. */
  cell: [number, number, number];
  centre: [number, number, number];
  /** True when the cell is inside a body (or a cut cell under 1 % gas): no values. */
  insideBody: boolean;
  /** Particle samples behind the cell's values (particles per sampling pass x passes). */
  particleSamples: number;
  rows: (ProbeField & { value: number | null; error: number | null })[];
}
