// Small dense least squares for model fits: Householder QR (no normal equations, so the error grows with
// the condition number, not its square) and non-negative least squares for a handful of unknowns.

/** Solves min ||A x - b|| for A (rows x cols, rows >= cols, full column rank) by Householder QR; null when rank-deficient. */
export function leastSquares(a: number[][], b: number[]): number[] | null {
  const m = a.length;
  const n = m > 0 ? a[0].length : 0;
  if (n === 0 || m < n) return null;
  const r = a.map((row) => [...row]);
  const y = [...b];
  const scale = Math.max(...r.flat().map(Math.abs), 0);
  for (let k = 0; k < n; k++) {
    let norm = 0;
    for (let i = k; i < m; i++) norm += r[i][k] * r[i][k];
    norm = Math.sqrt(norm);
    if (norm <= 1e-12 * scale || norm === 0) return null;
    const alpha = r[k][k] > 0 ? -norm : norm;
    const v = new Array<number>(m).fill(0);
    for (let i = k; i < m; i++) v[i] = r[i][k];
    v[k] -= alpha;
    let vv = 0;
    for (let i = k; i < m; i++) vv += v[i] * v[i];
    if (vv === 0) continue;
    // reflect the remaining columns and the right-hand side: x -= 2 v (v.x) / (v.v)
    for (let j = k; j < n; j++) {
      let d = 0;
      for (let i = k; i < m; i++) d += v[i] * r[i][j];
      const f = (2 * d) / vv;
      for (let i = k; i < m; i++) r[i][j] -= f * v[i];
    }
    let d = 0;
    for (let i = k; i < m; i++) d += v[i] * y[i];
    const f = (2 * d) / vv;
    for (let i = k; i < m; i++) y[i] -= f * v[i];
  }
  const x = new Array<number>(n).fill(0);
  for (let k = n - 1; k >= 0; k--) {
    let s = y[k];
    for (let j = k + 1; j < n; j++) s -= r[k][j] * x[j];
    x[k] = s / r[k][k];
  }
  return x;
}

/** Sum of squared residuals of A x - b. */
export function residualSquares(a: number[][], x: number[], b: number[]): number {
  return a.reduce((acc, row, i) => {
    const e = row.reduce((s, v, j) => s + v * x[j], 0) - b[i];
    return acc + e * e;
  }, 0);
}

/**
 * Non-negative least squares min ||A x - b|| subject to x >= 0, exact for few unknowns (<= 8): the optimum is the
 * unconstrained least-squares solution on its own support (KKT), so every support is tried and the best
 * feasible one kept. Null when no support gives a solution (e.g. no rows).
 */
export function nonNegativeLeastSquares(a: number[][], b: number[]): number[] | null {
  const n = a.length > 0 ? a[0].length : 0;
  if (n === 0 || n > 8) return null;
  let best: { x: number[]; ss: number } | null = null;
  for (let mask = 1; mask < 1 << n; mask++) {
    const cols = [...Array(n).keys()].filter((j) => mask & (1 << j));
    const sub = leastSquares(a.map((row) => cols.map((j) => row[j])), b);
    if (!sub || sub.some((v) => v < 0)) continue;
    const x = new Array<number>(n).fill(0);
    cols.forEach((j, i) => { x[j] = sub[i]; });
    const ss = residualSquares(a, x, b);
    if (!best || ss < best.ss) best = { x, ss };
  }
  const zero = new Array<number>(n).fill(0);
  const ssZero = residualSquares(a, zero, b);
  if (a.length > 0 && (!best || ssZero < best.ss)) best = { x: zero, ss: ssZero };
  return best ? best.x : null;
}
