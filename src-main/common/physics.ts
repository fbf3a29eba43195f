// Kinetic-theory formulas for VHS/VSS gases (Bird 1994; ../shared/reference/PHYSICS.md), in SI units.
// Pure functions: the solver setup, the pre-launch check, reports and tests all use these.

/** Boltzmann constant, J/K (exact, SI 2019). */
export const BOLTZMANN = 1.380649e-23;

/** Molecular data of one species (VHS when alpha = 1, VSS otherwise). */
export interface MoleculeModel {
  mass: number;
  dRef: number;
  omega: number;
  tRef: number;
  alpha: number;
}

/** Lanczos approximation of the Gamma function (|rel. error| < 1e-13 for x > 0). */
export function gamma(x: number): number {
  const g = 7;
  const c = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313,
    -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6,
    1.5056327351493116e-7,
  ];
  if (x < 0.5) return Math.PI / (Math.sin(Math.PI * x) * gamma(1 - x));
  x -= 1;
  let a = c[0];
  const t = x + g + 0.5;
  for (let i = 1; i < g + 2; i++) a += c[i] / (x + i);
  return Math.sqrt(2 * Math.PI) * Math.pow(t, x + 0.5) * Math.exp(-t) * a;
}

/** Most probable speed sqrt(2kT/m). */
export function mostProbableSpeed(temperature: number, mass: number): number {
  return Math.sqrt((2 * BOLTZMANN * temperature) / mass);
}

/** Mean thermal speed sqrt(8kT/(pi m)). */
export function meanSpeed(temperature: number, mass: number): number {
  return Math.sqrt((8 * BOLTZMANN * temperature) / (Math.PI * mass));
}

/** Mean collision rate per molecule of a simple VHS/VSS gas: 4 d^2 n sqrt(pi k Tref/m) (T/Tref)^(1-omega). */
export function collisionRate(g: MoleculeModel, numberDensity: number, temperature: number): number {
  return (
    4 * g.dRef * g.dRef * numberDensity * Math.sqrt((Math.PI * BOLTZMANN * g.tRef) / g.mass) *
    Math.pow(temperature / g.tRef, 1 - g.omega)
  );
}

/** Mean free path of a simple VHS/VSS gas: 1 / (sqrt(2) pi d^2 n (Tref/T)^(omega-1/2)). */
export function meanFreePath(g: MoleculeModel, numberDensity: number, temperature: number): number {
  return 1 / (Math.SQRT2 * Math.PI * g.dRef * g.dRef * numberDensity * Math.pow(g.tRef / temperature, g.omega - 0.5));
}

/** Collision parameters of a species pair (Bird's averaging of d, omega, Tref and alpha). */
export interface PairModel {
  reducedMass: number;
  dRef: number;
  omega: number;
  tRef: number;
  alpha: number;
  /** sigma_T * c_r = crossSectionCoefficient * c_r^(2 - 2 omega). */
  crossSectionCoefficient: number;
}

/** Combines two species into the pair model used for their collisions. */
export function pairModel(a: MoleculeModel, b: MoleculeModel): PairModel {
  const reducedMass = (a.mass * b.mass) / (a.mass + b.mass);
  const dRef = 0.5 * (a.dRef + b.dRef);
  const omega = 0.5 * (a.omega + b.omega);
  const tRef = 0.5 * (a.tRef + b.tRef);
  const alpha = 0.5 * (a.alpha + b.alpha);
  const crossSectionCoefficient =
    (Math.PI * dRef * dRef * Math.pow((2 * BOLTZMANN * tRef) / reducedMass, omega - 0.5)) / gamma(2.5 - omega);
  return { reducedMass, dRef, omega, tRef, alpha, crossSectionCoefficient };
}

/** VHS/VSS total cross-section of a pair at relative speed cr. */
export function totalCrossSection(p: PairModel, relativeSpeed: number): number {
  return p.crossSectionCoefficient * Math.pow(relativeSpeed, 1 - 2 * p.omega);
}

/** Complementary error function (Numerical Recipes erfcc, |rel. error| < 1.2e-7). */
export function erfc(x: number): number {
  const z = Math.abs(x);
  const t = 1 / (1 + 0.5 * z);
  const r =
    t *
    Math.exp(
      -z * z - 1.26551223 +
        t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806 + t * (0.27886807 +
        t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return x >= 0 ? r : 2 - r;
}

/**
 * Number flux (molecules per m^2 per s) of a drifting Maxwellian through a plane, counted in the
 * direction of the unit normal: n c_mp/(2 sqrt(pi)) [exp(-s^2) + sqrt(pi) s (1 + erf(s))],
 * s = (u . normal)/c_mp (Bird 1994, eq. 4.22).
 */
export function maxwellianFlux(numberDensity: number, temperature: number, mass: number, normalVelocity: number): number {
  const cmp = mostProbableSpeed(temperature, mass);
  const s = normalVelocity / cmp;
  return ((numberDensity * cmp) / (2 * Math.sqrt(Math.PI))) * (Math.exp(-s * s) + Math.sqrt(Math.PI) * s * (2 - erfc(s)));
}

/**
 * Molecules of a drifting Maxwellian, per m^2 per s, that cross a plane along its unit normal faster than `speed`,
 * each weighted by how much faster: n * integral over v > speed of (v - speed) f(v) dv
 * = n c_mp [exp(-t^2) / (2 sqrt(pi)) - t erfc(t) / 2], t = (speed - u . normal)/c_mp. Times an area A and dt: the
 * molecules that cross A within dt and go on more than speed * dt past it. At speed 0 this is maxwellianFlux.
 */
export function maxwellianReach(numberDensity: number, temperature: number, mass: number, normalVelocity: number, speed: number): number {
  const cmp = mostProbableSpeed(temperature, mass);
  const t = (speed - normalVelocity) / cmp;
  return Math.max(0, numberDensity * cmp * (Math.exp(-t * t) / (2 * Math.sqrt(Math.PI)) - (t * erfc(t)) / 2));
}

/** Parker's rotational collision number at temperature t: Z_inf / (1 + pi^(3/2)/2 sqrt(T* / t) + (pi + pi^2/4) T* / t). */
export function parkerZ(zInf: number, tStar: number, t: number): number {
  const r = tStar / t;
  return zInf / (1 + 0.5 * Math.PI ** 1.5 * Math.sqrt(r) + (Math.PI + 0.25 * Math.PI * Math.PI) * r);
}

/** Atomic mass unit, kg (CODATA 2018). */
export const ATOMIC_MASS_UNIT = 1.6605390666e-27;
/** One standard atmosphere, Pa. */
const ATMOSPHERE = 101325;

/** Millikan-White Zvib of a molecule in a pair, as ln Z = a T^(-1/3) + c - omega ln T (see millikanWhite). */
export interface MillikanWhite {
  a: number;
  c: number;
  omega: number;
}

/**
 * Millikan-White vibrational collision number of a molecule of characteristic temperature theta (K) colliding in pair
 * p: Z = tau_MW nu, with p tau_MW = exp(A (T^(-1/3) - B) - 18.42) atm s, A = 1.16e-3 mu^(1/2) theta^(4/3),
 * B = 0.015 mu^(1/4) (mu the pair's reduced mass in amu; Millikan and White 1963), and nu the VHS collision rate
 * with partners of that kind at pressure p, nu / p = <sigma_T c_r> / (k T),
 * <sigma_T c_r> = 2 sqrt(pi) d_ref^2 (2 k T_ref / m_r)^(1/2) (T / T_ref)^(1 - omega). Written as ln Z so the shader
 * evaluates it at any T: ln Z = a T^(-1/3) + c - omega ln T.
 */
export function millikanWhite(theta: number, p: PairModel): MillikanWhite {
  const mu = p.reducedMass / ATOMIC_MASS_UNIT;
  const a = 1.16e-3 * Math.sqrt(mu) * theta ** (4 / 3);
  const b = 0.015 * mu ** 0.25;
  // <sigma_T c_r> = rate T^(1 - omega)
  const rate = 2 * Math.sqrt(Math.PI) * p.dRef * p.dRef * Math.sqrt((2 * BOLTZMANN * p.tRef) / p.reducedMass) * p.tRef ** (p.omega - 1);
  return { a, c: -a * b - 18.42 + Math.log((ATMOSPHERE * rate) / BOLTZMANN), omega: p.omega };
}

/** The Millikan-White Zvib at temperature t (K). */
export function millikanWhiteZ(mw: MillikanWhite, t: number): number {
  return Math.exp(mw.a * t ** (-1 / 3) + mw.c - mw.omega * Math.log(t));
}

/** The vibrational quantum k theta_v of a species (J; 0 when it has no vibrational mode). */
export function vibrationalQuantum(s: { vibration?: { characteristicTemperature: number } }): number {
  return s.vibration ? BOLTZMANN * s.vibration.characteristicTemperature : 0;
}
