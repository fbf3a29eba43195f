// Reference Philox-4x32-10 in TypeScript (Salmon et al., SC'11; Random123 philox.h), written with
// BigInt products so that it shares no arithmetic trick with the WGSL mulhilo.

const M0 = 0xd2511f53n;
const M1 = 0xcd9e8d57n;
const W0 = 0x9e3779b9;
const W1 = 0xbb67ae85;

/** High and low 32-bit halves of the 64-bit product m * x. */
function mulhilo(m: bigint, x: number): [number, number] {
  const p = m * BigInt(x >>> 0);
  return [Number(p >> 32n), Number(p & 0xffffffffn)];
}

/** Ten rounds of Philox-4x32 on counter [c0..c3] under key [k0, k1]: four 32-bit words. */
export function philox4x32Reference(counter: readonly number[], key: readonly number[]): [number, number, number, number] {
  let [c0, c1, c2, c3] = counter.map((v) => v >>> 0);
  let [k0, k1] = key.map((v) => v >>> 0);
  for (let r = 0; r < 10; r++) {
    if (r > 0) {
      k0 = (k0 + W0) >>> 0;
      k1 = (k1 + W1) >>> 0;
    }
    const [hi0, lo0] = mulhilo(M0, c0);
    const [hi1, lo1] = mulhilo(M1, c2);
    [c0, c1, c2, c3] = [(hi1 ^ c1 ^ k0) >>> 0, lo1, (hi0 ^ c3 ^ k1) >>> 0, lo0];
  }
  return [c0, c1, c2, c3];
}

/** The solver's u01 mapping, exactly as common.wgsl computes it in f32. */
export function u01Reference(x: number): number {
  return Math.min(Math.fround(Math.fround((x >>> 8) + 0.5) * (1 / 16777216)), 1 - 2 ** -24);
}
