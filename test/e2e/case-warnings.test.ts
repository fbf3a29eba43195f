// End to end, issue 27 item 1's leftover, in a real browser against `dsmc serve`: after "Add body" and a radius too
// small for the grid, the check's three "thinner than a cell" warnings (x, y, z) each appear once on the page (under
// the body in the bodies list), not three times (form, bodies list and pre-launch list), and the toolbar's count of
// warnings is the number of messages on the page. Screenshot: test-results/e2e/case-warnings.png.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowserSession, type BrowserSession } from './browser-session.js';

let session: BrowserSession;
let page: Page;

describe('case editor warnings shown once, in a browser against dsmc serve', () => {
  beforeAll(async () => {
    session = await openBrowserSession();
    page = session.page;
  }, 120_000);

  afterAll(async () => {
    await session?.close();
  });

  it('shows each warning about an added body once', async () => {
    await session.openEditor('collide-box');
    expect(await session.settledCheck()).toContain('ready');
    await page.click('[data-test="add-body"]');
    await page.waitForSelector('[data-test="body-row-0"]');
    await session.settledCheck();
    // a sphere 6 um across in 10 um cells: thinner than a cell along x, y and z
    await session.setField('bodies[0].shape.radius', '3e-6');
    const status = await session.settledCheck();
    await expect.poll(() => page.locator('[data-test="body-messages-0"] [data-test="msg-warning"]').count()).toBe(3);
    const texts = (await page.locator('[data-test="msg-warning"], [data-test="msg-error"]').allTextContents()).map((t) => t.trim());
    const thin = texts.filter((t) => t.includes('thinner than a cell'));
    expect(thin.length, texts.join('\n')).toBe(3);
    // every message once on the page (the pre-launch list prefixes its own with the path, so compare the message part)
    const bare = texts.map((t) => t.replace(/^(warning|error): ([\w.[\]]+: )?/, ''));
    expect(new Set(bare).size, texts.join('\n')).toBe(bare.length);
    expect(status).toBe(`ready, ${texts.length} warning(s)`);
    expect(await page.locator('[data-test="prelaunch-elsewhere"]').textContent()).toContain('bodies[0].shape (3)');
    await session.shot('case-warnings');
    expect(session.pageErrors).toEqual([]);
  }, 120_000);
});
