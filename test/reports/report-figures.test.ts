// Issue 27 item 11: the profile report's field maps and surface distributions (HTML: maps as inline SVG with the cells
// as a PNG, metre axes, a ticked colour bar with the unit, the body outline; charts and tables per body), and the
// CSV tables as a .zip of one plain CSV per table, read back with a zip reader and a CSV parser of the test's own.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { RAMP } from '../../src-main/common/charts/field-heatmap-chart.js';
import { colourRange } from '../../src-main/common/charts/colour-range.js';
import { buildProfileReport } from '../../src-main/common/reports/profile-model.js';
import { exportProfile } from '../../src-main/reports/export-profile.js';
import { reportFormat } from '../../src-main/reports/output-target.js';
import { profileCsvZip, profileTables } from '../../src-main/reports/profile-csv.js';
import { profileHtml } from '../../src-main/reports/profile-html.js';
import { MAX_SCATTER_POINTS, staticSurfaceOption } from '../../src-main/reports/profile-figures-html.js';
import { loadReportFigures } from '../../src-main/reports/report-figures.js';
import { loadProfileInput } from '../../src-main/reports/run-source.js';
import { BODY_CELLS, bodyFields, bodySource, bodySurface } from './figure-fixtures.js';
import { parseCsv, readZip } from './parse-helpers.js';

const source = bodySource();
const report = buildProfileReport(loadProfileInput(source, 42));
const figures = loadReportFigures(source, 42);
const dir = mkdtempSync(join(tmpdir(), 'dsmc-figures-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The zip's files as parsed CSV tables by name (without .csv). */
function zipTables(bytes: Uint8Array): Record<string, string[][]> {
  return Object.fromEntries(readZip(bytes).map((f) => [f.name.replace(/\.csv$/, ''), parseCsv(f.text)]));
}

/** The RGBA pixels of a PNG (8-bit RGBA, filter 0 rows, as the report writes), decoded with node:zlib. */
function decodePng(png: Buffer): { width: number; height: number; px: (x: number, y: number) => number[] } {
  expect([...png.subarray(0, 8)]).toEqual([137, 80, 78, 71, 13, 10, 26, 10]);
  let at = 8, width = 0, height = 0;
  const idat: Buffer[] = [];
  while (at < png.length) {
    const len = png.readUInt32BE(at), type = png.toString('latin1', at + 4, at + 8), data = png.subarray(at + 8, at + 8 + len);
    if (type === 'IHDR') { width = data.readUInt32BE(0); height = data.readUInt32BE(4); expect([data[8], data[9]]).toEqual([8, 6]); }
    if (type === 'IDAT') idat.push(data);
    at += 12 + len;
  }
  const raw = inflateSync(Buffer.concat(idat));
  expect(raw.length).toBe(height * (1 + 4 * width));
  return { width, height, px: (x, y) => { const o = y * (1 + 4 * width) + 1 + 4 * x; expect(raw[y * (1 + 4 * width)]).toBe(0); return [...raw.subarray(o, o + 4)]; } };
}

describe('profile CSV tables as a zip (one CSV file per table)', () => {
  const tables = zipTables(profileCsvZip(report, figures));

  it('holds one plain CSV per table, in order, each a rectangular table whose header is its first row', () => {
    expect(Object.keys(tables)).toEqual(['metrics', 'phases', 'steps', 'totals', 'field_plane', 'surface_distribution', 'surface_triangles']);
    for (const t of profileTables(report, figures)) {
      const rows = tables[t.name];
      expect(rows[0], t.name).toEqual(t.header);
      expect(rows.length, t.name).toBe(t.rows.length + 1);
      for (const r of rows) expect(r.length, `${t.name}: every row as wide as the header`).toBe(t.header.length);
      expect(rows.some((r) => r[0].startsWith('#')), `${t.name}: no section lines`).toBe(false);
    }
  });

  it('reads back the records: metrics, steps and the field plane cell by cell, body cells empty', () => {
    const metrics = Object.fromEntries(tables.metrics.slice(1).map(([k, v]) => [k, v]));
    expect(Number(metrics.run_id)).toBe(42);
    expect(tables.steps.slice(1).map((r) => Number(r[0]))).toEqual([1, 2, 3, 4]);
    const [head, ...rows] = tables.field_plane;
    expect(head.slice(0, 4)).toEqual(['x_cell', 'y_cell', 'x_m', 'y_m']);
    expect(head).toContain('T_K');
    expect(head).toContain('T_se');
    expect(head).not.toContain('uz_m/s'); // the normal velocity of a one-cell-thick plane is not mapped
    expect(rows.length).toBe(BODY_CELLS[0] * BODY_CELLS[1]);
    const f = bodyFields();
    const T = head.indexOf('T_K'), Tse = head.indexOf('T_se');
    const cell = (i: number, j: number) => rows.find((r) => Number(r[0]) === i && Number(r[1]) === j)!;
    expect(Number(cell(1, 4)[2])).toBeCloseTo(1.5e-3, 15);
    expect(Number(cell(1, 4)[3])).toBeCloseTo(4.5e-3, 15);
    expect(Number(cell(1, 4)[T])).toBe(f.values.T[1 + 10 * 4]);
    expect(Number(cell(1, 4)[Tse])).toBe(f.errors.T[1 + 10 * 4]);
    expect(cell(4, 2)[T]).toBe(''); // inside the box
    expect(cell(5, 3)[T]).toBe('');
  });

  it('has every body triangle and binned distributions that agree with the triangles', () => {
    const [head, ...tris] = tables.surface_triangles;
    expect(head.slice(0, 8)).toEqual(['body', 'x_m', 'y_m', 'z_m', 'normal_x', 'normal_y', 'normal_z', 'area_m2']);
    expect(head).toEqual(expect.arrayContaining(['cp', 'cf', 'ch', 'pressure_Pa', 'heatFlux_W_m2']));
    expect(tris.length).toBe(bodySurface().triangleBody.length);
    // the face towards the flow (normal -x): its area-weighted mean Cp is the distribution's first "facing" bin
    const col = (name: string) => head.indexOf(name);
    const front = tris.filter((r) => Number(r[col('normal_x')]) < -0.99);
    expect(front.length).toBeGreaterThan(0);
    const area = front.reduce((s, r) => s + Number(r[col('area_m2')]), 0);
    const cp = front.reduce((s, r) => s + Number(r[col('cp')]) * Number(r[col('area_m2')]), 0) / area;
    const [dHead, ...dist] = tables.surface_distribution;
    expect(dHead.slice(0, 4)).toEqual(['body', 'coordinate', 'group', 'coordinate_value']);
    const facing = dist.filter((r) => r[2] === 'facing the flow');
    expect(facing[0][0]).toBe('block');
    expect(facing[0][1]).toBe('distance_along_stream_m');
    expect(Number(facing[0][dHead.indexOf('cp')])).toBeCloseTo(cp, 12);
    expect(dist.filter((r) => r[2] === 'sheltered from the flow').length).toBeGreaterThan(0);
  });

  it('is written by exportProfile to FILE.zip through a temporary file, and .zip names the format', async () => {
    const out = join(dir, 'p.zip');
    expect(reportFormat(out, undefined, ['html', 'csv', 'json', 'pdf', 'zip'], 'html')).toBe('zip');
    await exportProfile(report, 'zip', out, {}, figures);
    expect(readdirSync(dir)).toEqual(['p.zip']);
    expect(Object.keys(zipTables(readFileSync(out)))).toContain('surface_triangles');
  });
});

describe('profile HTML with field maps and surface distributions', () => {
  const html = profileHtml(report, 'fixed', figures);

  it('draws one map per field of the plane, axes in metres, a colour bar in the unit, the body outline', () => {
    const maps = [...html.matchAll(/<figure id="map-(\w+)" data-field="\w+">(.*?)<\/figure>/gs)];
    expect(maps.map((m) => m[1])).toEqual(['n', 'T', 'p', 'ux', 'uy']);
    for (const [, field, svg] of maps) {
      expect(svg, field).toMatch(/^<svg[^>]*>/);
      expect(svg, field).toContain('x [m]');
      expect(svg, field).toContain('y [m]');
      expect(svg, field).toContain('image-rendering:pixelated');
      expect(svg.match(/<path [^>]*stroke="#fff(fff)?"/g)?.length ?? 0, `${field}: white outline segments`).toBeGreaterThanOrEqual(4);
    }
    const T = maps.find((m) => m[1] === 'T')![2];
    expect(T).toContain('translational temperature [K]');
    expect(T).toMatch(/>K<\/text>/); // the colour bar's unit
    expect(html).toContain('The plane z = 5e-4 m (cell layer 0)');
  });

  it('colours the embedded cells as the colour bar does, with the cells inside the body transparent', () => {
    const svg = html.match(/<figure id="map-T"[^>]*>(.*?)<\/figure>/s)![1];
    const png = decodePng(Buffer.from(/href="data:image\/png;base64,([A-Za-z0-9+/=]+)"/.exec(svg)![1], 'base64'));
    const scale = png.width / BODY_CELLS[0];
    expect(png.height).toBe(BODY_CELLS[1] * scale);
    const at = (i: number, j: number) => png.px(Math.floor((i + 0.5) * scale), Math.floor((BODY_CELLS[1] - 1 - j + 0.5) * scale));
    expect(at(4, 2)[3]).toBe(0);
    const T = figures.maps.find((m) => m.field === 'T')!;
    const range = colourRange(T.values, { mode: 'robust' });
    const hottest = T.values.reduce<number>((m, v) => (v !== null && v > m ? v : m), -Infinity);
    const k = T.values.indexOf(hottest);
    const top = RAMP[RAMP.length - 1];
    expect(hottest).toBeGreaterThanOrEqual(range.max); // saturates at the top colour
    expect(at(k % 10, Math.floor(k / 10))).toEqual([parseInt(top.slice(1, 3), 16), parseInt(top.slice(3, 5), 16), parseInt(top.slice(5, 7), 16), 255]);
  });

  it('charts Cp, Cf and Ch on the body and lists the binned means with exact values', () => {
    for (const q of ['cp', 'cf', 'ch']) expect(html, q).toMatch(new RegExp(`<figure id="surface-0-${q}"><svg`));
    expect(html).toContain('<h3>block</h3>');
    const table = html.match(/<table id="surface-distribution-0" class="distribution">(.*?)<\/table>/s)![1];
    expect(table).toContain('pressure coefficient Cp');
    expect((table.match(/<tr>/g) ?? []).length).toBeGreaterThan(2);
  });

  it('draws at most MAX_SCATTER_POINTS triangles per scatter of a large mesh, while the binned means use every triangle', () => {
    const n = 25_000;
    const view = { ...figures.surface!, triangles: n, body: new Array(n).fill(0), area: new Array(n).fill(1),
      centroid: Array.from({ length: 3 * n }, (_, i) => (i % 3 === 0 ? i / 3 : 0)), normal: Array.from({ length: 3 * n }, (_, i) => (i % 3 === 1 ? 1 : 0)),
      cp: Array.from({ length: n }, (_, t) => (t % 3 === 0 ? 1 : 0)) };
    const series = staticSurfaceOption(view, 0, 'cp', 'streamwise').series as { type: string; data: number[][] }[];
    const scatter = series.filter((x) => x.type === 'scatter');
    expect(scatter.reduce((k, x) => k + x.data.length, 0)).toBeGreaterThan(0);
    for (const x of scatter) expect(x.data.length).toBeLessThanOrEqual(MAX_SCATTER_POINTS);
    // cp is 1 on every third triangle along the stream: the drawn points (every third) are all 1, while every bin's
    // area-weighted mean over all the triangles is 1/3
    for (const x of scatter) expect(new Set(x.data.map((p) => p[1]))).toEqual(new Set([1]));
    const means = series.filter((x) => x.type === 'line').flatMap((x) => x.data.map((p) => p[1]));
    expect(means.length).toBeGreaterThan(10);
    for (const m of means) expect(Math.abs(m - 1 / 3)).toBeLessThan(0.002);
  });

  it('says why there are no maps for a run without fields, and has no outline or surface section without bodies', () => {
    const none = loadReportFigures(bodySource({ withFields: false }), 42);
    expect(profileHtml(report, 'fixed', none)).toMatch(/<h2>Field maps<\/h2><p>Not available: run 42 kept no sampled fields/);
    const plain = loadReportFigures(bodySource({ withSurface: false }), 42);
    const h = profileHtml(report, 'fixed', plain);
    expect(h).toContain('<figure id="map-T"');
    expect(h).not.toMatch(/stroke="#fff(fff)?"/);
    expect(h).not.toContain('Surface distributions');
    expect(profileHtml(report, 'fixed')).not.toContain('Field maps');
  });
});
