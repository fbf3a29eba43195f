// Equilibrium mean free path and collision rate of a VHS/VSS gas mixture (Bird 1994, eqs. 4.76-4.77),
// built on physics.ts; for a single species they equal meanFreePath and collisionRate exactly.
import { collisionRate, meanFreePath, pairModel } from './physics.js';
import type { MoleculeModel } from './physics.js';

// Collision rate of one molecule of species p with molecules of species q at density nq.
function pairRate(p: MoleculeModel, q: MoleculeModel, nq: number, temperature: number): number {
  const pm = pairModel(p, q);
  // collisionRate of a pseudo-species of mass 2 m_r reproduces 2 sqrt(pi) d_pq^2 n_q sqrt(2 k T_ref/m_r) (T/T_ref)^(1-omega).
  return collisionRate({ mass: 2 * pm.reducedMass, dRef: pm.dRef, omega: pm.omega, tRef: pm.tRef, alpha: pm.alpha }, nq, temperature);
}

// Inverse partial mean free path of species p due to species q at density nq.
function pairInverseMfp(p: MoleculeModel, q: MoleculeModel, nq: number, temperature: number): number {
  if (nq === 0) return 0;
  const pm = pairModel(p, q);
  // meanFreePath has sqrt(2) where the mixture formula has sqrt(1 + m_p/m_q): scale the density to match.
  const nEff = (nq * Math.sqrt(1 + p.mass / q.mass)) / Math.SQRT2;
  return 1 / meanFreePath({ mass: q.mass, dRef: pm.dRef, omega: pm.omega, tRef: pm.tRef, alpha: pm.alpha }, nEff, temperature);
}

// Mean collision rate per molecule (1/s), averaged over species with mole fractions x.
export function mixtureCollisionRate(species: MoleculeModel[], x: number[], numberDensity: number, temperature: number): number {
  let rate = 0;
  species.forEach((p, i) => {
    if (x[i] === 0) return;
    const nu = species.reduce((sum, q, j) => sum + pairRate(p, q, x[j] * numberDensity, temperature), 0);
    rate += x[i] * nu;
  });
  return rate;
}

// Mean free path (m), averaged over species with mole fractions x; Infinity in vacuum.
export function mixtureMeanFreePath(species: MoleculeModel[], x: number[], numberDensity: number, temperature: number): number {
  let mfp = 0;
  species.forEach((p, i) => {
    if (x[i] === 0) return;
    const inv = species.reduce((sum, q, j) => sum + pairInverseMfp(p, q, x[j] * numberDensity, temperature), 0);
    mfp += x[i] / inv;
  });
  return mfp;
}
