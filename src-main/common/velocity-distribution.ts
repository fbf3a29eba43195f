// The velocity distribution of a run's molecules against Maxwell-Boltzmann: a sample of one species'
// velocities binned in the gas's own frame (peculiar velocities), with the temperature of the sample, and
// the Maxwell-Boltzmann densities to draw beside it. Environment-free: the solver builds it, the app draws it.
const BOLTZMANN = 1.380649e-23;

/** Bins of the x component and of the speed of the peculiar velocity of one species. */
export interface VelocityDistribution {
  species: string;
  mass: number;
  /** Molecules in the sample (the first cells' particles of a large run). */
  sampled: number;
  meanVelocity: [number, number, number];
  /** m <|c|^2> / (3 k) of the sample's peculiar velocities c = v - <v>. */
  temperature: number;
  /** Peculiar v_x in bins of binWidth from lo. */
  component: { lo: number; binWidth: number; counts: number[] };
  /** Peculiar speed |c| in bins of binWidth from 0. */
  speed: { binWidth: number; counts: number[] };
}

/** Maxwell-Boltzmann density of one velocity component (peculiar) at temperature T. */
export function maxwellComponentPdf(v: number, mass: number, temperature: number): number {
  const a = mass / (2 * BOLTZMANN * temperature);
  return Math.sqrt(a / Math.PI) * Math.exp(-a * v * v);
}

/** Maxwell-Boltzmann density of the (peculiar) speed at temperature T. */
export function maxwellSpeedPdf(c: number, mass: number, temperature: number): number {
  const a = mass / (2 * BOLTZMANN * temperature);
  return 4 * Math.PI * Math.pow(a / Math.PI, 1.5) * c * c * Math.exp(-a * c * c);
}

/** Bins a sample of velocities (the entries where keep(i) holds) of one species in 60 bins each. */
export function velocityDistribution(
  species: string, mass: number, vx: ArrayLike<number>, vy: ArrayLike<number>, vz: ArrayLike<number>, keep: (i: number) => boolean,
): VelocityDistribution | null {
  let n = 0;
  const mean: [number, number, number] = [0, 0, 0];
  for (let i = 0; i < vx.length; i++) {
    if (!keep(i)) continue;
    n += 1;
    mean[0] += vx[i]; mean[1] += vy[i]; mean[2] += vz[i];
  }
  if (n < 2) return null;
  for (let a = 0; a < 3; a++) mean[a] /= n;
  let c2 = 0;
  for (let i = 0; i < vx.length; i++) {
    if (!keep(i)) continue;
    c2 += (vx[i] - mean[0]) ** 2 + (vy[i] - mean[1]) ** 2 + (vz[i] - mean[2]) ** 2;
  }
  const temperature = (mass * c2 / n) / (3 * BOLTZMANN);
  const sigma = Math.sqrt(BOLTZMANN * temperature / mass);
  const bins = 60;
  const lo = -5 * sigma;
  const binWidth = (10 * sigma) / bins;
  const speedWidth = (6 * sigma) / bins;
  const component = new Array<number>(bins).fill(0);
  const speed = new Array<number>(bins).fill(0);
  for (let i = 0; i < vx.length; i++) {
    if (!keep(i)) continue;
    const cx = vx[i] - mean[0];
    const k = Math.floor((cx - lo) / binWidth);
    if (k >= 0 && k < bins) component[k] += 1;
    const s = Math.hypot(cx, vy[i] - mean[1], vz[i] - mean[2]);
    const j = Math.floor(s / speedWidth);
    if (j < bins) speed[j] += 1;
  }
  return { species, mass, sampled: n, meanVelocity: mean, temperature, component: { lo, binWidth, counts: component }, speed: { binWidth: speedWidth, counts: speed } };
}
