// Renders an ECharts option to an SVG string on the server (ECharts SSR, no DOM), so reports carry their
// charts inline and open offline.
import * as echarts from 'echarts';
import type { EChartsOption } from 'echarts';

/** The option drawn at width x height as one <svg> element (the chart instance is disposed). */
export function renderChartSvg(option: EChartsOption, width: number, height: number): string {
  const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width, height });
  try {
    chart.setOption({ ...option, animation: false });
    return chart.renderToSVGString();
  } finally {
    chart.dispose();
  }
}
