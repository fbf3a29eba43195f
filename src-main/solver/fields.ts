// Macroscopic fields per cell from the sampled velocity moments (sample.wgsl layout), for a gas
// mixture: number density, mass-averaged velocity, translational temperature, pressure tensor
// diagonal, scalar pressure and heat flux (Bird 1994, ch. 1.4 and 4.2).
import { createHash } from 'node:crypto';
import { BOLTZMANN } from '../common/physics.js';

import { FIELD_NAMES, type Fields } from '../common/field-names.js';

export { FIELD_NAMES, type FieldName, type Fields } from '../common/field-names.js';

/** Converts moment sums over `passes` sampling passes into fields (SI units). */
export function computeFields(sums: Float64Array, passes: number, masses: number[], nCells: number, fnum: number, cellVolume: number): Fields {
  const S = masses.length;
  const f = Object.fromEntries(FIELD_NAMES.map((k) => [k, new Float64Array(nCells)])) as Fields;
  if (passes === 0) return f;
  const at = (m: number, s: number, c: number) => sums[(m * S + s) * nCells + c];
  const scale = fnum / (cellVolume * passes); // real molecules per m^3 per sampled particle
  for (let c = 0; c < nCells; c++) {
    let count = 0, mass = 0;
    const mom = [0, 0, 0];
    for (let s = 0; s < S; s++) {
      const N = at(0, s, c);
      count += N;
      mass += masses[s] * N;
      for (let i = 0; i < 3; i++) mom[i] += masses[s] * at(1 + i, s, c);
    }
    f.particlesPerSample[c] = count / passes;
    if (count === 0) continue;
    const u = mom.map((m) => m / mass);
    const uu = u[0] * u[0] + u[1] * u[1] + u[2] * u[2];
    const p = [0, 0, 0];
    const q = [0, 0, 0];
    for (let s = 0; s < S; s++) {
      const m = masses[s];
      const N = at(0, s, c);
      if (N === 0) continue;
      const s1 = [at(1, s, c), at(2, s, c), at(3, s, c)];
      // second moments S[i][j]
      const sxx = at(4, s, c), syy = at(5, s, c), szz = at(6, s, c);
      const sxy = at(7, s, c), sxz = at(8, s, c), syz = at(9, s, c);
      const S2 = [[sxx, sxy, sxz], [sxy, syy, syz], [sxz, syz, szz]];
      const v2 = sxx + syy + szz;
      const s3 = [at(10, s, c), at(11, s, c), at(12, s, c)];
      const uS1 = u[0] * s1[0] + u[1] * s1[1] + u[2] * s1[2];
      for (let i = 0; i < 3; i++) {
        // sum over particles of (v_i - u_i)^2
        p[i] += m * (S2[i][i] - 2 * u[i] * s1[i] + N * u[i] * u[i]);
        // sum of c^2 c_i with c = v - u, expanded in the sampled moments
        const uSi = u[0] * S2[0][i] + u[1] * S2[1][i] + u[2] * S2[2][i];
        q[i] += 0.5 * m * (s3[i] - u[i] * v2 - 2 * uSi + 2 * u[i] * uS1 + uu * s1[i] - uu * u[i] * N);
      }
    }
    const n = count * scale;
    f.n[c] = n;
    f.ux[c] = u[0];
    f.uy[c] = u[1];
    f.uz[c] = u[2];
    f.pxx[c] = p[0] * scale;
    f.pyy[c] = p[1] * scale;
    f.pzz[c] = p[2] * scale;
    f.p[c] = (f.pxx[c] + f.pyy[c] + f.pzz[c]) / 3;
    f.T[c] = f.p[c] / (n * BOLTZMANN);
    f.qx[c] = q[0] * scale;
    f.qy[c] = q[1] * scale;
    f.qz[c] = q[2] * scale;
  }
  return f;
}

/** SHA-256 (hex) of the fields' f64 bytes, field by field in FIELD_NAMES order, cells in order. */
export function fieldsSha256(f: Fields): string {
  const h = createHash('sha256');
  for (const k of FIELD_NAMES) h.update(new Uint8Array(f[k].buffer, f[k].byteOffset, f[k].byteLength));
  return h.digest('hex');
}
