// Shared look of the product's charts: palette, fonts and the pieces every option builder repeats.
// Static options only (no animation), so the same option renders in the browser and to SVG on the server.
import type { EChartsOption } from 'echarts';

/** Series colours, in the order series take them. */
export const CHART_COLORS = ['#3366cc', '#dc7633', '#2e9e6a', '#9b59b6', '#c0392b', '#7f8c8d', '#d4ac0d', '#1abc9c'];

/** Options every chart starts from: palette, font, no animation, a title. */
export function baseOption(title: string): EChartsOption {
  return {
    animation: false,
    color: CHART_COLORS,
    textStyle: { fontFamily: 'sans-serif', fontSize: 12 },
    title: { text: title, left: 'center', textStyle: { fontSize: 14, fontWeight: 'bold' } },
    grid: { left: 80, right: 80, top: 50, bottom: 60, containLabel: false },
  };
}

/** A number for an axis label: plain when moderate, exponent notation when very large or small. */
export function axisNumber(v: number): string {
  if (v === 0) return '0';
  const a = Math.abs(v);
  const short = Number(v.toPrecision(6));
  return a >= 1e5 || a < 1e-3 ? short.toExponential() : String(short);
}
