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
import { NASTY, sampleInput } from './fixtures.js';
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
    await expect(exportProfile(report, 'json', '/nonexistent-dir/x.json')).rejects.toThrow(/folder \/nonexistent-dir exists/);
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
