// End to end, issue 27 items 8 and 9, in a real browser against `dsmc serve`: a line probe on run detail (along x
// through the map's plane) plotted with its cells and downloaded as CSV whose values are the CLI's `dsmc fields --line`
// values of the same cells (blank inside the sphere), a point probe with its CSV, and in compare the Cp distributions
// of two runs overlaid and the same line probed in both. Screenshots: test-results/e2e/probes-*.png.
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowserSession, type BrowserSession } from './browser-session.js';
import { dsmc, runCase } from './cli-runs.js';

let session: BrowserSession;
let page: Page;
const runs: number[] = [];

/** A downloaded CSV's rows (no quoted fields in these files), after clicking `selector`; checks the file name. */
async function downloadCsv(selector: string, name: RegExp): Promise<string[][]> {
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click(selector)]);
  expect(dl.suggestedFilename()).toMatch(name);
  return readFileSync((await dl.path())!, 'utf8').trimEnd().split('\r\n').map((l) => l.split(','));
}

/** Legend texts of a chart's SVG. */
function texts(sel: string): Promise<string[]> {
  return page.locator(`${sel} svg`).evaluate((svg) => [...svg.querySelectorAll('text')].map((t) => t.textContent ?? ''));
}

describe('line and point probes, overlaid Cp curves (issue 27 item 8), a finely faceted wedge (item 9), in a browser against dsmc serve', () => {
  beforeAll(async () => {
    session = await openBrowserSession();
    page = session.page;
    // two seeds of the sphere preset (12^3 cells of 0.05 m, a 0.12 m sphere in the middle), shrunk to 60 steps
    for (const seed of [1, 2]) runs.push(await runCase(session.serve.dataDir, 'sphere-free-molecular', 'probes', ['run.steps=60', 'sampling.start=20', `run.seed=${seed}`]));
  }, 240_000);

  afterAll(async () => {
    await session?.close();
  });

  it('probes a line on run detail: plotted per cell, CSV with the cells\' own values and errors, blank inside the sphere', async () => {
    await page.goto(`${session.serve.url}#/runs/${runs[0]}`);
    await page.waitForSelector('.detail [data-test="heatmap"] svg');
    await page.click('[data-test="probe-along-x"]');
    // through the middle of the map's plane (z cell 6) and the middle cell along y: cell centres 0.325 m
    expect(await page.inputValue('[data-test="probe-from-y"]')).toBe('0.325');
    expect(await page.inputValue('[data-test="probe-from-z"]')).toBe('0.325');
    expect(await page.inputValue('[data-test="probe-to-x"]')).toBe('0.6');
    await page.click('[data-test="probe-line"]');
    await page.waitForSelector('[data-test="probe-chart"] svg');
    await page.selectOption('[data-test="probe-field"]', 'T');
    await expect.poll(() => page.locator('[data-test="probe-chart"]').getAttribute('data-probe-points')).not.toBeNull();
    const drawn = Number(await page.locator('[data-test="probe-chart"]').getAttribute('data-probe-points'));
    expect(await page.locator('[data-test="probe-note"]').textContent()).toContain(`run ${runs[0]}: 12 cells`);
    // the sphere (radius 0.12 m about 0.3 m) covers the middle cells of the line: fewer than 12 points, but most
    expect(drawn).toBeGreaterThanOrEqual(6);
    expect(drawn).toBeLessThan(12);
    expect(await texts('[data-test="probe-chart"]')).toEqual(expect.arrayContaining(['distance along the line [m]', `run ${runs[0]}`]));
    await session.shot('probes-1-line');

    const rows = await downloadCsv('[data-test="probe-line-csv"]', new RegExp(`^line-probe-run${runs[0]}\\.csv$`));
    const header = rows[0];
    const col = (name: string) => { const i = header.indexOf(name); expect(i, name).toBeGreaterThanOrEqual(0); return i; };
    const [tCol, seCol, dCol, iCol] = [col('T (K)'), col('T standard error (K)'), col('distance (m)'), col('i')];
    const body = rows.slice(1);
    expect(body).toHaveLength(12);
    expect(body.map((r) => Number(r[iCol]))).toEqual([...Array(12).keys()]);
    expect(body.map((r) => Number(r[dCol]))).toEqual([...Array(12).keys()].map((i) => expect.closeTo(0.025 + 0.05 * i, 9)));
    // the same cells as the CLI gives them: equal values where the probe shows one, none inside the sphere
    const cli = JSON.parse(await dsmc(session.serve.dataDir, ['fields', String(runs[0]), '--line', 'y=6,z=6', '--fields', 'T', '--json'])) as {
      rows: { i: number; values: { T: number }; errors: { T: number | null } }[];
    };
    const blank = body.filter((r) => r[tCol] === '').map((r) => Number(r[iCol]));
    expect(blank.length).toBe(12 - drawn);
    expect(blank.every((i) => i >= 3 && i <= 8), `blank cells ${blank.join(' ')} lie in the sphere's span (x 0.18 to 0.42 m)`).toBe(true);
    for (const r of body.filter((x) => x[tCol] !== '')) {
      const c = cli.rows.find((x) => x.i === Number(r[iCol]))!;
      expect(Number(r[tCol])).toBe(c.values.T);
      expect(r[seCol] === '' ? null : Number(r[seCol])).toBe(c.errors.T);
    }
  });

  it('draws the probed line on the map and takes the line\'s ends from clicks on the map', async () => {
    const map = '.detail [data-test="heatmap"]';
    expect(await page.locator(map).getAttribute('data-probe-line')).toBe('1');
    // the plot's cell area in viewport pixels (0 to 0.6 m both ways), from the drawn cell rectangles, the whole map in view
    await page.evaluate(() => window.scrollTo(0, 0));
    const plot = await page.locator(`${map} svg`).evaluate((svg) => {
      const r = [...svg.querySelectorAll('path')].filter((p) => !p.closest('defs, clipPath') && !p.hasAttribute('stroke') && !p.hasAttribute('fill-opacity') && /^rgb/.test(p.getAttribute('fill') ?? ''))
        .map((p) => p.getBoundingClientRect());
      return { left: Math.min(...r.map((x) => x.left)), right: Math.max(...r.map((x) => x.right)), top: Math.min(...r.map((x) => x.top)), bottom: Math.max(...r.map((x) => x.bottom)) };
    });
    const at = (x: number, y: number) => [plot.left + (x / 0.6) * (plot.right - plot.left), plot.bottom - (y / 0.6) * (plot.bottom - plot.top)] as const;
    expect(await page.locator('[data-test="probe-pick-hint"]').textContent()).toContain('sets from');
    await page.mouse.click(...at(0.1, 0.1));
    await expect.poll(() => page.inputValue('[data-test="probe-from-x"]').then(Number)).toBeCloseTo(0.1, 1);
    expect(Number(await page.inputValue('[data-test="probe-from-y"]'))).toBeCloseTo(0.1, 1);
    expect(await page.inputValue('[data-test="probe-from-z"]')).toBe('0.325'); // the map's plane, z cell 6
    await page.mouse.click(...at(0.5, 0.45));
    await expect.poll(() => page.inputValue('[data-test="probe-to-x"]').then(Number)).toBeCloseTo(0.5, 1);
    expect(Number(await page.inputValue('[data-test="probe-to-y"]'))).toBeCloseTo(0.45, 1);
    await page.click('[data-test="probe-line"]');
    await expect.poll(() => page.locator('[data-test="probe-note"]').textContent()).not.toContain(': 12 cells');
    await session.shot('probes-1b-picked');
  });

  it('probes a point: every field with its unit and standard error, and its CSV', async () => {
    await page.fill('[data-test="probe-at-x"]', '0.075');
    await page.fill('[data-test="probe-at-y"]', '0.325');
    await page.fill('[data-test="probe-at-z"]', '0.325');
    await page.click('[data-test="probe-point"]');
    await page.waitForSelector('[data-test="probe-point-table"]');
    expect(await page.locator('[data-test="probe-point-T"]').textContent()).toMatch(/translational temperature.*K.*\d.*±/);
    const rows = await downloadCsv('[data-test="probe-point-csv"]', new RegExp(`^point-probe-run${runs[0]}\\.csv$`));
    expect(rows[0]).toEqual(['run', 'x (m)', 'y (m)', 'z (m)', 'i', 'j', 'k', 'field', 'label', 'unit', 'value', 'standard error']);
    expect(rows.length - 1).toBeGreaterThanOrEqual(13);
    const t = rows.find((r) => r[7] === 'T')!;
    expect(t.slice(0, 7)).toEqual([String(runs[0]), '0.075', '0.325', '0.325', '1', '6', '6']);
    expect(Number(t[10])).toBeGreaterThan(0);
  });

  it('overlays the two runs\' Cp distributions on the sphere in compare, and probes the same line in both', async () => {
    await page.goto(`${session.serve.url}#/compare`);
    for (const id of runs) await page.check(`[data-test="pick-${id}"]`);
    await page.click('[data-test="compare"]');
    const chart = '[data-test="compare-surface-chart"]';
    await page.waitForSelector(`${chart} svg`);
    expect(await page.locator(chart).getAttribute('data-overlay-runs')).toBe('2');
    expect(await page.inputValue('[data-test="overlay-quantity"]')).toBe('cp');
    await page.selectOption('[data-test="overlay-coordinate"]', 'angle');
    await expect.poll(() => texts(chart)).toEqual(expect.arrayContaining([`run ${runs[0]}`, `run ${runs[1]}`, 'angle from the stagnation point (deg)']));
    // two mean lines of the two run colours, each through many bins (the sphere's 5120 triangles)
    const lines = await page.locator(`${chart} svg`).evaluate((svg) => [...svg.querySelectorAll('path')]
      .filter((p) => p.getAttribute('fill') === 'none' && (p.getAttribute('d') ?? '').split('L').length > 10)
      .map((p) => p.getAttribute('stroke')));
    expect(new Set(lines).size).toBeGreaterThanOrEqual(2);
    await session.shot('probes-2-compare-cp');

    // the two runs' maps side by side, coloured over one range (the same colour bar ticks)
    await page.check('[data-test="show-side-by-side"]');
    const maps = page.locator('[data-test="side-by-side"] [data-test="heatmap"]');
    await expect.poll(() => maps.count()).toBe(2);
    await page.waitForSelector('[data-test="side-by-side"] [data-test="heatmap"] svg');
    const titles = await maps.evaluateAll((els) => els.map((e) => e.textContent ?? ''));
    expect(titles[0]).toContain(`run ${runs[0]}: number density`);
    expect(titles[1]).toContain(`run ${runs[1]}: number density`);
    const notes = await page.locator('[data-test="side-by-side"] [data-test="range-note"]').allTextContents();
    expect(notes).toHaveLength(2);
    expect(notes[0]).toMatch(/colours span/);
    expect(notes[1]).toBe(notes[0]);

    await page.click('.compare [data-test="probe-along-x"]');
    await page.click('.compare [data-test="probe-line"]');
    await page.waitForSelector('.compare [data-test="probe-chart"] svg');
    expect(await page.locator('.compare [data-test="probe-chart"]').getAttribute('data-probe-runs')).toBe('2');
    const rows = await downloadCsv('.compare [data-test="probe-line-csv"]', new RegExp(`^line-probe-runs-${runs[0]}-${runs[1]}\\.csv$`));
    expect(rows.slice(1).map((r) => r[0])).toEqual([...Array(12).fill(String(runs[0])), ...Array(12).fill(String(runs[1]))]);
    await session.shot('probes-3-compare-line');
    expect(session.pageErrors).toEqual([]);
  });

  it('charts Cp along the shrunk wedge preset\'s ramp with a point per facet (issue 27 item 9: a cell-sized facet, not 2 triangles)', async () => {
    const wedge = await runCase(session.serve.dataDir, 'hypersonic-wedge', 'probes', [
      'grid.cells=[80,40,1]', 'grid.cellSize=[2.5e-3,2.5e-3,2.5e-3]', 'particles.perCell=4', 'run.dt=3e-7', 'run.steps=60', 'sampling.start=20',
    ]);
    await page.goto(`${session.serve.url}#/runs/${wedge}`);
    await page.waitForSelector('[data-test="surface-chart"] svg');
    // edges of 0.12, 0.069 and 0.139 m in 48 + 28 + 56 facets of at most 2.5 mm, one layer along z: 2 * 132 * 2 triangles
    expect(await page.locator('.surface-panel .note').first().textContent()).toContain('(528 on 1 body');
    expect(await page.inputValue('[data-test="surface-coordinate"]')).toBe('streamwise');
    // the ramp's triangles (facing the flow) as points: one per triangle with a value, far more than the old 2
    const facing = await page.locator('[data-test="surface-chart"] svg').evaluate((svg) =>
      [...svg.querySelectorAll('path')].filter((p) => p.getAttribute('fill') === '#3366cc' && (p.getAttribute('fill-opacity') ?? p.getAttribute('opacity')) !== null).length);
    expect(facing).toBeGreaterThan(50);
    await session.shot('probes-4-wedge-cp');
    expect(session.pageErrors).toEqual([]);
  });
});
