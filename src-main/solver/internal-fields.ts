// Temperatures of the internal modes per cell, from the sampled sums of the particles' internal energy (moment 13:
// sum E_rot, moment 14: sum E_vib, per species; sample-sums.wgsl) and the counts (moment 0), for a gas mixture:
//   Trot = 2 sum E_rot / (k sum_s zeta_rot,s N_s)                    (rotating species only)
//   T_vib,s = theta_s / ln(1 + k theta_s N_s / sum E_vib,s)          (harmonic oscillator; 0 K without quanta)
//   zeta_v,s = 2 x / (e^x - 1), x = theta_s / T_vib,s                (effective vibrational degrees of freedom)
//   Tvib = sum_s zeta_v,s N_s T_vib,s / sum_s zeta_v,s N_s
//   Tall = (3 N T + sum_s zeta_rot,s N_s Trot + sum_s zeta_v,s N_s T_vib,s) / (3 N + sum_s zeta_rot,s N_s + sum_s zeta_v,s N_s)
// with T the translational temperature and N every species' count (Bird 1994, eqs. 1.30 and 11.30). sample.wgsl's
// sample_close computes the same per block in f32 (the batch means' standard errors).
import { BOLTZMANN } from '../common/physics.js';
import type { Fields } from '../common/field-names.js';
import { SAMPLE_MOMENTS } from './gpu/struct-layouts.js';

/** A species' internal modes: rotational degrees of freedom (0 or 2) and characteristic vibrational temperature (K; 0: none). */
export interface SpeciesModes {
  rotationalDof: number;
  thetaV: number;
}

/** The internal modes of every species of the solver tables (rotDof, vibKTheta = k theta_v). */
export function speciesModes(t: { species: { rotDof?: number; vibKTheta?: number }[] }): SpeciesModes[] {
  return t.species.map((s) => ({ rotationalDof: s.rotDof ?? 0, thetaV: (s.vibKTheta ?? 0) / BOLTZMANN }));
}

/** Moment index of sum E_rot and of sum E_vib in the sampled sums. */
export const ROTATIONAL_MOMENT = SAMPLE_MOMENTS;
export const VIBRATIONAL_MOMENT = SAMPLE_MOMENTS + 1;

/** Vibrational temperature (K) of harmonic oscillators of characteristic temperature theta (K) holding `energy` J over `count` molecules; 0 K without quanta. */
export function vibrationalTemperature(theta: number, count: number, energy: number): number {
  return energy > 0 && count > 0 ? theta / Math.log1p((BOLTZMANN * theta * count) / energy) : 0;
}

/** Effective vibrational degrees of freedom 2 x / (e^x - 1), x = theta / T, of a harmonic oscillator at T (0 at T = 0 K). */
export function vibrationalDof(theta: number, t: number): number {
  if (!(t > 0)) return 0;
  const x = theta / t;
  return (2 * x) / Math.expm1(x);
}

/**
 * Fills out.Trot, out.Tvib and out.Tall (which must exist) of the given cells from the sums ([moment][species][cell],
 * SAMPLE_MOMENTS + 1 or + 2 moments over nCells cells) and the translational temperature already in out.T. `cells`:
 * as in fillFields: a range (out[c] is cell c) or a list of cell ids (out[k] is cell ids[k]).
 */
export function fillInternalFields(out: Fields, sums: Float64Array, modes: SpeciesModes[], nCells: number,
  cells: { from: number; to: number } | ArrayLike<number> = { from: 0, to: nCells }): void {
  const { Trot: fRot, Tvib: fVib, Tall: fAll, T: fT } = out;
  if (!fRot || !fVib || !fAll) throw new Error('internal: the internal temperatures are filled into fields that have Trot, Tvib and Tall');
  const S = modes.length;
  const stride = S * nCells;
  const vibrates = modes.some((m) => m.thetaV > 0);
  if (sums.length < (VIBRATIONAL_MOMENT + (vibrates ? 1 : 0)) * stride) throw new Error(`internal: ${sums.length} sums hold no internal-energy moments for ${S} species and ${nCells} cells`);
  const range = typeof (cells as { from?: unknown }).from === 'number' ? (cells as { from: number; to: number }) : null;
  const ids = range ? null : (cells as ArrayLike<number>);
  const [first, end] = range ? [range.from, range.to] : [0, ids!.length];
  for (let o = first; o < end; o++) {
    const c = ids ? ids[o] : o;
    let count = 0, rotDof = 0, eRot = 0, vibDof = 0, vibSum = 0;
    for (let s = 0; s < S; s++) {
      const b = s * nCells + c;
      const N = sums[b];
      if (N === 0) continue;
      count += N;
      rotDof += modes[s].rotationalDof * N;
      eRot += sums[ROTATIONAL_MOMENT * stride + b];
      if (modes[s].thetaV > 0) {
        const tv = vibrationalTemperature(modes[s].thetaV, N, sums[VIBRATIONAL_MOMENT * stride + b]);
        const z = vibrationalDof(modes[s].thetaV, tv) * N;
        vibDof += z;
        vibSum += z * tv;
      }
    }
    const tRot = rotDof > 0 ? (2 * eRot) / (BOLTZMANN * rotDof) : 0;
    fRot[o] = tRot;
    fVib[o] = vibDof > 0 ? vibSum / vibDof : 0;
    fAll[o] = count > 0 ? (3 * count * fT[o] + rotDof * tRot + vibSum) / (3 * count + rotDof + vibDof) : 0;
  }
}
