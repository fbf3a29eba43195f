// Surface results from the sampled surface sums (../surface-layout.ts): per element (each body triangle,
// then the six domain faces) the incident number flux, pressure, shear stress and heat flux, their
// free-stream coefficients, and per body the force, moment, drag/lift/side and their coefficients.
//
// Sign conventions. The sums hold, over simulated particles, the momentum m v of the molecules arriving
// (In) and leaving (Out) an element. The force ON the surface is what the gas loses:
//   F = Fnum (sum m v_in - sum m v_out) / t            (N)
// The element normal n points from the surface into the gas, so a gas pushing on the surface gives
// F . n < 0 and the pressure is p = -(F . n) / A > 0. The shear stress is the tangential part of F / A.
// The heat flux is the energy the gas brings minus what it takes away, counted positive INTO the surface:
//   q = Fnum (sum e_in - sum e_out) / (A t)           (W/m^2)
// The skin-friction coefficient is SIGNED: the shear's component along the flow's tangential direction,
//   Cf = (tau . t) / q_inf,   t = unit(U - (U . n) n)
// (positive where the gas drags the surface downstream, negative under reversed flow). A magnitude |tau| / q
// would be biased upwards on small elements: the noise of each element's shear adds to |tau| and never averages
// out over many elements. Where the stream is along the normal (|U - (U . n) n| <= TANGENT_EPS |U|: the
// stagnation point of a sphere, a face looking straight into the stream) t is undefined; there t is the lift
// direction of windAxes (+y made normal to U, +z for a stream along y), which then lies in the element's plane,
// so Cf is still a signed, unbiased component (e.g. on the front face of a block in a stream along x, the shear
// along +y). |tau| stays available as shearMagnitude.
import { BOLTZMANN } from '../physics.js';
import { SURFACE_Q, type SurfaceSums } from '../surface-layout.js';

/** Geometry of the surface elements, in the order of the sums (body triangles, then xmin..zmax). */
export interface SurfaceElementGeometry {
  /** Area of each element, m^2. */
  area: Float64Array;
  /** Unit normal of each element (3 per element), pointing from the surface into the gas. */
  normal: Float64Array;
  /** Centroid of each element (3 per element), m. */
  centroid: Float64Array;
  /** Body index of each element; -1 for the domain faces. */
  body: Int32Array;
}

/** The free stream the coefficients are normalised by. */
export interface FreeStream {
  /** Mass density, kg/m^3. */
  density: number;
  /** Number density, 1/m^3. */
  numberDensity: number;
  /** Temperature, K. */
  temperature: number;
  /** Velocity [ux, uy, uz], m/s. */
  velocity: [number, number, number];
}

/**
 * Per-element surface results. Per-area values are NaN for every element when the sums cover no time
 * (sampledTime = 0) and for elements of zero area; an element without hits has 0 flux, pressure, shear
 * and heat flux. Coefficients are null without a free stream or when its speed is 0.
 */
export interface SurfaceResults {
  elements: number;
  /** Incident number flux of real molecules, 1/(m^2 s). */
  numberFlux: Float64Array;
  /** Pressure on the surface, Pa (normal force per area, positive pushing into the surface). */
  pressure: Float64Array;
  /** Shear stress (3 per element), Pa: tangential part of the force on the surface per area. */
  shear: Float64Array;
  /** |shear|, Pa. */
  shearMagnitude: Float64Array;
  /** Heat flux into the surface, W/m^2. */
  heatFlux: Float64Array;
  /** Force on each element (3 per element), N. */
  force: Float64Array;
  /** Heat transfer rate into each element, W. */
  heatRate: Float64Array;
  /** Incident real molecules per second on each element, 1/s. */
  incidentRate: Float64Array;
  /** Pressure coefficient (p - p_inf) / q_inf with q_inf = rho |U|^2 / 2 and p_inf = n k T. */
  cp: Float64Array | null;
  /**
   * Skin-friction coefficient, signed: (tau . t) / q_inf with t the unit tangential part of the free-stream
   * direction on the element (the lift direction where the stream is along the normal; see the header).
   */
  cf: Float64Array | null;
  /** Heat-transfer coefficient q / (rho |U|^3 / 2). */
  ch: Float64Array | null;
}

/** What computeBodyForces needs to know about one body (defaults already resolved by the caller). */
export interface BodyReference {
  name: string;
  /** Reference area of the coefficients, m^2 (coefficients are null unless > 0). */
  referenceArea: number;
  /** Point the moment is taken about, m. */
  momentCenter: [number, number, number];
}

/** Integrated loads on one body. */
export interface BodyForces {
  name: string;
  /** Total force on the body [Fx, Fy, Fz], N. */
  force: [number, number, number];
  /** Moment about momentCenter [Mx, My, Mz], N m. */
  moment: [number, number, number];
  /** Force along the free-stream direction, N (NaN without a free stream or when its speed is 0). */
  drag: number;
  /** Force along the lift direction, N (NaN without a flow direction). */
  lift: number;
  /** Force along drag direction x lift direction, N (NaN without a flow direction). */
  side: number;
  /** drag / (q_inf referenceArea); null without a free stream, at zero speed or without a reference area. */
  cd: number | null;
  cl: number | null;
  cs: number | null;
  /** Heat transfer rate into the body, W. */
  heatTransfer: number;
  /** Incident real molecules per second, 1/s. */
  incidentRate: number;
}

/** Checks that the geometry arrays hold `elements` elements; throws naming the bad array. */
function checkGeometry(geom: SurfaceElementGeometry, elements: number): void {
  const want: [keyof SurfaceElementGeometry, number][] = [['area', 1], ['normal', 3], ['centroid', 3], ['body', 1]];
  for (const [key, per] of want) {
    if (geom[key].length !== per * elements) {
      throw new Error(`surface geometry: ${key} has ${geom[key].length} values, expected ${per * elements} (${per} per element for ${elements} elements); the surface mesh and the sums do not match`);
    }
  }
}

/** Free-stream speed |U|, or 0 without a free stream. */
function streamSpeed(fs: FreeStream | null): number {
  return fs ? Math.hypot(fs.velocity[0], fs.velocity[1], fs.velocity[2]) : 0;
}

/** Below this fraction of |U| the stream's tangential part on an element counts as none (see the header). */
export const TANGENT_EPS = 1e-6;

/**
 * Unit tangential flow direction of each element (3 per element): U - (U . n) n normalised, or the lift
 * direction of windAxes(U) made tangent where that part is below TANGENT_EPS |U|. Null when |U| = 0.
 */
export function flowTangents(normal: Float64Array, velocity: readonly [number, number, number]): Float64Array | null {
  const axes = windAxes(velocity);
  if (!axes) return null;
  const ne = normal.length / 3;
  const out = new Float64Array(3 * ne);
  const d = axes.drag, l = axes.lift;
  for (let e = 0; e < ne; e++) {
    const nx = normal[3 * e], ny = normal[3 * e + 1], nz = normal[3 * e + 2];
    const dn = d[0] * nx + d[1] * ny + d[2] * nz;
    let tx = d[0] - dn * nx, ty = d[1] - dn * ny, tz = d[2] - dn * nz;
    let len = Math.hypot(tx, ty, tz);
    if (!(len > TANGENT_EPS)) {
      // the stream is along the normal: the lift direction, made tangent (it is normal to U, so nearly so already)
      const ln = l[0] * nx + l[1] * ny + l[2] * nz;
      tx = l[0] - ln * nx; ty = l[1] - ln * ny; tz = l[2] - ln * nz;
      len = Math.hypot(tx, ty, tz);
    }
    // len is 0 only for an element without a unit normal (zero area): its Cf is then 0 * NaN = NaN anyway
    const inv = len > 0 ? 1 / len : 0;
    out[3 * e] = tx * inv;
    out[3 * e + 1] = ty * inv;
    out[3 * e + 2] = tz * inv;
  }
  return out;
}

/** Per-element fluxes, stresses and coefficients of a set of surface sums (see the header for signs). */
export function computeSurfaceResults(
  sums: SurfaceSums,
  geom: SurfaceElementGeometry,
  fnum: number,
  freeStream: FreeStream | null,
): SurfaceResults {
  const ne = sums.elements;
  if (sums.values.length !== ne * SURFACE_Q) {
    throw new Error(`surface sums: ${sums.values.length} values for ${ne} elements, expected ${ne * SURFACE_Q}; the sums are damaged`);
  }
  checkGeometry(geom, ne);
  const numberFlux = new Float64Array(ne);
  const pressure = new Float64Array(ne);
  const shear = new Float64Array(3 * ne);
  const shearMagnitude = new Float64Array(ne);
  const heatFlux = new Float64Array(ne);
  const force = new Float64Array(3 * ne);
  const heatRate = new Float64Array(ne);
  const incidentRate = new Float64Array(ne);
  const t = sums.sampledTime;
  const scale = t > 0 ? fnum / t : NaN; // real molecules per simulated particle per second of sampling
  const v = sums.values;
  for (let e = 0; e < ne; e++) {
    const o = e * SURFACE_Q;
    const a = geom.area[e];
    const inv = a > 0 ? 1 / a : NaN;
    const nx = geom.normal[3 * e], ny = geom.normal[3 * e + 1], nz = geom.normal[3 * e + 2];
    // Force on the surface: momentum brought in minus momentum taken away.
    const fx = scale * (v[o + 1] - v[o + 6]);
    const fy = scale * (v[o + 2] - v[o + 7]);
    const fz = scale * (v[o + 3] - v[o + 8]);
    const fn = fx * nx + fy * ny + fz * nz;
    force[3 * e] = fx;
    force[3 * e + 1] = fy;
    force[3 * e + 2] = fz;
    incidentRate[e] = scale * v[o];
    heatRate[e] = scale * (v[o + 4] - v[o + 9]);
    numberFlux[e] = incidentRate[e] * inv;
    heatFlux[e] = heatRate[e] * inv;
    pressure[e] = (0 - fn) * inv; // 0 - fn: +0, not -0, without hits
    const sx = (fx - fn * nx) * inv, sy = (fy - fn * ny) * inv, sz = (fz - fn * nz) * inv;
    shear[3 * e] = sx;
    shear[3 * e + 1] = sy;
    shear[3 * e + 2] = sz;
    shearMagnitude[e] = Math.hypot(sx, sy, sz);
  }
  let cp: Float64Array | null = null, cf: Float64Array | null = null, ch: Float64Array | null = null;
  const speed = streamSpeed(freeStream);
  if (freeStream && speed > 0) {
    const q = 0.5 * freeStream.density * speed * speed;
    const pInf = freeStream.numberDensity * BOLTZMANN * freeStream.temperature;
    const qh = q * speed;
    cp = pressure.map((p) => (p - pInf) / q);
    const tan = flowTangents(geom.normal, freeStream.velocity)!;
    cf = new Float64Array(ne);
    for (let e = 0; e < ne; e++) {
      cf[e] = (shear[3 * e] * tan[3 * e] + shear[3 * e + 1] * tan[3 * e + 1] + shear[3 * e + 2] * tan[3 * e + 2]) / q;
    }
    ch = heatFlux.map((h) => h / qh);
  }
  return { elements: ne, numberFlux, pressure, shear, shearMagnitude, heatFlux, force, heatRate, incidentRate, cp, cf, ch };
}

/** Unit vectors of the drag, lift and side directions of a flow velocity, or null when its speed is 0. */
export function windAxes(velocity: readonly [number, number, number]): { drag: number[]; lift: number[]; side: number[] } | null {
  const u = Math.hypot(velocity[0], velocity[1], velocity[2]);
  if (!(u > 0)) return null;
  const d = velocity.map((c) => c / u);
  // Lift: +y without its component along the drag direction; +z when the flow is along y.
  let ref = [0, 1, 0];
  let l = ref.map((c, i) => c - d[1] * d[i]);
  if (Math.hypot(l[0], l[1], l[2]) < 1e-9) {
    ref = [0, 0, 1];
    l = ref.map((c, i) => c - d[2] * d[i]);
  }
  const ln = Math.hypot(l[0], l[1], l[2]);
  const lift = l.map((c) => c / ln);
  const side = [d[1] * lift[2] - d[2] * lift[1], d[2] * lift[0] - d[0] * lift[2], d[0] * lift[1] - d[1] * lift[0]];
  return { drag: d, lift, side };
}

/**
 * Loads per body: the sums over the body's elements of the force, of (centroid - momentCenter) x force,
 * of the heat transfer and of the incident rate; drag/lift/side as the force's components on windAxes of
 * the free stream and their coefficients over q_inf * referenceArea. `bodies[b]` describes the elements
 * with geom.body = b; elements of the domain faces (-1) count for no body.
 */
export function computeBodyForces(
  results: SurfaceResults,
  geom: SurfaceElementGeometry,
  bodies: BodyReference[],
  freeStream: FreeStream | null,
): BodyForces[] {
  checkGeometry(geom, results.elements);
  const sums = bodies.map(() => ({ f: [0, 0, 0], m: [0, 0, 0], heat: 0, rate: 0 }));
  for (let e = 0; e < results.elements; e++) {
    const b = geom.body[e];
    if (b < 0) continue;
    if (b >= bodies.length) {
      throw new Error(`surface element ${e} belongs to body ${b}, but only ${bodies.length} bodies were given; pass every body of the case in order`);
    }
    const s = sums[b];
    const c = bodies[b].momentCenter;
    const rx = geom.centroid[3 * e] - c[0], ry = geom.centroid[3 * e + 1] - c[1], rz = geom.centroid[3 * e + 2] - c[2];
    const fx = results.force[3 * e], fy = results.force[3 * e + 1], fz = results.force[3 * e + 2];
    s.f[0] += fx;
    s.f[1] += fy;
    s.f[2] += fz;
    s.m[0] += ry * fz - rz * fy;
    s.m[1] += rz * fx - rx * fz;
    s.m[2] += rx * fy - ry * fx;
    s.heat += results.heatRate[e];
    s.rate += results.incidentRate[e];
  }
  const axes = freeStream ? windAxes(freeStream.velocity) : null;
  const speed = streamSpeed(freeStream);
  const q = freeStream && axes ? 0.5 * freeStream.density * speed * speed : 0;
  const dot = (a: number[], b: number[]) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
  return bodies.map((body, b) => {
    const { f, m, heat, rate } = sums[b];
    const drag = axes ? dot(f, axes.drag) : NaN;
    const lift = axes ? dot(f, axes.lift) : NaN;
    const side = axes ? dot(f, axes.side) : NaN;
    const qa = q * body.referenceArea;
    const coef = (x: number) => (axes && qa > 0 ? x / qa : null);
    return {
      name: body.name,
      force: [f[0], f[1], f[2]],
      moment: [m[0], m[1], m[2]],
      drag,
      lift,
      side,
      cd: coef(drag),
      cl: coef(lift),
      cs: coef(side),
      heatTransfer: heat,
      incidentRate: rate,
    };
  });
}
