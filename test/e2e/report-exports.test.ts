// End to end, issue 27 item 11, in a real browser against `dsmc serve`: the scaling view exports its study's report
// (CSV tables as a .zip of one file per table, HTML with its charts, JSON, PDF) and the run detail's profile exports
// carry the field maps (metre axes, colour bar, the sphere's outline) and the surface distributions (HTML) and one CSV
// per table (zip). Downloads are read back: the zip with the tests' own reader, each CSV with their CSV parser.
// Downloads go to test-results/e2e/.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCsv, readZip } from '../reports/parse-helpers.js';
import { openBrowserSession, SHOTS, type BrowserSession } from './browser-session.js';
import { dsmc, runCase } from './cli-runs.js';

let session: BrowserSession;
let page: Page;

/** Clicks an export button and returns the downloaded file's name and bytes (kept under test-results/e2e/). */
async function download(selector: string): Promise<{ name: string; bytes: Buffer }> {
  const [d] = await Promise.all([page.waitForEvent('download', { timeout: 120_000 }), page.click(selector)]);
  const path = join(SHOTS, `exports-${d.suggestedFilename()}`);
  await d.saveAs(path);
  return { name: d.suggestedFilename(), bytes: readFileSync(path) };
}

describe('report exports of issue 27 item 11, in a browser against dsmc serve', () => {
  let studyId = 0;
  let bodyRun = 0;
  beforeAll(async () => {
    session = await openBrowserSession();
    page = session.page;
    const dataDir = session.serve.dataDir;
    const out = await dsmc(dataDir, ['study', 'strong', 'collide-box', '--gpus', '1,2', '--set', 'grid.cells=[6,6,6]', '--set', 'run.steps=100', '--warmup', '0',
      '--name', 'export-study', '--project', 'exports']);
    studyId = Number(/study (\d+)/.exec(out)?.[1] ?? NaN);
    expect(studyId, out).toBeGreaterThan(0);
    bodyRun = await runCase(dataDir, 'sphere-free-molecular', 'exports', ['run.steps=60', 'sampling.start=20']);
  }, 300_000);

  afterAll(async () => {
    await session?.close();
  });

  it('exports the study from the scaling view: one CSV per table in a zip, HTML with charts, JSON, PDF', async () => {
    await page.goto(`${session.serve.url}#/scaling`);
    await page.waitForSelector('[data-test="scaling-table"]');
    expect(await page.locator('[data-test="scaling-exports"] button').allTextContents()).toEqual(['HTML', 'PDF', 'CSV (zip)', 'CSV (one file)', 'JSON']);
    const zip = await download('[data-test="scaling-export-zip"]');
    expect(zip.name).toBe(`study-${studyId}-scaling-csv.zip`);
    const files = readZip(zip.bytes);
    expect(files.map((f) => f.name)).toEqual(['study.csv', 'points.csv', 'phases.csv', 'ranks.csv', 'rank_phases.csv', 'rank_time.csv', 'un_per_step.csv',
      'fit.csv', 'fit_points.csv', 'notes.csv']);
    const points = parseCsv(files[1].text);
    expect(points[0].slice(0, 2)).toEqual(['gpus', 'run_id']);
    expect(points.slice(1).map((r) => Number(r[0]))).toEqual([1, 2]);
    const shown = await page.locator('[data-test="scaling-table"] tbody tr td:first-child').allTextContents();
    expect(shown.map(Number)).toEqual([1, 2]);
    expect(await page.locator('[data-test="scaling-export-done"]').textContent()).toContain(`downloaded study-${studyId}-scaling-csv.zip`);

    const html = (await download('[data-test="scaling-export-html"]')).bytes.toString('utf8');
    expect(html).toMatch(/^<!doctype html>/i);
    expect(html).toContain('export-study');
    expect((html.match(/<svg/g) ?? []).length).toBeGreaterThan(3);
    const json = JSON.parse((await download('[data-test="scaling-export-json"]')).bytes.toString('utf8'));
    expect(json.points.map((p: { gpus: number }) => p.gpus)).toEqual([1, 2]);
    const pdf = await download('[data-test="scaling-export-pdf"]');
    expect(pdf.bytes.subarray(0, 4).toString('latin1')).toBe('%PDF');
    await session.shot('report-exports-0-scaling');
  }, 240_000);

  it('exports a run with a body: the HTML report draws its field maps and surface distributions, the zip has their tables', async () => {
    await page.goto(`${session.serve.url}#/runs/${bodyRun}`);
    await page.waitForSelector('.detail [data-test="heatmap"] svg');
    const html = (await download('[data-test="export-html"]')).bytes.toString('utf8');
    const maps = [...html.matchAll(/<figure id="map-(\w+)"[^>]*>(.*?)<\/figure>/gs)];
    expect(maps.map((m) => m[1])).toEqual(expect.arrayContaining(['n', 'T', 'p']));
    for (const [, field, svg] of maps) {
      expect(svg, field).toContain('[m]');
      expect(svg, field).toMatch(/href="data:image\/png;base64,/);
    }
    // the plane through the sphere's middle shows its outline in white
    expect(maps.some(([, , svg]) => /<path [^>]*stroke="#fff(fff)?"/.test(svg))).toBe(true);
    expect(html).toContain('<h2>Surface distributions</h2>');
    expect(html).toMatch(/<figure id="surface-0-cp"><svg/);
    const zip = await download('[data-test="export-zip"]');
    expect(zip.name).toBe(`run-${bodyRun}-profile-csv.zip`);
    const names = readZip(zip.bytes).map((f) => f.name);
    expect(names).toEqual(expect.arrayContaining(['metrics.csv', 'phases.csv', 'field_plane.csv', 'surface_distribution.csv', 'surface_triangles.csv']));
    const tris = parseCsv(readZip(zip.bytes).find((f) => f.name === 'surface_triangles.csv')!.text);
    expect(tris[0]).toEqual(expect.arrayContaining(['body', 'x_m', 'cp', 'cf', 'ch']));
    expect(tris.length).toBeGreaterThan(100);
    expect(session.pageErrors).toEqual([]);
  }, 240_000);
});
