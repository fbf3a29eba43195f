// The surface part of a run summary: the surface sums of the run turned into loads per body (force,
// moment, drag/lift/side and their coefficients, heat transfer) and mean loads per domain face, with the
// element geometry both need. Also the per-triangle results for exports (VTK PolyData, charts).
import { FACES, referenceState, type Case } from '../common/case-schema.js';
import { domainLengths } from '../common/case-helpers.js';
import { meshCentroid, projectedArea, triangleAreas, triangleCentroids, triangleNormals } from '../common/geometry/index.js';
import type { SurfaceSummary } from '../common/run-summary.js';
import type { SurfaceSums } from '../common/surface-layout.js';
import {
  computeBodyForces, computeSurfaceResults, type FreeStream, type SurfaceElementGeometry, type SurfaceResults,
} from '../common/surface/surface-results.js';
import { moleFractions } from '../common/case-helpers.js';
import type { SolverTables } from './tables.js';

/** Area, normal into the gas, centroid and body of every surface element (triangles, then the six faces). */
export function surfaceGeometry(c: Case, t: SolverTables): SurfaceElementGeometry {
  const b = t.bodies;
  const ne = b.elements;
  const area = new Float64Array(ne);
  const normal = new Float64Array(3 * ne);
  const centroid = new Float64Array(3 * ne);
  const body = new Int32Array(ne).fill(-1);
  area.set(triangleAreas(b.tris));
  normal.set(triangleNormals(b.tris));
  centroid.set(triangleCentroids(b.tris));
  body.set(b.triBody);
  const len = domainLengths(c);
  FACES.forEach((_, f) => {
    const e = b.nTris + f;
    const a = Math.floor(f / 2);
    const [t1, t2] = a === 0 ? [1, 2] : a === 1 ? [0, 2] : [0, 1];
    area[e] = len[t1] * len[t2];
    // the wall's normal into the gas points into the box
    normal[3 * e + a] = f % 2 === 0 ? 1 : -1;
    centroid[3 * e + a] = f % 2 === 0 ? 0 : len[a];
    centroid[3 * e + t1] = len[t1] / 2;
    centroid[3 * e + t2] = len[t2] / 2;
  });
  return { area, normal, centroid, body };
}

/** The free stream the coefficients refer to: the case's reference state when it moves, else null. */
export function freeStreamOf(c: Case): FreeStream | null {
  const r = referenceState(c);
  if (!(r.numberDensity > 0)) return null;
  const x = moleFractions(c, r.fractions);
  const mass = c.species.reduce((m, s, k) => m + x[k] * s.mass, 0);
  return { density: r.numberDensity * mass, numberDensity: r.numberDensity, temperature: r.temperature, velocity: r.velocity };
}

/** Per-element results of a run's surface sums. */
export function surfaceResults(c: Case, t: SolverTables, sums: SurfaceSums): SurfaceResults {
  return computeSurfaceResults(sums, surfaceGeometry(c, t), t.fnum, freeStreamOf(c));
}

/** The summary's surface section: loads per body and per domain face. */
export function surfaceSummary(c: Case, t: SolverTables, sums: SurfaceSums): SurfaceSummary {
  const geom = surfaceGeometry(c, t);
  const fs = freeStreamOf(c);
  const res = computeSurfaceResults(sums, geom, t.fnum, fs);
  const speed = fs ? Math.hypot(...fs.velocity) : 0;
  const triCounts = c.bodies.map((_, i) => t.bodies.triBody.filter((x) => x === i).length);
  let first = 0;
  const refs = c.bodies.map((body, i) => {
    const tris = t.bodies.tris.subarray(9 * first, 9 * (first + triCounts[i]));
    first += triCounts[i];
    const referenceArea = body.referenceArea ?? (speed > 0 ? projectedArea(tris, fs!.velocity) : 0);
    return { name: body.name, referenceArea, momentCenter: body.momentCenter ?? meshCentroid(tris), area: triangleAreas(tris).reduce((a, x) => a + x, 0) };
  });
  const loads = computeBodyForces(res, geom, refs, fs);
  return {
    sampledTime: sums.sampledTime,
    freeStream: fs ? { numberDensity: fs.numberDensity, temperature: fs.temperature, velocity: fs.velocity } : null,
    bodies: loads.map((l, i) => ({
      ...l, triangles: triCounts[i], area: refs[i].area, referenceArea: refs[i].referenceArea, momentCenter: refs[i].momentCenter,
    })),
    faces: FACES.map((face, f) => {
      const e = t.bodies.nTris + f;
      return {
        face, pressure: res.pressure[e], shear: [res.shear[3 * e], res.shear[3 * e + 1], res.shear[3 * e + 2]] as [number, number, number],
        heatFlux: res.heatFlux[e], numberFlux: res.numberFlux[e],
      };
    }),
  };
}
