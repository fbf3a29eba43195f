// A run's VTK export: the sampled fields as ImageData (.vti, with the body cell marks when the case has
// bodies) and the surfaces as PolyData (.vtp: every body triangle with its sampled pressure, shear, heat
// flux, number flux and coefficients). `dsmc export vtk` and the app's export both write these.
import { parseCase } from '../common/case-schema.js';
import { surfaceResultsOf } from '../common/surface/run-surface-results.js';
import { requireFields, type RunSource } from './run-source.js';
import { fieldsToVti } from './vtk-image-data.js';
import { surfaceToVtp, type CellArray } from './vtk-poly-data.js';

/** The .vti document of a run's fields (cell marks included for a case with bodies). */
export function runFieldsVti(source: RunSource, id: number): string {
  const fields = requireFields(source, id);
  const surface = source.getSurface(id);
  const marks = surface?.cellKind && surface.volumeFraction ? { kind: surface.cellKind, volumeFraction: surface.volumeFraction } : undefined;
  return fieldsToVti(fields, marks);
}

/** The .vtp document of a run's body surfaces, or an error saying why the run has none. */
export function runSurfaceVtp(source: RunSource, id: number): string {
  const surface = source.getSurface(id);
  if (!surface || surface.triangleBody.length === 0) {
    throw new Error(`run ${id} has no body surfaces: ${surface ? 'its case has no bodies' : 'it kept no surface results (recorded before they were kept, or not completed)'}; export the surface of a completed run of a case with bodies`);
  }
  const c = parseCase(source.getCase(id).json);
  const res = surfaceResultsOf(c, surface, surface.sums);
  const nTris = surface.triangleBody.length;
  const part = (a: Float64Array, per: number): Float64Array => a.subarray(0, per * nTris);
  const arrays: CellArray[] = [
    { name: 'pressure', data: part(res.pressure, 1), components: 1 },
    { name: 'shear', data: part(res.shear, 3), components: 3 },
    { name: 'heatFlux', data: part(res.heatFlux, 1), components: 1 },
    { name: 'numberFlux', data: part(res.numberFlux, 1), components: 1 },
  ];
  for (const [name, a] of [['cp', res.cp], ['cf', res.cf], ['ch', res.ch]] as const) {
    if (a) arrays.push({ name, data: part(a, 1), components: 1 });
  }
  const comment = `DSMC surface results of run ${id} over ${surface.sums.sampledTime} s sampled: pressure [Pa], shear [Pa], ` +
    `heatFlux into the wall [W/m^2], numberFlux incident [1/(m^2 s)], cp, cf, ch (free-stream coefficients; cf signed, along the flow's tangential direction); body = index in ${JSON.stringify(surface.bodyNames)}`;
  return surfaceToVtp({ points: surface.triangles, body: surface.triangleBody }, arrays, comment);
}
