// Seeded random numbers (mulberry32) for what must come out the same every time: the host's Monte Carlo estimates
// (tce-equilibrium.ts) and the tests' inputs (test/seeded-random.ts re-exports these).

/** Uniform 32-bit words from a seed. */
export function mulberry32Words(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}

/** Uniform numbers in [0, 1) from a seed. */
export function seededUniform(seed: number): () => number {
  const words = mulberry32Words(seed);
  return () => words() / 4294967296;
}
