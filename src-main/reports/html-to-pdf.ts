// Prints an HTML document to PDF with headless Chromium through playwright-core (Debian's chromium
// package; DSMC_CHROMIUM names another binary). The PDF is written to a temporary file and renamed.
import { existsSync } from 'node:fs';
import { checkOutputTarget, type OutputGuard } from './output-target.js';
import { writeViaTemp } from './write-atomic.js';

/** Default browser: Debian's chromium package. */
export const DEFAULT_CHROMIUM = '/usr/bin/chromium';

/** Flags for a headless browser that never reaches the network. */
const CHROMIUM_ARGS = ['--no-sandbox', '--headless', '--disable-gpu', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--no-first-run'];

/** The Chromium binary to use, or an error naming how to install it. */
export function chromiumPath(env: Record<string, string | undefined> = process.env): string {
  const path = env.DSMC_CHROMIUM || DEFAULT_CHROMIUM;
  if (!existsSync(path)) {
    throw new Error(`PDF export needs headless Chromium, and ${path} does not exist; install it with ` +
      '`apt-get install chromium` (Debian/Ubuntu), or set DSMC_CHROMIUM to a Chromium binary; ' +
      'or export --format html and print it from a browser');
  }
  return path;
}

/** Renders `html` (self-contained, no network) to an A4 PDF at `path`. */
export async function htmlToPdf(html: string, path: string, guard: OutputGuard = {}): Promise<void> {
  checkOutputTarget(path, guard);
  const executablePath = chromiumPath();
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage();
    await page.setContent(html, { waitUntil: 'load' });
    await writeViaTemp(path, async (tmp) => {
      await page.pdf({ path: tmp, format: 'A4', printBackground: true, margin: { top: '12mm', bottom: '12mm', left: '12mm', right: '12mm' } });
    }, guard);
  } finally {
    await browser.close();
  }
}
