// Surface results of a case from its surface sums and its bodies' triangles (as a run meshed them): the
// element geometry (triangles, then the six domain faces), the free stream, per-element results and the
// summary's loads per body and per face. Shared by the solver (summary), the reports (VTK PolyData, profile)
// and the renderer (surface chart), so each reads the same numbers from a stored run.
import { FACES, domainLengths, moleFractions, referenceState, resolvedFnum } from '../case-helpers.js';
import type { Case } from '../case-schema.js';
import { meshCentroid, projectedArea, triangleAreas, triangleCentroids, triangleNormals } from '../geometry/index.js';
import type { SurfaceSummary } from '../run-summary.js';
import type { SurfaceSums } from '../surface-layout.js';
import {
  computeBodyForces, computeSurfaceResults, type FreeStream, type SurfaceElementGeometry, type SurfaceResults,
} from './surface-results.js';

/** The bodies' triangles (9 numbers each) and the body of each. */
export interface BodyMesh {
  triangles: Float64Array;
  triangleBody: Int32Array;
}

/** Area, normal into the gas, centroid and body of every surface element (triangles, then the six faces). */
export function surfaceGeometry(c: Case, mesh: BodyMesh): SurfaceElementGeometry {
  const nTris = mesh.triangleBody.length;
  const ne = nTris + FACES.length;
  const area = new Float64Array(ne);
  const normal = new Float64Array(3 * ne);
  const centroid = new Float64Array(3 * ne);
  const body = new Int32Array(ne).fill(-1);
  area.set(triangleAreas(mesh.triangles));
  normal.set(triangleNormals(mesh.triangles));
  centroid.set(triangleCentroids(mesh.triangles));
  body.set(mesh.triangleBody);
  const len = domainLengths(c);
  FACES.forEach((_, f) => {
    const e = nTris + f;
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

/** The free stream the coefficients refer to: the case's reference state (null without gas). */
export function freeStreamOf(c: Case): FreeStream | null {
  const r = referenceState(c);
  if (!(r.numberDensity > 0)) return null;
  const x = moleFractions(c, r.fractions);
  const mass = c.species.reduce((m, s, k) => m + x[k] * s.mass, 0);
  return { density: r.numberDensity * mass, numberDensity: r.numberDensity, temperature: r.temperature, velocity: r.velocity };
}

/** Per-element results of a case's surface sums. */
export function surfaceResultsOf(c: Case, mesh: BodyMesh, sums: SurfaceSums): SurfaceResults {
  return computeSurfaceResults(sums, surfaceGeometry(c, mesh), resolvedFnum(c), freeStreamOf(c));
}

/** The summary's surface section: loads per body (reference area and moment center defaulted) and per domain face. */
export function surfaceSummaryOf(c: Case, mesh: BodyMesh, sums: SurfaceSums): SurfaceSummary {
  const geom = surfaceGeometry(c, mesh);
  const fs = freeStreamOf(c);
  const res = computeSurfaceResults(sums, geom, resolvedFnum(c), fs);
  const speed = fs ? Math.hypot(...fs.velocity) : 0;
  const triCounts = c.bodies.map((_, i) => mesh.triangleBody.filter((x) => x === i).length);
  let first = 0;
  const refs = c.bodies.map((body, i) => {
    const tris = mesh.triangles.subarray(9 * first, 9 * (first + triCounts[i]));
    first += triCounts[i];
    const referenceArea = body.referenceArea ?? (speed > 0 ? projectedArea(tris, fs!.velocity) : 0);
    const area = triangleAreas(tris).reduce((a, x) => a + x, 0);
    return { name: body.name, referenceArea, momentCenter: body.momentCenter ?? meshCentroid(tris), area };
  });
  const loads = computeBodyForces(res, geom, refs, fs);
  const nTris = mesh.triangleBody.length;
  return {
    sampledTime: sums.sampledTime,
    freeStream: fs ? { numberDensity: fs.numberDensity, temperature: fs.temperature, velocity: fs.velocity } : null,
    bodies: loads.map((l, i) => ({
      ...l, triangles: triCounts[i], area: refs[i].area, referenceArea: refs[i].referenceArea, momentCenter: refs[i].momentCenter,
    })),
    faces: FACES.map((face, f) => {
      const e = nTris + f;
      return {
        face, pressure: res.pressure[e], shear: [res.shear[3 * e], res.shear[3 * e + 1], res.shear[3 * e + 2]] as [number, number, number],
        heatFlux: res.heatFlux[e], numberFlux: res.numberFlux[e],
      };
    }),
  };
}
