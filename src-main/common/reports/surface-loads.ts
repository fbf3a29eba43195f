// Surface results of a run as the reports show them: the summary's per-body loads and per-face mean loads
// with every non-finite value as null (a stored summary has been through JSON, where NaN became null), the
// boundary type of each domain face, and the tables of quantities (label, unit, CSV column) that the HTML,
// CSV, terminal and renderer tables iterate, so each shows the same rows with the same units.
import type { SurfaceSummary } from '../run-summary.js';

type Vec3 = [number | null, number | null, number | null];

/** One body's integrated loads over the sampled time (null: unknown, e.g. no free stream for drag or Cd). */
export interface BodyLoads {
  name: string;
  triangles: number | null;
  /** Wetted area and the coefficients' reference area, m^2. */
  area: number | null;
  referenceArea: number | null;
  /** Force on the body [Fx, Fy, Fz], N; moment about momentCenter, N m. */
  force: Vec3;
  moment: Vec3;
  momentCenter: Vec3;
  /** Components of the force along the drag, lift and side directions of the free stream, N. */
  drag: number | null;
  lift: number | null;
  side: number | null;
  cd: number | null;
  cl: number | null;
  cs: number | null;
  /** Heat transfer rate into the body, W; incident real molecules per second, 1/s. */
  heatTransfer: number | null;
  incidentRate: number | null;
}

/** One domain face's mean loads, with its boundary type; `wall` is false for periodic and open faces. */
export interface FaceLoads {
  face: string;
  boundary: string | null;
  wall: boolean;
  pressure: number | null;
  shear: Vec3;
  shearMagnitude: number | null;
  heatFlux: number | null;
  numberFlux: number | null;
}

/** The surface section of a report. */
export interface SurfaceLoads {
  /** Simulated time the loads are averaged over, s. */
  sampledTime: number | null;
  /** The free stream the coefficients refer to (null without gas); speed = |velocity|, m/s. */
  freeStream: { numberDensity: number | null; temperature: number | null; velocity: Vec3; speed: number | null } | null;
  bodies: BodyLoads[];
  /** All six domain faces, xmin..zmax. */
  faces: FaceLoads[];
}

/** A quantity of a table: stable key, label, unit ('' for coefficients and counts), CSV column, value. */
export interface LoadQuantity<T> {
  key: string;
  label: string;
  unit: string;
  csv: string;
  value: (x: T) => number | null;
}

/** Per-body quantities, in the order the reports list them. */
export const BODY_QUANTITIES: LoadQuantity<BodyLoads>[] = [
  { key: 'forceX', label: 'force x', unit: 'N', csv: 'force_x_N', value: (b) => b.force[0] },
  { key: 'forceY', label: 'force y', unit: 'N', csv: 'force_y_N', value: (b) => b.force[1] },
  { key: 'forceZ', label: 'force z', unit: 'N', csv: 'force_z_N', value: (b) => b.force[2] },
  { key: 'drag', label: 'drag', unit: 'N', csv: 'drag_N', value: (b) => b.drag },
  { key: 'lift', label: 'lift', unit: 'N', csv: 'lift_N', value: (b) => b.lift },
  { key: 'side', label: 'side force', unit: 'N', csv: 'side_N', value: (b) => b.side },
  { key: 'cd', label: 'Cd', unit: '', csv: 'cd', value: (b) => b.cd },
  { key: 'cl', label: 'Cl', unit: '', csv: 'cl', value: (b) => b.cl },
  { key: 'cs', label: 'Cs', unit: '', csv: 'cs', value: (b) => b.cs },
  { key: 'momentX', label: 'moment x', unit: 'N m', csv: 'moment_x_N_m', value: (b) => b.moment[0] },
  { key: 'momentY', label: 'moment y', unit: 'N m', csv: 'moment_y_N_m', value: (b) => b.moment[1] },
  { key: 'momentZ', label: 'moment z', unit: 'N m', csv: 'moment_z_N_m', value: (b) => b.moment[2] },
  { key: 'heatTransfer', label: 'heat transfer', unit: 'W', csv: 'heat_transfer_W', value: (b) => b.heatTransfer },
  { key: 'incidentRate', label: 'incident rate', unit: '1/s', csv: 'incident_rate_per_s', value: (b) => b.incidentRate },
  { key: 'referenceArea', label: 'reference area', unit: 'm^2', csv: 'reference_area_m2', value: (b) => b.referenceArea },
  { key: 'area', label: 'wetted area', unit: 'm^2', csv: 'wetted_area_m2', value: (b) => b.area },
  { key: 'triangles', label: 'triangles', unit: '', csv: 'triangles', value: (b) => b.triangles },
];

/** Per-face quantities, in the order the reports list them. */
export const FACE_QUANTITIES: LoadQuantity<FaceLoads>[] = [
  { key: 'pressure', label: 'pressure', unit: 'Pa', csv: 'pressure_Pa', value: (f) => f.pressure },
  { key: 'shearX', label: 'shear x', unit: 'Pa', csv: 'shear_x_Pa', value: (f) => f.shear[0] },
  { key: 'shearY', label: 'shear y', unit: 'Pa', csv: 'shear_y_Pa', value: (f) => f.shear[1] },
  { key: 'shearZ', label: 'shear z', unit: 'Pa', csv: 'shear_z_Pa', value: (f) => f.shear[2] },
  { key: 'shearMagnitude', label: '|shear|', unit: 'Pa', csv: 'shear_magnitude_Pa', value: (f) => f.shearMagnitude },
  { key: 'heatFlux', label: 'heat flux', unit: 'W/m^2', csv: 'heat_flux_W_m2', value: (f) => f.heatFlux },
  { key: 'numberFlux', label: 'number flux', unit: '1/(m^2 s)', csv: 'number_flux_per_m2_s', value: (f) => f.numberFlux },
];

/** The body quantities a comparison of runs puts side by side. */
export const COMPARED_BODY_KEYS = ['cd', 'cl', 'drag', 'lift', 'heatTransfer'] as const;
export type ComparedBodyKey = (typeof COMPARED_BODY_KEYS)[number];

/** Boundary types whose faces are not walls (their sums are not wall loads). */
const OPEN_BOUNDARIES = new Set(['periodic', 'inflow', 'outflow']);

/** A finite number, or null for NaN, infinities, null, undefined and non-numbers. */
export function finiteOrNull(x: unknown): number | null {
  return typeof x === 'number' && Number.isFinite(x) ? x : null;
}

/** Three components, each finite or null (a missing array gives three nulls). */
function vec3(v: unknown): Vec3 {
  const a = Array.isArray(v) ? v : [];
  return [finiteOrNull(a[0]), finiteOrNull(a[1]), finiteOrNull(a[2])];
}

/** |v|, or null when a component is unknown. */
function magnitude(v: Vec3): number | null {
  return v[0] === null || v[1] === null || v[2] === null ? null : Math.hypot(v[0], v[1], v[2]);
}

/** The boundary type of a face in a case JSON, or null when the JSON does not say. */
export function boundaryTypeOf(caseJson: unknown, face: string): string | null {
  const b = (caseJson as { boundaries?: Record<string, { type?: unknown } | undefined> } | null)?.boundaries?.[face];
  return typeof b?.type === 'string' ? b.type : null;
}

/** The report's surface section from a run summary's (null when the run has none: runs recorded before surfaces). */
export function surfaceLoadsOf(s: SurfaceSummary | undefined | null, caseJson: unknown): SurfaceLoads | null {
  if (!s) return null;
  const fs = s.freeStream;
  const velocity = fs ? vec3(fs.velocity) : null;
  return {
    sampledTime: finiteOrNull(s.sampledTime),
    freeStream: fs && velocity
      ? { numberDensity: finiteOrNull(fs.numberDensity), temperature: finiteOrNull(fs.temperature), velocity, speed: magnitude(velocity) }
      : null,
    bodies: (s.bodies ?? []).map((b) => ({
      name: String(b.name),
      triangles: finiteOrNull(b.triangles),
      area: finiteOrNull(b.area),
      referenceArea: finiteOrNull(b.referenceArea),
      force: vec3(b.force),
      moment: vec3(b.moment),
      momentCenter: vec3(b.momentCenter),
      drag: finiteOrNull(b.drag),
      lift: finiteOrNull(b.lift),
      side: finiteOrNull(b.side),
      cd: finiteOrNull(b.cd),
      cl: finiteOrNull(b.cl),
      cs: finiteOrNull(b.cs),
      heatTransfer: finiteOrNull(b.heatTransfer),
      incidentRate: finiteOrNull(b.incidentRate),
    })),
    faces: (s.faces ?? []).map((f) => {
      const boundary = boundaryTypeOf(caseJson, f.face);
      const shear = vec3(f.shear);
      return {
        face: String(f.face), boundary, wall: boundary === null || !OPEN_BOUNDARIES.has(boundary),
        pressure: finiteOrNull(f.pressure), shear, shearMagnitude: magnitude(shear),
        heatFlux: finiteOrNull(f.heatFlux), numberFlux: finiteOrNull(f.numberFlux),
      };
    }),
  };
}

/** A label with its unit in parentheses (none for coefficients and counts). */
export function withUnit(q: { label: string; unit: string }): string {
  return q.unit ? `${q.label} (${q.unit})` : q.label;
}

/** Unique labels of body names in order: a repeated name gets " (2)", " (3)"... (names should be unique). */
export function bodyLabels(names: string[]): string[] {
  const seen = new Map<string, number>();
  return names.map((n) => {
    const k = (seen.get(n) ?? 0) + 1;
    seen.set(n, k);
    return k === 1 ? n : `${n} (${k})`;
  });
}
