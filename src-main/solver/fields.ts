// Macroscopic fields per cell from the sampled velocity moments (sample.wgsl layout), for a gas
// mixture: number density, mass-averaged velocity, translational temperature, pressure tensor
// diagonal, scalar pressure and heat flux (Bird 1994, ch. 1.4 and 4.2).
import { createHash } from 'node:crypto';
import { BOLTZMANN } from '../common/physics.js';

import { FIELD_NAMES, type Fields } from '../common/field-names.js';

export { FIELD_NAMES, type FieldName, type Fields } from '../common/field-names.js';

/**
 * Converts moment sums over `passes` sampling passes into fields (SI units). Scalars only inside the cell loop
 * (no arrays per cell): a run folds its fields once per batch-means block, millions of cells each time.
 */
export function computeFields(sums: Float64Array, passes: number, masses: number[], nCells: number, fnum: number, cellVolume: number): Fields {
  const S = masses.length;
  const f = Object.fromEntries(FIELD_NAMES.map((k) => [k, new Float64Array(nCells)])) as Fields;
  if (passes === 0) return f;
  const at = (m: number, s: number, c: number) => sums[(m * S + s) * nCells + c];
  const scale = fnum / (cellVolume * passes); // real molecules per m^3 per sampled particle
  const { particlesPerSample: fPps, n: fn, ux: fux, uy: fuy, uz: fuz, pxx: fpxx, pyy: fpyy, pzz: fpzz, p: fp, T: fT, qx: fqx, qy: fqy, qz: fqz } = f;
  for (let c = 0; c < nCells; c++) {
    let count = 0, mass = 0;
    let momX = 0, momY = 0, momZ = 0;
    for (let s = 0; s < S; s++) {
      const N = at(0, s, c);
      count += N;
      mass += masses[s] * N;
      momX += masses[s] * at(1, s, c);
      momY += masses[s] * at(2, s, c);
      momZ += masses[s] * at(3, s, c);
    }
    fPps[c] = count / passes;
    if (count === 0) continue;
    const ux = momX / mass, uy = momY / mass, uz = momZ / mass;
    const uu = ux * ux + uy * uy + uz * uz;
    let px = 0, py = 0, pz = 0;
    let qx = 0, qy = 0, qz = 0;
    for (let s = 0; s < S; s++) {
      const m = masses[s];
      const N = at(0, s, c);
      if (N === 0) continue;
      const s1x = at(1, s, c), s1y = at(2, s, c), s1z = at(3, s, c);
      // second moments: the symmetric tensor S2[i][j] of sum v_i v_j
      const sxx = at(4, s, c), syy = at(5, s, c), szz = at(6, s, c);
      const sxy = at(7, s, c), sxz = at(8, s, c), syz = at(9, s, c);
      const v2 = sxx + syy + szz;
      const s3x = at(10, s, c), s3y = at(11, s, c), s3z = at(12, s, c);
      const uS1 = ux * s1x + uy * s1y + uz * s1z;
      // sum over particles of (v_i - u_i)^2
      px += m * (sxx - 2 * ux * s1x + N * ux * ux);
      py += m * (syy - 2 * uy * s1y + N * uy * uy);
      pz += m * (szz - 2 * uz * s1z + N * uz * uz);
      // sum of c^2 c_i with c = v - u, expanded in the sampled moments (uS_i = sum_j u_j S2[j][i])
      const uSx = ux * sxx + uy * sxy + uz * sxz;
      const uSy = ux * sxy + uy * syy + uz * syz;
      const uSz = ux * sxz + uy * syz + uz * szz;
      qx += 0.5 * m * (s3x - ux * v2 - 2 * uSx + 2 * ux * uS1 + uu * s1x - uu * ux * N);
      qy += 0.5 * m * (s3y - uy * v2 - 2 * uSy + 2 * uy * uS1 + uu * s1y - uu * uy * N);
      qz += 0.5 * m * (s3z - uz * v2 - 2 * uSz + 2 * uz * uS1 + uu * s1z - uu * uz * N);
    }
    const n = count * scale;
    fn[c] = n;
    fux[c] = ux;
    fuy[c] = uy;
    fuz[c] = uz;
    fpxx[c] = px * scale;
    fpyy[c] = py * scale;
    fpzz[c] = pz * scale;
    fp[c] = (fpxx[c] + fpyy[c] + fpzz[c]) / 3;
    fT[c] = fp[c] / (n * BOLTZMANN);
    fqx[c] = qx * scale;
    fqy[c] = qy * scale;
    fqz[c] = qz * scale;
  }
  return f;
}

/** SHA-256 (hex) of the fields' f64 bytes, field by field in FIELD_NAMES order, cells in order. */
export function fieldsSha256(f: Fields): string {
  const h = createHash('sha256');
  for (const k of FIELD_NAMES) h.update(new Uint8Array(f[k].buffer, f[k].byteOffset, f[k].byteLength));
  return h.digest('hex');
}
