// Macroscopic fields per cell from the sampled velocity moments (sample.wgsl layout), for a gas
// mixture: number density, mass-averaged velocity, translational temperature, pressure tensor
// diagonal, scalar pressure and heat flux (Bird 1994, ch. 1.4 and 4.2). The internal modes'
// temperatures (Trot, Tvib, Tall) come from internal-fields.ts.
import { createHash } from 'node:crypto';
import { BOLTZMANN } from '../common/physics.js';

import { FIELD_NAMES, INTERNAL_FIELD_NAMES, fieldNamesOf, type BaseFieldName, type Fields } from '../common/field-names.js';

export { ALL_FIELD_NAMES, FIELD_NAMES, INTERNAL_FIELD_NAMES, fieldNamesOf, type FieldName, type Fields } from '../common/field-names.js';

/**
 * Converts moment sums over `passes` sampling passes into fields (SI units). Scalars only inside the cell loop
 * (no arrays per cell): a run folds its fields once per batch-means block, millions of cells each time.
 */
export function computeFields(sums: Float64Array, passes: number, masses: number[], nCells: number, fnum: number, cellVolume: number): Fields {
  const f = emptyFields(nCells);
  fillFields(f, sums, passes, masses, nCells, fnum, cellVolume);
  return f;
}

/** A zeroed set of fields over `n` cells (alloc: where the arrays live, e.g. shared memory; internal: with Trot, Tvib and Tall). */
export function emptyFields(n: number, alloc: (n: number) => Float64Array = (m) => new Float64Array(m), internal = false): Fields {
  const names = internal ? [...FIELD_NAMES, ...INTERNAL_FIELD_NAMES] : FIELD_NAMES;
  return Object.fromEntries(names.map((k) => [k, alloc(n)])) as Fields;
}

/**
 * computeFields into existing arrays (reused block after block, no new 13 x nCells arrays each time). `cells`:
 * all (default), a range (out[c] holds cell c, the others untouched: one thread's share), or a list of cell ids
 * (out[k] holds cell ids[k]: a live slice's plane).
 */
export function fillFields(out: Fields, sums: Float64Array, passes: number, masses: number[], nCells: number, fnum: number, cellVolume: number,
  cells: { from: number; to: number } | ArrayLike<number> = { from: 0, to: nCells }): void {
  const S = masses.length;
  const range = typeof (cells as { from?: unknown }).from === 'number' ? (cells as { from: number; to: number }) : null;
  const ids = range ? null : (cells as ArrayLike<number>);
  const [first, end] = range ? [range.from, range.to] : [0, ids!.length];
  if (passes === 0) {
    for (const k of fieldNamesOf(out)) out[k]!.fill(0, first, end);
    return;
  }
  const stride = S * nCells; // from one moment to the next
  const scale = fnum / (cellVolume * passes); // real molecules per m^3 per sampled particle
  const { particlesPerSample: fPps, n: fn, ux: fux, uy: fuy, uz: fuz, pxx: fpxx, pyy: fpyy, pzz: fpzz, p: fp, T: fT, qx: fqx, qy: fqy, qz: fqz } = out;
  for (let o = first; o < end; o++) {
    const c = ids ? ids[o] : o;
    let count = 0, mass = 0;
    let momX = 0, momY = 0, momZ = 0;
    for (let s = 0; s < S; s++) {
      const b = s * nCells + c;
      const N = sums[b];
      count += N;
      mass += masses[s] * N;
      momX += masses[s] * sums[b + stride];
      momY += masses[s] * sums[b + 2 * stride];
      momZ += masses[s] * sums[b + 3 * stride];
    }
    fPps[o] = count / passes;
    if (count === 0) {
      fn[o] = fux[o] = fuy[o] = fuz[o] = fpxx[o] = fpyy[o] = fpzz[o] = fp[o] = fT[o] = fqx[o] = fqy[o] = fqz[o] = 0;
      continue;
    }
    const ux = momX / mass, uy = momY / mass, uz = momZ / mass;
    const uu = ux * ux + uy * uy + uz * uz;
    let px = 0, py = 0, pz = 0;
    let qx = 0, qy = 0, qz = 0;
    for (let s = 0; s < S; s++) {
      const m = masses[s];
      const b = s * nCells + c;
      const N = sums[b];
      if (N === 0) continue;
      const s1x = sums[b + stride], s1y = sums[b + 2 * stride], s1z = sums[b + 3 * stride];
      // second moments: the symmetric tensor S2[i][j] of sum v_i v_j
      const sxx = sums[b + 4 * stride], syy = sums[b + 5 * stride], szz = sums[b + 6 * stride];
      const sxy = sums[b + 7 * stride], sxz = sums[b + 8 * stride], syz = sums[b + 9 * stride];
      const v2 = sxx + syy + szz;
      const s3x = sums[b + 10 * stride], s3y = sums[b + 11 * stride], s3z = sums[b + 12 * stride];
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
    fn[o] = n;
    fux[o] = ux;
    fuy[o] = uy;
    fuz[o] = uz;
    fpxx[o] = px * scale;
    fpyy[o] = py * scale;
    fpzz[o] = pz * scale;
    fp[o] = (fpxx[o] + fpyy[o] + fpzz[o]) / 3;
    fT[o] = fp[o] / (n * BOLTZMANN);
    fqx[o] = qx * scale;
    fqy[o] = qy * scale;
    fqz[o] = qz * scale;
  }
}

/** SHA-256 (hex) of the fields' f64 bytes, field by field in fieldNamesOf order (FIELD_NAMES, the internal ones, the species ones it has), cells in order. */
export function fieldsSha256(f: Fields): string {
  const h = createHash('sha256');
  for (const k of fieldNamesOf(f)) {
    const a = f[k]!;
    h.update(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
  }
  return h.digest('hex');
}

/** Fields that scale with 1 / cell volume (densities of molecules, momentum flux and energy flux; and every n_<species>). */
const PER_VOLUME: readonly BaseFieldName[] = ['n', 'pxx', 'pyy', 'pzz', 'p', 'qx', 'qy', 'qz'];

/**
 * Divides the per-volume fields of cut cells by their gas volume fraction (the fields were computed with the
 * whole cell volume); cells inside bodies (fraction 0) hold no particles and keep 0. `cellIds`: out[k] is
 * cell cellIds[k] (a live slice), else out[c] is cell c. Applied to the means and to their standard errors alike.
 */
export function scaleByGasVolume(out: Fields, fraction: Float64Array | null, cellIds?: ArrayLike<number>): Fields {
  if (!fraction) return out;
  const n = cellIds ? cellIds.length : fraction.length;
  // the species' number densities too (their mole fractions are ratios: unchanged)
  const species = fieldNamesOf(out).filter((k) => k.startsWith('n_')).map((k) => out[k]!);
  for (let o = 0; o < n; o++) {
    const f = fraction[cellIds ? cellIds[o] : o];
    if (f === 1 || f === 0) continue;
    for (const k of PER_VOLUME) out[k][o] /= f;
    for (const k of species) k[o] /= f;
  }
  return out;
}

/** Empty fields (a rank of a multi-rank run keeps none). */
export function noFields(): Fields {
  return Object.fromEntries(FIELD_NAMES.map((k) => [k, new Float64Array(0)])) as Fields;
}
