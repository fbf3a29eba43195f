// End to end, issue 27's contradictions, in a real browser against `dsmc serve`: the case editor never shows
// "ready" over a JSON syntax error and keeps the physics checks (marked stale) while a schema error exists; the
// shrunk sphere preset is launched; the body outline stays drawn above the heatmap on every field (its caption is
// true) and "No field to show yet." never sits under a drawn map; the live view of the finished run has no empty
// throughput chart and names steps and particle counts apart; a run that does not exist clears the previous
// run's content, in the run detail and in the live view. Screenshots go to test-results/e2e/run-views-*.png.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowserSession, type BrowserSession } from './browser-session.js';
import type { ServeProcess } from './serve-process.js';

let session: BrowserSession;
let page: Page;
let serve: ServeProcess;

/** Titles of the maps this test switches between (the map's title starts with the field's label). */
const LABELS: Record<string, string> = { n: 'number density', T: 'translational temperature', p: 'pressure' };
/** White outline paths drawn in the run detail's heatmap. */
const whitePaths = () => page.locator('.detail [data-test="heatmap"] svg path[stroke="#fff"], .detail [data-test="heatmap"] svg path[stroke="#ffffff"]').count();

/**
 * Heatmap cells (opaque unstroked paths filled with a colour of the ramp; the zoom sliders' paths are translucent) the SVG
 * draws after the last outline path, i.e. over the outline.
 */
const cellsOverOutline = () => page.locator('.detail [data-test="heatmap"] svg').evaluate((svg) => {
  const paths = [...svg.querySelectorAll('path')].filter((p) => !p.closest('defs, clipPath'));
  const last = paths.findLastIndex((p) => /^#fff(fff)?$/i.test(p.getAttribute('stroke') ?? ''));
  return last < 0 ? -1 : paths.slice(last + 1).filter((p) => !p.hasAttribute('stroke') && !p.hasAttribute('fill-opacity') && /^rgb/.test(p.getAttribute('fill') ?? '')).length;
});

describe('run detail views of issue 27, in a browser against dsmc serve', () => {
  beforeAll(async () => {
    session = await openBrowserSession();
    ({ page, serve } = session);
  }, 120_000);

  afterAll(async () => {
    await session?.close();
  });

  let runId = 0;
  it('launches the shrunk sphere preset', async () => {
    await session.openEditor('sphere-free-molecular');
    await page.waitForSelector('[data-test="body-row-0"]');
    expect(await session.settledCheck()).toContain('ready');
    // a JSON text that does not parse: never a green "ready" over its syntax error
    await page.locator('[data-test="json-view"]').fill('{ "name": "sphere", ');
    await page.locator('[data-test="json-view"]').dispatchEvent('change');
    await expect.poll(() => page.locator('.side-pane').textContent()).toContain('JSON view:');
    const status = await session.settledCheck();
    expect(status).not.toContain('ready');
    expect(await page.locator('[data-test="check-status"]').getAttribute('class')).toBe('bad');
    expect(await page.locator('[data-test="to-launch"]').isDisabled()).toBe(true);
    await session.shot('run-views-0-json-error');
    await page.click('[data-test="reset-preset"]');
    await expect.poll(() => page.locator('.side-pane').textContent()).not.toContain('JSON view:');
    expect(await session.settledCheck()).toContain('ready');
    // a schema error keeps the physics checks on the page (marked as those of the last valid case)
    await page.waitForSelector('.estimates');
    await session.setField('run.steps', '-5');
    expect(await session.settledCheck()).toContain('fix the errors');
    expect(await page.locator('[data-test="prelaunch"]').textContent()).toContain('run.steps');
    expect(await page.locator('[data-test="prelaunch-stale"]').count()).toBe(1);
    expect(await page.locator('.estimates tr').count()).toBeGreaterThan(0);
    await session.setField('run.steps', '60');
    await session.setField('sampling.start', '20');
    expect(await session.settledCheck()).toContain('ready');
    await page.click('[data-test="to-launch"]');
    await page.fill('[data-test="launch-project"]', 'views');
    await page.click('[data-test="launch"]');
    await page.waitForURL(/#\/runs\/\d+\/live$/, { timeout: 120_000 });
    runId = Number(/runs\/(\d+)\/live/.exec(page.url())![1]);
    await page.waitForFunction(() => /completed|failed|cancelled/.test(document.querySelector('[data-test="live-status"]')?.textContent ?? ''), undefined, { timeout: 120_000 });
    expect((await page.locator('[data-test="live-status"]').textContent())?.trim()).toBe('completed');
  }, 240_000);

  it('draws the body outline on every field, and never says "No field to show yet." under a map', async () => {
    await page.goto(`${serve.url}#/runs/${runId}`);
    await page.waitForSelector('.detail [data-test="heatmap"] svg');
    const fields = await page.locator('[data-test="slice-field"] option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
    expect(fields).toEqual(expect.arrayContaining(['n', 'T', 'p']));
    for (const f of ['T', 'p', 'n', 'T']) {
      await page.selectOption('[data-test="slice-field"]', f);
      await expect.poll(() => page.locator('.detail [data-test="heatmap"]').textContent()).toContain(`${LABELS[f]} [`);
      await page.waitForTimeout(300);
      const segments = Number(await page.locator('.detail [data-test="heatmap"]').getAttribute('data-outline-segments'));
      expect(segments, `outline of field ${f}`).toBeGreaterThan(20);
      await expect.poll(whitePaths, { message: `white outline drawn on field ${f}` }).toBeGreaterThan(20);
      // drawn on top: no cell of the (re-created) heatmap covers it
      expect(await cellsOverOutline(), `heatmap cells drawn over the outline on field ${f}`).toBe(0);
      expect(await page.locator('[data-test="body-note"]').textContent()).toContain('White lines');
      expect(await page.locator('.detail').textContent()).not.toContain('No field to show yet.');
    }
    await session.shot('run-views-1-outline-T');
    // the first z plane misses the sphere: a map without an outline, and still no "No field to show yet." under it
    await page.locator('[data-test="slice-index"]').fill('0');
    await expect.poll(() => page.locator('.detail [data-test="heatmap"]').getAttribute('data-outline-segments')).toBe('0');
    await expect.poll(() => page.locator('.detail [data-test="heatmap"]').textContent()).toContain('z = cell 0');
    expect(await page.locator('.detail').textContent()).not.toContain('No field to show yet.');
  });

  it('opens the live view of the finished run without an empty throughput chart, and names steps and particle counts apart', async () => {
    await page.goto(`${serve.url}#/runs/${runId}/live`);
    await page.waitForFunction(() => /completed/.test(document.querySelector('[data-test="live-status"]')?.textContent ?? ''));
    await page.waitForSelector('[data-test="particle-counts"]');
    expect(await page.locator('[data-test="throughput-chart"]').count()).toBe(0);
    expect(await page.locator('[data-test="throughput-note"]').textContent()).toMatch(/over the whole run: \d\.\d+e[+-]\d+ particle-steps per second/);
    // "N at step S (first recorded)": the step lies within the run's 60 steps, the count is the particles then
    await expect.poll(() => page.locator('[data-test="particle-counts"]').textContent()).toMatch(/\(latest\)/);
    const text = (await page.locator('[data-test="particle-counts"]').textContent()) ?? '';
    const m = /particles: (\d+) at step (\d+) \(first recorded\), (\d+) at step (\d+) \(latest\)/.exec(text);
    expect(m, text).not.toBeNull();
    expect(Number(m![2])).toBeLessThanOrEqual(Number(m![4]));
    expect(Number(m![4])).toBe(60);
    await session.shot('run-views-2-live-finished');
  });

  it('clears the previous run\'s content when the next run does not exist', async () => {
    await page.goto(`${serve.url}#/runs/999`);
    await expect.poll(() => page.locator('main, body').first().textContent()).toMatch(/999/);
    await expect.poll(() => page.locator('.detail').count()).toBe(0);
    expect(await page.locator('[data-test="heatmap"]').count()).toBe(0);
    await session.shot('run-views-3-not-found');
    // the live view of a run that does not exist: the error alone, no "loading" and no empty charts under it
    await page.goto(`${serve.url}#/runs/${runId}/live`);
    await page.waitForSelector('[data-test="particle-counts"]');
    await page.goto(`${serve.url}#/runs/999/live`);
    await expect.poll(() => page.locator('main, body').first().textContent()).toMatch(/run 999 not found/);
    expect(await page.locator('[data-test="live-status"]').textContent()).toBe('');
    expect(await page.locator('[data-test="particle-counts"], [data-test="throughput-note"], [data-test="live-heatmap"], .live canvas, .live .charts').count()).toBe(0);
    await session.shot('run-views-4-live-not-found');
    expect(session.pageErrors).toEqual([]);
  });
});
