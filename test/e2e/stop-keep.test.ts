// End to end, issue 27 item 5 (stop and keep), in a real browser against `dsmc serve`: a long collide-box run is
// launched from the editor and stopped with "Stop and keep results" on its live page; the run is kept cancelled,
// "stopped by the user at step N", and its live page shows its final field slice; its run detail shows the heatmap
// and the phase table and exports the fields to VTK (.vti, downloaded and read back); the compare view offers it
// beside a completed run and compares them. A two-rank run is stopped and kept with the same button (every rank after
// the same submit). Screenshots: test-results/e2e/stop-keep-*.png.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHOTS, openBrowserSession, type BrowserSession } from './browser-session.js';

let session: BrowserSession;
let page: Page;

/** Edits the collide-box preset to 6x6x6 cells, `steps` steps and seed, and launches it on `ranks` ranks; returns the run id. */
async function launch(steps: number, seed: number, ranks = 1): Promise<number> {
  await page.click('[data-test="nav-editor"]');
  await page.selectOption('[data-test="preset"]', 'collide-box');
  await page.click('[data-test="reset-preset"]');
  for (const i of [0, 1, 2]) await session.setField(`grid.cells[${i}]`, '6');
  await session.setField('run.steps', String(steps));
  await session.setField('run.seed', String(seed));
  await session.setField('run.stepsPerSubmit', '10');
  expect(await session.settledCheck()).toContain('ready');
  await page.click('[data-test="to-launch"]');
  await page.fill('[data-test="launch-project"]', 'keep');
  if (ranks > 1) await page.fill('[data-test="launch-ranks"]', String(ranks));
  await page.click('[data-test="launch"]');
  await page.waitForURL(/#\/runs\/\d+\/live$/, { timeout: 120_000 });
  return Number(/runs\/(\d+)\/live/.exec(page.url())![1]);
}

/** The live page's status once it is no longer running. */
async function endedStatus(): Promise<string> {
  await page.waitForFunction(() => /completed|failed|cancelled/.test(document.querySelector('[data-test="live-status"]')?.textContent ?? ''), undefined, { timeout: 120_000 });
  return (await page.locator('[data-test="live-status"]').textContent())?.trim() ?? '';
}

describe('stop and keep in a browser against dsmc serve', () => {
  beforeAll(async () => {
    session = await openBrowserSession();
    page = session.page;
    await page.goto(session.serve.url);
  }, 120_000);

  afterAll(async () => {
    await session?.close();
  });

  let stopped = 0;
  it('stops a running run from its live page and keeps what it sampled', async () => {
    // stopped past a fifth of its sampling: four or more of its 20 batch-means blocks closed, so its fields have
    // standard errors (the compare view's difference map needs them)
    stopped = await launch(4000, 1);
    await page.waitForFunction(() => Number(/step (\d+)/.exec(document.querySelector('[data-test="live-step"]')?.textContent ?? '')?.[1] ?? 0) >= 800, undefined, { timeout: 120_000 });
    await page.click('[data-test="stop-keep"]');
    expect(await endedStatus()).toBe('cancelled');
    const reason = (await page.locator('.reason').textContent()) ?? '';
    expect(reason).toMatch(/stopped by the user at step \d+ of 4000 \(from the app\); the fields, profile and surface loads sampled so far are kept/);
    // the final slice of the fields it kept replaces the live one
    await expect.poll(() => page.locator('[data-test="live-heatmap"]').textContent(), { timeout: 30_000 }).toContain('number density');
    await page.waitForSelector('[data-test="live-heatmap"] svg');
    // the live charts redraw at most once a second (LiveRunView.vue): let the last redraw land before the screenshot
    await page.waitForTimeout(1500);
    await session.shot('stop-keep-1-live');
  }, 300_000);

  it('shows the stopped run\'s heatmap and phase table and exports its fields to VTK', async () => {
    await page.click('[data-test="open-detail"]');
    await page.waitForSelector('.detail [data-test="heatmap"] svg');
    expect(await page.locator('[data-test="phase-table"] tbody tr').count()).toBeGreaterThan(3);
    expect(await page.locator('.detail').textContent()).not.toContain('No sampled fields');
    await session.shot('stop-keep-2-detail');
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-test="export-vtk"]')]);
    expect(download.suggestedFilename()).toMatch(/\.vti$/);
    const saved = join(SHOTS, `stop-keep-${download.suggestedFilename()}`);
    await download.saveAs(saved);
    const vti = readFileSync(saved, 'utf8');
    expect(vti).toContain('<VTKFile type="ImageData"');
    expect(vti).toContain('WholeExtent="0 6 0 6 0 6"');
    expect(vti).toContain('Name="T"');
  }, 120_000);

  it('compares the stopped run with a completed one', async () => {
    const done = await launch(100, 2);
    expect(await endedStatus()).toBe('completed');
    await page.click('[data-test="nav-compare"]');
    await page.click(`[data-test="pick-${stopped}"]`);
    await page.click(`[data-test="pick-${done}"]`);
    await page.click('[data-test="compare"]');
    await page.waitForSelector('[data-test="case-differences"]');
    expect(await page.locator('[data-test="case-differences"]').textContent()).toContain('run.steps');
    await page.waitForSelector('[data-test="heatmap"] svg');
    // the difference map in standard errors is drawn: the stopped run has errors
    await expect.poll(() => page.locator('.compare').textContent()).not.toContain('has no standard errors');
    await session.shot('stop-keep-3-compare');
    expect(session.pageErrors).toEqual([]);
  }, 300_000);

  it('stops and keeps a two-rank run with the same button', async () => {
    const id = await launch(100_000, 3, 2);
    await page.waitForFunction(() => Number(/step (\d+)/.exec(document.querySelector('[data-test="live-step"]')?.textContent ?? '')?.[1] ?? 0) >= 60, undefined, { timeout: 120_000 });
    expect(await page.locator('[data-test="stop-keep"]').getAttribute('title')).toContain('every rank after the same submit');
    await page.click('[data-test="stop-keep"]');
    expect(await endedStatus()).toBe('cancelled');
    const reason = (await page.locator('.reason').textContent()) ?? '';
    expect(reason).toMatch(/stopped by the user at step \d+ of 100000 \(from the app\); the fields, profile and surface loads sampled so far are kept/);
    await page.click('[data-test="open-detail"]');
    await page.waitForURL(new RegExp(`#/runs/${id}$`));
    await page.waitForSelector('.detail [data-test="heatmap"] svg');
    expect(await page.locator('.detail').textContent()).not.toContain('No sampled fields');
    await session.shot('stop-keep-4-two-ranks');
    expect(session.pageErrors).toEqual([]);
  }, 300_000);
});
