// Short number and time formats of the views.

/** A rate such as 1.23e+6. */
export function sci(x: number | null | undefined, digits = 3): string {
  return x === null || x === undefined || !Number.isFinite(x) ? 'n/a' : x.toExponential(digits);
}

/** Seconds as "1 min 05 s" or "4.2 s". */
export function duration(s: number | null | undefined): string {
  if (s === null || s === undefined || !Number.isFinite(s)) return 'n/a';
  if (s < 60) return `${s.toFixed(1)} s`;
  const m = Math.floor(s / 60);
  return `${m} min ${String(Math.round(s - 60 * m)).padStart(2, '0')} s`;
}

/** An ISO time as local date and time. */
export function when(iso: string | null): string {
  return iso ? new Date(iso).toLocaleString() : '';
}

/** A value with 4 significant digits: plain when moderate, exponent notation when very large or small; 'n/a' when unknown. */
export function general(x: number | null | undefined, digits = 4): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return 'n/a';
  const a = Math.abs(x);
  if (a === 0) return '0';
  return a >= 1e5 || a < 1e-3 ? x.toExponential(digits - 1) : String(Number(x.toPrecision(digits)));
}
