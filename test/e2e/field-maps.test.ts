// End to end, issue 27 item 7, in a real browser against `dsmc serve`: the field maps of the run detail and compare
// views are drawn in metres with a colour bar that has ticks in the field's unit and the body outline on every field
// (checked on the drawn SVG and on the pixels of the saved PNG); the colour range follows the user's choice (robust,
// full, fixed limits that saturate, log), a hover shows the value with its unit and standard error, the x slider
// zooms the axis, and the figure saves as PNG and SVG. Screenshots: test-results/e2e/field-maps-*.png.
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowserSession, type BrowserSession } from './browser-session.js';
import { runCase } from './cli-runs.js';

let session: BrowserSession;
let page: Page;
const runs: number[] = [];
const MAP = '.detail [data-test="heatmap"]';

/** What the map's SVG shows: axis names, cell rectangles, white outline paths and the colour bar's tick labels (top to bottom). */
function drawn(sel: string) {
  return page.locator(`${sel} svg`).evaluate((svg) => {
    const paths = [...svg.querySelectorAll('path')].filter((p) => !p.closest('defs, clipPath'));
    const bar = paths.find((p) => /^url\(/.test(p.getAttribute('fill') ?? ''))?.getBoundingClientRect();
    const texts = [...svg.querySelectorAll('text')].map((t) => ({ s: t.textContent ?? '', r: t.getBoundingClientRect() }));
    const cellBoxes = paths.filter((p) => !p.hasAttribute('stroke') && !p.hasAttribute('fill-opacity') && /^rgb/.test(p.getAttribute('fill') ?? '')).map((p) => p.getBoundingClientRect());
    const plot = { left: Math.min(...cellBoxes.map((r) => r.left)), right: Math.max(...cellBoxes.map((r) => r.right)), bottom: Math.max(...cellBoxes.map((r) => r.bottom)) };
    const ticks = bar ? texts.filter((t) => t.r.left >= bar.right && t.r.left < bar.right + 20 && t.r.top + t.r.height / 2 >= bar.top - 1 && t.r.bottom - t.r.height / 2 <= bar.bottom + 1) : [];
    return {
      texts: texts.map((t) => t.s),
      cells: paths.filter((p) => !p.hasAttribute('stroke') && !p.hasAttribute('fill-opacity') && /^rgb/.test(p.getAttribute('fill') ?? '')).length,
      topColourCells: paths.filter((p) => !p.hasAttribute('stroke') && p.getAttribute('fill') === 'rgb(253,231,37)').length,
      white: paths.filter((p) => /^#fff(fff)?$/i.test(p.getAttribute('stroke') ?? '')).length,
      plot,
      xTicks: texts.filter((t) => t.r.top >= plot.bottom && t.r.top < plot.bottom + 20).map((t) => Number(t.s)),
      barTicks: ticks.sort((a, b) => a.r.top - b.r.top).map((t) => t.s),
      barUnit: bar ? texts.filter((t) => t.r.bottom <= bar.top + 2 && t.r.left >= bar.left - 5).map((t) => t.s) : [],
    };
  });
}

/** The numbers of the range note "colours span A to B unit". */
async function span(): Promise<[number, number]> {
  const t = (await page.locator('.detail [data-test="range-note"]').textContent()) ?? '';
  const m = /colours span (\S+) to (\S+) /.exec(t);
  expect(m, t).not.toBeNull();
  return [Number(m![1]), Number(m![2])];
}

describe('field maps of issue 27 (metres, colour bar, range, hover, zoom, save), in a browser against dsmc serve', () => {
  beforeAll(async () => {
    session = await openBrowserSession();
    page = session.page;
    // two seeds of the sphere preset, shrunk to 60 steps: a body on every field, and a pair to compare
    for (const seed of [1, 2]) runs.push(await runCase(session.serve.dataDir, 'sphere-free-molecular', 'maps', ['run.steps=60', 'sampling.start=20', `run.seed=${seed}`]));
  }, 240_000);

  afterAll(async () => {
    await session?.close();
  });

  it('draws every field in metres with a ticked colour bar in its unit and the body outline', async () => {
    await page.goto(`${session.serve.url}#/runs/${runs[0]}`);
    await page.waitForSelector(`${MAP} svg`);
    const fields = await page.locator('[data-test="slice-field"] option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
    expect(fields.length).toBeGreaterThanOrEqual(13);
    for (const f of fields) {
      await page.selectOption('[data-test="slice-field"]', f);
      await expect.poll(() => page.locator(MAP).textContent()).toContain(`], z = cell`);
      await page.waitForTimeout(200);
      const unit = /\[([^\]]+)\], z = cell/.exec((await page.locator(MAP).textContent()) ?? '')![1];
      const d = await drawn(MAP);
      expect(d.texts, `axes of ${f}`).toEqual(expect.arrayContaining(['x [m]', 'y [m]']));
      // the x axis reaches 0.6 m (12 cells of 0.05 m), not 11 (cell numbers)
      expect(d.texts, `x ticks of ${f}`).toEqual(expect.arrayContaining(['0', '0.6']));
      expect(d.cells, `cells of ${f}`).toBeGreaterThan(100);
      expect(d.white, `outline of ${f}`).toBeGreaterThan(20);
      expect(d.barUnit, `unit over the colour bar of ${f}`).toContain(unit);
      expect(d.barTicks.length, `colour bar ticks of ${f}: ${d.barTicks.join(' ')}`).toBeGreaterThanOrEqual(3);
      const ticks = d.barTicks.map(Number);
      expect(ticks.every((x, i) => i === 0 || x < ticks[i - 1]), `bar ticks decrease downwards: ${d.barTicks.join(' ')}`).toBe(true);
    }
    await page.selectOption('[data-test="slice-field"]', 'T');
    await page.waitForTimeout(300);
    await session.shot('field-maps-1-T');
  });

  it('colours over the range the user picks: robust, full, fixed limits that saturate, log', async () => {
    await page.selectOption('[data-test="slice-field"]', 'n');
    await page.waitForTimeout(300);
    const robust = await span();
    await page.selectOption('.detail [data-test="range-mode"]', 'full');
    const full = await span();
    expect(full[0]).toBeLessThanOrEqual(robust[0]);
    expect(full[1]).toBeGreaterThanOrEqual(robust[1]);
    expect(full[1] - full[0]).toBeGreaterThan(robust[1] - robust[0]);
    // fixed limits with the top at the robust minimum: nearly every cell takes the top colour
    await page.selectOption('.detail [data-test="range-mode"]', 'fixed');
    await page.fill('.detail [data-test="range-min"]', String(robust[0] / 2));
    await page.locator('.detail [data-test="range-min"]').dispatchEvent('change');
    await page.fill('.detail [data-test="range-max"]', String(robust[0]));
    await page.locator('.detail [data-test="range-max"]').dispatchEvent('change');
    await expect.poll(span).toEqual([robust[0] / 2, robust[0]]);
    const d = await drawn(MAP);
    expect(d.topColourCells / d.cells).toBeGreaterThan(0.9);
    await page.check('.detail [data-test="range-log"]');
    await expect.poll(() => page.locator('.detail [data-test="range-note"]').textContent()).toContain('(log scale)');
    await page.selectOption('.detail [data-test="range-mode"]', 'robust');
    await page.uncheck('.detail [data-test="range-log"]');
    expect(await span()).toEqual(robust);
  });

  it('reads a cell out on hover (unit, standard error) and zooms with the slider', async () => {
    await page.selectOption('[data-test="slice-field"]', 'T');
    await page.waitForTimeout(300);
    const plot = await page.locator(`${MAP} svg`).evaluate((svg) => {
      const r = [...svg.querySelectorAll('path')].find((p) => !p.hasAttribute('stroke') && /^rgb/.test(p.getAttribute('fill') ?? '') && !p.hasAttribute('fill-opacity'))!.getBoundingClientRect();
      return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
    });
    await page.mouse.move(plot.x, plot.y);
    await expect.poll(() => page.locator(`${MAP}`).textContent()).toMatch(/x = \S+ m, y = \S+ m.*translational temperature: \S+ K (± \S+ K \(standard error\)|no standard error)/);
    const xMax = async () => Math.max(...(await drawn(MAP)).xTicks);
    expect(await xMax()).toBe(0.6);
    // drag the right handle of the x slider (below the plot) to the middle: the x axis then ends before 0.6 m
    const { plot: box } = await drawn(MAP);
    const chartBox = (await page.locator(MAP).boundingBox())!;
    const sliderY = chartBox.y + chartBox.height - 15;
    await page.mouse.move(box.right, sliderY);
    await page.mouse.down();
    await page.mouse.move((box.left + box.right) / 2, sliderY, { steps: 8 });
    await page.mouse.up();
    await expect.poll(xMax, { message: 'x axis after zooming in' }).toBeLessThan(0.6);
    await session.shot('field-maps-2-zoomed');
  });

  it('saves the figure as SVG and as a PNG whose pixels hold the colour ramp and the white outline', async () => {
    await page.goto(`${session.serve.url}#/runs/${runs[0]}`);
    await page.waitForSelector(`${MAP} svg`);
    await page.selectOption('[data-test="slice-field"]', 'n');
    await expect.poll(() => page.locator(MAP).textContent()).toContain('number density [');
    const [svgDl] = await Promise.all([page.waitForEvent('download'), page.click('.detail [data-test="save-svg"]')]);
    expect(svgDl.suggestedFilename()).toMatch(/^n-z6\.svg$/);
    const svg = readFileSync((await svgDl.path())!, 'utf8');
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg).toContain('x [m]');
    const [pngDl] = await Promise.all([page.waitForEvent('download'), page.click('.detail [data-test="save-png"]')]);
    expect(pngDl.suggestedFilename()).toBe('n-z6.png');
    const png = readFileSync((await pngDl.path())!);
    expect([...png.subarray(1, 4)].map((c) => String.fromCharCode(c)).join('')).toBe('PNG');
    // decode it in the page: white outline pixels, and pixels of the dark (low) and bright (high) ends of the ramp
    const px = await page.evaluate(async (b64) => {
      const bmp = await createImageBitmap(new Blob([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], { type: 'image/png' }));
      const c = new OffscreenCanvas(bmp.width, bmp.height);
      const g = c.getContext('2d')!;
      g.drawImage(bmp, 0, 0);
      const d = g.getImageData(0, 0, bmp.width, bmp.height).data;
      let purple = 0, yellowish = 0;
      for (let i = 0; i < d.length; i += 4) {
        if (d[i] < 90 && d[i + 1] < 60 && d[i + 2] > 60) purple++;
        if (d[i] > 150 && d[i + 1] > 190 && d[i + 2] < 120) yellowish++;
      }
      return { width: bmp.width, purple, yellowish };
    }, png.toString('base64'));
    expect(px.width).toBeGreaterThan(1000);
    expect(px.purple).toBeGreaterThan(500);
    expect(px.yellowish).toBeGreaterThan(500);
  });

  it('draws the compare view\'s difference map in metres with a colour bar and the outline', async () => {
    await page.goto(`${session.serve.url}#/compare`);
    for (const id of runs) await page.check(`[data-test="pick-${id}"]`);
    await page.click('[data-test="compare"]');
    const sel = '.compare [data-test="heatmap"]';
    await page.waitForSelector(`${sel} svg`);
    await page.waitForTimeout(300);
    const d = await drawn(sel);
    expect(d.texts).toEqual(expect.arrayContaining(['x [m]', 'y [m]']));
    expect(d.white).toBeGreaterThan(20);
    expect(d.barUnit).toContain('z');
    expect(d.barTicks.length).toBeGreaterThanOrEqual(3);
    await session.shot('field-maps-3-compare');
    expect(session.pageErrors).toEqual([]);
  });
});
