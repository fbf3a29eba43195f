// End to end, issue 27 item 10, in a real browser against `dsmc serve`: the runs table has columns for tags, wall time
// and the case parameters that differ across the project's runs, sorts by a column (twice: reversed), filters by
// words and path=value, and compares the runs ticked there; the compare picker is the same table and filters alike.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowserSession, type BrowserSession } from './browser-session.js';
import { dsmc, runCase } from './cli-runs.js';

let session: BrowserSession;
let page: Page;
const ids: number[] = [];

/** The run ids of the table's rows, top to bottom. */
const rowIds = (scope: string) => page.locator(`${scope} [data-test="runs-table"] tbody tr`).evaluateAll((rs) => rs.map((r) => Number(r.getAttribute('data-test')!.replace('run-row-', ''))));

describe('runs table of issue 27 (sort, filter, tags, wall time, differing parameters, compare), in a browser', () => {
  beforeAll(async () => {
    session = await openBrowserSession();
    page = session.page;
    // three tiny collide-box runs: seeds 3, 1, 2 and 20 or 30 steps; the second tagged "baseline"
    for (const [seed, steps] of [[3, 20], [1, 30], [2, 20]]) {
      ids.push(await runCase(session.serve.dataDir, 'collide-box', 'table', ['grid.cells=[8,8,4]', 'particles.perCell=10', `run.steps=${steps}`, `run.seed=${seed}`]));
    }
    await dsmc(session.serve.dataDir, ['tag', String(ids[1]), 'baseline']);
  }, 240_000);

  afterAll(async () => {
    await session?.close();
  });

  it('shows tags, wall time and the differing parameters, sorts by a column and filters', async () => {
    await page.goto(session.serve.url);
    await page.click('[data-test="project-table"] a');
    await page.waitForSelector('[data-test="runs-table"] tbody tr');
    const head = (await page.locator('[data-test="runs-table"] thead').textContent()) ?? '';
    for (const col of ['tags', 'wall time', 'run.seed', 'run.steps']) expect(head).toContain(col);
    expect(head).not.toContain('grid.cells'); // the same in every run: no column
    expect(await page.locator(`[data-test="run-row-${ids[1]}"] [data-test="run-tags"]`).textContent()).toBe('baseline');
    expect(await page.locator(`[data-test="run-row-${ids[0]}"] [data-test="run-wall"]`).textContent()).toMatch(/^\d+\.\d s$/);
    expect(await rowIds('.projects')).toEqual(ids);
    await page.click('[data-test="sort-param:run.seed"]');
    expect(await rowIds('.projects')).toEqual([ids[1], ids[2], ids[0]]);
    await page.click('[data-test="sort-param:run.seed"]');
    expect(await rowIds('.projects')).toEqual([ids[0], ids[2], ids[1]]);
    await page.fill('[data-test="runs-filter"]', 'run.steps=20');
    expect(await rowIds('.projects')).toEqual([ids[0], ids[2]]);
    await page.fill('[data-test="runs-filter"]', 'BASELINE');
    expect(await rowIds('.projects')).toEqual([ids[1]]);
    expect(await page.locator('[data-test="runs-shown"]').textContent()).toBe('1 of 3 runs');
    await page.fill('[data-test="runs-filter"]', '');
    await session.shot('runs-table-1-sorted');
  });

  it('compares the runs ticked in the table, and the compare picker filters the same way', async () => {
    expect(await page.locator('[data-test="compare-ticked"]').isDisabled()).toBe(true);
    await page.check(`[data-test="pick-${ids[0]}"]`);
    await page.check(`[data-test="pick-${ids[2]}"]`);
    await page.click('[data-test="compare-ticked"]');
    await page.waitForURL(/#\/compare$/);
    await page.waitForSelector('[data-test="compare-throughput"]');
    const header = (await page.locator('[data-test="compare-throughput"] thead').textContent()) ?? '';
    expect(header).toContain(`run ${ids[0]}`);
    expect(header).toContain(`run ${ids[2]}`);
    expect(header).not.toContain(`run ${ids[1]}`);
    await page.fill('.compare [data-test="runs-filter"]', 'run.seed=1');
    expect(await rowIds('.compare')).toEqual([ids[1]]);
    await session.shot('runs-table-2-compare');
    expect(session.pageErrors).toEqual([]);
  });
});
