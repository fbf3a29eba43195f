// Analytic free-molecular (collisionless) surface loads for a drifting Maxwellian stream: the
// reference solutions the surface sampling of the solver is checked against.
//
// Source: Bird 1994 (Molecular Gas Dynamics and the Direct Simulation of Gas Flows), chapter 7
// ("Collisionless flows"): the flat plate element (§7.3) and the sphere (§7.4), built on the moments of
// a drifting Maxwellian through a plane (§4.3, eq. 4.22 for the number flux). The equation numbers below
// other than 4.22 are not quoted because they could not be checked against the book here; every formula
// is instead derived in its comment from the half-range moments of the Maxwellian and checked in
// test/unit/free-molecular.test.ts by numerical integration over velocity space (plate) and over the
// sphere's surface (sphere drag from the plate formulas).
//
// Notation (Bird's): beta = 1/c_mp = sqrt(m/(2kT)); s = U beta the speed ratio; theta the incidence,
// the angle between the stream and the plate surface (90 deg: the face looks into the stream; negative:
// the stream leaves the face); s_n = s sin(theta) the normal speed ratio (positive towards the face);
// q_inf = rho U^2 / 2; n k T = rho / (2 beta^2).
//   chi(s_n) = exp(-s_n^2) + sqrt(pi) s_n (1 + erf(s_n))
// The half-range moments I_k(a) = int_0^inf t^k exp(-(t - a)^2) dt give
//   I_0 = sqrt(pi)/2 (1 + erf a),  I_1 = exp(-a^2)/2 + a I_0 = chi(a)/2,
//   I_2 = a/2 exp(-a^2) + (a^2 + 1/2) I_0,  I_3 = (a^2 + 1)/2 exp(-a^2) + (a^3 + 3a/2) I_0.
// The rear face of a plate at incidence theta is the front face at -theta (the shear keeps its
// direction, along the stream's tangential component, on both faces).

import { BOLTZMANN as K_B } from '../physics.js';

const SQRT_PI = Math.sqrt(Math.PI);

/** erf(x) for |x| < ERF_SERIES_LIMIT by the series, 1 - erfc above it. */
const ERF_SERIES_LIMIT = 2;
/** erfc(x) for x >= ERFC_FRACTION_LIMIT by the continued fraction (at most ~730 terms at 0.5), 1 - erf below it. */
const ERFC_FRACTION_LIMIT = 0.5;

/**
 * erf by the series of positive terms (Abramowitz & Stegun 7.1.6):
 * erf x = 2/sqrt(pi) exp(-x^2) sum_n 2^n x^(2n+1) / (1 3 5 ... (2n+1)); no cancellation, |error| ~ 1e-16.
 */
function erfSeries(x: number): number {
  const x2 = x * x;
  let term = x, sum = x;
  for (let n = 1; n < 200; n++) {
    term *= (2 * x2) / (2 * n + 1);
    sum += term;
    if (Math.abs(term) < 1e-17 * Math.abs(sum)) break;
  }
  return (2 / SQRT_PI) * Math.exp(-x2) * sum;
}

/**
 * erfc for x >= ERFC_FRACTION_LIMIT by the continued fraction (A&S 7.1.14)
 * erfc x = exp(-x^2)/sqrt(pi) * 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + 2/(x + ...))))),
 * evaluated by the modified Lentz method to a relative 1e-16.
 */
function erfcContinuedFraction(x: number): number {
  if (x === Infinity) return 0;
  const tiny = 1e-300;
  let f = x, c = x, d = 0;
  for (let k = 1; k < 2000; k++) {
    const a = k / 2;
    d = x + a * d;
    d = Math.abs(d) < tiny ? tiny : d;
    c = x + a / c;
    c = Math.abs(c) < tiny ? tiny : c;
    d = 1 / d;
    const delta = c * d;
    f *= delta;
    if (Math.abs(delta - 1) < 1e-16) break;
  }
  return Math.exp(-x * x) / (SQRT_PI * f);
}

/** The error function, relative error below ~1e-15 for all x (checked against mpmath in the tests). */
export function erf(x: number): number {
  if (Number.isNaN(x)) return NaN;
  if (Math.abs(x) < ERF_SERIES_LIMIT) return erfSeries(x);
  return x > 0 ? 1 - erfcContinuedFraction(x) : erfcContinuedFraction(-x) - 1;
}

/**
 * The complementary error function 1 - erf(x), relative error below ~1e-14 for all x (no cancellation for
 * large x; below ~1e-308 the result is subnormal and loses digits, 0 beyond x ~ 27.3).
 */
export function erfc(x: number): number {
  if (Number.isNaN(x)) return NaN;
  if (x >= ERFC_FRACTION_LIMIT) return erfcContinuedFraction(x);
  if (x <= -ERFC_FRACTION_LIMIT) return 2 - erfcContinuedFraction(-x);
  return 1 - erfSeries(x);
}

/** chi(a) = exp(-a^2) + sqrt(pi) a (1 + erf a) = 2 I_1(a); 1 + erf a is taken as erfc(-a) (no cancellation for a << 0). */
function chi(a: number): number {
  return Math.exp(-a * a) + SQRT_PI * a * erfc(-a);
}

/** Gas-surface interaction of the analytic solutions. */
export type FreeMolecularReflection =
  | { model: 'specular' }
  /** Full accommodation to the wall temperature; wallTemperatureRatio = Tw / T. */
  | { model: 'diffuse'; wallTemperatureRatio: number };

/** A drifting Maxwellian stream of one species. */
export interface MaxwellianStream {
  /** Number density, 1/m^3. */
  numberDensity: number;
  /** Temperature, K. */
  temperature: number;
  /** Molecular mass, kg. */
  mass: number;
  /** Stream speed |U|, m/s. */
  speed: number;
}

/** Speed ratio s = U / sqrt(2kT/m) of a stream. */
export function speedRatio(stream: MaxwellianStream): number {
  return stream.speed / Math.sqrt((2 * K_B * stream.temperature) / stream.mass);
}

/**
 * Pressure on the face of a plate at incidence theta (rad) over n k T of the stream (finite at s = 0).
 * Incident normal momentum flux: m n / (sqrt(pi) beta^2) I_2(s_n), i.e.
 *   p_i / (n k T) = (2/sqrt(pi)) I_2 = s_n/sqrt(pi) exp(-s_n^2) + (1/2 + s_n^2)(1 + erf s_n).
 * Specular: the reflected molecules carry the same normal momentum, p = 2 p_i.
 * Diffuse (full accommodation at Tw): the N_i = n chi/(2 sqrt(pi) beta) reflected molecules leave as a
 * half-range Maxwellian at Tw with mean normal speed sqrt(pi)/(2 beta_w), p_r = m N_i sqrt(pi)/(2 beta_w):
 *   p_r / (n k T) = (1/2) sqrt(Tw/T) chi(s_n).
 * The sum is Bird's (§7.3) front-face pressure
 *   p/(nkT) = [s_n/sqrt(pi) + sqrt(Tw/T)/2] exp(-s_n^2) + [1/2 + s_n^2 + sqrt(pi)/2 sqrt(Tw/T) s_n](1 + erf s_n).
 */
export function platePressureRatio(s: number, theta: number, reflection: FreeMolecularReflection): number {
  const sn = s * Math.sin(theta);
  const incident = (sn / SQRT_PI) * Math.exp(-sn * sn) + (0.5 + sn * sn) * erfc(-sn);
  if (reflection.model === 'specular') return 2 * incident;
  return incident + 0.5 * Math.sqrt(reflection.wallTemperatureRatio) * chi(sn);
}

/**
 * Shear stress on the face of a plate over n k T: the tangential momentum flux of the incident molecules,
 * m U cos(theta) N_i, none carried away (diffuse reflection leaves with zero mean tangential velocity;
 * specular reflection keeps it, so the shear is 0):
 *   tau / (n k T) = s cos(theta) chi(s_n) / sqrt(pi)      (diffuse)
 */
export function plateShearRatio(s: number, theta: number, reflection: FreeMolecularReflection): number {
  if (reflection.model === 'specular') return 0;
  return (s * Math.cos(theta) * chi(s * Math.sin(theta))) / SQRT_PI;
}

/** Pressure and shear coefficients of one face: p / q_inf and tau / q_inf. */
export interface FaceCoefficients {
  cp: number;
  ctau: number;
}

/**
 * Pressure and shear coefficients (normalised by rho U^2 / 2 = n k T s^2) of the face of a flat plate
 * element that sees the stream at incidence theta (rad); theta < 0 for a face the stream leaves. Bird §7.3:
 *   diffuse:  cp = (1/s^2){[s_n/sqrt(pi) + sqrt(Tw/T)/2] exp(-s_n^2) + [1/2 + s_n^2 + sqrt(pi)/2 sqrt(Tw/T) s_n](1 + erf s_n)}
 *             ctau = cos(theta)/(sqrt(pi) s) {exp(-s_n^2) + sqrt(pi) s_n (1 + erf s_n)}
 *   specular: cp = (2/s^2){s_n/sqrt(pi) exp(-s_n^2) + (1/2 + s_n^2)(1 + erf s_n)},  ctau = 0
 */
export function plateFaceCoefficients(s: number, theta: number, reflection: FreeMolecularReflection): FaceCoefficients {
  const s2 = s * s;
  return { cp: platePressureRatio(s, theta, reflection) / s2, ctau: plateShearRatio(s, theta, reflection) / s2 };
}

/** Front (facing the stream at incidence theta) and rear (the same face formulas at -theta) coefficients of a flat plate. */
export function plateCoefficients(
  s: number,
  theta: number,
  reflection: FreeMolecularReflection,
): { front: FaceCoefficients; rear: FaceCoefficients } {
  return { front: plateFaceCoefficients(s, theta, reflection), rear: plateFaceCoefficients(s, -theta, reflection) };
}

/** Pressure on a plate face at incidence theta, Pa (p/(nkT) of platePressureRatio times n k T). */
export function platePressure(stream: MaxwellianStream, theta: number, reflection: FreeMolecularReflection): number {
  return stream.numberDensity * K_B * stream.temperature * platePressureRatio(speedRatio(stream), theta, reflection);
}

/** Shear stress on a plate face at incidence theta, Pa (along the stream's tangential component). */
export function plateShearStress(stream: MaxwellianStream, theta: number, reflection: FreeMolecularReflection): number {
  return stream.numberDensity * K_B * stream.temperature * plateShearRatio(speedRatio(stream), theta, reflection);
}

/**
 * Incident number flux on a plate face at incidence theta, 1/(m^2 s) (Bird eq. 4.22):
 *   N_i = n / (2 sqrt(pi) beta) chi(s_n)
 */
export function plateIncidentNumberFlux(stream: MaxwellianStream, theta: number): number {
  const beta = Math.sqrt(stream.mass / (2 * K_B * stream.temperature));
  return (stream.numberDensity / (2 * SQRT_PI * beta)) * chi(speedRatio(stream) * Math.sin(theta));
}

/**
 * Incident energy flux on a plate face at incidence theta, W/m^2. Translational part: the normal speed
 * moment I_3 plus the tangential mean square speed (s^2 - s_n^2 + 1)/beta^2 times I_1, which sum to
 *   q_i = rho / (4 sqrt(pi) beta^3) {(s^2 + 2) exp(-s_n^2) + sqrt(pi) s_n (s^2 + 5/2)(1 + erf s_n)};
 * `internalDof` internal degrees of freedom at the stream temperature add (internalDof/2) k T per molecule,
 * i.e. rho/(4 sqrt(pi) beta^3) (internalDof/2) chi(s_n). The solver samples translational energy only
 * (m v^2 / 2), so compare it with internalDof = 0.
 */
export function plateIncidentEnergyFlux(stream: MaxwellianStream, theta: number, internalDof = 0): number {
  const beta = Math.sqrt(stream.mass / (2 * K_B * stream.temperature));
  const s = speedRatio(stream);
  const sn = s * Math.sin(theta);
  const rho = stream.numberDensity * stream.mass;
  const bracket = (s * s + 2) * Math.exp(-sn * sn) + SQRT_PI * sn * (s * s + 2.5) * erfc(-sn) + 0.5 * internalDof * chi(sn);
  return (rho / (4 * SQRT_PI * beta ** 3)) * bracket;
}

/**
 * Net heat flux into a diffusely reflecting plate face at wall temperature Tw, W/m^2: the incident energy
 * flux minus what the reflected molecules carry away, N_i (2 + internalDof/2) k Tw (an effusing half-range
 * Maxwellian carries 2kTw of translational energy per molecule).
 */
export function plateHeatFluxDiffuse(stream: MaxwellianStream, theta: number, wallTemperature: number, internalDof = 0): number {
  const ni = plateIncidentNumberFlux(stream, theta);
  return plateIncidentEnergyFlux(stream, theta, internalDof) - ni * (2 + 0.5 * internalDof) * K_B * wallTemperature;
}

/**
 * Drag coefficient of a sphere (reference area pi r^2) in free-molecular flow, Bird §7.4:
 *   Cd = (2s^2 + 1)/(sqrt(pi) s^3) exp(-s^2) + (4s^4 + 4s^2 - 1)/(2 s^4) erf(s) [+ 2 sqrt(pi)/(3 s) sqrt(Tw/T) diffuse]
 * Specular reflection gives the diffuse expression without the wall term, i.e. the diffuse sphere at
 * Tw = 0 (a property of the sphere; the tests check both by integrating the plate formulas). Tends to 2 (specular) and 2 + 2 sqrt(pi)/(3s) sqrt(Tw/T) (diffuse) as s -> inf.
 */
export function sphereDragCoefficient(s: number, reflection: FreeMolecularReflection): number {
  const s2 = s * s, s4 = s2 * s2;
  const cd = ((2 * s2 + 1) / (SQRT_PI * s2 * s)) * Math.exp(-s2) + ((4 * s4 + 4 * s2 - 1) / (2 * s4)) * erf(s);
  if (reflection.model === 'specular') return cd;
  return cd + ((2 * SQRT_PI) / (3 * s)) * Math.sqrt(reflection.wallTemperatureRatio);
}
