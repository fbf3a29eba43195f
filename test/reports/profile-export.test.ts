// The profile exporters: HTML (self-contained, SVG charts, escaped user text, numbers that read back),
// CSV (sections that parse back to the records), JSON (the model) and the temp-and-rename write.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildProfileReport } from '../../src-main/common/reports/profile-model.js';
import { exportProfile, profileFormatOf } from '../../src-main/reports/export-profile.js';
import { escapeHtml } from '../../src-main/reports/html-escape.js';
import { profileCsv } from '../../src-main/reports/profile-csv.js';
import { profileHtml } from '../../src-main/reports/profile-html.js';
import { NASTY, NASTY_BODY, sampleInput, sampleSurface } from './fixtures.js';
import { csvSections, htmlKeyedValues, htmlPhaseRow } from './parse-helpers.js';

const report = buildProfileReport(sampleInput());

describe('HTML profile', () => {
  const html = profileHtml(report);

  it('contains its charts as inline SVG and references nothing outside the file', () => {
    expect((html.match(/<svg[\s>]/g) ?? []).length).toBe(3);
    for (const id of ['phase-time', 'step-stats', 'energy']) expect(html).toContain(`<figure id="chart-${id}"><svg`);
    const urls = [...html.matchAll(/https?:\/\/[^\s"'<>)]*/g)].map((m) => m[0]);
    expect(urls.filter((u) => !['http://www.w3.org/2000/svg', 'http://www.w3.org/1999/xlink'].includes(u))).toEqual([]);
    expect(html).not.toMatch(/\bsrc\s*=/i);
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<link\b/i);
    expect(html).not.toMatch(/@import|url\((?!#)/i);
    const xmlns = [...html.matchAll(/(https?:\/\/[^"]*)"/g)].every((m) => html.slice(m.index! - 20, m.index).includes('xmlns'));
    expect(xmlns).toBe(true);
  });

  it('escapes run, case and project names, tags, notes and the adapter', () => {
    expect(html).not.toContain(NASTY);
    expect(html).not.toContain('<b>bold</b>');
    expect(html).toContain(escapeHtml(NASTY));
    expect(html).toContain('box &amp; &lt;friends&gt;');
    expect(html).toContain('proj &amp; co');
    expect(html).toContain('Fake GPU &lt;1&gt;');
    expect(html).toContain(`note ${escapeHtml(NASTY)}<br>second line`);
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });

  it('shows numbers that agree with the records', () => {
    const v = htmlKeyedValues(html);
    expect(Number(v['run.id'])).toBe(42);
    expect(Number(v.particleStepsPerSecond)).toBe(80000);
    expect(Number(v.loopSeconds)).toBe(0.05);
    expect(Number(v.collisionsPerParticleStep)).toBe(0.0707);
    expect(Number(v.candidatesPerParticleStep)).toBe(0.401);
    expect(Number(v.energyRelDrift)).toBe(1.5e-7);
    expect(v.momentumRelDrift).toBe('');
    expect(Number(v['host.waitSeconds'])).toBe(0.02);
    expect(Number(v['host.submits'])).toBe(2);
    expect(Number(v['host.foldSeconds'])).toBe(0.004);
    expect(html).toMatch(/not conserved by these boundaries/);
    const [, calls, perCall, min, avg, max, pct, perParticle] = htmlPhaseRow(html, 'collide').map((x) => (x === '' ? NaN : Number(x)));
    expect(calls).toBe(4);
    expect(perCall).toBeCloseTo((0.010 / 4 + 0.014 / 4) / 2, 15);
    expect([min, avg, max]).toEqual([0.010, 0.012, 0.014]);
    expect(pct).toBeCloseTo(24, 10);
    expect(perParticle).toBeCloseTo(0.012 / 1000, 15);
    const other = htmlPhaseRow(html, 'other').filter((x) => x !== '').map(Number);
    expect(other[0]).toBeCloseTo(0.05 - 0.005 - 0.012, 15);
    expect(html).toContain('AVG x Call');
  });
});

describe('CSV profile', () => {
  const s = csvSections(profileCsv(report));

  it('has metrics, phases, steps and totals sections that read back to the records', () => {
    expect(Object.keys(s)).toEqual(['metrics', 'phases', 'steps', 'totals']);
    const m = Object.fromEntries(s.metrics.rows.map(([k, v]) => [k, v]));
    expect(Number(m.run_id)).toBe(42);
    expect(m.project).toBe('proj & co');
    expect(m.notes).toBe(`note ${NASTY}\nsecond line`);
    expect(Number(m.particle_steps_per_second)).toBe(80000);
    expect(Number(m.collisions_per_particle_step)).toBe(0.0707);
    expect(m.momentum_rel_drift).toBe('');
    expect(Number(m.energy_rel_drift)).toBe(1.5e-7);
    expect(Number(m.host_fold_seconds)).toBe(0.004);
    const phases = Object.fromEntries(s.phases.rows.map((r) => [r[0], Object.fromEntries(s.phases.header.map((h, i) => [h, r[i]]))]));
    expect(Object.keys(phases)).toEqual(['move', 'collide', 'other']);
    expect(Number(phases.move.min_s)).toBe(0.004);
    expect(Number(phases.move.max_s)).toBe(0.006);
    expect(Number(phases.move.avg_s)).toBeCloseTo(0.005, 15);
    expect(Number(phases.collide.calls)).toBe(4);
    expect(Number(phases.other.avg_s)).toBeCloseTo(0.033, 15);
    expect(s.steps.rows.map((r) => r.slice(0, 5).map(Number))).toEqual(sampleInput().steps.map((x) => [x.step, x.particles, x.injected, x.collisions, x.candidates]));
    expect(s.totals.rows.map((r) => Number(r[2]))).toEqual(sampleInput().totals.map((t) => t.kineticEnergy));
    expect(s.totals.rows.map((r) => Number(r[3]))).toEqual(sampleInput().totals.map((t) => t.momentum[0]));
  });
});

describe('exporting to files', () => {
  it('writes html, csv and json through a temporary file, leaving only the target', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dsmc-report-'));
    for (const f of ['html', 'csv', 'json'] as const) await exportProfile(report, f, join(dir, `r.${f}`));
    expect(readdirSync(dir).sort()).toEqual(['r.csv', 'r.html', 'r.json']);
    const back = JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8'));
    expect(back.kind).toBe('dsmc-profile-report');
    expect(back.throughput.particleStepsPerSecond).toBe(80000);
    expect(back.phaseTable.rows[1].maxSeconds).toBe(0.014);
    expect(back.conservation.momentumRelDrift).toBeNull();
    expect(back.run.tags[0]).toBe(NASTY);
    expect(back.steps).toEqual(sampleInput().steps);
    expect(readFileSync(join(dir, 'r.html'), 'utf8')).toMatch(/^<!DOCTYPE html>/);
    rmSync(dir, { recursive: true, force: true });
  });

  it('names the formats when given a wrong one, and the folder when it cannot write', async () => {
    expect(() => profileFormatOf('docx')).toThrow('expected one of html, csv, json, pdf');
    await expect(exportProfile(report, 'json', '/nonexistent-dir/x.json')).rejects.toThrow(/the folder \/nonexistent-dir does not exist; create it first/);
  });
});

describe('a run without phase timing', () => {
  it('says the phase timing was off instead of showing an empty table', () => {
    const input = sampleInput();
    input.run.summary = { ...input.run.summary!, timing: 'off' };
    const html = profileHtml(buildProfileReport({ ...input, phases: [] }));
    expect(html).toContain('phase timing was off');
    expect(html).not.toContain('id="phase-table"');
    expect(html).not.toContain('chart-phase-time');
  });
});

describe('surface results in the profile', () => {
  const input = sampleInput();
  input.run.summary = { ...input.run.summary!, surface: sampleSurface() };
  const withSurface = buildProfileReport(input);

  it('HTML: a Surfaces section with per-body loads and per-wall mean loads, with units and exact values', () => {
    const html = profileHtml(withSurface);
    expect(html).toContain('<h2>Surfaces</h2>');
    const v = htmlKeyedValues(html);
    expect(Number(v['surface.bodies.0.forceX'])).toBe(2.5e-6);
    expect(Number(v['surface.bodies.0.forceZ'])).toBe(-1e-9);
    expect(Number(v['surface.bodies.0.drag'])).toBe(2.5e-6);
    expect(Number(v['surface.bodies.0.lift'])).toBe(1.25e-6);
    expect(Number(v['surface.bodies.0.cd'])).toBe(2.05);
    expect(Number(v['surface.bodies.0.cl'])).toBe(1.025);
    expect(Number(v['surface.bodies.0.cs'])).toBe(0.00082);
    expect(Number(v['surface.bodies.0.heatTransfer'])).toBe(0.0125);
    expect(Number(v['surface.bodies.0.incidentRate'])).toBe(3.5e18);
    expect(Number(v['surface.bodies.0.referenceArea'])).toBe(1.5e-10);
    expect(Number(v['surface.bodies.1.cd'])).toBe(1.1);
    expect(v['surface.bodies.1.cl']).toBe('');
    expect(v['surface.bodies.1.lift']).toBe('');
    expect(Number(v['surface.faces.xmin.pressure'])).toBe(100);
    expect(Number(v['surface.faces.zmin.heatFlux'])).toBe(50);
    expect(Number(v['surface.faces.xmax.shearX'])).toBe(0.5);
    expect(Number(v['surface.faces.xmax.shearMagnitude'])).toBeCloseTo(Math.hypot(0.5, 0.25), 15);
    expect(Object.keys(v).filter((k) => k.startsWith('surface.faces.')).map((k) => k.split('.')[2]).filter((f, i, a) => a.indexOf(f) === i)).toEqual(['xmin', 'xmax', 'zmin']);
    expect(html).toContain('Not walls, so not listed: ymin (periodic), ymax (periodic), zmax (outflow).');
    const row = (q: string) => html.match(new RegExp(`<tr data-quantity="${q}">(.*?)</tr>`))![1];
    expect(row('drag')).toContain('<td>N</td>');
    expect(row('heatTransfer')).toContain('<td>W</td>');
    expect(row('incidentRate')).toContain('<td>1/s</td>');
    expect(row('referenceArea')).toContain('<td>m^2</td>');
    expect(row('cd')).toContain('<td>-</td>');
    expect(row('cd')).toContain('>2.05<');
    expect(row('cl')).toContain('>n/a<');
    expect(row('pressure')).toContain('<td>Pa</td>');
    expect(row('heatFlux')).toContain('<td>W/m^2</td>');
    expect(html).toContain('<th>zmin (diffuse)</th>');
    expect(html).toContain(`<th>${escapeHtml(NASTY_BODY)}</th>`);
    expect(html).not.toContain(NASTY_BODY);
    expect(html).toContain('28.00 ns of sampled time');
    expect(html.indexOf('<h2>Surfaces</h2>')).toBeGreaterThan(html.indexOf('<h2>Conservation</h2>'));
  });

  it('HTML: shows nothing about surfaces for a run without them, and says so when there are no bodies', () => {
    expect(profileHtml(report)).not.toMatch(/Surfaces|surface\./);
    const none = sampleInput();
    none.run.summary = { ...none.run.summary!, surface: { ...sampleSurface(), bodies: [] } };
    const html = profileHtml(buildProfileReport(none));
    expect(html).toContain('No bodies in the flow.');
    expect(html).toContain('id="surface-faces"');
    expect(html).not.toContain('id="surface-bodies"');
  });

  it('HTML: splits many bodies over tables of six columns', () => {
    const many = sampleInput();
    const surf = sampleSurface();
    surf.bodies = Array.from({ length: 8 }, (_, i) => ({ ...surf.bodies[0], name: `b${i}` }));
    many.run.summary = { ...many.run.summary!, surface: surf };
    const html = profileHtml(buildProfileReport(many));
    expect(html).toContain('id="surface-bodies"');
    expect(html).toContain('id="surface-bodies-2"');
    expect(Object.keys(htmlKeyedValues(html)).filter((k) => k.endsWith('.cd'))).toHaveLength(8);
  });

  it('CSV: surface, surface_bodies and surface_walls sections with the same rows, units in the column names', () => {
    const s = csvSections(profileCsv(withSurface));
    expect(Object.keys(s)).toEqual(['metrics', 'phases', 'steps', 'totals', 'surface', 'surface_bodies', 'surface_walls']);
    const meta = Object.fromEntries(s.surface.rows.map(([k, v]) => [k, v]));
    expect(Number(meta.sampled_time_s)).toBe(2.8e-8);
    expect(Number(meta.free_stream_velocity_x_m_s)).toBe(1500);
    expect(Number(meta.free_stream_temperature_K)).toBe(273.15);
    expect(s.surface_bodies.header).toEqual(['body', 'force_x_N', 'force_y_N', 'force_z_N', 'drag_N', 'lift_N', 'side_N', 'cd', 'cl', 'cs',
      'moment_x_N_m', 'moment_y_N_m', 'moment_z_N_m', 'heat_transfer_W', 'incident_rate_per_s', 'reference_area_m2', 'wetted_area_m2', 'triangles']);
    const bodies = s.surface_bodies.rows.map((r) => Object.fromEntries(s.surface_bodies.header.map((h, i) => [h, r[i]])));
    expect(bodies.map((b) => b.body)).toEqual(['wedge', NASTY_BODY]);
    expect(Number(bodies[0].cd)).toBe(2.05);
    expect(Number(bodies[0].force_y_N)).toBe(1.25e-6);
    expect(Number(bodies[0].heat_transfer_W)).toBe(0.0125);
    expect(Number(bodies[0].incident_rate_per_s)).toBe(3.5e18);
    expect(Number(bodies[1].heat_transfer_W)).toBe(-0.002);
    expect(bodies[1].cl).toBe('');
    expect(bodies[1].lift_N).toBe('');
    expect(s.surface_walls.header.slice(0, 4)).toEqual(['face', 'boundary', 'pressure_Pa', 'shear_x_Pa']);
    expect(s.surface_walls.header).toContain('heat_flux_W_m2');
    expect(s.surface_walls.rows.map((r) => [r[0], r[1], Number(r[2])])).toEqual([['xmin', 'specular', 100], ['xmax', 'specular', 101], ['zmin', 'diffuse', 104]]);
  });

  it('CSV: no surface sections for a run without them', () => {
    expect(Object.keys(csvSections(profileCsv(report)))).toEqual(['metrics', 'phases', 'steps', 'totals']);
  });

  it('JSON: the model carries the surface section (null without one)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dsmc-report-'));
    await exportProfile(withSurface, 'json', join(dir, 'with.json'));
    await exportProfile(report, 'json', join(dir, 'without.json'));
    const back = JSON.parse(readFileSync(join(dir, 'with.json'), 'utf8'));
    expect(back.surface.bodies[0]).toMatchObject({ name: 'wedge', cd: 2.05, drag: 2.5e-6, heatTransfer: 0.0125 });
    expect(back.surface.bodies[1].cl).toBeNull();
    expect(back.surface.faces).toHaveLength(6);
    expect(JSON.parse(readFileSync(join(dir, 'without.json'), 'utf8')).surface).toBeNull();
    rmSync(dir, { recursive: true, force: true });
  });
});
