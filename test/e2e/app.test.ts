// End to end in a real browser: Debian's Chromium (headless, driven by playwright-core) against `dsmc serve`
// with a temporary data folder. Creates a project, edits a preset, sees a pre-launch warning, launches a small
// case (it really runs on the default adapter, lavapipe in CI), watches live progress, opens the finished
// run and its heatmap, compares two runs and exports the HTML report. Screenshots go to test-results/e2e/.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHOTS, openBrowserSession, type BrowserSession } from './browser-session.js';
import { dsmc } from './cli-runs.js';
import type { ServeProcess } from './serve-process.js';

let session: BrowserSession;
let page: Page;
let serve: ServeProcess;
const shot = (name: string) => session.shot(name);
const setField = (path: string, value: string) => session.setField(path, value);
const settledCheck = () => session.settledCheck();

/** Edits the preset into a tiny case (6x6x6 cells, `steps` steps, seed) and launches it into the project. */
async function launchTiny(steps: number, seed: number, placement?: { ranks: number; decomposition: string; rebalanceAt?: number }): Promise<number> {
  await page.click('[data-test="nav-editor"]');
  await page.selectOption('[data-test="preset"]', 'collide-box');
  await page.click('[data-test="reset-preset"]');
  for (const i of [0, 1, 2]) await setField(`grid.cells[${i}]`, '6');
  await setField('run.steps', String(steps));
  await setField('run.seed', String(seed));
  await setField('run.stepsPerSubmit', '10');
  expect(await settledCheck()).toContain('ready');
  await page.click('[data-test="to-launch"]');
  await page.fill('[data-test="launch-project"]', 'e2e-project');
  if (placement) {
    await page.fill('[data-test="launch-ranks"]', String(placement.ranks));
    await page.selectOption('[data-test="launch-decomposition"]', placement.decomposition);
    if (placement.rebalanceAt !== undefined) {
      await page.selectOption('[data-test="launch-rebalance"]', 'at');
      await page.fill('[data-test="launch-rebalance-percent"]', String(placement.rebalanceAt));
    }
  }
  await page.click('[data-test="launch"]');
  await page.waitForURL(/#\/runs\/\d+\/live$/, { timeout: 120_000 });
  return Number(/runs\/(\d+)\/live/.exec(page.url())![1]);
}

describe('the app in a browser against dsmc serve', () => {
  beforeAll(async () => {
    session = await openBrowserSession();
    ({ page, serve } = session);
  }, 120_000);

  afterAll(async () => {
    await session?.close();
  });

  it('refuses the page without the token', async () => {
    const res = await fetch(serve.url.replace(/\?token=.*/, ''));
    expect(res.status).toBe(401);
    expect(await res.text()).toContain('?token=');
  });

  it('creates a project', async () => {
    await page.goto(serve.url);
    await page.waitForSelector('[data-test="empty-state"]');
    await page.fill('[data-test="new-project-name"]', 'e2e-project');
    await page.click('[data-test="create-project"]');
    await page.waitForSelector('[data-test="project-e2e-project"]');
    await shot('1-projects');
  });

  it('edits a preset and shows a pre-launch warning next to the field, and a schema error next to its field', async () => {
    await page.click('[data-test="nav-editor"]');
    await page.selectOption('[data-test="preset"]', 'collide-box');
    await setField('run.dt', '1e-6');
    await settledCheck();
    const warning = page.locator('.field:has(input[data-field="run.dt"]) [data-test="msg-warning"]').first();
    await expect.poll(() => warning.textContent()).toContain('cell residence time');
    await shot('2-case-editor-warning');
    await setField('grid.cells[1]', '-3');
    await settledCheck();
    const error = page.locator('.field:has(input[data-field="grid.cells[1]"]) [data-test="msg-error"]').first();
    await expect.poll(() => error.textContent()).toContain('got -3');
    expect(await page.locator('[data-test="to-launch"]').isDisabled()).toBe(true);
    expect(await page.locator('[data-test="json-view"]').inputValue()).toContain('0.000001');
    await shot('2-case-editor-error');
  });

  let firstRun = 0;
  it('launches a small case and shows live progress until it completes', async () => {
    await page.click('[data-test="nav-editor"]');
    await page.selectOption('[data-test="preset"]', 'collide-box');
    await page.click('[data-test="nav-launch"]');
    await page.waitForSelector('[data-test="gpu-0"]');
    await shot('3-launch');
    firstRun = await launchTiny(1500, 1);
    // progress seen before the end: a step between 0 and the last, or the run already done on a fast machine
    const seen = new Set<string>();
    let runningShot = false;
    const deadline = Date.now() + 120_000;
    while (Date.now() < deadline) {
      const status = (await page.locator('[data-test="live-status"]').textContent()) ?? '';
      const step = (await page.locator('[data-test="live-step"]').allTextContents()).join(' ');
      seen.add(`${status.trim()}|${step.trim()}`);
      const liveMap = await page.locator('[data-test="live-heatmap"] svg').count();
      if (status.includes('running') && liveMap > 0) seen.add('live-heatmap-while-running');
      if (!runningShot && liveMap > 0 && status.includes('running') && /step [1-9]\d* \/ 1500/.test(step)) {
        await shot('4-live-running');
        runningShot = true;
      }
      if (status.includes('completed') || status.includes('failed')) break;
      await page.waitForTimeout(150);
    }
    const reason = (await page.locator('.reason').allTextContents()).join(' ');
    expect((await page.locator('[data-test="live-status"]').textContent())?.trim(), `run ended: ${reason}`).toBe('completed');
    expect([...seen].some((s) => s.startsWith('running|step') && !s.endsWith('step 0 / 1500'))).toBe(true);
    expect(seen.has('live-heatmap-while-running')).toBe(true);
    await page.waitForSelector('[data-test="live-heatmap"] svg');
    await shot('5-live-completed');
  });

  it('opens the finished run with its heatmap, phase table and velocity distribution, and exports the HTML report', async () => {
    await page.click('[data-test="open-detail"]');
    await page.waitForSelector('[data-test="heatmap"] svg');
    expect(await page.locator('[data-test="phase-table"] tbody tr').count()).toBeGreaterThan(3);
    await page.selectOption('[data-test="slice-field"]', 'T');
    await expect.poll(() => page.locator('[data-test="heatmap"]').textContent()).toContain('temperature');
    await page.fill('[data-test="new-tag"]', 'baseline');
    await page.press('[data-test="new-tag"]', 'Enter');
    await expect.poll(() => page.locator('[data-test="tag"]').allTextContents()).toEqual(['baseline ×']);
    // the velocity distribution against Maxwell-Boltzmann: two charts (x velocity, speed)
    await expect.poll(() => page.locator('[data-test="velocity"]').textContent()).toMatch(/sampled.*Maxwell-Boltzmann/s);
    await shot('6-run-detail');
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-test="export-html"]')]);
    expect(download.suggestedFilename()).toBe(`run-${firstRun}-profile.html`);
    const saved = join(SHOTS, download.suggestedFilename());
    await download.saveAs(saved);
    const html = readFileSync(saved, 'utf8');
    expect(html).toMatch(/^<!doctype html>/i);
    expect(html).toContain('collide-box');
    expect(html).toContain('<svg');
  });

  it('compares two runs: the seed is the only case difference, and the field difference map shows', async () => {
    const second = await launchTiny(300, 2);
    await page.waitForFunction(() => document.querySelector('[data-test="live-status"]')?.textContent?.includes('completed'), undefined, { timeout: 120_000 });
    await page.click('[data-test="nav-compare"]');
    await page.click(`[data-test="pick-${firstRun}"]`);
    await page.click(`[data-test="pick-${second}"]`);
    await page.click('[data-test="compare"]');
    await page.waitForSelector('[data-test="case-differences"]');
    const diffs = (await page.locator('[data-test="case-differences"]').textContent()) ?? '';
    expect(diffs).toContain('run.seed');
    expect(diffs).toContain('run.steps');
    expect(diffs).not.toContain('grid.cells');
    await page.waitForSelector('[data-test="heatmap"] svg');
    await shot('7-compare');
  });

  it('launches on two ranks with a block decomposition and a rebalancing threshold, shows the per-rank particles and how the run was balanced', async () => {
    const id = await launchTiny(300, 3, { ranks: 2, decomposition: 'block', rebalanceAt: 15 });
    await page.waitForFunction(() => document.querySelector('[data-test="live-status"]')?.textContent?.includes('completed'), undefined, { timeout: 120_000 });
    await page.waitForSelector('[data-test="rank-particles"] svg');
    expect(await page.textContent('.ranks')).toContain('2 ranks');
    await shot('7b-live-two-ranks');
    await page.click('[data-test="open-detail"]');
    await page.waitForSelector('[data-test="phase-table"]');
    expect(await page.textContent('h1')).toContain(`Run ${id}`);
    // the run detail says how the run was balanced: the decomposition and the threshold chosen at launch
    expect(await page.textContent('[data-test="balance-note"]')).toMatch(/Balance: block \(--decomposition block\); .*rebalanced when UN > 15 % .*\(--rebalance 15; .*re-splits?.* s of a rank's loop spent balancing/s);
  });

  it('shows the scaling view: an empty state, then a study recorded by dsmc study with its table, model and charts', async () => {
    await page.click('[data-test="nav-scaling"]');
    await page.waitForSelector('[data-test="empty-state"]');
    await shot('8-scaling-empty');
    await dsmc(serve.dataDir, ['study', 'strong', 'collide-box', '--gpus', '1,2', '--set', 'grid.cells=[6,6,6]',
      '--set', 'run.steps=200', '--warmup', '0', '--name', 'e2e-study', '--project', 'e2e-project']);
    await page.click('[data-test="nav-projects"]');
    await page.click('[data-test="nav-scaling"]');
    await page.waitForSelector('[data-test="scaling-table"]');
    expect(await page.locator('[data-test="scaling-table"] tbody tr').count()).toBe(2);
    // one run per GPU count: no spread shown
    expect((await page.locator('[data-test="scaling-repeats"]').allTextContents()).map((t) => t.trim())).toEqual(['1', '1']);
    expect(await page.textContent('[data-test="scaling-fit"]')).toContain('T(n)');
    expect(await page.locator('.scaling .charts svg').count()).toBeGreaterThan(3);
    await shot('8-scaling-study');
  });

  it('lists the runs in the project and has no page errors', async () => {
    await page.click('[data-test="nav-projects"]');
    await page.waitForSelector(`[data-test="run-row-${firstRun}"]`);
    await shot('9-projects-with-runs');
    expect(session.pageErrors).toEqual([]);
  });
});
