// Number formatting shared by the reports (terminal, HTML, and later the renderer).

/** A duration in seconds with a readable unit (s, ms, us, ns). */
export function formatSeconds(s: number | null): string {
  if (s === null || !Number.isFinite(s)) return 'n/a';
  const a = Math.abs(s);
  if (a >= 1 || a === 0) return `${s.toFixed(3)} s`;
  if (a >= 1e-3) return `${(s * 1e3).toFixed(3)} ms`;
  if (a >= 1e-6) return `${(s * 1e6).toFixed(2)} us`;
  return `${(s * 1e9).toFixed(2)} ns`;
}

/** A number in exponent notation with `digits` decimals, or 'n/a'. */
export function formatSci(x: number | null, digits = 3): string {
  return x === null || !Number.isFinite(x) ? 'n/a' : x.toExponential(digits);
}

/** A percentage with one decimal, or 'n/a'. */
export function formatPercent(x: number | null, digits = 1): string {
  return x === null || !Number.isFinite(x) ? 'n/a' : `${x.toFixed(digits)} %`;
}

/** A ratio such as x1.023, or 'n/a'. */
export function formatRatio(x: number | null): string {
  return x === null || !Number.isFinite(x) ? 'n/a' : `x${x.toFixed(3)}`;
}

/** A number with `digits` significant digits: plain when moderate, exponent notation when very large or small; 'n/a' when unknown. */
export function formatGeneral(x: number | null, digits = 4): string {
  if (x === null || !Number.isFinite(x)) return 'n/a';
  const a = Math.abs(x);
  if (a === 0) return '0';
  return a >= 1e5 || a < 1e-3 ? x.toExponential(digits - 1) : String(Number(x.toPrecision(digits)));
}
