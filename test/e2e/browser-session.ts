// What the end-to-end tests share: Debian's Chromium (headless, driven by playwright-core) on a page of a
// `dsmc serve` with a temporary data folder, page errors collected, and the form and screenshot helpers.
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startServe, type ServeProcess } from './serve-process.js';

export const CHROMIUM = '/usr/bin/chromium';
export const ROOT = resolve(import.meta.dirname, '..', '..');
/** Where screenshots and downloads go. */
export const SHOTS = join(ROOT, 'test-results', 'e2e');

/** A browser page on a running `dsmc serve`, and the helpers the tests drive it with. */
export interface BrowserSession {
  serve: ServeProcess;
  page: Page;
  /** Uncaught errors of the page so far (a test ends by checking there were none). */
  pageErrors: string[];
  /** Saves a screenshot of the page under test-results/e2e/. */
  shot(name: string): Promise<void>;
  /** Types a value into a field of the generated case form (committed with Enter: the form reacts on change). */
  setField(path: string, value: string): Promise<void>;
  /** Waits for the pre-launch check to settle (a result, not "checking") and returns its status text. */
  settledCheck(): Promise<string>;
  /** Opens the app's start page, then the case editor on a preset. */
  openEditor(preset: string): Promise<void>;
  close(): Promise<void>;
}

/** Starts `dsmc serve` and a headless Chromium page on it; throws naming the fix when Chromium is missing (no silent skip). */
export async function openBrowserSession(): Promise<BrowserSession> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install Debian's chromium (apt-get install chromium; .ci/run does)`);
  mkdirSync(SHOTS, { recursive: true });
  const serve = await startServe();
  let browser: Browser | undefined;
  try {
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
  } catch (e) {
    await serve.stop();
    throw e;
  }
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 }, acceptDownloads: true });
  const pageErrors: string[] = [];
  page.on('pageerror', (e) => pageErrors.push(e.message));
  const status = '[data-test="check-status"]';
  return {
    serve, page, pageErrors,
    async shot(name) {
      await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
    },
    async setField(path, value) {
      const input = page.locator(`input[data-field="${path}"]`);
      await input.fill(value);
      await input.press('Enter');
      await input.blur();
    },
    async settledCheck() {
      const settled = (sel: string) => {
        const t = document.querySelector(sel)?.textContent ?? '';
        return t !== '' && !t.includes('checking');
      };
      // the status says "checking" from an edit on (the store's scheduleCheck), so the next result is the edit's
      await page.waitForFunction(settled, status);
      return (await page.locator(status).textContent()) ?? '';
    },
    async openEditor(preset) {
      await page.goto(serve.url);
      await page.click('[data-test="nav-editor"]');
      await page.selectOption('[data-test="preset"]', preset);
    },
    async close() {
      await browser?.close();
      await serve.stop();
    },
  };
}
