// The internal modes' temperatures of internal-fields.ts from made-up sums of a mixture (N2 and O2 vibrating at
// different temperatures, CO rotating only, Ar with no internal mode), against the definitions written out here:
// Trot from the rotating species' energy and degrees of freedom, T_vib,s of the harmonic oscillator, the mixture Tvib
// and the overall Tall weighted by zeta_v,s = 2 x / (e^x - 1), x = theta_s / T_vib,s.
import { describe, expect, it } from 'vitest';
import { BOLTZMANN } from '../../src-main/common/physics.js';
import { emptyFields } from '../../src-main/solver/fields.js';
import { SAMPLE_MOMENTS } from '../../src-main/solver/gpu/struct-layouts.js';
import { fillInternalFields, vibrationalDof, vibrationalTemperature, type SpeciesModes } from '../../src-main/solver/internal-fields.js';

const k = BOLTZMANN;

/** Mean vibrational energy per molecule (J) of a harmonic oscillator of characteristic temperature theta at t. */
function vibEnergy(theta: number, t: number): number {
  return (k * theta) / (Math.exp(theta / t) - 1);
}

describe('internal temperatures from sampled sums', () => {
  // species: N2 (rot 2, theta 3371), O2 (rot 2, theta 2256), CO (rot 2, no vibration), Ar (none)
  const modes: SpeciesModes[] = [
    { rotationalDof: 2, thetaV: 3371 }, { rotationalDof: 2, thetaV: 2256 }, { rotationalDof: 2, thetaV: 0 }, { rotationalDof: 0, thetaV: 0 },
  ];
  const counts = [600, 300, 100, 1000];
  const tRot = [400, 700, 1000, 0]; // per species: <E_rot> = k T for 2 degrees of freedom
  const tVib = [2000, 1200, 0, 0];
  const tTr = 900;
  const S = modes.length, nCells = 2, M = SAMPLE_MOMENTS + 2;

  /** Sums of two cells: cell 0 the mixture above, cell 1 empty. */
  function sums(): Float64Array {
    const out = new Float64Array(M * S * nCells);
    for (let s = 0; s < S; s++) {
      const at = (m: number) => (m * S + s) * nCells;
      out[at(0)] = counts[s];
      out[at(SAMPLE_MOMENTS)] = counts[s] * k * tRot[s];
      out[at(SAMPLE_MOMENTS + 1)] = tVib[s] > 0 ? counts[s] * vibEnergy(modes[s].thetaV, tVib[s]) : 0;
    }
    return out;
  }

  it('Trot, Tvib and Tall of a mixture: rotating species by their degrees of freedom, vibrating ones by zeta_v', () => {
    const f = emptyFields(nCells, undefined, true);
    f.T[0] = tTr;
    fillInternalFields(f, sums(), modes, nCells);
    // Trot: (600*400 + 300*700 + 100*1000) / 1000 = 550 K (Ar has no rotation)
    expect(f.Trot![0]).toBeCloseTo(550, 9);
    // zeta_v of N2 at 2000 K and O2 at 1200 K, written out: x = theta / T
    const zN2 = (2 * (3371 / 2000)) / Math.expm1(3371 / 2000);
    const zO2 = (2 * (2256 / 1200)) / Math.expm1(2256 / 1200);
    expect(zN2).toBeCloseTo(0.7670, 3);
    const tvib = (zN2 * 600 * 2000 + zO2 * 300 * 1200) / (zN2 * 600 + zO2 * 300);
    expect(f.Tvib![0] / tvib - 1).toBeCloseTo(0, 12);
    // Tall: 3 N T + sum zeta_rot N Trot + sum zeta_v N T_vib over 3 N + sum zeta_rot N + sum zeta_v N
    const dofRot = 2 * (600 + 300 + 100), dofVib = zN2 * 600 + zO2 * 300, n = 2000;
    const tall = (3 * n * tTr + dofRot * 550 + zN2 * 600 * 2000 + zO2 * 300 * 1200) / (3 * n + dofRot + dofVib);
    expect(f.Tall![0] / tall - 1).toBeCloseTo(0, 12);
    // between the modes' temperatures, and not the plain average of them
    expect(f.Tall![0]).toBeGreaterThan(550);
    expect(f.Tall![0]).toBeLessThan(tTr);
    // an empty cell reads 0 K everywhere
    expect([f.Trot![1], f.Tvib![1], f.Tall![1]]).toEqual([0, 0, 0]);
  });

  it('all modes at one temperature give that temperature in every field', () => {
    const t = 1500;
    const one = new Float64Array(M * S * nCells);
    for (let s = 0; s < S; s++) {
      const at = (m: number) => (m * S + s) * nCells;
      one[at(0)] = counts[s];
      one[at(SAMPLE_MOMENTS)] = modes[s].rotationalDof > 0 ? counts[s] * k * t : 0;
      one[at(SAMPLE_MOMENTS + 1)] = modes[s].thetaV > 0 ? counts[s] * vibEnergy(modes[s].thetaV, t) : 0;
    }
    const f = emptyFields(nCells, undefined, true);
    f.T[0] = t;
    fillInternalFields(f, one, modes, nCells);
    for (const name of ['Trot', 'Tvib', 'Tall'] as const) expect(f[name]![0] / t - 1, name).toBeCloseTo(0, 12);
  });

  it('a listed cell reads its own sums (the live plane), and a vibrating species without quanta reads 0 K with no weight', () => {
    const all = sums();
    const f = emptyFields(1, undefined, true);
    f.T[0] = tTr;
    fillInternalFields(f, all, modes, nCells, [0]);
    const whole = emptyFields(nCells, undefined, true);
    whole.T[0] = tTr;
    fillInternalFields(whole, all, modes, nCells);
    expect([f.Trot![0], f.Tvib![0], f.Tall![0]]).toEqual([whole.Trot![0], whole.Tvib![0], whole.Tall![0]]);
    expect(vibrationalTemperature(3371, 100, 0)).toBe(0);
    expect(vibrationalDof(3371, 0)).toBe(0);
    // one quantum per molecule: ln 2 = theta / T
    expect(vibrationalTemperature(3371, 10, 10 * k * 3371)).toBeCloseTo(3371 / Math.LN2, 9);
  });

  it('refuses fields without the internal temperatures and sums without the energy moments', () => {
    expect(() => fillInternalFields(emptyFields(nCells), sums(), modes, nCells)).toThrow(/Trot, Tvib and Tall/);
    expect(() => fillInternalFields(emptyFields(nCells, undefined, true), new Float64Array(SAMPLE_MOMENTS * S * nCells), modes, nCells)).toThrow(/no internal-energy moments/);
  });
});
