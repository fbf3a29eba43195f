// Numbers as an engineer reads them: SI prefixes on lengths and times (2.35 mm, 41.2 ns), counts with digit
// groups or in millions (81,920; 125.8 million), byte sizes in binary units, powers of ten as ×10ⁿ, never 1.234e-9.

const SUPERSCRIPT: Readonly<Record<string, string>> = { '-': '⁻', 0: '⁰', 1: '¹', 2: '²', 3: '³', 4: '⁴', 5: '⁵', 6: '⁶', 7: '⁷', 8: '⁸', 9: '⁹' };

/** SI prefixes from pico to kilo, largest first. */
const PREFIXES: readonly [number, string][] = [[1e3, 'k'], [1, ''], [1e-3, 'm'], [1e-6, 'µ'], [1e-9, 'n'], [1e-12, 'p']];

/** `digits` significant digits: plain from 0.001 to below a million, else a mantissa times a power of ten (1.23×10¹²). */
export function readableNumber(x: number, digits = 3): string {
  if (!Number.isFinite(x)) return Number.isNaN(x) ? 'n/a' : x > 0 ? '∞' : '−∞';
  if (x === 0) return '0';
  const a = Math.abs(x);
  if (a >= 1e-3 && a < 1e6) return groupDigits(Number(x.toPrecision(digits)));
  const [mantissa, exponent] = x.toExponential(digits - 1).split('e');
  const power = String(Number(exponent)).replace(/./g, (c) => SUPERSCRIPT[c] ?? c);
  return `${Number(mantissa)}×10${power}`;
}

/** The integer part in groups of three digits (12,345.6). */
function groupDigits(x: number): string {
  const [whole, fraction] = String(Math.abs(x)).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${x < 0 ? '-' : ''}${grouped}${fraction ? `.${fraction}` : ''}`;
}

/** A count rounded to a whole number: grouped digits below a million, else in millions or billions (125.8 million). */
export function readableCount(n: number): string {
  if (!Number.isFinite(n)) return readableNumber(n);
  const a = Math.abs(n);
  if (a < 1e6) return groupDigits(Math.round(n));
  if (a < 1e9) return `${Number((n / 1e6).toPrecision(4))} million`;
  if (a < 1e12) return `${Number((n / 1e9).toPrecision(4))} billion`;
  return readableNumber(n, 4);
}

/** A length, time or other SI quantity with a prefix from p to k (2.35 mm, 41.2 ns, 0 s); `maxPrefix` 1 keeps seconds unprefixed above 1. */
export function readableSi(x: number, unit: string, maxPrefix = 1e3): string {
  if (!Number.isFinite(x)) return `${readableNumber(x)} ${unit}`;
  if (x === 0) return `0 ${unit}`;
  const a = Math.abs(x);
  const [scale, prefix] = PREFIXES.find(([s]) => s <= maxPrefix && a >= s * 0.9995) ?? PREFIXES[PREFIXES.length - 1];
  return `${readableNumber(x / scale)} ${prefix}${unit}`;
}

/** A byte count in binary units (512 bytes, 3.25 MiB, 1.50 GiB). */
export function readableBytes(n: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];
  let v = n;
  let u = 0;
  while (Math.abs(v) >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return u === 0 ? `${readableCount(n)} bytes` : `${v.toFixed(2)} ${units[u]}`;
}
