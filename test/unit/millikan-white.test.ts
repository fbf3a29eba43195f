// Millikan-White vibrational collision numbers (common/physics.ts millikanWhite): the correlation's constants
// against Park's tabulated N2-N2 values, and ln Z = a T^(-1/3) + c - omega ln T against the direct product
// p tau_MW times the VHS collision rate over p, computed here from the case's own collision rate.
import { describe, expect, it } from 'vitest';
import { BOLTZMANN, millikanWhite, millikanWhiteZ, pairModel } from '../../src-main/common/physics.js';
import { SPECIES_LIBRARY } from '../../src-main/common/species-library.js';

const N2 = SPECIES_LIBRARY.N2;
const O2 = SPECIES_LIBRARY.O2;

/** p tau_MW in Pa s of a molecule of characteristic temperature theta with a partner pair of reduced mass mu (amu). */
function pTau(theta: number, mu: number, t: number): number {
  const a = 1.16e-3 * Math.sqrt(mu) * theta ** (4 / 3);
  const b = 0.015 * mu ** 0.25;
  return 101325 * Math.exp(a * (t ** (-1 / 3) - b) - 18.42);
}

/** The VHS collision rate per molecule over the pressure, nu / p, at temperature t for pair (a, b): sampled numerically. */
function rateOverPressure(a: typeof N2, b: typeof N2, t: number): number {
  const p = pairModel(a, b);
  // <sigma_T c_r> over the Maxwellian relative speeds of reduced mass m_r, by quadrature in x = c_r / c_m
  const cm = Math.sqrt((2 * BOLTZMANN * t) / p.reducedMass);
  let sum = 0;
  const dx = 1e-4;
  for (let x = dx / 2; x < 12; x += dx) {
    const cr = x * cm;
    const sigma = p.crossSectionCoefficient * cr ** (1 - 2 * p.omega);
    sum += (4 / Math.sqrt(Math.PI)) * x * x * Math.exp(-x * x) * sigma * cr * dx;
  }
  return sum / (BOLTZMANN * t);
}

describe('Millikan-White vibrational relaxation', () => {
  it('gives Park\'s N2-N2 constants A = 221, B = 0.029 within the correlation\'s rounding', () => {
    const mu = pairModel(N2, N2).reducedMass / 1.6605390666e-27;
    expect(1.16e-3 * Math.sqrt(mu) * 3371 ** (4 / 3)).toBeCloseTo(221, -1);
    expect(0.015 * mu ** 0.25).toBeCloseTo(0.029, 3);
  });

  it('evaluates Zvib = p tau_MW nu / p at any temperature, for a like and an unlike pair', () => {
    for (const [a, b] of [[N2, N2], [O2, N2], [N2, O2]] as const) {
      const p = pairModel(a, b);
      const mw = millikanWhite(a.vibration!.characteristicTemperature, p);
      const mu = p.reducedMass / 1.6605390666e-27;
      for (const t of [500, 2000, 8000, 20000]) {
        const direct = pTau(a.vibration!.characteristicTemperature, mu, t) * rateOverPressure(a, b, t);
        expect(millikanWhiteZ(mw, t) / direct, `${t} K`).toBeCloseTo(1, 6);
      }
    }
    // slower at low temperature: N2 hardly relaxes its vibration at room temperature
    const mw = millikanWhite(3371, pairModel(N2, N2));
    expect(millikanWhiteZ(mw, 300)).toBeGreaterThan(1e8);
    expect(millikanWhiteZ(mw, 10000)).toBeLessThan(millikanWhiteZ(mw, 3000));
  });
});
