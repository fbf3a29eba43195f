// A run with a body for the report-figure tests (no GPU, no database): a quasi-2D 10 x 6 x 1 grid with a box
// body, its meshed triangles, cell marks (cells whose centre lies in the box inside it), synthetic surface sums
// and fields, behind a fake RunSource.
import { domainLengths, parseCase } from '../../src-main/common/case-schema.js';
import { tessellateShape } from '../../src-main/common/geometry/index.js';
import type { CaseRecord, FieldSet, RunSurface } from '../../src-main/common/run-record.js';
import { emptySurfaceSums, SURFACE_Q } from '../../src-main/common/surface-layout.js';
import type { RunSource } from '../../src-main/reports/run-source.js';
import { sampleCase, samplePhases, sampleRun, sampleSteps, sampleTotals, syntheticFields } from './fixtures.js';

/** Cells and cell size of the body run. */
export const BODY_CELLS: [number, number, number] = [10, 6, 1];
const CELL = 1e-3;
/** The box body: cells 4-5 along x and 2-3 along y. */
export const BOX = { min: [0.004, 0.002, 0], max: [0.006, 0.004, 0.001] };

/** The case of the body run: argon at 1000 m/s along x through an inflow face, a diffuse box in the middle. */
export function bodyCase(): CaseRecord {
  const base = sampleCase({ name: 'block' });
  const json = {
    ...(base.json as Record<string, unknown>),
    grid: { cells: BODY_CELLS, cellSize: [CELL, CELL, CELL] },
    initial: { kind: 'maxwellian', numberDensity: 1e20, temperature: 300, velocity: [1000, 0, 0] },
    boundaries: {
      xmin: { type: 'inflow', numberDensity: 1e20, temperature: 300, velocity: [1000, 0, 0] }, xmax: { type: 'outflow' },
      ymin: { type: 'specular' }, ymax: { type: 'specular' }, zmin: { type: 'periodic' }, zmax: { type: 'periodic' },
    },
    bodies: [{ name: 'block', shape: { type: 'box', min: BOX.min, max: BOX.max }, surface: { model: 'diffuse', temperature: 300 } }],
  };
  return { ...base, json };
}

/** The run's surfaces: the box's triangles, synthetic sums (more momentum onto triangles further along), cell marks. */
export function bodySurface(): RunSurface {
  const c = parseCase(bodyCase().json);
  const triangles = tessellateShape(c.bodies[0].shape, domainLengths(c));
  const nTris = triangles.length / 9;
  const sums = emptySurfaceSums(nTris + 6);
  sums.sampledTime = 1e-4;
  for (let t = 0; t < nTris; t++) {
    const v = sums.values.subarray(t * SURFACE_Q, (t + 1) * SURFACE_Q);
    v[0] = 1000 + 10 * t; // nIn
    v[1] = 6.63e-26 * 1000 * (1000 + 10 * t); // pxIn
    v[4] = 0.5 * 6.63e-26 * 1e6 * (1000 + 10 * t); // eIn
    v[5] = v[0]; // nOut
    v[9] = 0.5 * 6.63e-26 * 2e5 * v[0]; // eOut
  }
  const cellKind = new Uint8Array(BODY_CELLS[0] * BODY_CELLS[1]);
  const volumeFraction = new Float64Array(cellKind.length).fill(1);
  for (let j = 0; j < BODY_CELLS[1]; j++) {
    for (let i = 0; i < BODY_CELLS[0]; i++) {
      const [x, y] = [(i + 0.5) * CELL, (j + 0.5) * CELL];
      if (x > BOX.min[0] && x < BOX.max[0] && y > BOX.min[1] && y < BOX.max[1]) { cellKind[i + BODY_CELLS[0] * j] = 2; volumeFraction[i + BODY_CELLS[0] * j] = 0; }
    }
  }
  return { sums, triangles, triangleBody: new Int32Array(nTris), bodyNames: ['block'], cellKind, volumeFraction };
}

/** The run's fields: synthetic values on the 10 x 6 x 1 grid with 1 mm cells. */
export function bodyFields(): FieldSet {
  return { ...syntheticFields(BODY_CELLS, 3), cellSize: [CELL, CELL, CELL] };
}

/** A RunSource over the body run (run 42); `withSurface: false` gives a run without kept surfaces or bodies. */
export function bodySource(opts: { withSurface?: boolean; withFields?: boolean } = {}): RunSource {
  const withSurface = opts.withSurface ?? true;
  const summary = { ...sampleRun().summary!, surface: undefined };
  return {
    getRun: () => sampleRun({ summary }),
    getCase: () => (withSurface ? bodyCase() : { ...bodyCase(), json: { ...(bodyCase().json as object), bodies: [] } }),
    getPhases: samplePhases, getSteps: sampleSteps, getTotals: sampleTotals,
    getFields: () => (opts.withFields === false ? null : bodyFields()),
    getSurface: () => (withSurface ? bodySurface() : null),
  };
}
