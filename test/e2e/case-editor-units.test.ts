// End to end, issue 27 item 12, in a real browser against `dsmc serve`: the case editor prints units beside the
// inputs, lists the real pre-launch check's estimates in words with units and no exponent notation, takes a
// multi-line description, hides argon's rotation and vibration sub-forms and shows them once rotationalDof 2 is
// picked (stored as the number 2, so the check still passes). Screenshots: test-results/e2e/editor-units-*.png.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowserSession, type BrowserSession } from './browser-session.js';

let session: BrowserSession;
let page: Page;

/** The unit printed beside the input of `field` ('' when none). */
const unitOf = (field: string) => page.locator(`.field:has([data-field="${field}"]) [data-test="unit"]`).first().textContent();

describe('case editor units and sub-forms, in a browser against dsmc serve', () => {
  beforeAll(async () => {
    session = await openBrowserSession();
    page = session.page;
  }, 120_000);

  afterAll(async () => {
    await session?.close();
  });

  it('prints units beside the inputs and the estimates in words with units', async () => {
    await session.openEditor('collide-box');
    expect(await session.settledCheck()).toContain('ready');
    expect(await unitOf('run.dt')).toBe('s');
    expect(await unitOf('grid.cellSize[0]')).toBe('m');
    expect(await unitOf('initial.numberDensity')).toBe('m⁻³');
    expect(await unitOf('species[0].mass')).toBe('kg');
    const estimates = (await page.locator('[data-test="estimates"]').textContent()) ?? '';
    // collide-box: mean free path 1.88e-5 m, mean collision time 4.95e-8 s, 80,000 particles (its description)
    expect(estimates).toContain('mean free path18.8 µm');
    expect(estimates).toContain('mean collision time49.5 ns');
    expect(estimates).toContain('initial particles80,000 particles');
    expect(estimates).not.toMatch(/\de[+-]?\d/);
    await session.shot('editor-units-1-estimates');
  });

  it('takes a description of several lines', async () => {
    const area = page.locator('textarea[data-field="description"]');
    await area.fill('argon box\nshrink: --set grid.cells=[10,10,10]');
    await area.blur();
    await expect.poll(async () => JSON.parse(await page.locator('[data-test="json-view"]').inputValue()).description)
      .toBe('argon box\nshrink: --set grid.cells=[10,10,10]');
  });

  it('shows the rotation and vibration sub-forms only for a molecule', async () => {
    expect(await page.locator('fieldset[data-field="species[0].vibration"]').count()).toBe(0);
    expect(await page.locator('[data-field="species[0].rotationalRelaxation"]').count()).toBe(0);
    expect(await page.locator('fieldset[data-field="species[0]"] > [data-test="not-applicable"]').textContent()).toContain('rotationalDof 2');
    await page.selectOption('select[data-field="species[0].rotationalDof"]', '2');
    await page.waitForSelector('fieldset[data-field="species[0].vibration"]');
    expect(await page.locator('[data-field="species[0].rotationalRelaxation"]').count()).toBe(1);
    expect(await page.locator('[data-field="initial.rotationalTemperature"]').count()).toBe(1);
    expect(JSON.parse(await page.locator('[data-test="json-view"]').inputValue()).species[0].rotationalDof).toBe(2);
    expect(await session.settledCheck()).toContain('ready');
    await session.shot('editor-units-2-molecule');
    expect(session.pageErrors).toEqual([]);
  });
});
