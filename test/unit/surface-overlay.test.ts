// Compare's overlaid surface distributions (issue 27 item 8): each run's body of the same name, its triangles and the
// area-weighted mean per bin in its own series, runs without the body named.
import { describe, expect, it } from 'vitest';
import { overlaidSurfaceOption, overlaidSurfaceSeries } from '../../src-main/common/charts/surface-overlay-chart.js';
import type { SurfaceView } from '../../src-main/common/contract/types.js';

/** A view of `n` triangles of one body facing the flow (normal -x), at x = 0.01 t, with Cp = scale (1 + t / n). */
function view(runId: number, body: string, n: number, scale: number): SurfaceView {
  const t = [...Array(n).keys()];
  return {
    runId, bodyNames: [body], sampledTime: 1, freeStreamVelocity: [1000, 0, 0], triangles: n, stride: 1, body: t.map(() => 0),
    centroid: t.flatMap((i) => [0.01 * i, 0, 0]), normal: t.flatMap(() => [-1, 0, 0]), area: t.map(() => 1e-4),
    pressure: t.map(() => 1), shear: t.map(() => 0), heatFlux: t.map(() => 0), numberFlux: t.map(() => 0),
    cp: t.map((i) => scale * (1 + i / n)), cf: t.map(() => 0), ch: t.map(() => 0), loads: null,
  };
}

describe('overlaid surface distributions', () => {
  it('gives each run with the body its points and mean line, and names the runs without it', () => {
    const views = [
      { label: 'run 1', view: view(1, 'ramp', 40, 1) },
      { label: 'run 2', view: view(2, 'ramp', 40, 2) },
      { label: 'run 3', view: view(3, 'plate', 40, 1) },
    ];
    const s = overlaidSurfaceSeries(views, 'ramp', 'cp', 'streamwise', 10);
    expect(s.missing).toEqual(['run 3']);
    expect(s.curves.map((c) => c.label)).toEqual(['run 1', 'run 2']);
    expect(s.curves.map((c) => c.points.length)).toEqual([40, 40]);
    // every triangle faces the flow: one mean line each, run 2's twice run 1's in every bin
    const [a, b] = s.curves.map((c) => c.means);
    expect(a).toHaveLength(1);
    expect(a[0].data).toHaveLength(10);
    a[0].data.forEach(([x, y], i) => { expect(b[0].data[i][0]).toBe(x); expect(b[0].data[i][1]).toBeCloseTo(2 * y, 12); });
    const option = overlaidSurfaceOption(views, { body: 'ramp', quantity: 'cp', coordinate: 'streamwise', bins: 10 });
    expect((option.series as { name: string }[]).map((x) => x.name)).toEqual([
      'run 1 triangles', 'run 1, facing the flow', 'run 2 triangles', 'run 2, facing the flow',
    ]);
  });
});
