// The services' surface results and bodies on field slices, against a temporary run database: getSurface's
// per-triangle arrays (pressures set through the sums come back, cp from the free stream, JSON-safe), its
// refusals naming the run and why, the outline and blank cells of getFieldSlice (kept surfaces, or the case's
// bodies for runs recorded before), the outline on live slices, body geometry errors in the live check with
// their field path, and one real run of the shrunk sphere-free-molecular preset (Cd against Bird's 3.06).
// The real run needs the built child (npm run build).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOLTZMANN } from '../../src-main/common/physics.js';
import { domainLengths, parseCase, resolvedFnum } from '../../src-main/common/case-schema.js';
import { dispatch } from '../../src-main/common/contract/contract.js';
import type { FieldSlice, RunEvent } from '../../src-main/common/contract/types.js';
import { buildCellTable, tessellateShape } from '../../src-main/common/geometry/index.js';
import type { RunSurface } from '../../src-main/common/run-record.js';
import { freeStreamOf, surfaceSummaryOf } from '../../src-main/common/surface/run-surface-results.js';
import { SURFACE_Q } from '../../src-main/common/surface-layout.js';
import { StudioService } from '../../src-main/services/studio-service.js';
import { fields, phases, summary } from '../store/store-fixtures.js';

let dir: string;
let service: StudioService;
const events: RunEvent[] = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'dsmc-surface-'));
  service = new StudioService({ dataDir: dir });
  service.onEvent((e) => events.push(e));
});

afterAll(async () => {
  await service.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The sphere-free-molecular preset with an icosphere of `subdivisions` (80 triangles for 1). */
async function sphereCase(subdivisions = 1): Promise<Record<string, unknown>> {
  const preset = (await service.listPresets()).find((p) => p.name === 'sphere-free-molecular')!;
  const c = JSON.parse(JSON.stringify(preset.json)) as { bodies: { shape: Record<string, unknown> }[] };
  c.bodies[0].shape.subdivisions = subdivisions;
  return c as unknown as Record<string, unknown>;
}

/** The pressure the made-up sums give triangle t, Pa. */
const pressureOf = (t: number) => (1 + t) * 1e-3;

/** A run of `caseJson` recorded in the store: running, or completed with fields and (optionally) surfaces. */
function recordRun(caseJson: Record<string, unknown>, opts: { complete: boolean; surface?: RunSurface | null; withSummarySurface?: boolean }): number {
  const id = service.store.createRun({
    project: 'surfaces', caseName: String(caseJson.name), caseJson, seed: 1, ranks: 1, gpus: 1,
    adapter: { description: 'test adapter', backend: 'vulkan' }, productVersion: '0.0.0-test',
  });
  if (opts.complete) {
    const c = parseCase(caseJson);
    const s = summary();
    if (opts.surface && opts.withSummarySurface !== false) s.surface = surfaceSummaryOf(c, opts.surface, opts.surface.sums);
    service.store.completeRun(id, { summary: s, phases: phases(), fields: { ...fields(c.grid.cells), cellSize: c.grid.cellSize }, surface: opts.surface ?? null });
  }
  return id;
}

/**
 * The case's surfaces as the solver would keep them, with sums that give triangle t a pressure of (1 + t) mPa
 * (momentum arriving along -n only: no shear, no heat) and 50 hits, over 1 ms.
 */
function sphereSurface(caseJson: Record<string, unknown>, withCells = true): RunSurface {
  const c = parseCase(caseJson);
  const tris = tessellateShape(c.bodies[0].shape, domainLengths(c));
  const n = tris.length / 9;
  const table = withCells ? buildCellTable(tris, { cells: c.grid.cells, cellSize: c.grid.cellSize }) : null;
  const sampledTime = 1e-3;
  const values = new Float64Array((n + 6) * SURFACE_Q);
  const scale = resolvedFnum(c) / sampledTime;
  for (let t = 0; t < n; t++) {
    const p = 9 * t;
    const e1 = [tris[p + 3] - tris[p], tris[p + 4] - tris[p + 1], tris[p + 5] - tris[p + 2]];
    const e2 = [tris[p + 6] - tris[p], tris[p + 7] - tris[p + 1], tris[p + 8] - tris[p + 2]];
    const cr = [e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]];
    const area = Math.hypot(...cr) / 2;
    const normal = cr.map((x) => x / (2 * area));
    const o = t * SURFACE_Q;
    values[o] = 50;
    for (let a = 0; a < 3; a++) values[o + 1 + a] = (-pressureOf(t) * area * normal[a]) / scale;
  }
  return {
    sums: { elements: n + 6, values, sampledTime }, triangles: tris, triangleBody: new Int32Array(n), bodyNames: ['sphere'],
    cellKind: table?.kind ?? null, volumeFraction: table?.volumeFraction ?? null,
  };
}

describe('getSurface', () => {
  it('returns per-triangle results in parallel arrays, coefficients from the free stream, and the loads, all JSON-safe', async () => {
    const json = await sphereCase(1);
    const surface = sphereSurface(json);
    const id = recordRun(json, { complete: true, surface });
    const v = await service.getSurface({ runId: id });
    expect(v.triangles).toBe(80);
    expect(v.stride).toBe(1);
    expect(v.bodyNames).toEqual(['sphere']);
    expect(v.freeStreamVelocity).toEqual([706.6, 0, 0]);
    expect(v.sampledTime).toBe(1e-3);
    for (const [name, per] of [['body', 1], ['centroid', 3], ['normal', 3], ['area', 1], ['pressure', 1], ['shear', 1], ['heatFlux', 1], ['numberFlux', 1], ['cp', 1], ['cf', 1], ['ch', 1]] as const) {
      expect((v[name] as unknown[]).length, name).toBe(per * 80);
    }
    // the pressures set through the sums, no shear, no heat; centroids on the sphere, unit normals pointing out
    v.pressure.forEach((p, t) => expect(Math.abs(p! / pressureOf(t) - 1)).toBeLessThan(1e-5));
    expect(Math.max(...v.shear.map((x) => Math.abs(x!)))).toBeLessThan(1e-9);
    expect(v.heatFlux.every((x) => x === 0)).toBe(true);
    for (let t = 0; t < 80; t++) {
      const c = [v.centroid[3 * t] - 0.3, v.centroid[3 * t + 1] - 0.3, v.centroid[3 * t + 2] - 0.3];
      expect(Math.hypot(...c)).toBeGreaterThan(0.09);
      expect(Math.hypot(...c)).toBeLessThan(0.13);
      const nrm = [v.normal[3 * t], v.normal[3 * t + 1], v.normal[3 * t + 2]];
      expect(Math.hypot(...nrm)).toBeCloseTo(1, 4);
      expect(nrm[0] * c[0] + nrm[1] * c[1] + nrm[2] * c[2]).toBeGreaterThan(0);
    }
    // cp = (p - n k T) / (rho U^2 / 2)
    const fs = freeStreamOf(parseCase(json))!;
    const q = 0.5 * fs.density * 706.6 ** 2;
    v.cp!.forEach((cp, t) => expect(Math.abs(cp! / ((pressureOf(t) - fs.numberDensity * BOLTZMANN * fs.temperature) / q) - 1)).toBeLessThan(1e-5));
    expect(v.loads!.bodies.map((b) => b.name)).toEqual(['sphere']);
    expect(v.loads!.bodies[0].triangles).toBe(80);
    expect(v.loads!.bodies[0].referenceArea).toBeCloseTo(0.0452389, 7);
    expect(v.loads!.faces).toHaveLength(6);
    expect(JSON.parse(JSON.stringify(v))).toEqual(v);
    expect(JSON.stringify(v).length).toBeLessThan(80 * 200);
    expect((await service.getRun({ runId: id })).bodies).toBe(1);
  });

  it('takes the loads from the surfaces when the summary has none', async () => {
    const json = await sphereCase(1);
    const id = recordRun(json, { complete: true, surface: sphereSurface(json), withSummarySurface: false });
    const v = await service.getSurface({ runId: id });
    expect(v.loads!.bodies[0].name).toBe('sphere');
    expect((await service.getRun({ runId: id })).bodies).toBe(0);
  });

  it('sends every k-th triangle of a mesh of more than 50000', async () => {
    const json = await sphereCase(6); // 81920 triangles
    const id = recordRun(json, { complete: true, surface: sphereSurface(json, false) });
    const v = await service.getSurface({ runId: id });
    expect([v.stride, v.triangles, v.pressure.length, v.centroid.length]).toEqual([2, 40960, 40960, 3 * 40960]);
    expect(v.pressure[1]).toBeCloseTo(pressureOf(2), 9);
    expect(v.loads!.bodies[0].triangles).toBe(81920);
  });

  it('refuses runs without body surfaces, naming the run and why', async () => {
    const json = await sphereCase(1);
    const running = recordRun(json, { complete: false });
    await expect(service.getSurface({ runId: running })).rejects.toThrow(`run ${running} has no surface results: it is running: surface results are kept when a run completes`);
    const old = recordRun(json, { complete: true, surface: null });
    await expect(service.getSurface({ runId: old })).rejects.toThrow(`run ${old} has no surface results: it was recorded before runs kept their surfaces`);
    const noBodies = { ...json, bodies: [] };
    const faces: RunSurface = { sums: { elements: 6, values: new Float64Array(6 * SURFACE_Q), sampledTime: 1e-3 }, triangles: new Float64Array(0), triangleBody: new Int32Array(0), bodyNames: [], cellKind: null, volumeFraction: null };
    const plain = recordRun(noBodies, { complete: true, surface: faces });
    await expect(service.getSurface({ runId: plain })).rejects.toThrow(`run ${plain} has no body surfaces: its case has no bodies`);
    await expect(service.getSurface({ runId: 9999 })).rejects.toThrow('9999');
    await expect(dispatch(service, 'getSurface', { runId: -1 })).rejects.toThrow('getSurface: runId');
  });
});

/** Plane positions k of a z slice (index kz) whose cell is inside a body or a sliver of gas, from the kept surfaces. */
function blankPositions(s: RunSurface, cells: [number, number, number], kz: number): number[] {
  const out: number[] = [];
  for (let k = 0; k < cells[0] * cells[1]; k++) {
    const cell = k + cells[0] * cells[1] * kz;
    if (s.cellKind![cell] === 2 || (s.cellKind![cell] === 1 && s.volumeFraction![cell] < 0.01)) out.push(k);
  }
  return out;
}

describe('bodies on field slices', () => {
  it('outlines the sphere on the plane and blanks the cells inside it', async () => {
    const json = await sphereCase(3);
    const surface = sphereSurface(json);
    const id = recordRun(json, { complete: true, surface });
    const s = await service.getFieldSlice({ runId: id, field: 'n', axis: 'z' });
    expect(s.index).toBe(6);
    expect(s.cellSize).toEqual([0.05, 0.05]);
    // the plane z = 0.325 m cuts the 0.12 m sphere (centre 0.3 m) in a circle of radius ~0.117 m = 2.34 cells around (6, 6)
    expect(s.outline!.length / 4).toBeGreaterThan(30);
    for (let i = 0; i < s.outline!.length; i += 2) {
      expect(Math.hypot(s.outline![i] - 6, s.outline![i + 1] - 6)).toBeGreaterThan(2.2);
      expect(Math.hypot(s.outline![i] - 6, s.outline![i + 1] - 6)).toBeLessThan(2.4);
    }
    const blank = blankPositions(surface, [12, 12, 12], 6);
    expect(blank.length).toBeGreaterThan(3);
    expect(s.bodyCells).toBe(blank.length);
    s.values.forEach((x, k) => { if (blank.includes(k)) expect(x).toBeNull(); });
    // a plane that misses the sphere: no outline, nothing blank
    const edge = await service.getFieldSlice({ runId: id, field: 'n', axis: 'x', index: 0 });
    expect(edge.outline).toEqual([]);
    expect(edge.bodyCells).toBe(0);
  });

  it('outlines the case\'s bodies for a run recorded before surfaces were kept, and not at all without bodies', async () => {
    const json = await sphereCase(2);
    const id = recordRun(json, { complete: true, surface: null });
    const s = await service.getFieldSlice({ runId: id, field: 'T', axis: 'y', index: 6 });
    expect(s.outline!.length).toBeGreaterThan(0);
    expect(s.bodyCells).toBeUndefined();
    const plain = recordRun({ ...json, bodies: [] }, { complete: true, surface: null });
    expect((await service.getFieldSlice({ runId: plain, field: 'n', axis: 'z' })).outline).toBeUndefined();
  });

  it('adds the outline of the case\'s bodies to a running run\'s live slices', async () => {
    const json = await sphereCase(2);
    const id = recordRun(json, { complete: false });
    const live: FieldSlice = {
      field: 'n', label: 'number density', unit: 'm^-3', axis: 'z', index: 6, depth: 12, axes: ['x', 'y'], width: 12, height: 12,
      values: new Array(144).fill(1), min: 1, max: 1, samples: 3,
    };
    (service as unknown as { emit(e: RunEvent): void }).emit({ kind: 'field', runId: id, slice: live });
    const got = events.filter((e): e is Extract<RunEvent, { kind: 'field' }> => e.kind === 'field' && e.runId === id).at(-1)!;
    expect(got.slice.outline!.length).toBeGreaterThan(0);
    expect(got.slice.cellSize).toEqual([0.05, 0.05]);
    expect(got.slice.values).toEqual(live.values); // live views are outlined, not blanked
  });
});

describe('case check with bodies', () => {
  it('reports a body outside the box as a case issue at its body\'s path instead of failing', async () => {
    const json = await sphereCase(1);
    (json.bodies as { shape: { center: number[] } }[])[0].shape.center = [0.55, 0.3, 0.3];
    const r = await service.checkCase({ caseJson: json });
    expect(r.ok).toBe(false);
    expect(r.prelaunch).toBeNull();
    expect(r.issues.map((i) => i.path)).toContain('bodies[0].shape');
    expect(r.issues.map((i) => i.message).join(' ')).toMatch(/body "sphere" (leaves the box|crosses the inflow face xmax)/);
    const good = await service.checkCase({ caseJson: await sphereCase(1) });
    expect(good.ok).toBe(true);
  });
});

describe('a real run with a body', () => {
  it('runs the shrunk sphere preset and gives its surface: Cd near Bird\'s 3.06, the front pressed harder than the back', async () => {
    const json = await sphereCase(4);
    (json.run as Record<string, number>).steps = 150;
    (json.sampling as Record<string, number>).start = 20;
    const { runId } = await service.launchRun({ project: 'surfaces', caseJson: json, ranks: 1, decomposition: 'slab' });
    const end = await new Promise<Extract<RunEvent, { kind: 'ended' }>>((resolve) => {
      const found = events.find((e) => e.kind === 'ended' && e.runId === runId);
      if (found) { resolve(found as Extract<RunEvent, { kind: 'ended' }>); return; }
      const off = service.onEvent((e) => { if (e.kind === 'ended' && e.runId === runId) { off(); resolve(e); } });
    });
    expect(end.status, end.reason ?? '').toBe('completed');
    const v = await service.getSurface({ runId });
    expect(v.triangles).toBe(5120);
    const cd = v.loads!.bodies[0].cd!;
    expect(Math.abs(cd / 3.06 - 1)).toBeLessThan(0.1);
    // area-weighted Cp over triangles facing the flow (normal x < -0.9) and facing away (> 0.9)
    const mean = (sel: (nx: number) => boolean) => {
      let s = 0, w = 0;
      for (let t = 0; t < v.triangles; t++) if (sel(v.normal[3 * t])) { s += v.cp![t]! * v.area[t]; w += v.area[t]; }
      return s / w;
    };
    expect(mean((nx) => nx < -0.9)).toBeGreaterThan(1.5);
    expect(mean((nx) => nx > 0.9)).toBeLessThan(0.5);
    const slice = await service.getFieldSlice({ runId, field: 'n', axis: 'z' });
    expect(slice.outline!.length / 4).toBeGreaterThan(50);
    expect(slice.bodyCells).toBeGreaterThan(0);
    expect(events.some((e) => e.kind === 'field' && e.runId === runId && (e.slice.outline?.length ?? 0) > 0)).toBe(true);
  });
});
